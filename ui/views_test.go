// The transcript rebuilt at a turn's start keeps what was shown about
// earlier turns.

package ui

import (
	"slices"
	"strings"
	"testing"

	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

// TestConversationKeepsErrorsOfFailedTurns: a turn that failed (or was
// stopped) before any reply ends on its FYI call, which the next turn
// removes; what was shown under it (the error, the retry notices) moves up
// under the last message still there instead of vanishing.
func TestConversationKeepsErrorsOfFailedTurns(t *testing.T) {
	fyi := func(id string) []sessions.Item {
		return []sessions.Item{
			{Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: id, Name: "FYI", Arguments: "{}"}}}},
			{Message: llm.Message{Role: "tool", ToolCallID: id, Content: "Date: today " + id}},
		}
	}
	first := sessions.Item{Message: llm.Message{Role: "user", Content: "first"}}
	second := sessions.Item{Message: llm.Message{Role: "user", Content: "second"}}
	items := append([]sessions.Item{first}, fyi("fyi1")...)
	a, _ := benchApp(t, items)
	a.root.add(kNote, "", "503 Service Unavailable: retried (1 of 4)")
	a.root.add(kError, "", "Error: 401 Unauthorized")
	// The second turn: the first FYI call is gone.
	next := append([]sessions.Item{first, second}, fyi("fyi2")...)
	a.handle(rlm.Conversation{Items: next})
	a.root.add(kError, "", "Error: 404 Not Found")
	// The third turn: the second FYI call is gone too.
	third := sessions.Item{Message: llm.Message{Role: "user", Content: "third"}}
	a.handle(rlm.Conversation{Items: []sessions.Item{first, second, third}})
	var got []string
	for _, b := range a.root.blocks {
		got = append(got, b.String())
	}
	want := []string{"first", "503 Service Unavailable: retried (1 of 4)", "Error: 401 Unauthorized",
		"second", "Error: 404 Not Found", "third"}
	if !slices.Equal(got, want) {
		t.Errorf("blocks:\n%q\nwant\n%q", got, want)
	}
}

// TestTrailingNewlinesDrawNoBlankLines: a tool result or a tool
// description that ends in a newline (FYI's does) is not followed by a
// blank line of its own on top of the one between messages.
func TestTrailingNewlinesDrawNoBlankLines(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
		llm.Message{Role: "user", Content: "hi"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("f1", "read_file", `{"path":"m"}`)}},
		llm.Message{Role: "tool", ToolCallID: "f1", Content: "Date: today\nModel: m\n"},
		llm.Message{Role: "assistant", Content: "Hello."},
	)}
	s := newScreenApp(t, 60, 20, be, nil)
	if got := s.draw(); !strings.Contains(got, "Model: m\n\nHello.") {
		t.Errorf("want one blank line between the result and the answer:\n%s", got)
	}
	text := toolsText([]llm.Tool{{Name: "rlm", Description: "Delegate.\n"}, {Name: "FYI", Description: "The date.\n"}})
	if want := "rlm\nDelegate.\n\nFYI\nThe date."; text != want {
		t.Errorf("/tools: got %q, want %q", text, want)
	}
}
