// Retries, stalls and errors that need the person, seen from the agents:
// the events, what was saved and what was sent.

package rlm

import (
	"context"
	"strings"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
)

// retrying gives the rig a client with max_retries retries, a fake clock
// (returned) and a jitter of one half.
func (r *rig) retrying(max int, auto bool) *llmtest.Clock {
	clock := llmtest.NewClock()
	if auto {
		clock.AutoSleep()
	}
	ep := r.srv.Endpoint()
	ep.MaxRetries, ep.IdleTimeout = max, 300*time.Second
	r.cfg.Endpoint = ep
	r.opts.Client = llm.New(ep, "", llm.WithClock(clock), llm.WithRand(func() float64 { return 0.5 }))
	return clock
}

// TestRetryVoidsTheFailedAttempt: a stream cut mid-answer is retried; the
// Retry event comes between the attempts' deltas, and nothing of the
// failed attempt is saved or sent back.
func TestRetryVoidsTheFailedAttempt(t *testing.T) {
	r := newRig(t,
		llmtest.Reply{Content: "partial words", Split: 4, Fail: llmtest.FailCut, After: 3},
		llmtest.Text("the whole answer"),
		llmtest.Text("second turn"),
	)
	clock := r.retrying(4, true)
	res, err := r.turn(context.Background(), "go", nil)
	if err != nil || res.Text != "the whole answer" {
		t.Fatalf("%+v %v", res, err)
	}
	seq := []string{""}
	for _, e := range r.events {
		switch e := e.(type) {
		case TextDelta:
			seq[len(seq)-1] += e.Text
		case Retry:
			seq = append(seq, "retry", "")
			if e.Attempt != 1 || e.Max != 4 || e.Delay != 500*time.Millisecond || e.Reason != "the stream broke off" || e.Agent.Depth != 0 {
				t.Errorf("retry event %+v", e)
			}
		}
	}
	if got := strings.Join(seq, "|"); got != "partial |retry|the whole answer" {
		t.Errorf("deltas and retries: %s", got)
	}
	if got := clock.Sleeps(); len(got) != 1 || got[0] != 500*time.Millisecond {
		t.Errorf("waits %v", got)
	}
	saved := r.file(0, "")
	for _, m := range saved.Messages() {
		if strings.Contains(m.Content, "partial") {
			t.Errorf("the failed attempt was saved: %+v", m)
		}
	}
	if _, err := r.turn(context.Background(), "again", saved); err != nil {
		t.Fatal(err)
	}
	if n := len(r.srv.Chats()); n != 3 {
		t.Fatalf("%d requests", n)
	}
	if string(r.srv.Chats()[0].Body) != string(r.srv.Chats()[1].Body) {
		t.Errorf("the retry sent a different request")
	}
	for _, m := range r.chat(2).Messages {
		if strings.Contains(m.Content, "partial") {
			t.Errorf("the failed attempt was sent back: %+v", m)
		}
	}
}

// TestRetryInSubagent: a 429 in a subagent is waited out; its branch
// goes on instead of failing.
func TestRetryInSubagent(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"worker"}`),
		llmtest.Error(429, `{"error":{"message":"slow down"}}`).WithHeader("Retry-After", "4"),
		llmtest.Text("A done"),
		llmtest.Text("all done"),
	)
	clock := r.retrying(4, true)
	res, err := r.turn(context.Background(), "go", nil)
	if err != nil || res.Text != "all done" {
		t.Fatalf("%+v %v", res, err)
	}
	rs := eventsOf[Retry](r)
	if len(rs) != 1 || rs[0].Agent.Name != "worker" || rs[0].Agent.Depth != 1 || rs[0].Delay != 4*time.Second ||
		rs[0].Reason != "429 Too Many Requests: slow down" {
		t.Errorf("retries %+v", rs)
	}
	if got := r.file(0, "").Messages()[4].Content; got != "A done" {
		t.Errorf("rlm result %q", got)
	}
	if n, s := len(r.srv.Chats()), clock.Sleeps(); n != 4 || len(s) != 1 {
		t.Errorf("%d requests, waits %v", n, s)
	}
}

// TestRetriesExhaustedKeepPartial: when the last attempt fails too, its
// partial message is kept with the error, as without retries.
func TestRetriesExhaustedKeepPartial(t *testing.T) {
	r := newRig(t)
	r.srv.Respond(func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "half", Fail: llmtest.FailCut, After: 2}
	})
	r.retrying(2, true)
	res, err := r.turn(context.Background(), "go", nil)
	if err == nil || res.Status != Failed || !strings.HasPrefix(res.Text, "half\n[branch failed:") || !strings.Contains(res.Text, "gave up after 3 attempts") {
		t.Fatalf("%+v %v", res, err)
	}
	if n := len(eventsOf[Retry](r)); n != 2 {
		t.Errorf("%d retry events", n)
	}
	if msgs := r.file(0, ""); msgs.Messages()[len(msgs.Messages())-1].Content != "half" {
		t.Errorf("partial not kept")
	}
	if n := len(r.srv.Chats()); n != 3 {
		t.Errorf("%d requests", n)
	}
}

// TestStopDuringRetryWait: Esc while waiting stops the turn at once.
func TestStopDuringRetryWait(t *testing.T) {
	r := newRig(t, llmtest.Reply{Content: "void", Fail: llmtest.FailCut, After: 2}, llmtest.Text("unused"))
	clock := r.retrying(4, false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.onEvent = func(e Event) {
		if _, ok := e.(Retry); ok {
			clock.WaitSleeping(t)
			cancel()
		}
	}
	res, err := r.turn(ctx, "go", nil)
	if err != nil || res.Status != Stopped || res.Text != StoppedMarker {
		t.Fatalf("%+v %v", res, err)
	}
	for _, m := range r.file(0, "").Messages() {
		if strings.Contains(m.Content, "void") {
			t.Errorf("saved %+v", m)
		}
	}
	if n := len(r.srv.Chats()); n != 1 {
		t.Errorf("%d requests", n)
	}
	r.srv.Push()
}

const tooLong = `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`

func TestContextExceededAtTheRoot(t *testing.T) {
	for _, advice := range []string{"", "start a new session"} {
		r := newRig(t, llmtest.Error(400, tooLong))
		r.retrying(4, true)
		if advice != "" {
			r.opts.RoomAdvice = func(session string) string { return advice + " (not " + session + ")" }
		}
		res, err := r.turn(context.Background(), "go", nil)
		if err == nil || res.Status != Failed {
			t.Fatalf("%+v %v", res, err)
		}
		errs := eventsOf[Error](r)
		if len(errs) != 1 {
			t.Fatalf("errors %+v", errs)
		}
		want := DefaultRoomAdvice
		if advice != "" {
			want = advice + " (not " + r.opts.Session.Name() + ")"
		}
		msg := errs[0].Message
		for _, w := range []string{"the conversation no longer fits the model's context: it is about ", " tokens (the context overlay's count, estimated)",
			"400 Bad Request: context_length_exceeded: This model's maximum context length is 8192", "To make room, " + want} {
			if !strings.Contains(msg, w) {
				t.Errorf("error %q lacks %q", msg, w)
			}
		}
		if strings.Contains(msg, "tokens.. ") {
			t.Errorf("error %q: the server's sentence and the advice are joined by two full stops", msg)
		}
		if !strings.Contains(res.Text, "no longer fits") || len(r.srv.Chats()) != 1 {
			t.Errorf("result %q, %d requests", res.Text, len(r.srv.Chats()))
		}
	}
}

func TestContextExceededInSubagent(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"read everything","name":"reader"}`),
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "repl", Arguments: `{"code":"1"}`}}},
		llmtest.ErrorEvent(`{"error":{"code":500,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`),
		llmtest.Text("I will split it"),
	)
	r.retrying(4, true)
	res, err := r.turn(context.Background(), "go", nil)
	if err != nil || res.Text != "I will split it" {
		t.Fatalf("%+v %v", res, err)
	}
	got := r.file(0, "").Messages()[4].Content
	for _, w := range []string{"[branch failed: this subagent's conversation no longer fits the model's context: it is about ", "exceeds the available context size", "Split the task into smaller rlm calls"} {
		if !strings.Contains(got, w) {
			t.Errorf("rlm result %q lacks %q", got, w)
		}
	}
	if n := len(r.srv.Chats()); n != 4 {
		t.Errorf("%d requests (a context error is not retried)", n)
	}
}

// TestServerErrorsRedacted: a server error echoing a secret never shows it
// in events, results or files.
func TestServerErrorsRedacted(t *testing.T) {
	r := newRig(t,
		llmtest.Error(503, `{"error":{"message":"overloaded for key sk-SECRET"}}`),
		llmtest.Error(401, `{"error":{"message":"Incorrect API key provided: sk-SECRET"}}`),
	)
	r.retrying(4, true)
	res, _ := r.turn(context.Background(), "go", nil)
	if strings.Contains(res.Text, "sk-SECRET") {
		t.Errorf("result %q", res.Text)
	}
	for _, e := range r.events {
		var s string
		switch e := e.(type) {
		case Error:
			s = e.Message
		case Retry:
			s = e.Reason
		case AgentEnd:
			s = e.Result
		case TurnDone:
			s = e.Text
		default:
			continue
		}
		if strings.Contains(s, "sk-SECRET") || !strings.Contains(s, "[REDACTED]") {
			t.Errorf("%T %q", e, s)
		}
	}
}

// TestLengthNotice: a reply cut at the token limit is kept, a Notice says
// so, and a subagent's result ends with the marker.
func TestLengthNotice(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"a"}`),
		llmtest.Reply{Content: "a long answer that", Finish: "length"},
		llmtest.Reply{Content: "the root's answer", Finish: "length"},
	)
	r.cfg.Endpoint.Parameters = map[string]any{"max_tokens": int64(50)}
	res, err := r.turn(context.Background(), "go", nil)
	if err != nil || res.Text != "the root's answer" {
		t.Fatalf("%+v %v", res, err)
	}
	ns := eventsOf[Notice](r)
	if len(ns) != 2 || ns[0].Agent.Depth != 1 || ns[1].Agent.Depth != 0 || !strings.Contains(ns[0].Message, "[endpoint.parameters] max_tokens = 50") ||
		ns[1].FinishReason != "length" {
		t.Errorf("notices %+v", ns)
	}
	if got := r.file(0, "").Messages()[4].Content; got != "a long answer that\n[answer cut at the token limit ([endpoint.parameters] max_tokens = 50): the rest of it is missing]" {
		t.Errorf("rlm result %q", got)
	}
	if last := r.file(0, "").Messages(); last[len(last)-1].Content != "the root's answer" {
		t.Errorf("root reply not kept")
	}
}

// TestContentFilterNotice: a reply the server's content filter stopped is
// kept, a Notice says so (naming the finish reason), and a subagent's
// result ends with the marker, so its caller knows the answer is missing.
func TestContentFilterNotice(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"a"}`),
		llmtest.Reply{Content: "Here is how", Finish: "content_filter"},
		llmtest.Reply{Finish: "content_filter"},
	)
	res, err := r.turn(context.Background(), "go", nil)
	if err != nil || res.Status != Done || res.Text != "" {
		t.Fatalf("%+v %v", res, err)
	}
	ns := eventsOf[Notice](r)
	if len(ns) != 2 || ns[0].Agent.Depth != 1 || ns[1].Agent.Depth != 0 ||
		ns[0].FinishReason != "content_filter" || !strings.Contains(ns[1].Message, "content filter") {
		t.Errorf("notices %+v", ns)
	}
	if got := r.file(0, "").Messages()[4].Content; got != "Here is how\n"+filterMarker {
		t.Errorf("rlm result %q", got)
	}
}
