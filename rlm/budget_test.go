package rlm

import (
	"fmt"
	"strings"
	"testing"

	"harness/llm"
	"harness/sessions"
)

// longConversation is n root turns: a question, the FYI call and its
// result, an answer.
func longConversation(n int) *sessions.File {
	f := &sessions.File{Local: sessions.Local{Repository: "/r"}}
	for i := range n {
		id := fmt.Sprintf("call_%d", i)
		f.Append(llm.Message{Role: "user", Content: fmt.Sprintf("question %d: %s", i, strings.Repeat("words ", 80))},
			llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: id, Name: FYITool, Arguments: "{}"}}},
			llm.Message{Role: "tool", ToolCallID: id, Content: "Date: …\nPrompt tokens: 1\nModel: m\n"},
			llm.Message{Role: "assistant", Content: strings.Repeat("an answer ", 60)})
	}
	return f
}

// BenchmarkBudget2000Turns is the cost of measuring the next request of a
// 2,000-turn session once its settled turns are counted: the memo is
// reused, only the last turn (which grows) is measured again.
func BenchmarkBudget2000Turns(b *testing.B) {
	r := newRig(&testing.T{})
	runner, _ := New(r.opts, longConversation(2000))
	a := runner.root
	tools := a.llmTools()
	a.size(tools) // the first measure: every turn once
	b.ResetTimer()
	for b.Loop() {
		a.fmu.Lock()
		a.file.Append(llm.Message{Role: "assistant", Content: "more"})
		a.size(tools)
		a.fmu.Unlock()
	}
}

// TestBudgetReusesSettledTurns: after a first measure, a new message only
// measures the last turn again.
func TestBudgetReusesSettledTurns(t *testing.T) {
	r := newRig(t)
	runner, err := New(r.opts, longConversation(50))
	if err != nil {
		t.Fatal(err)
	}
	a := runner.root
	tools := a.llmTools()
	first := a.size(tools)
	settled := &a.memo[10].sizes[0]
	a.file.Append(llm.Message{Role: "tool", ToolCallID: "x", Content: strings.Repeat("y", 3250)})
	second := a.size(tools)
	if &a.memo[10].sizes[0] != settled {
		t.Error("a settled turn was measured again")
	}
	if d := second.total - first.total; d < 1000 || d > 1020 {
		t.Errorf("the new message added %d tokens, want about 1,000", d)
	}
	if len(second.last) != 5 {
		t.Errorf("the last turn has %d measured messages, want 5", len(second.last))
	}
}

// BenchmarkBudget2000TurnsCold is the first measure of the same session,
// every turn encoded: what each request would cost without the memo.
func BenchmarkBudget2000TurnsCold(b *testing.B) {
	r := newRig(&testing.T{})
	runner, _ := New(r.opts, longConversation(2000))
	a := runner.root
	tools := a.llmTools()
	for b.Loop() {
		a.memo = nil
		a.size(tools)
	}
}
