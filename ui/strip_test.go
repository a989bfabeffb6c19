package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/llm"
	"harness/llmtest"
	"harness/rlm"
	"harness/sessions"
)

// parallelStart emits what the runner does when the root delegates to
// names at once ([rlm] parallel): the reply with every rlm call, each
// ToolCall, then each subagent's AgentStart and task. It returns the
// subagents.
func parallelStart(f *fakeBackend, names ...string) []rlm.Agent {
	root := rlm.Agent{Name: f.SessionName()}
	var calls []llm.ToolCall
	for _, n := range names {
		calls = append(calls, llm.ToolCall{ID: "call_" + n, Name: rlm.RLMTool, Arguments: fmt.Sprintf(`{"task":"look at %s","name":%q}`, n, n)})
	}
	f.add(root, llm.Message{Role: "assistant", ToolCalls: calls})
	for _, c := range calls {
		f.events.Emit(rlm.ToolCall{Agent: root, ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	var subs []rlm.Agent
	for _, n := range names {
		sub := rlm.Agent{Name: n, Depth: 1, ID: "call_" + n}
		f.events.Emit(rlm.AgentStart{Agent: sub, Task: "look at " + n})
		f.add(sub, llm.Message{Role: "user", Content: "look at " + n})
		subs = append(subs, sub)
	}
	return subs
}

// TestStripFollowsAndSwitches: four subagents at once get a row each
// (name, depth, state, time); the transcript follows the first, Ctrl+T
// and a click on a row switch it, and the others' text is kept, not
// shown, until followed. When one ends its row goes; the strip goes when
// one is left.
func TestStripFollowsAndSwitches(t *testing.T) {
	step := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		subs := parallelStart(f, "alpha", "beta", "gamma", "delta")
		f.events.Emit(rlm.TextDelta{Agent: subs[0], Text: "alpha writes"})
		f.events.Emit(rlm.ReasoningDelta{Agent: subs[1], Text: "beta thinks"})
		f.events.Emit(rlm.ToolCall{Agent: subs[2], ID: "g1", Name: rlm.REPLTool, Arguments: `{"code":"1"}`})
		f.events.Emit(rlm.Queued{Agent: subs[3], Waiting: true})
		<-step
		f.events.Emit(rlm.AgentEnd{Agent: subs[0], Result: "alpha done"})
		f.events.Emit(rlm.AgentEnd{Agent: subs[1], Result: "beta done"})
		<-step
		f.events.Emit(rlm.AgentEnd{Agent: subs[2], Result: "gamma done"})
		f.events.Emit(rlm.AgentEnd{Agent: subs[3], Result: "delta done"})
		reply(f, rlm.Agent{Name: f.SessionName()}, "", "all done")
	}}
	u := startUI(t, 90, 24, be, nil)
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	s := u.waitText("delta · depth 1 · queued")
	for _, want := range []string{
		"▸ alpha · depth 1 · streaming · 0 s",
		"  beta · depth 1 · thinking",
		"  gamma · depth 1 · running repl",
		" alpha │ test-model",
		"alpha writes",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "beta thinks") {
		t.Errorf("a subagent not followed is drawn:\n%s", s)
	}
	u.key(tcell.KeyCtrlT, 0, 0)
	s = u.waitText("▸ beta · depth 1")
	if !strings.Contains(s, "beta thinks") || strings.Contains(s, "alpha writes") || !strings.Contains(s, " beta │ test-model") {
		t.Errorf("after Ctrl+T, the transcript does not follow beta:\n%s", s)
	}
	_, y := cellOf(t, s, "delta · depth 1")
	u.scr.InjectMouse(3, y, tcell.Button1, 0)
	u.scr.InjectMouse(3, y, tcell.ButtonNone, 0)
	s = u.waitText("▸ delta · depth 1")
	if !strings.Contains(s, "look at delta") {
		t.Errorf("after a click on its row, the transcript does not follow delta:\n%s", s)
	}
	step <- struct{}{}
	s = u.waitFor("alpha's and beta's rows to go", func(s string) bool { return !strings.Contains(s, "beta · depth 1") })
	if !strings.Contains(s, "▸ delta · depth 1") || !strings.Contains(s, "  gamma · depth 1") || strings.Contains(s, "alpha · depth") {
		t.Errorf("the strip after two ended:\n%s", s)
	}
	step <- struct{}{}
	s = u.waitText("all done")
	if strings.Contains(s, "depth 1 ·") {
		t.Errorf("the strip stayed after the subagents ended:\n%s", s)
	}
}

// TestApprovalQueueOfSiblings: requests of two subagents queue at the one
// prompt, each naming its agent, the transcript following the one asked
// about; answering shows the next; Esc refuses every one still waiting.
func TestApprovalQueueOfSiblings(t *testing.T) {
	type answer struct {
		who string
		ok  bool
		err error
	}
	answers := make(chan answer, 4)
	step := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		subs := parallelStart(f, "alpha", "beta", "gamma")
		ap := f.ap.(rlm.AgentApprover)
		ask := func(sub rlm.Agent, exe string) {
			op := json.RawMessage(fmt.Sprintf(`{"operation":"run","executable":%q,"arguments":[],"working_directory":"/repository","sandbox":"none"}`, exe))
			ok, err := ap.ApproveFor(ctx, sub, "c_"+sub.Name, op)
			answers <- answer{sub.Name, ok, err}
		}
		f.events.Emit(rlm.TextDelta{Agent: subs[0], Text: "alpha writes"})
		f.events.Emit(rlm.TextDelta{Agent: subs[2], Text: "gamma writes"})
		go ask(subs[2], "/usr/bin/make")
		<-step
		go ask(subs[1], "/usr/bin/ls")
		<-ctx.Done()
	}}
	u := startUI(t, 100, 24, be, nil)
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	s := u.waitText("gamma asks: run  make")
	if !strings.Contains(s, "gamma writes") || strings.Contains(s, "alpha writes") || !strings.Contains(s, "gamma · depth 1 · waiting for approval") {
		t.Errorf("the transcript does not follow the agent asking:\n%s", s)
	}
	step <- struct{}{}
	s = u.waitText("(1 more waiting)")
	if !strings.Contains(s, "gamma asks: run  make") || !strings.Contains(s, "beta · depth 1 · waiting for approval") {
		t.Errorf("the queued request:\n%s", s)
	}
	u.key(tcell.KeyRune, 'y', 0)
	if a := <-answers; a.who != "gamma" || !a.ok {
		t.Errorf("first answer %+v", a)
	}
	s = u.waitText("beta asks: run  ls")
	if strings.Contains(s, "more waiting") || !strings.Contains(s, "look at beta") {
		t.Errorf("the second request's prompt does not follow beta:\n%s", s)
	}
	u.key(tcell.KeyEscape, 0, 0)
	select {
	case a := <-answers:
		if a.who != "beta" || a.ok || a.err == nil {
			t.Errorf("after Esc: %+v, want beta refused with the stop", a)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Esc left a queued request waiting")
	}
}

// TestStripDepthAndTime: a sibling that delegates is listed as delegating
// above its own subagent (depth 2), a command shows as such, the times
// count on the clock, and a depth-2 subagent's notes go under its own
// caller's rlm call when it ends, not under a sibling's.
func TestStripDepthAndTime(t *testing.T) {
	clock := llmtest.NewClock()
	step := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		subs := parallelStart(f, "alpha", "beta")
		<-step
		deep := rlm.Agent{Name: "beta1", Depth: 2, ID: "call_beta1"}
		call := llm.ToolCall{ID: deep.ID, Name: rlm.RLMTool, Arguments: `{"task":"dig","name":"beta1"}`}
		f.add(subs[1], llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call}})
		f.events.Emit(rlm.ToolCall{Agent: subs[1], ID: call.ID, Name: call.Name, Arguments: call.Arguments})
		f.events.Emit(rlm.AgentStart{Agent: deep, Task: "dig"})
		f.add(deep, llm.Message{Role: "user", Content: "dig"})
		f.events.Emit(rlm.CommandStarted{Agent: subs[0], ID: "a1", Argv: []string{"go", "test"}})
		<-step
		f.events.Emit(rlm.Notice{Agent: deep, Message: "beta1's notice"})
		f.events.Emit(rlm.AgentEnd{Agent: deep, Result: "dug"})
		f.add(subs[1], llm.Message{Role: "tool", ToolCallID: call.ID, Content: "dug"})
		<-ctx.Done()
	}}
	u := startUI(t, 100, 30, be, nil)
	u.onUI(func() { u.app.retry.clock = clock })
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("beta · depth 1 · starting")
	step <- struct{}{}
	u.waitText("beta1 · depth 2")
	clock.Advance(12 * time.Second)
	s := u.waitText("12 s")
	for _, want := range []string{"alpha · depth 1 · running a command · 12 s", "beta · depth 1 · delegating · 12 s", "beta1 · depth 2 · starting · 12 s"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if !strings.Contains(s, "▸ alpha · depth 1") {
		t.Errorf("the first not delegating is not followed:\n%s", s)
	}
	u.key(tcell.KeyCtrlT, 0, 0)
	u.waitText("▸ beta · depth 1")
	step <- struct{}{}
	s = u.waitFor("beta1 to end", func(s string) bool { return !strings.Contains(s, "beta1 · depth 2") })
	if !strings.Contains(s, "beta1: ⚠ beta1's notice") || !strings.Contains(s, "▸ beta · depth 1 · waiting for the model") {
		t.Errorf("beta1's notice is not under beta's call:\n%s", s)
	}
	u.key(tcell.KeyEscape, 0, 0)
}

// TestQueuedThenStoppedNotReviewable: a subagent stopped while it waited
// for its turn saved nothing, so its rlm call offers no review; its
// sibling that ran does.
func TestQueuedThenStoppedNotReviewable(t *testing.T) {
	be := loaderBackend{&fakeBackend{events: rlm.NewStream(), name: "s1"}, map[string][]sessions.Item{"call_ran": nil}}
	s := newScreenApp(t, 90, 20, be, func(o *Options) {})
	root := rlm.Agent{Name: "s1"}
	calls := []llm.ToolCall{
		{ID: "call_ran", Name: rlm.RLMTool, Arguments: `{"task":"a","name":"ran"}`},
		{ID: "call_waited", Name: rlm.RLMTool, Arguments: `{"task":"b","name":"waited"}`},
	}
	ran, waited := rlm.Agent{Name: "ran", Depth: 1, ID: "call_ran"}, rlm.Agent{Name: "waited", Depth: 1, ID: "call_waited"}
	s.handle(rlm.AgentStart{Agent: root, Task: "go"},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "user", Content: "go"}},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "assistant", ToolCalls: calls}},
		rlm.ToolCall{Agent: root, ID: calls[0].ID, Name: rlm.RLMTool, Arguments: calls[0].Arguments},
		rlm.ToolCall{Agent: root, ID: calls[1].ID, Name: rlm.RLMTool, Arguments: calls[1].Arguments},
		rlm.AgentStart{Agent: ran, Task: "a"},
		rlm.MessageAdded{Agent: ran, Message: llm.Message{Role: "user", Content: "a"}},
		rlm.AgentStart{Agent: waited, Task: "b"},
		rlm.Queued{Agent: waited, Waiting: true},
	)
	if screen := s.draw(); !strings.Contains(screen, "waited · depth 1 · queued") {
		t.Fatalf("the strip:\n%s", screen)
	}
	s.handle(rlm.Queued{Agent: waited, Waiting: false},
		rlm.AgentEnd{Agent: waited, Status: rlm.Stopped, Result: rlm.StoppedMarker},
		rlm.AgentEnd{Agent: ran, Status: rlm.Stopped, Result: rlm.StoppedMarker},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "tool", ToolCallID: calls[0].ID, Content: rlm.StoppedMarker}},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "tool", ToolCallID: calls[1].ID, Content: rlm.StoppedMarker}},
	)
	screen := s.draw()
	for _, row := range strings.Split(screen, "\n") {
		switch {
		case strings.Contains(row, "rlm ran") && !strings.Contains(row, "click to review"):
			t.Errorf("the subagent that ran offers no review: %q", row)
		case strings.Contains(row, "rlm waited") && strings.Contains(row, "click to review"):
			t.Errorf("the subagent that never ran offers a review: %q", row)
		}
	}
	if !strings.Contains(screen, "rlm waited") {
		t.Errorf("no rlm call line:\n%s", screen)
	}
}
