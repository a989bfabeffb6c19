// The list tool: directory entries with sizes and times.

package rlm

import (
	"context"
	_ "embed"
	"encoding/json"
)

// ListTool is the name of the directory-listing tool.
const ListTool = "list"

//go:embed tool_list.md
var listDescription string

func listTool(roots []string) tool {
	return tool{
		name:        ListTool,
		description: listDescription,
		params: withRoot([]param{
			{name: "path", typ: "string", desc: `Directory relative to the root; default ".".`},
			{name: "recursive", typ: "boolean", desc: "List every entry below path, not only the top level."},
			{name: "include", typ: "string", desc: `Base-name glob of entries to show, e.g. "*.go"; default all.`},
		}, roots),
		run: func(ctx context.Context, a *agent, args map[string]json.RawMessage) (string, Status) {
			root, err := a.root(str(args, "root"))
			if err != nil {
				return err.Error(), Failed
			}
			out, err := a.r.opts.Files.List(ctx, root, ListArgs{
				Path: str(args, "path"), Recursive: boolean(args, "recursive"), Include: str(args, "include"),
			}, a.r.limit())
			return result(out, err)
		},
	}
}
