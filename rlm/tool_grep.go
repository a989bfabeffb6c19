// The grep tool: search file contents.

package rlm

import (
	"context"
	_ "embed"
	"encoding/json"
)

// GrepTool is the name of the search tool.
const GrepTool = "grep"

//go:embed tool_grep.md
var grepDescription string

func grepTool(roots []string) tool {
	return tool{
		name:        GrepTool,
		description: grepDescription,
		params: withRoot([]param{
			{name: "pattern", typ: "string", required: true, desc: "Extended regular expression (literal text with fixed)."},
			{name: "path", typ: "string", desc: `File or directory relative to the root; default ".".`},
			{name: "fixed", typ: "boolean", desc: "Match pattern as literal text."},
			{name: "ignore_case", typ: "boolean", desc: "Match case-insensitively."},
			{name: "context", typ: "integer", desc: "Lines of context around each match; default 0."},
			{name: "include", typ: "string", desc: `Base-name glob of files to search, e.g. "*.go"; default all.`},
		}, roots),
		run: func(ctx context.Context, a *agent, args map[string]json.RawMessage) (string, Status) {
			root, err := a.root(str(args, "root"))
			if err != nil {
				return err.Error(), Failed
			}
			out, err := a.r.opts.Files.Grep(ctx, root, GrepArgs{
				Pattern: str(args, "pattern"), Path: str(args, "path"), Fixed: boolean(args, "fixed"),
				IgnoreCase: boolean(args, "ignore_case"), Context: integer(args, "context"), Include: str(args, "include"),
			}, a.r.limit())
			return result(out, err)
		},
	}
}
