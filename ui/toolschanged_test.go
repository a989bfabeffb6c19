// /tools follows a subagent's tools when they change while it runs.

package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"harness/llm"
	"harness/rlm"
)

func TestToolsFollowToolsChanged(t *testing.T) {
	inSub, release := make(chan struct{}), make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		root := rlm.Agent{Name: f.SessionName()}
		call := llm.ToolCall{ID: "call1", Name: "rlm", Arguments: `{"task":"t","name":"mcpuser"}`}
		f.add(root, llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call}})
		sub := rlm.Agent{Name: "mcpuser", Depth: 1, ID: "call1"}
		repl := llm.Tool{Name: "repl", Description: "Run Starlark."}
		f.events.Emit(rlm.AgentStart{Agent: sub, Task: "t", Tools: []llm.Tool{repl}})
		f.events.Emit(rlm.ToolsChanged{Agent: sub, Tools: []llm.Tool{repl, {Name: "mcp__docs__search", Description: "Search the docs."}}})
		close(inSub)
		<-release
		f.events.Emit(rlm.AgentEnd{Agent: sub, Result: "ok"})
		f.add(root, llm.Message{Role: "tool", ToolCallID: "call1", Content: "ok"})
		reply(f, root, "", "all done")
	}}
	u := startUI(t, 80, 20, be, nil)
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	<-inSub
	// Keys act on what the last frame showed: wait for the frame that has
	// the subagent's new tools.
	u.waitFor("the subagent's new tools", func(string) bool {
		var ok bool
		u.app.tv.QueueUpdate(func() { ok = len(u.app.stack) == 1 && len(u.app.top().tools) == 2 })
		return ok
	})
	u.typeText("/tools")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("mcp__docs__search\nSearch the docs.")
	close(release)
	u.waitText("all done")
}

// TestToolsAtTheRootPointToTheSubagents: the root only delegates, so /tools
// there says where the REPL and MCP tools are.
func TestToolsAtTheRootPointToTheSubagents(t *testing.T) {
	u := startUI(t, 240, 30, nil, nil)
	u.typeText("/tools")
	u.key(tcell.KeyEnter, 0, 0)
	s := u.waitText("Subagents get their own tools")
	for _, want := range []string{"Delegate a task.", "mcp__<server>__<tool>", "while a subagent is on screen"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}
