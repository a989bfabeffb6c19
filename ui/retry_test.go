// Retry notices: the failed attempt's text replaced, a live countdown on a
// fake clock, Esc during the wait; notices and warnings.

package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/llm"
	"harness/llmtest"
	"harness/rlm"
)

func TestRetryCountdown(t *testing.T) {
	resume := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		root := rlm.Agent{Name: f.SessionName()}
		f.events.Emit(rlm.TextDelta{Agent: root, Text: "doomed partial words"})
		f.events.Emit(rlm.Retry{Agent: root, Attempt: 2, Max: 4, Delay: 3 * time.Second, Reason: "429 Too Many Requests"})
		<-resume
		reply(f, root, "", "The whole answer.")
	}}
	u := startUI(t, 110, 16, be, nil)
	clock := llmtest.NewClock()
	u.onUI(func() { u.app.retry.clock = clock })
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	s := u.waitText("429 Too Many Requests: retrying in 3 s (2 of 4) · Esc stops")
	if strings.Contains(s, "doomed") {
		t.Errorf("the failed attempt's text is still shown:\n%s", s)
	}
	wantColour(t, u, "429 Too Many Requests", testTheme.Warning)
	clock.Advance(time.Second)
	u.waitText("retrying in 2 s (2 of 4)")
	clock.Advance(1500 * time.Millisecond)
	u.waitText("retrying in 1 s (2 of 4)")
	clock.Advance(500 * time.Millisecond)
	u.waitText("429 Too Many Requests: retried (2 of 4)")
	close(resume)
	s = u.waitText("The whole answer.")
	if strings.Index(s, "retried (2 of 4)") > strings.Index(s, "The whole answer.") {
		t.Errorf("the new attempt is not below the notice:\n%s", s)
	}
}

func TestRetryStoppedByEsc(t *testing.T) {
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		sub := rlm.Agent{Name: "worker", Depth: 1, ID: "C1"}
		f.events.Emit(rlm.AgentStart{Agent: sub, Task: "t"})
		f.events.Emit(rlm.Retry{Agent: sub, Attempt: 1, Max: 4, Delay: 20 * time.Second, Reason: "503 Service Unavailable"})
		<-ctx.Done()
		f.events.Emit(rlm.AgentEnd{Agent: sub, Status: rlm.Stopped})
	}}
	u := startUI(t, 110, 16, be, nil)
	clock := llmtest.NewClock()
	u.onUI(func() { u.app.retry.clock = clock })
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("503 Service Unavailable: retrying in 20 s (1 of 4) · Esc stops")
	var note *retryNote
	u.onUI(func() { note = u.app.retry.notes[0] })
	u.key(tcell.KeyEscape, 0, 0)
	u.waitFor("the turn to end", func(s string) bool { return !strings.Contains(s, "working") })
	u.onUI(func() {
		if len(u.app.retry.notes) != 0 {
			t.Errorf("%d countdowns still running", len(u.app.retry.notes))
		}
		if got := note.b.String(); got != "503 Service Unavailable: stopped before retry 1 of 4" {
			t.Errorf("notice %q", got)
		}
	})
	if timers, _ := clock.Pending(); timers > 1 {
		t.Errorf("%d timers pending", timers)
	}
}

func TestNoticeAndWarning(t *testing.T) {
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		root := rlm.Agent{Name: f.SessionName()}
		f.add(root, llm.Message{Role: "assistant", Content: "a cut answ"})
		f.events.Emit(rlm.Notice{Agent: root, Message: "The reply was cut at the token limit."})
	}}
	u := startUI(t, 110, 16, be, nil)
	be.events.Emit(Warning{Message: "[endpoint] api_key_env names KEY, which is set nowhere"})
	u.waitText("⚠ [endpoint] api_key_env names KEY, which is set nowhere")
	wantColour(t, u, "api_key_env names", testTheme.Warning)
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("⚠ The reply was cut at the token limit.")
	wantColour(t, u, "The reply was cut", testTheme.Warning)
}

// TestRetryNoticeAfterItsWait: a retry whose wait is over was sent, even
// when the turn ends (the retry failed at once, say) or the next retry
// is announced before the countdown's last tick is drawn: the notice says
// "retried", not "stopped before retry".
func TestRetryNoticeAfterItsWait(t *testing.T) {
	root := rlm.Agent{Name: "s1"}
	for _, tc := range []struct {
		name string
		then []rlm.Event
	}{
		{"the turn fails", []rlm.Event{rlm.Error{Agent: root, Message: "cannot connect"}, rlm.TurnDone{Status: rlm.Failed}}},
		{"the turn fails before the wait is over here", []rlm.Event{rlm.Error{Agent: root, Message: "cannot connect"}, rlm.TurnDone{Status: rlm.Failed}}},
		{"another retry", []rlm.Event{rlm.Retry{Agent: root, Attempt: 3, Max: 4, Delay: time.Second, Reason: "connection refused"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
			s := newScreenApp(t, 100, 12, be, nil)
			clock := llmtest.NewClock()
			s.a.retry.clock = clock
			s.handle(rlm.AgentStart{Agent: root},
				rlm.Retry{Agent: root, Attempt: 2, Max: 4, Delay: 2 * time.Second, Reason: "connection refused"})
			// The wait ends; its last tick is posted but not yet run. (The
			// UI's countdown started when it got the event, a little after
			// the client's own wait began: a failure can come first.)
			if strings.Contains(tc.name, "before") {
				clock.Advance(1990 * time.Millisecond)
			} else {
				clock.Advance(2 * time.Second)
			}
			s.handle(tc.then...)
			got := s.draw()
			if !strings.Contains(got, "connection refused: retried (2 of 4)") || strings.Contains(got, "stopped before retry 2") {
				t.Errorf("the retry that was sent is not said to be:\n%s", got)
			}
		})
	}
}

// TestRetryNoticeStandsApart: a retry notice stands where the failed
// reply would have, a blank line under the result above it; the notices
// of further retries follow it line by line.
func TestRetryNoticeStandsApart(t *testing.T) {
	root := rlm.Agent{Name: "s1"}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 100, 12, be, nil)
	s.a.retry.clock = llmtest.NewClock()
	s.handle(rlm.AgentStart{Agent: root},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "user", Content: "hi"}},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("f1", "read_file", `{"path":"m"}`)}}},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "tool", ToolCallID: "f1", Content: "Model: m\n"}},
		rlm.Retry{Agent: root, Attempt: 1, Max: 4, Delay: time.Second, Reason: "503"},
		rlm.Retry{Agent: root, Attempt: 2, Max: 4, Delay: time.Second, Reason: "503"})
	if got := s.draw(); !strings.Contains(got, "Model: m\n\n503: retried (1 of 4)\n503: retrying in 1 s (2 of 4)") {
		t.Errorf("the notices are not set apart from the result:\n%s", got)
	}
	// An error ending the turn follows the notices; alone, it stands apart.
	s.handle(rlm.Error{Agent: root, Message: "gave up"}, rlm.TurnDone{Status: rlm.Failed})
	if got := s.draw(); !strings.Contains(got, "(2 of 4)\nError: gave up") {
		t.Errorf("the error is not under the notices:\n%s", got)
	}
	s.handle(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "tool", ToolCallID: "f2", Content: "Model: m"}},
		rlm.Error{Agent: root, Message: "401"})
	if got := s.draw(); !strings.Contains(got, "Model: m\n\nError: 401") {
		t.Errorf("an error under a result is not set apart from it:\n%s", got)
	}
}
