// The repl tool: run Starlark code in the subagent's REPL.

package rlm

import (
	"context"
	"encoding/json"
)

// REPLTool is the name of the subagent's REPL tool. Its description is
// [repl] tool_description, verbatim.
const REPLTool = "repl"

func replTool(description string) tool {
	return tool{
		name:        REPLTool,
		description: description,
		params: []param{
			{name: "code", typ: "string", required: true, desc: "Starlark code to run in this subagent's REPL."},
		},
		run: func(ctx context.Context, a *agent, args map[string]json.RawMessage) (string, Status) {
			if r, ok := a.repl.(failReporter); ok {
				out, failed := r.Run(ctx, str(args, "code"))
				if failed {
					return out, Failed
				}
				return out, Done
			}
			return a.repl.Exec(ctx, str(args, "code")), Done
		},
	}
}
