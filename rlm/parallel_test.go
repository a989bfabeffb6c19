package rlm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
)

// script answers every request of a tree of agents by its agent's task
// (the first user message): the root's prompt gets roots, each task its
// replies, one per request the agent makes, in order.
type script struct {
	mu      sync.Mutex
	replies map[string][]llmtest.Reply
	arrived chan string // each agent's task as its request arrives
}

func newScript(replies map[string][]llmtest.Reply) *script {
	return &script{replies: replies, arrived: make(chan string, 100)}
}

func (s *script) respond(req llmtest.Request) llmtest.Reply {
	var body llmtest.ChatBody
	json.Unmarshal(req.Body, &body)
	task := ""
	for _, m := range body.Messages {
		if m.Role == "user" {
			task = m.Content
			break
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.arrived <- task
	rs := s.replies[task]
	if len(rs) == 0 {
		return llmtest.Error(500, "no reply scripted for "+task)
	}
	s.replies[task] = rs[1:]
	return rs[0]
}

// calls is a reply delegating each task (named by itself) at once.
func calls(tasks ...string) llmtest.Reply {
	var cs []llmtest.ToolCall
	for _, t := range tasks {
		cs = append(cs, llmtest.ToolCall{Name: RLMTool, Arguments: fmt.Sprintf(`{"task":%q,"name":%q}`, t, t)})
	}
	return llmtest.Reply{ToolCalls: cs}
}

// gated is an answer sent only once gate is closed.
func gated(text string, gate chan struct{}) llmtest.Reply {
	return llmtest.Reply{Content: text, Gate: gate}
}

// active counts the subagent requests and REPL calls running at once: each
// needs its agent to hold a slot, so the most seen never passes [rlm]
// parallel.
type active struct {
	mu       sync.Mutex
	now, max int
}

func (a *active) enter() {
	a.mu.Lock()
	a.now++
	a.max = max(a.max, a.now)
	a.mu.Unlock()
}

func (a *active) leave() {
	a.mu.Lock()
	a.now--
	a.mu.Unlock()
}

func (a *active) most() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.max
}

type countingClient struct {
	Streamer
	act *active
}

func (c countingClient) Stream(ctx context.Context, req llm.Request, on func(llm.Delta)) (llm.Response, error) {
	if len(req.Tools) > 0 && req.Tools[0].Name == REPLTool { // a subagent's
		c.act.enter()
		defer c.act.leave()
	}
	return c.Streamer.Stream(ctx, req, on)
}

// parallelRig is a rig whose server answers by script, with [rlm]
// parallel n, counting what runs at once.
func parallelRig(t *testing.T, n, depth int, s *script) (*rig, *active) {
	r := newRig(t)
	r.srv.Respond(s.respond)
	r.cfg.RLM.Parallel, r.cfg.RLM.MaxDepth = n, depth
	act := &active{}
	r.opts.Client = countingClient{Streamer: r.opts.Client, act: act}
	newREPL := r.opts.NewREPL
	r.opts.NewREPL = func(env REPLEnv) (REPL, error) {
		inner, err := newREPL(env)
		return countingREPL{REPL: inner, act: act}, err
	}
	return r, act
}

type countingREPL struct {
	REPL
	act *active
}

func (c countingREPL) Exec(ctx context.Context, code string) string {
	c.act.enter()
	defer c.act.leave()
	return c.REPL.Exec(ctx, code)
}

// await receives the tasks of n requests, in arrival order.
func (s *script) await(t *testing.T, n int) []string {
	t.Helper()
	var got []string
	for range n {
		select {
		case task := <-s.arrived:
			got = append(got, task)
		case <-time.After(10 * time.Second):
			t.Fatalf("after %v, no further request arrived", got)
		}
	}
	return got
}

// toolResults returns the contents of the tool messages after the last
// assistant message with tool calls in request i.
func toolResults(r *rig, i int) []string {
	msgs := r.chat(i).Messages
	var out []string
	for _, m := range msgs {
		switch {
		case m.Role == "assistant" && len(m.ToolCalls) > 0:
			out = nil
		case m.Role == "tool":
			out = append(out, m.Content)
		}
	}
	return out
}

// fourGated scripts a root that delegates A, B, C and D in one reply and
// says "all done" after; each subagent answers "X found" once its gate is
// closed.
func fourGated() (map[string]chan struct{}, *script) {
	gates := map[string]chan struct{}{}
	replies := map[string][]llmtest.Reply{"go": {calls("A", "B", "C", "D"), llmtest.Text("all done")}}
	for _, task := range []string{"A", "B", "C", "D"} {
		gates[task] = make(chan struct{})
		replies[task] = []llmtest.Reply{gated(task+" found", gates[task])}
	}
	return gates, newScript(replies)
}

// runTurn runs a root turn on a goroutine of its own.
func runTurn(r *rig, ctx context.Context) <-chan Result {
	ch := make(chan Result, 1)
	go func() {
		res, _ := r.turn(ctx, "go", nil)
		ch <- res
	}()
	return ch
}

func awaitResult(t *testing.T, ch <-chan Result) Result {
	t.Helper()
	select {
	case res := <-ch:
		return res
	case <-time.After(20 * time.Second):
		t.Fatal("the turn did not end (deadlock?)")
		return Result{}
	}
}

// TestParallelAllAtOnceInCallOrder: with parallel 4, four calls run at
// once; answered in reverse, their results still come back in call order.
func TestParallelAllAtOnceInCallOrder(t *testing.T) {
	gates, s := fourGated()
	r, act := parallelRig(t, 4, 2, s)
	ch := runTurn(r, context.Background())
	s.await(t, 1) // the root
	got := s.await(t, 4)
	for _, task := range []string{"D", "C", "B", "A"} {
		close(gates[task])
	}
	res := awaitResult(t, ch)
	if res.Status != Done || res.Text != "all done" {
		t.Fatalf("result %+v", res)
	}
	if act.most() != 4 {
		t.Errorf("at most %d ran at once; want 4 (arrivals %v)", act.most(), got)
	}
	want := []string{"A found", "B found", "C found", "D found"}
	if res := toolResults(r, 5); fmt.Sprint(res) != fmt.Sprint(want) {
		t.Errorf("results sent %q, want %q", res, want)
	}
	saved := r.file(0, "").Messages()
	if got := llmtest.Roles(saved); got != "user assistant:FYI tool assistant:rlm:rlm:rlm:rlm tool tool tool tool assistant" {
		t.Errorf("saved %s", got)
	}
	for i, w := range want {
		if m := saved[4+i]; m.Content != w || m.ToolCallID != saved[3].ToolCalls[i].ID {
			t.Errorf("saved result %d: %+v", i, m)
		}
	}
	var started []string
	for _, e := range eventsOf[AgentStart](r) {
		started = append(started, e.Agent.Name)
	}
	if fmt.Sprint(started) != "[20260102-030405 A B C D]" { // the root, then its subagents
		t.Errorf("AgentStart in the order %v, want the calls' order", started)
	}
	if q := eventsOf[Queued](r); len(q) != 0 {
		t.Errorf("Queued events %+v with a free slot for each", q)
	}
	checkPaired(t, r)
}

// TestParallelTwoAtATime: with parallel 2, the third and fourth calls wait
// their turn, in call order, and are told they are queued.
func TestParallelTwoAtATime(t *testing.T) {
	gates, s := fourGated()
	r, act := parallelRig(t, 2, 2, s)
	ch := runTurn(r, context.Background())
	s.await(t, 1)
	first := s.await(t, 2)
	if fmt.Sprint(sorted(first)) != "[A B]" {
		t.Fatalf("first two requests %v, want A and B", first)
	}
	close(gates["B"])
	if got := s.await(t, 1); got[0] != "C" {
		t.Fatalf("after B, %v started; want C (call order)", got)
	}
	close(gates["A"])
	if got := s.await(t, 1); got[0] != "D" {
		t.Fatalf("after A, %v started; want D", got)
	}
	close(gates["C"])
	close(gates["D"])
	res := awaitResult(t, ch)
	if res.Status != Done || act.most() != 2 {
		t.Fatalf("result %+v, at most %d at once; want 2", res, act.most())
	}
	if got := toolResults(r, 5); fmt.Sprint(got) != "[A found B found C found D found]" {
		t.Errorf("results %q", got)
	}
	var waiting, ran []string // the waits start in any order, end in call order
	for _, q := range eventsOf[Queued](r) {
		if q.Waiting {
			waiting = append(waiting, q.Agent.Name)
		} else {
			ran = append(ran, q.Agent.Name)
		}
	}
	if fmt.Sprint(sorted(waiting), ran) != "[C D] [C D]" {
		t.Errorf("Queued events: waiting %v, then running %v", waiting, ran)
	}
	checkPaired(t, r)
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestParallelDepthThree: the global bound holds across depths, and a
// caller waiting on its subagents holds no slot, so a tree three levels
// deep finishes with parallel 1 and 2.
func TestParallelDepthThree(t *testing.T) {
	for _, n := range []int{1, 2} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			replies := map[string][]llmtest.Reply{"go": {calls("A", "B"), llmtest.Text("root done")}}
			for _, p := range []string{"A", "B"} {
				replies[p] = []llmtest.Reply{calls(p+"1", p+"2"), llmtest.Text(p + " done")}
				for _, q := range []string{p + "1", p + "2"} {
					replies[q] = []llmtest.Reply{calls(q + "x"), llmtest.Text(q + " done")}
					replies[q+"x"] = []llmtest.Reply{llmtest.Text(q + "x done")}
				}
			}
			s := newScript(replies)
			r, act := parallelRig(t, n, 3, s)
			res := awaitResult(t, runTurn(r, context.Background()))
			if res.Status != Done || res.Text != "root done" {
				t.Fatalf("result %+v", res)
			}
			if act.most() > n {
				t.Errorf("%d ran at once; the bound is %d", act.most(), n)
			}
			if ends := eventsOf[AgentEnd](r); len(ends) != 11 {
				t.Errorf("%d AgentEnd events, want 11 (10 subagents and the root)", len(ends))
			}
			root := r.file(0, "").Messages()
			for i, p := range []string{"A", "B"} {
				msgs := r.file(1, root[3].ToolCalls[i].ID).Messages()
				if last := msgs[len(msgs)-1]; last.Content != p+" done" {
					t.Errorf("%s ended with %+v", p, last)
				}
				if got := msgs[len(msgs)-2].Content; !strings.HasPrefix(got, p+"2 done") {
					t.Errorf("%s's second result %q", p, got)
				}
			}
			checkPaired(t, r)
		})
	}
}

// TestParallelFailingSibling: a sibling whose request fails returns
// [branch failed: …] while the others finish.
func TestParallelFailingSibling(t *testing.T) {
	s := newScript(map[string][]llmtest.Reply{
		"go": {calls("A", "B", "C"), llmtest.Text("all done")},
		"A":  {llmtest.Text("A found")},
		"B":  {llmtest.Error(400, `{"error":{"message":"bad request for B"}}`)},
		"C":  {llmtest.Text("C found")},
	})
	r, _ := parallelRig(t, 3, 2, s)
	res := awaitResult(t, runTurn(r, context.Background()))
	if res.Status != Done || res.Text != "all done" {
		t.Fatalf("result %+v", res)
	}
	got := toolResults(r, 4)
	if len(got) != 3 || got[0] != "A found" || got[2] != "C found" ||
		!strings.HasPrefix(got[1], "[branch failed: ") || !strings.Contains(got[1], "bad request for B") {
		t.Errorf("results %q", got)
	}
	checkPaired(t, r)
}

// TestParallelStopStopsAll: cancelling the turn stops the running
// siblings and the queued ones; every call gets a result and the turn
// ends stopped.
func TestParallelStopStopsAll(t *testing.T) {
	never := make(chan struct{})
	defer close(never)
	replies := map[string][]llmtest.Reply{"go": {calls("A", "B", "C", "D")}}
	for _, task := range []string{"A", "B", "C", "D"} {
		replies[task] = []llmtest.Reply{{Content: "partial " + task, Gate: never}}
	}
	s := newScript(replies)
	r, _ := parallelRig(t, 2, 2, s)
	ctx, cancel := context.WithCancel(context.Background())
	ch := runTurn(r, ctx)
	s.await(t, 3) // the root, then two subagents; the others are queued
	cancel()
	res := awaitResult(t, ch)
	if res.Status != Stopped || !strings.HasSuffix(res.Text, StoppedMarker) {
		t.Fatalf("result %+v", res)
	}
	saved := r.file(0, "").Messages()
	if got := llmtest.Roles(saved); got != "user assistant:FYI tool assistant:rlm:rlm:rlm:rlm tool tool tool tool" {
		t.Fatalf("saved %s", got)
	}
	for _, m := range saved[4:] {
		if !strings.HasSuffix(m.Content, StoppedMarker) {
			t.Errorf("result %q", m.Content)
		}
	}
	checkPaired(t, r)
}

// checkPaired checks that every AgentStart has one AgentEnd after it and
// every ToolCall one ToolResult.
func checkPaired(t *testing.T, r *rig) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	agents, results := map[string]int{}, map[string]int{}
	for _, e := range r.events {
		switch e := e.(type) {
		case AgentStart:
			agents[e.Agent.ID]++
		case AgentEnd:
			if agents[e.Agent.ID] != 1 {
				t.Errorf("AgentEnd of %q without its AgentStart", e.Agent.Name)
			}
			agents[e.Agent.ID]--
		case ToolCall:
			results[e.ID]++
		case ToolResult:
			if results[e.ID] != 1 {
				t.Errorf("ToolResult %s without its ToolCall", e.ID)
			}
			results[e.ID]--
		}
	}
	for id, n := range agents {
		if n != 0 {
			t.Errorf("agent %q: %d AgentStart without AgentEnd", id, n)
		}
	}
	for id, n := range results {
		if n != 0 {
			t.Errorf("call %s: %d ToolCall without ToolResult", id, n)
		}
	}
}

// TestSlots: tickets are granted in the order they were taken; dropping a
// queued one leaves the queue, dropping a granted one hands its slot on.
func TestSlots(t *testing.T) {
	s := newSlots(2)
	a, b, c, d := s.take(), s.take(), s.take(), s.take()
	state := func() string {
		var out []string
		for _, t := range []*ticket{a, b, c, d} {
			out = append(out, fmt.Sprint(t.ready()))
		}
		return strings.Join(out, " ")
	}
	steps := []struct {
		drop *ticket
		want string
	}{
		{nil, "true true false false"},
		{c, "true true false false"}, // c leaves the queue
		{a, "true true false true"},  // a's slot goes to d, not c
		{a, "true true false true"},  // a second drop does nothing
		{b, "true true false true"},
		{d, "true true false true"},
	}
	for i, st := range steps {
		st.drop.drop()
		if got := state(); got != st.want {
			t.Errorf("step %d: ready %s, want %s", i, got, st.want)
		}
	}
	if s.free != 2 || len(s.queue) != 0 {
		t.Errorf("free %d, queue %d: want 2 and 0", s.free, len(s.queue))
	}
	ctx, cancel := context.WithCancel(context.Background())
	s2 := newSlots(1)
	s2.take()
	w := s2.take()
	cancel()
	if err := w.wait(ctx); err == nil || len(s2.queue) != 0 {
		t.Errorf("a cancelled wait: %v, queue %d", err, len(s2.queue))
	}
}
