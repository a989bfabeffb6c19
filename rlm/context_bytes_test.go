package rlm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
)

// compactedRig runs three root turns of long pastes in a window that
// holds two, so that the third request compacts the first two turns.
func compactedRig(t *testing.T) (*rig, *Runner, []string) {
	t.Helper()
	r := newRig(t)
	r.srv.SetWindow(4500, llmtest.AdvertNone, llmtest.RefuseLlama)
	r.cfg.Endpoint.ContextWindow = 4500
	summaries(r.srv, func(llmtest.ChatBody) llmtest.Reply { return llmtest.Text("noted") })
	runner := r.session(nil)
	var pastes []string
	for i := range 3 {
		pastes = append(pastes, text(fmt.Sprintf("paste%d", i), 4000))
		if _, err := runner.Turn(context.Background(), pastes[i]); err != nil {
			t.Fatal(err)
		}
	}
	return r, runner, pastes
}

// TestRequestBytesAroundCompaction: the request after a compaction holds
// the system message, the entry (the summary and its acknowledgement) and
// then the kept turn's messages byte for byte as saved; the hidden turns
// are absent.
func TestRequestBytesAroundCompaction(t *testing.T) {
	r, _, pastes := compactedRig(t)
	var req llmtest.ChatBody
	var raw []byte
	for _, c := range r.srv.Chats() {
		b := c.MustChat(t)
		if len(b.Messages) > 1 && b.Messages[0].Content != summarySystem && strings.HasPrefix(b.Messages[1].Content, "[Summary of turns 1–2") {
			req, raw = b, c.Body
			break
		}
	}
	if raw == nil {
		t.Fatal("no request holds the compaction entry")
	}
	for _, p := range pastes[:2] {
		if bytes.Contains(raw, []byte(p)) {
			t.Error("a hidden turn's paste was sent")
		}
	}
	f := r.file(0, "")
	ts := sessions.Turns(f.Items)
	if len(ts) != 3 || !ts[0].Hidden || !ts[1].Hidden || ts[0].By != sessions.HiddenByCompaction {
		t.Fatalf("turns %+v", ts)
	}
	e := sessions.Entries(f.Items)
	if len(e) != 1 {
		t.Fatalf("%d entries", len(e))
	}
	want := [][]byte{}
	for _, m := range e[0].Messages() {
		b, _ := m.MarshalJSON()
		want = append(want, b)
	}
	for _, it := range f.Items[ts[2].Start : ts[2].End-1] { // the third turn up to its answer
		b, _ := it.Message.MarshalJSON()
		want = append(want, b)
	}
	got := req.RawMessages()
	if len(got) != len(want)+1 || got[0] == nil {
		t.Fatalf("request has %d messages, want the system message and %d", len(got), len(want))
	}
	for i, w := range want {
		if !bytes.Equal(got[i+1], w) {
			t.Errorf("message %d:\n got %s\nwant %s", i+1, clip(got[i+1]), clip(w))
		}
	}
	if req.Messages[2].Content != sessions.EntryAck {
		t.Errorf("the entry's acknowledgement is %q", req.Messages[2].Content)
	}
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// TestResumeAfterCompaction: a process that resumes the session builds the
// same next request as the one that compacted it.
func TestResumeAfterCompaction(t *testing.T) {
	r, runner, _ := compactedRig(t)
	ctx := context.Background()
	tools := runner.root.llmTools()
	before, _ := runner.root.fit(ctx, tools, false)
	resumed, err := New(r.opts, r.file(0, ""))
	if err != nil {
		t.Fatal(err)
	}
	after, _ := resumed.root.fit(ctx, tools, false)
	b1, _ := json.Marshal(before)
	b2, _ := json.Marshal(after)
	if !bytes.Equal(b1, b2) {
		t.Errorf("the resumed request differs:\n%s\n%s", clip(b1), clip(b2))
	}
	if !strings.Contains(string(b2), "[Summary of turns 1–2") {
		t.Error("the resumed request lacks the entry")
	}
	// Restoring a compacted turn brings the conversation back exactly.
	if err := resumed.SetHidden(0, false); err != nil {
		t.Fatal(err)
	}
	f := r.file(0, "")
	if len(sessions.Entries(f.Items)) != 0 {
		t.Error("restoring a turn the entry stands for left the entry")
	}
	for _, it := range f.Items {
		if it.Hidden {
			t.Errorf("restoring left %+v", it)
		}
	}
}

// TestStub is the exact stub of an elided output and the note of a cut one.
func TestStub(t *testing.T) {
	r := newRig(t)
	runner, err := New(r.opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := &agent{r: runner, depth: 1, id: "call_1"}
	got := a.stub(llm.ToolCall{ID: "c", Name: "read_file", Arguments: `{"path":"main.go"}`}, 12000, 3693)
	want := `[output left out of this request to fit the model's context window: the read_file call {"path":"main.go"} returned 12,000 bytes (about 3,693 tokens); call it again if you need it; a subagent you delegate to can read it in full in /library/call_1.json]`
	if got != want {
		t.Errorf("stub\n got %s\nwant %s", got, want)
	}
	a.depth = 2
	if got := a.stub(llm.ToolCall{Name: "grep", Arguments: `{"pattern":"x"}`}, 10, 3); strings.Contains(got, "/library") {
		t.Errorf("a depth-2 stub points at /library: %s", got)
	}
	cut := cutMiddle(strings.Repeat("a", 600)+strings.Repeat("b", 600), 300)
	if !strings.HasPrefix(cut, strings.Repeat("a", 200)+"\n[… 900 bytes cut here") || !strings.HasSuffix(cut, strings.Repeat("b", 100)) {
		t.Errorf("cut = %q", cut)
	}
}

// TestCompactNow: /compact summarises every settled turn with the focus
// given, whatever the window; /context lists what the next request holds.
func TestCompactNow(t *testing.T) {
	r := newRig(t)
	var asked string
	r.srv.Respond(func(req llmtest.Request) llmtest.Reply {
		b, _ := req.Chat()
		if b.Messages[0].Content == summarySystem {
			asked = b.Messages[1].Content
			return llmtest.Text("short summary")
		}
		return llmtest.Text("answer")
	})
	runner := r.session(nil)
	for _, p := range []string{"one", "two", "three"} {
		if _, err := runner.Turn(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := runner.Compact(context.Background(), "the numbers"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(asked, "Focus on: the numbers") || !strings.Contains(asked, "Person: one") || strings.Contains(asked, "Person: three") {
		t.Errorf("summary request: %q", asked)
	}
	f := r.file(0, "")
	e := sessions.Entries(f.Items)
	if len(e) != 1 || fmt.Sprint(e[0].Turns) != "[0 1]" || e[0].Summary != "short summary" {
		t.Fatalf("entries %+v", e)
	}
	report := runner.ContextReport()
	for _, want := range []string{"Context window: unknown", "summary of turns 1–2: ~", "turn 3: ", "Hidden: turn 1 (by compaction), turn 2 (by compaction)"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if err := runner.Compact(context.Background(), ""); err == nil {
		t.Error("a second /compact with one turn in requests compacted something")
	}
	r.await(func(evs []Event) bool {
		for _, e := range evs {
			if _, ok := e.(ContextCompacted); ok {
				return true
			}
		}
		return false
	})
	if len(eventsOf[ContextCompacted](r)) != 1 {
		t.Errorf("%d context events", len(eventsOf[ContextCompacted](r)))
	}
}

// TestSummaryInPieces: turns larger than the window are summarised in
// pieces, each request of which fits.
func TestSummaryInPieces(t *testing.T) {
	r := newRig(t)
	r.srv.SetWindow(3000, llmtest.AdvertNone, llmtest.RefuseLlama)
	r.cfg.Endpoint.ContextWindow = 3000
	count := summaries(r.srv, func(llmtest.ChatBody) llmtest.Reply { return llmtest.Text("unused") })
	runner, err := New(r.opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := runner.root.summarise(context.Background(), text("long", 40000), "")
	if err != nil || sum == "" {
		t.Fatalf("summary %q, %v", sum, err)
	}
	if ref := r.srv.Refused(); len(ref) > 0 {
		t.Errorf("summary requests of %v tokens were refused", ref)
	}
	if n := count(); n < 5 {
		t.Errorf("%d summary requests for 40,000 bytes in a 3,000-token window", n)
	}
	t.Logf("%d pieces; prompts %v", count(), r.srv.Prompts())
}

// TestCompactionModes: "hide" hides turns without asking for a summary,
// "off" sends every request whole, and a summary request that fails
// leaves the turns hidden without one, saying why.
func TestCompactionModes(t *testing.T) {
	for _, tc := range []struct {
		mode, summary string
		entries       int
		compacted     bool
		say           string
	}{
		{"hide", "ok", 0, true, "context: turn 1 hidden to fit the 4.5k window"},
		{"off", "ok", 0, false, ""},
		{"summary", "fail", 0, true, "(no summary: the summary request failed"},
	} {
		t.Run(tc.mode+" "+tc.summary, func(t *testing.T) {
			r := newRig(t)
			r.srv.SetWindow(8000, llmtest.AdvertNone, llmtest.RefuseLlama)
			r.cfg.Endpoint.ContextWindow = 4500 // harness believes less than the server takes
			r.cfg.Chat.Compaction = tc.mode
			asked := 0
			r.srv.Respond(func(req llmtest.Request) llmtest.Reply {
				b, _ := req.Chat()
				if b.Messages[0].Content == summarySystem {
					asked++
					return llmtest.Error(500, `{"error":{"message":"down"}}`)
				}
				return llmtest.Text("fine")
			})
			runner := r.session(nil)
			for i := range 3 {
				if _, err := runner.Turn(context.Background(), text(fmt.Sprintf("p%d", i), 4000)); err != nil {
					t.Fatal(err)
				}
			}
			r.settled(3)
			f := r.file(0, "")
			ts := sessions.Turns(f.Items)
			if ts[0].Hidden != tc.compacted || len(sessions.Entries(f.Items)) != tc.entries {
				t.Errorf("turns %+v, %d entries", ts, len(sessions.Entries(f.Items)))
			}
			if (asked > 0) != (tc.mode == "summary") {
				t.Errorf("%d summary requests in mode %s", asked, tc.mode)
			}
			evs := eventsOf[ContextCompacted](r)
			if tc.say == "" {
				if len(evs) != 0 {
					t.Errorf("events %+v", evs)
				}
				return
			}
			if len(evs) == 0 || !strings.Contains(evs[0].Message, tc.say) {
				t.Errorf("events %+v, want %q", evs, tc.say)
			}
		})
	}
}

// TestCompactStopped: /compact stopped while the summary is written hides
// nothing.
func TestCompactStopped(t *testing.T) {
	r := newRig(t)
	r.srv.Respond(func(req llmtest.Request) llmtest.Reply {
		b, _ := req.Chat()
		if b.Messages[0].Content == summarySystem {
			return llmtest.Reply{Content: "never", Fail: llmtest.FailStall, After: 1}
		}
		return llmtest.Text("answer")
	})
	runner := r.session(nil)
	for _, p := range []string{"one", "two"} {
		if _, err := runner.Turn(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	before := r.file(0, "").Items
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-r.srv.Stalled()
		cancel()
	}()
	if err := runner.Compact(ctx, ""); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("Compact = %v", err)
	}
	if after := r.file(0, "").Items; len(after) != len(before) {
		t.Errorf("a stopped /compact changed the file: %d items, was %d", len(after), len(before))
	}
}

// TestCompactYieldsToEdits: a turn the person hides while /compact's
// summary is being written stays as they left it: the compaction, which
// measured the conversation before, applies nothing and says so.
func TestCompactYieldsToEdits(t *testing.T) {
	r := newRig(t)
	var runner *Runner
	var hideErr error
	r.srv.Respond(func(req llmtest.Request) llmtest.Reply {
		b, _ := req.Chat()
		if b.Messages[0].Content == summarySystem {
			hideErr = runner.SetHidden(0, true)
			return llmtest.Text("short summary")
		}
		return llmtest.Text("answer")
	})
	runner = r.session(nil)
	for _, p := range []string{"one", "two", "three"} {
		if _, err := runner.Turn(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	err := runner.Compact(context.Background(), "")
	if hideErr != nil {
		t.Fatal(hideErr)
	}
	if err == nil || !strings.Contains(err.Error(), "changed while") {
		t.Errorf("Compact = %v, want the conversation changed", err)
	}
	f := r.file(0, "")
	if e := sessions.Entries(f.Items); len(e) != 0 {
		t.Errorf("entries %+v", e)
	}
	ts := sessions.Turns(f.Items)
	if !ts[0].Hidden || ts[0].By == sessions.HiddenByCompaction || ts[1].Hidden {
		t.Errorf("turns %+v: want turn 1 hidden by the person and turn 2 visible", ts)
	}
}
