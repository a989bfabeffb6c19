package rlm

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
)

func TestRootTurn(t *testing.T) {
	r := newRig(t, llmtest.Text("hello there"))
	res, err := r.turn(context.Background(), "hi sk-SECRET", nil)
	if err != nil || res.Status != Done || res.Text != "hello there" {
		t.Fatalf("result %+v, %v", res, err)
	}
	body := r.chat(0)
	if got := body.ToolNames(); !reflect.DeepEqual(got, []string{"rlm", "FYI"}) {
		t.Errorf("root tools %v", got)
	}
	if got := llmtest.Roles(body.Messages); got != "system user assistant:FYI tool" {
		t.Errorf("request messages %s", got)
	}
	if body.Messages[0].Content != "be brief" || body.Messages[1].Content != "hi [REDACTED]" {
		t.Errorf("messages %+v", body.Messages[:2])
	}
	if fyi := body.Messages[3].Content; !strings.Contains(fyi, "2026-01-02") || !strings.Contains(fyi, "llmtest") {
		t.Errorf("FYI text %q", fyi)
	}
	f := r.file(0, "")
	if got := llmtest.Roles(f.Messages()); got != "user assistant:FYI tool assistant" {
		t.Errorf("saved %s", got)
	}
	if created := eventsOf[SessionReady](r); len(created) != 1 || created[0].Name != "20260102-030405" {
		t.Errorf("SessionReady events %+v", created)
	}
	if _, ok := r.events[0].(SessionReady); !ok {
		t.Errorf("first event %T, want SessionReady", r.events[0])
	}
	if s, ok := r.events[1].(AgentStart); !ok || s.Agent.Name != "20260102-030405" || s.Task != "hi [REDACTED]" {
		t.Errorf("second event %+v, want the root's AgentStart", r.events[1])
	}
	if calls := eventsOf[ToolCall](r); len(calls) != 1 || !calls[0].Synthetic {
		t.Errorf("ToolCall events %+v", calls)
	}
}

// TestDelegation: root → depth 1 → depth 2 (max_depth 2), checking tools,
// startup code, roots, files and results at each level.
func TestDelegation(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"do A","name":"alpha"}`),      // root
		llmtest.Call("rlm", `{"task":"do B","name":"beta"}`),       // depth 1
		llmtest.Call("read_file", `{"path":"x","root":"library"}`), // depth 2
		llmtest.Text("B done"),                                     // depth 2
		llmtest.Call("list", `{"path":"d","root":"store"}`),        // depth 1
		llmtest.Text("A done"),                                     // depth 1
		llmtest.Text("all done"),                                   // root
	)
	res, err := r.turn(context.Background(), "go", nil)
	if err != nil || res.Text != "all done" {
		t.Fatalf("%+v %v", res, err)
	}
	d1, d2 := r.chat(1), r.chat(2)
	if got := d1.ToolNames(); !reflect.DeepEqual(got, []string{"repl", "read_file", "apply_patch", "grep", "list", "rlm"}) {
		t.Errorf("depth-1 tools %v", got)
	}
	if got := d2.ToolNames(); !reflect.DeepEqual(got, []string{"repl", "read_file", "apply_patch", "grep", "list"}) {
		t.Errorf("depth-2 tools %v (rlm must not be offered at max_depth)", got)
	}
	if !strings.Contains(string(d1.Tools[1]), `"enum":["repository","store"]`) || strings.Contains(string(d1.Tools[1]), "library") {
		t.Errorf("depth-1 read_file schema %s", d1.Tools[1])
	}
	if !strings.Contains(string(d2.Tools[1]), `"enum":["repository","store","library"]`) || !strings.Contains(string(d2.Tools[2]), `"enum":["repository","store"]`) {
		t.Errorf("depth-2 schemas %s %s", d2.Tools[1], d2.Tools[2])
	}
	if string(d1.Tools[0]) == "" || !strings.Contains(string(d1.Tools[0]), `"description":"Run Starlark code."`) {
		t.Errorf("repl tool %s", d1.Tools[0])
	}
	if got := llmtest.Roles(d2.Messages); got != "system user assistant:repl tool" || d2.Messages[1].Content != "do B" {
		t.Errorf("depth-2 first request %s %q", got, d2.Messages[1].Content)
	}
	wantCodes := []string{"d1: FYI()\nhelp()\nstore_summary()", "d2: FYI()\nhelp()\nstore_summary()\nlibrary_summary()"}
	if !reflect.DeepEqual(r.codes, wantCodes) {
		t.Errorf("REPL codes %q", r.codes)
	}
	starts := eventsOf[AgentStart](r)[1:]
	if len(starts) != 2 || starts[0].Agent.Name != "alpha" || starts[1].Agent.Depth != 2 {
		t.Fatalf("starts %+v", starts)
	}
	id1, id2 := starts[0].Agent.ID, starts[1].Agent.ID
	f1, f2 := r.file(1, id1), r.file(2, id2)
	if f1.Local.Parent != sessions.RootParent || f2.Local.Parent != id1 || f2.Local.Depth != 2 {
		t.Errorf("locals %+v %+v", f1.Local, f2.Local)
	}
	if got := f2.Messages()[4].Content; got != "read library:x 0-0" {
		t.Errorf("depth-2 read_file result %q", got)
	}
	if got := f1.Messages(); got[4].Content != "B done" || got[6].Content != "list store:d false" {
		t.Errorf("depth-1 results %q %q", got[4].Content, got[6].Content)
	}
	root := r.file(0, "")
	if got := root.Messages()[4]; got.Role != "tool" || got.Content != "A done" || got.ToolCallID != id1 {
		t.Errorf("root rlm result %+v", got)
	}
	if len(r.srv.Chats()) != 7 {
		t.Errorf("%d requests", len(r.srv.Chats()))
	}
}

// TestStopEveryLevel cancels while the depth-2 agent streams: its partial
// text and the marker become the result at every level.
func TestStopEveryLevel(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"a"}`),
		llmtest.Reply{Content: "I found", ToolCalls: []llmtest.ToolCall{{Name: "rlm", Arguments: `{"task":"B","name":"b"}`}, {Name: "list", Arguments: `{}`}}},
		llmtest.Reply{Content: "partial answer", Split: 7, Fail: llmtest.FailStall, After: 3},
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen string
	r.onEvent = func(e Event) {
		if d, ok := e.(TextDelta); ok && d.Agent.Depth == 2 {
			seen += d.Text
			if seen == "partial answer" {
				cancel()
			}
		}
	}
	res, err := r.turn(ctx, "go", nil)
	want := "partial answer\n[stopped by user]"
	if err != nil || res.Status != Stopped || res.Text != want {
		t.Fatalf("result %+v %v", res, err)
	}
	starts := eventsOf[AgentStart](r)[1:]
	f2 := r.file(2, starts[1].Agent.ID)
	if last := f2.Messages()[len(f2.Messages())-1]; last.Content != "partial answer" {
		t.Errorf("depth-2 partial not saved: %+v", last)
	}
	f1 := r.file(1, starts[0].Agent.ID).Messages()
	if got := f1[len(f1)-2:]; got[0].Content != want || got[1].Content != NotRun {
		t.Errorf("depth-1 results %q %q", got[0].Content, got[1].Content)
	}
	root := r.file(0, "").Messages()
	if got := root[len(root)-1]; got.Role != "tool" || got.Content != want {
		t.Errorf("root result %+v", got)
	}
	ends := eventsOf[AgentEnd](r)
	if len(ends) != 3 || ends[2].Agent.Depth != 0 || ends[2].Status != Stopped || ends[0].Status != Stopped || ends[1].Result != want {
		t.Errorf("ends %+v", ends)
	}
	// Every result, the not-run list call's included, follows its call.
	calls := map[string]string{}
	for _, e := range r.events {
		switch e := e.(type) {
		case ToolCall:
			calls[e.ID] = e.Name
		case ToolResult:
			if calls[e.ID] != e.Name {
				t.Errorf("ToolResult %s (%s, %q) without a ToolCall before it", e.ID, e.Name, e.Content)
			}
		}
	}
}

func TestBranchFailed(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"a"}`),
		llmtest.Error(400, `{"error":{"message":"context too long"}}`),
		llmtest.Text("the branch failed, sorry"),
	)
	res, err := r.turn(context.Background(), "go", nil)
	if err != nil || res.Text != "the branch failed, sorry" {
		t.Fatalf("%+v %v", res, err)
	}
	root := r.file(0, "").Messages()
	got := root[4].Content
	if !strings.HasPrefix(got, "[branch failed: ") || !strings.Contains(got, "context too long") {
		t.Errorf("rlm result %q", got)
	}
	if errs := eventsOf[Error](r); len(errs) != 1 || errs[0].Agent.Depth != 1 {
		t.Errorf("errors %+v", errs)
	}
}

func TestRootFailure(t *testing.T) {
	r := newRig(t, llmtest.Reply{Content: "half", Fail: llmtest.FailCut, After: 2})
	res, err := r.turn(context.Background(), "go", nil)
	if err == nil || res.Status != Failed || !strings.HasPrefix(res.Text, "half\n[branch failed:") {
		t.Fatalf("%+v %v", res, err)
	}
	if last := r.file(0, "").Messages(); last[len(last)-1].Content != "half" {
		t.Errorf("partial reply not kept: %+v", last[len(last)-1])
	}
}

func TestFYIRemoval(t *testing.T) {
	r := newRig(t,
		llmtest.Reply{Content: "checking", ToolCalls: []llmtest.ToolCall{{Name: "FYI", Arguments: ""}, {Name: "rlm", Arguments: `{"task":"t","name":"n"}`}}},
		llmtest.Text("sub"),
		llmtest.Text("first"),
		llmtest.Text("second"),
	)
	if _, err := r.turn(context.Background(), "one", nil); err != nil {
		t.Fatal(err)
	}
	conv := r.file(0, "")
	if got := llmtest.Roles(conv.Messages()); got != "user assistant:FYI tool assistant:FYI:rlm tool tool assistant" {
		t.Fatalf("turn 1 %s", got)
	}
	if _, err := r.turn(context.Background(), "two", conv); err != nil {
		t.Fatal(err)
	}
	want := "user assistant:rlm tool assistant user assistant:FYI tool"
	if got := llmtest.Roles(r.chat(3).Messages[1:]); got != want {
		t.Errorf("turn 2 request %s, want %s", got, want)
	}
	if got := llmtest.Roles(r.file(0, "").Messages()); got != want+" assistant" {
		t.Errorf("turn 2 file %s", got)
	}
}

func TestBadCalls(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"a"}`),
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{
			{Name: "read_file", Arguments: `{"path":`},
			{Name: "read_file", Arguments: `{}`},
			{Name: "read_file", Arguments: `{"path":"a","file":"b"}`},
			{Name: "read_file", Arguments: `{"path":"a","start_line":"3"}`},
			{Name: "list", Arguments: `{"root":"library"}`},
			{Name: "glob", Arguments: `{}`},
			{Name: "bash", Arguments: `{}`},
			{Name: "repl", Arguments: `{"code":"print(1)"}`},
			{Name: "repl", Arguments: `{"code":"run([\"ls\"])"}`},
			{Name: "grep", Arguments: `{"pattern":"x"}`},
		}},
		llmtest.Text("sub done"),
		llmtest.Call("read_file", `{"path":"x"}`),
		llmtest.Call("rlm", `{"task":" ","name":"n"}`),
		llmtest.Text("root done"),
	)
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	id := eventsOf[AgentStart](r)[1].Agent.ID
	msgs := r.file(1, id).Messages()[4:14]
	wants := []string{
		"Invalid arguments for read_file: the arguments are not a JSON object",
		`Invalid arguments for read_file: missing required argument "path"; read_file takes path (string, required), start_line (integer), end_line (integer), root (string: repository, store).`,
		`Invalid arguments for read_file: unknown argument "file"`,
		`Invalid arguments for read_file: argument "start_line" must be a JSON integer, not "3"`,
		`Invalid arguments for list: argument "root" is "library"; it must be one of repository, store`,
		"Unknown tool: glob\nglob is a REPL function, not a tool: call it in code sent to the repl tool. Signature: glob(pattern, path=None, exclude=())\nYour tools are",
		"Unknown tool: bash\nYour tools are [\"repl\",\"read_file\",\"apply_patch\",\"grep\",\"list\",\"rlm\"].",
		"ran: print(1)",
		"approved=false err=denied: no one can approve operations in this session",
		"grep x: no matches",
	}
	for i, w := range wants {
		if !strings.HasPrefix(msgs[i].Content, w) {
			t.Errorf("result %d:\n%s\nwant prefix:\n%s", i, msgs[i].Content, w)
		}
	}
	// Front ends learn which calls failed from the events.
	var failed []bool
	for _, res := range eventsOf[ToolResult](r) {
		failed = append(failed, res.Failed)
	}
	// The subagent's start-up call, its ten calls (seven bad, a print, a
	// refused run() whose REPL cannot say it failed, a grep error), its rlm
	// call, the root's read_file and empty rlm call.
	wantFailed := []bool{false, true, true, true, true, true, true, true, false, false, true, false, true, true}
	if !reflect.DeepEqual(failed[1:], wantFailed) {
		t.Errorf("results failed: %v\nwant %v", failed[1:], wantFailed)
	}
	var printed string
	for _, o := range eventsOf[ToolOutput](r) {
		printed += o.Text
	}
	if printed != "printed twice" {
		t.Errorf("tool output %q", printed)
	}
	if ans := eventsOf[ApprovalAnswered](r); len(ans) != 1 || ans[0].Allowed || len(eventsOf[ApprovalRequested](r)) != 1 {
		t.Errorf("approval events %+v", ans)
	}
	root := r.file(0, "").Messages()
	if got := root[len(root)-4].Content; !strings.HasPrefix(got, "Unknown tool: read_file\nYour tools are [\"rlm\",\"FYI\"]") {
		t.Errorf("root read_file result %q", got)
	}
	if got := root[len(root)-2].Content; got != `Invalid arguments for rlm: argument "task" is empty; give the subagent a task and a short name.` {
		t.Errorf("empty task result %q", got)
	}
}

func TestRLMCallsRunInOrderAndCap(t *testing.T) {
	long := strings.Repeat("é", 3000)
	r := newRig(t,
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{
			{Name: "rlm", Arguments: `{"task":"first","name":"1"}`},
			{Name: "rlm", Arguments: `{"task":"second","name":"2"}`},
		}},
		llmtest.Text(long),
		llmtest.Text("short"),
		llmtest.Text("ok"),
	)
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if r.chat(1).Messages[1].Content != "first" || r.chat(2).Messages[1].Content != "second" {
		t.Error("rlm calls did not run in order")
	}
	root := r.file(0, "").Messages()
	capped := root[4].Content
	if len(capped) > 2000 || !strings.Contains(capped, "bytes omitted") || !strings.HasPrefix(capped, "éé") {
		t.Errorf("capped result (%d bytes) %q", len(capped), capped[len(capped)-80:])
	}
	if root[5].Content != "short" {
		t.Errorf("second result %q", root[5].Content)
	}
}

func TestResumeClosesDanglingCalls(t *testing.T) {
	conv := &sessions.File{Local: sessions.Local{Repository: "/r"}}
	conv.Append(llm.Message{Role: "user", Content: "one"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "A", Name: "rlm", Arguments: "{}"}, {ID: "B", Name: "rlm", Arguments: "{}"}}},
		llm.Message{Role: "tool", ToolCallID: "A", Content: "a"})
	conv.Items = append(conv.Items, sessions.Item{Hidden: true})
	got := closeDangling(conv.Items, func(llm.ToolCall) string { return NotRun })
	if len(got) != 5 || got[3].Message.ToolCallID != "B" || got[3].Message.Content != NotRun || !got[4].Hidden {
		t.Fatalf("closeDangling %+v", got)
	}
}

func TestStreamCoalesces(t *testing.T) {
	s := NewStream()
	a, b := Agent{Name: "a"}, Agent{Name: "b", Depth: 1}
	s.Emit(TextDelta{Agent: a, Text: "he"})
	s.Emit(TextDelta{Agent: a, Text: "llo"})
	s.Emit(TextDelta{Agent: b, Text: "x"})
	s.Emit(ToolOutput{Agent: b, ID: "1", Text: "p"})
	s.Emit(ToolOutput{Agent: b, ID: "1", Text: "q"})
	s.Emit(ToolResult{Agent: b, ID: "1", Content: "r"})
	s.Emit(ToolResult{Agent: b, ID: "1", Content: "r"})
	s.Emit(TextDelta{Agent: a, Text: "!"})
	s.Close()
	s.Emit(Error{Agent: a})
	var got []Event
	for {
		e, ok := s.Next(context.Background())
		if !ok {
			break
		}
		got = append(got, e)
	}
	want := []Event{TextDelta{a, "hello"}, TextDelta{b, "x"}, ToolOutput{b, "1", "pq"},
		ToolResult{b, "1", "", "r", false}, ToolResult{b, "1", "", "r", false}, TextDelta{a, "!"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := NewStream().Next(ctx); ok {
		t.Error("Next returned an event from an empty stream")
	}
	var nilStream *Stream
	nilStream.Emit(Error{})
}

func TestSaveFailureFailsTurn(t *testing.T) {
	r := newRig(t)
	if err := os.WriteFile(r.store.Dir, []byte("not a dir"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := r.turn(context.Background(), "go", nil)
	if err == nil || res.Status != Failed || errors.Is(err, context.Canceled) {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestHideTurns(t *testing.T) {
	r := newRig(t, llmtest.Text("one"), llmtest.Text("two"), llmtest.Text("three"))
	if err := (&Runner{}).Running(); err {
		t.Fatal("zero Runner running")
	}
	if _, err := r.turn(context.Background(), "first", nil); err != nil {
		t.Fatal(err)
	}
	// During the second turn's request, hide its turn (refused) and the
	// first one (allowed).
	var activeErr error
	inner := r.opts.Client
	r.opts.Client = hookClient{inner, func() {
		turns := sessions.Turns(r.runner.Conversation())
		activeErr = r.runner.SetHidden(len(turns)-1, true)
		if err := r.runner.SetHidden(0, true); err != nil {
			t.Errorf("hide a completed turn during a turn: %v", err)
		}
	}}
	if _, err := r.turn(context.Background(), "second", r.file(0, "")); err != nil {
		t.Fatal(err)
	}
	r.opts.Client = inner
	if activeErr == nil || !strings.Contains(activeErr.Error(), "active turn") {
		t.Errorf("hiding the active turn: %v", activeErr)
	}
	conv := r.file(0, "")
	if ts := sessions.Turns(conv.Items); len(ts) != 2 || !ts[0].Hidden || ts[1].Hidden {
		t.Fatalf("turns %+v", ts)
	}
	if _, err := r.turn(context.Background(), "third", conv); err != nil {
		t.Fatal(err)
	}
	if got := llmtest.Roles(r.chat(2).Messages); got != "system user assistant user assistant:FYI tool" {
		t.Errorf("request after hiding turn 0: %s", got)
	}
	cache := []llm.TurnCount{{Key: "k", Tokens: 7, Messages: []int{7}}}
	if err := r.runner.SetTurnTokenCache(cache); err != nil {
		t.Fatal(err)
	}
	if got := r.file(0, "").Local.TurnTokenCache; !reflect.DeepEqual(got, cache) {
		t.Errorf("cache %+v", got)
	}
	starts := eventsOf[AgentStart](r)
	if got := starts[len(starts)-1].Tools; len(got) != 2 || got[0].Name != "rlm" {
		t.Errorf("root AgentStart tools %+v", got)
	}
}

// hookClient calls before at the start of every request.
type hookClient struct {
	Streamer
	before func()
}

func (h hookClient) Stream(ctx context.Context, req llm.Request, fn func(llm.Delta)) (llm.Response, error) {
	h.before()
	return h.Streamer.Stream(ctx, req, fn)
}

func TestSubagentPrompt(t *testing.T) {
	r := newRig(t, llmtest.Call("rlm", `{"task":"t","name":"n"}`), llmtest.Text("sub"), llmtest.Text("root"))
	sp := "you are a subagent"
	r.cfg.RLM.SubagentPrompt = &sp
	empty := ""
	r.opts.System = &empty // --system-prompt ""
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if got := r.chat(0).Messages[0]; got.Role != "system" || got.Content != "" {
		t.Errorf("root system %+v", got)
	}
	if got := r.chat(1).Messages[0]; got.Role != "system" || got.Content != sp {
		t.Errorf("subagent system %+v", got)
	}
	busy := &Runner{}
	busy.running.Store(true)
	if _, err := busy.Turn(context.Background(), "x"); err == nil {
		t.Error("a second concurrent Turn was accepted")
	}
}

func TestStreamBoundsMerging(t *testing.T) {
	s := NewStream()
	a := Agent{Name: "a"}
	chunk := strings.Repeat("x", 1<<10)
	for range 200 {
		s.Emit(TextDelta{Agent: a, Text: chunk})
	}
	got := s.Drain()
	total := 0
	for _, e := range got {
		total += len(e.(TextDelta).Text)
	}
	if total != 200<<10 || len(got) < 2 || len(got) > 5 {
		t.Errorf("%d events, %d bytes", len(got), total)
	}
}
