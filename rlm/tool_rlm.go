// The rlm tool: delegate a task to a subagent.

package rlm

import (
	"context"
	_ "embed"
	"encoding/json"
)

// RLMTool is the name of the delegation tool.
const RLMTool = "rlm"

//go:embed tool_rlm.md
var rlmDescription string

func rlmTool() tool {
	return tool{
		name:        RLMTool,
		description: rlmDescription,
		params: []param{
			{name: "task", typ: "string", required: true, desc: "The subagent's first message, verbatim: everything it needs to know."},
			{name: "name", typ: "string", required: true, desc: "A short label for the subagent, shown to the user."},
		},
		run: func(ctx context.Context, a *agent, args map[string]json.RawMessage) (string, Status) {
			return a.delegate(ctx, str(args, "task"), str(args, "name"))
		},
	}
}
