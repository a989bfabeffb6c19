// The rlm tool: delegate a task to a subagent.

package rlm

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
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
		runCall: func(ctx context.Context, a *agent, id string, args map[string]json.RawMessage) (string, Status) {
			task, name := str(args, "task"), str(args, "name")
			for _, arg := range []struct{ name, value string }{{"task", task}, {"name", name}} {
				if strings.TrimSpace(arg.value) == "" {
					return fmt.Sprintf("Invalid arguments for %s: argument %q is empty; give the subagent a task and a short name.", RLMTool, arg.name), Failed
				}
			}
			return a.delegate(ctx, id, task, name)
		},
	}
}
