// The read_file tool: numbered lines of a text file.

package rlm

import (
	"context"
	_ "embed"
	"encoding/json"
)

// ReadFileTool is the name of the file-reading tool.
const ReadFileTool = "read_file"

//go:embed tool_read_file.md
var readFileDescription string

func readFileTool(roots []string) tool {
	return tool{
		name:        ReadFileTool,
		description: readFileDescription,
		params: withRoot([]param{
			{name: "path", typ: "string", required: true, desc: "File path relative to the root."},
			{name: "start_line", typ: "integer", desc: "First line to read (1-based, inclusive); default 1."},
			{name: "end_line", typ: "integer", desc: "Last line to read (inclusive); default the last line."},
		}, roots),
		run: func(ctx context.Context, a *agent, args map[string]json.RawMessage) (string, Status) {
			root, err := a.root(str(args, "root"))
			if err != nil {
				return err.Error(), Failed
			}
			out, err := a.r.opts.Files.ReadFile(ctx, root, ReadFileArgs{
				Path: str(args, "path"), StartLine: integer(args, "start_line"), EndLine: integer(args, "end_line"),
			}, a.r.limit())
			return result(out, err)
		},
	}
}
