// The FYI tool: the date, the prompt-token count and the model.

package rlm

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"harness/repl"
)

// FYITool is the name of the root's situational-awareness tool.
const FYITool = "FYI"

//go:embed tool_fyi.md
var fyiDescription string

func fyiTool() tool {
	return tool{
		name:        FYITool,
		description: fyiDescription,
		run: func(ctx context.Context, a *agent, _ map[string]json.RawMessage) (string, Status) {
			n, est := a.turnTokens()
			text := repl.FYIText(a.r.now(), n, est, a.r.opts.Config.Endpoint.Model)
			if w := a.window(); w > 0 {
				text += fmt.Sprintf("Context window: %d tokens\n", w)
			}
			return text, Done
		},
	}
}
