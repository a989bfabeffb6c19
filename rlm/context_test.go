package rlm

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"harness/jail"
	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
)

// session starts one Runner for several turns, collecting its events.
func (r *rig) session(conv *sessions.File) *Runner {
	r.t.Helper()
	s := NewStream()
	r.opts.Events = s
	runner, err := New(r.opts, conv)
	if err != nil {
		r.t.Fatal(err)
	}
	r.runner = runner
	r.seen = make(chan struct{}, 1)
	done := r.consume(s)
	r.t.Cleanup(func() {
		s.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			r.t.Error("event consumer did not finish")
		}
	})
	return runner
}

// await waits until the events the consumer has collected satisfy cond
// (a session's events arrive on its goroutine).
func (r *rig) await(cond func([]Event) bool) {
	r.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		evs := append([]Event(nil), r.events...)
		r.mu.Unlock()
		if cond(evs) {
			return
		}
		select {
		case <-r.seen:
		case <-timeout:
			r.t.Fatal("the awaited event never came")
		}
	}
}

// settled waits for the TurnDone of n turns.
func (r *rig) settled(n int) {
	r.t.Helper()
	r.await(func(evs []Event) bool {
		done := 0
		for _, e := range evs {
			if _, ok := e.(TurnDone); ok {
				done++
			}
		}
		return done >= n
	})
}

// text is n bytes of distinct words, tagged.
func text(tag string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s-%d ", tag, i)
	}
	return b.String()[:n]
}

// summaries answers summary requests, and others with answer(i).
func summaries(srv *llmtest.Server, answer func(body llmtest.ChatBody) llmtest.Reply) (count func() int) {
	var mu sync.Mutex
	n := 0
	srv.Respond(func(req llmtest.Request) llmtest.Reply {
		body, _ := req.Chat()
		if len(body.Messages) > 0 && body.Messages[0].Content == summarySystem {
			mu.Lock()
			n++
			mu.Unlock()
			return llmtest.Text("The person pasted long texts and asked about each; the agent answered.")
		}
		return answer(body)
	})
	return func() int { mu.Lock(); defer mu.Unlock(); return n }
}

func TestSubagentOutputsElidedToFit(t *testing.T) {
	for _, known := range []bool{true, false} {
		t.Run(map[bool]string{true: "window known", false: "window learnt from a refusal"}[known], func(t *testing.T) {
			subagentReads(t, known)
		})
	}
}

// subagentReads: a subagent reads eight outputs that add up to twice its
// window; with the window unknown, the first refusal teaches it.
func subagentReads(t *testing.T, known bool) {
	const window = 12288
	calls := []llmtest.Reply{llmtest.Call(RLMTool, `{"task":"survey the files","name":"surveyor"}`)}
	for i := range 8 {
		calls = append(calls, llmtest.Call(ReadFileTool, fmt.Sprintf(`{"path":"f%d.go"}`, i)))
	}
	calls = append(calls, llmtest.Text("surveyed"), llmtest.Text("ok"))
	r := newRig(t, calls...)
	r.srv.SetWindow(window, llmtest.AdvertNone, llmtest.RefuseLlama)
	if known {
		r.cfg.Endpoint.ContextWindow = window
	}
	r.cfg.REPL.OutputLimit = 100000
	outputs := map[string]string{}
	r.opts.Files.ReadFile = func(ctx context.Context, root *jail.Root, a ReadFileArgs, limit int) (string, error) {
		outputs[a.Path] = text(a.Path, 12000) // 3,000 tokens as the server counts: 8 of them are twice the window
		return outputs[a.Path], nil
	}
	res, err := r.turn(context.Background(), "survey", nil)
	if err != nil || res.Text != "ok" {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	if ref, want := r.srv.Refused(), map[bool]int{true: 0, false: 1}[known]; len(ref) != want {
		t.Errorf("refused requests of %v tokens, want %d", ref, want)
	}
	chats := r.srv.Chats()
	var sent []string
	for _, m := range chats[len(chats)-2].MustChat(t).Messages { // the subagent's last request
		sent = append(sent, m.Content)
	}
	raw := strings.Join(sent, "\n")
	if !strings.Contains(raw, outputs["f7.go"]) {
		t.Error("the last request lacks the newest output whole")
	}
	if strings.Contains(raw, outputs["f0.go"]) || !strings.Contains(raw, "left out of this request to fit the model's context window: the read_file call {\"path\":\"f0.go\"} returned 12,000 bytes") {
		t.Error("the oldest output was not replaced by its stub")
	}
	evs := eventsOf[ContextCompacted](r)
	if len(evs) == 0 || evs[0].Agent.Depth != 1 || evs[0].Elided == 0 || evs[0].After >= evs[0].Before {
		t.Fatalf("context events = %+v", evs)
	}
	t.Logf("subagent: %d elisions, first %d → %d tokens; prompts %v", len(evs), evs[0].Before, evs[0].After, r.srv.Prompts())
	var id string
	for _, e := range eventsOf[AgentStart](r) {
		if e.Agent.Depth == 1 {
			id = e.Agent.ID
		}
	}
	f := r.file(1, id)
	all := ""
	for _, m := range f.Messages() {
		all += m.Content
	}
	for p, out := range outputs {
		if !strings.Contains(all, out) {
			t.Errorf("the conversation file lacks the output of %s", p)
		}
	}
}

func TestRootTurnsCompactedToFit(t *testing.T) {
	const window = 4500
	r := newRig(t)
	r.srv.SetWindow(window, llmtest.AdvertNone, llmtest.RefuseLlama)
	r.cfg.Endpoint.ContextWindow = window
	turn := 0
	summaryCount := summaries(r.srv, func(llmtest.ChatBody) llmtest.Reply { return llmtest.Text(fmt.Sprintf("answer %d", turn)) })
	runner := r.session(nil)
	var pastes []string
	for i := range 10 {
		turn = i
		p := text(fmt.Sprintf("paste%d", i), 4000) // a third of what fits
		pastes = append(pastes, p)
		res, err := runner.Turn(context.Background(), p)
		if err != nil || res.Text != fmt.Sprintf("answer %d", i) {
			t.Fatalf("turn %d = %+v, %v", i, res, err)
		}
	}
	r.settled(10)
	if ref := r.srv.Refused(); len(ref) > 0 {
		t.Errorf("refused requests of %v tokens", ref)
	}
	for _, n := range r.srv.Prompts() {
		if n > window {
			t.Errorf("a request of %d tokens was sent to a %d window", n, window)
		}
	}
	if summaryCount() == 0 {
		t.Error("no summary was asked for")
	}
	f := r.file(0, "")
	var users []string
	for _, m := range f.Messages() {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if strings.Join(users, "|") != strings.Join(pastes, "|") {
		t.Errorf("root.json keeps %d user messages, not the ten pastes verbatim", len(users))
	}
	evs := eventsOf[ContextCompacted](r)
	if len(evs) == 0 || !evs[0].Summarised || len(evs[0].Turns) == 0 {
		t.Fatalf("context events = %+v", evs)
	}
	for _, e := range evs {
		t.Logf("%s (%d → %d tokens)", e.Message, e.Before, e.After)
	}
	if len(sessions.Entries(f.Items)) != 1 {
		t.Errorf("the file holds %d compaction entries, want one", len(sessions.Entries(f.Items)))
	}
}

func TestRefusalTeachesTheWindow(t *testing.T) {
	const window = 3000
	r := newRig(t)
	r.srv.SetWindow(window, llmtest.AdvertNone, llmtest.RefuseLlama)
	summaries(r.srv, func(llmtest.ChatBody) llmtest.Reply { return llmtest.Text("fine") })
	runner := r.session(nil)
	for i := range 4 {
		res, err := runner.Turn(context.Background(), text(fmt.Sprintf("p%d", i), 4000))
		if err != nil || res.Status != Done {
			t.Fatalf("turn %d = %+v, %v", i, res, err)
		}
	}
	r.settled(4)
	if ref := r.srv.Refused(); len(ref) != 1 {
		t.Errorf("refused %v, want exactly the one that taught the window", ref)
	}
	if n, src := runner.win.Tokens(); n != window || src != llm.WindowFromError {
		t.Errorf("window = %d from %q", n, src)
	}
	if len(eventsOf[ContextCompacted](r)) == 0 {
		t.Error("no compaction after the refusal")
	}
}

func TestRefusedTurnDoesNotStick(t *testing.T) {
	r := newRig(t)
	r.srv.SetWindow(3000, llmtest.AdvertNone, llmtest.RefuseBare)
	r.srv.Respond(func(llmtest.Request) llmtest.Reply { return llmtest.Text("fine") })
	runner := r.session(nil)
	if _, err := runner.Turn(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Turn(context.Background(), text("huge", 20000)); err == nil {
		t.Fatal("a turn over the window succeeded")
	}
	res, err := runner.Turn(context.Background(), "and now?")
	if err != nil || res.Text != "fine" {
		t.Fatalf("the turn after the refused one = %+v, %v", res, err)
	}
	p := r.srv.Prompts()
	if last := p[len(p)-1]; last >= p[1] || last > 3000 {
		t.Errorf("prompts %v: the refused turn still weighs on later requests", p)
	}
	f := r.file(0, "")
	ts := sessions.Turns(f.Items)
	if len(ts) != 3 || !ts[1].Hidden || ts[1].By != sessions.HiddenByRefusal {
		t.Errorf("turns = %+v", ts)
	}
	kept := false
	for _, m := range f.Messages() {
		kept = kept || m.Content == text("huge", 20000)
	}
	if !kept {
		t.Error("the file lost the refused turn's message")
	}
}
