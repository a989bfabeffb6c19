package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"harness/config"
	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

// hugeSession is 10,000 messages of about 2 KB each (20 MB): turns of a
// user message, an assistant call, its result and an answer.
func hugeSession() []sessions.Item {
	para := strings.Repeat("lorem ipsum dolor sit amet, consectetur adipiscing elit ", 36) // ~2 KB
	var items []sessions.Item
	for i := 0; len(items) < 10000; i++ {
		id := fmt.Sprintf("call%d", i)
		items = append(items,
			sessions.Item{Message: llm.Message{Role: "user", Content: fmt.Sprintf("question %d: %s", i, para)}},
			sessions.Item{Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: id, Name: "rlm",
				Arguments: fmt.Sprintf(`{"task":%q,"name":"w%d"}`, para, i)}}}},
			sessions.Item{Message: llm.Message{Role: "tool", ToolCallID: id, Content: para}},
			sessions.Item{Message: llm.Message{Role: "assistant", Content: fmt.Sprintf("answer %d: %s", i, para)}},
		)
	}
	return items
}

func sessionBytes(items []sessions.Item) int {
	n := 0
	for _, it := range items {
		n += len(it.Message.Content)
		for _, c := range it.Message.ToolCalls {
			n += len(c.Arguments)
		}
	}
	return n
}

// benchApp builds the UI over items without running its event loop and
// draws on a 160×50 simulation screen.
func benchApp(b testing.TB, items []sessions.Item) (*App, tcell.SimulationScreen) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		b.Fatal(err)
	}
	scr.SetSize(160, 50)
	be := &fakeBackend{events: rlm.NewStream(), items: items}
	a := newApp(Options{Theme: testTheme, Model: "m", Backend: be, Events: be.events,
		Approvals: NewApprovals(), Level: NewLevel(config.PermNone)})
	a.main.SetRect(0, 0, 160, 50)
	return a, scr
}

// BenchmarkOpenHugeSession: building the transcript of a 20 MB session and
// drawing its first frame (the overlay's first build starts on its
// goroutine; its end is waited for outside the timer).
func BenchmarkOpenHugeSession(b *testing.B) {
	items := hugeSession()
	b.SetBytes(int64(sessionBytes(items)))
	for b.Loop() {
		a, scr := benchApp(b, items)
		a.main.Draw(scr)
		b.StopTimer()
		waitOverlay(a)
		b.StartTimer()
	}
}

// BenchmarkOverlayReadyHugeSession: from opening a 20 MB session to the
// frame that shows the overlay's counts (the first build on its goroutine
// included).
func BenchmarkOverlayReadyHugeSession(b *testing.B) {
	items := hugeSession()
	for b.Loop() {
		a, scr := benchApp(b, items)
		a.main.Draw(scr)
		waitOverlay(a)
		a.main.Draw(scr)
	}
}

// waitOverlay runs the functions the App posts, as its pump would, until
// the overlay's first build has been handed over.
func waitOverlay(a *App) {
	for a.top().building {
		<-a.wake
		a.postMu.Lock()
		fs := a.posted
		a.posted = nil
		a.postMu.Unlock()
		for _, f := range fs {
			f()
		}
	}
}

// BenchmarkStreamFrameHugeSession: one frame while a reply streams into a
// 20 MB session.
func BenchmarkStreamFrameHugeSession(b *testing.B) {
	a, scr := benchApp(b, hugeSession())
	a.main.Draw(scr)
	waitOverlay(a)
	root := rlm.Agent{}
	b.ResetTimer()
	for b.Loop() {
		a.handle(rlm.TextDelta{Agent: root, Text: "more words streaming in "})
		a.main.Draw(scr)
	}
}

// BenchmarkPageUpHugeSession: scrolling a screen up and drawing.
func BenchmarkPageUpHugeSession(b *testing.B) {
	a, scr := benchApp(b, hugeSession())
	a.main.Draw(scr)
	waitOverlay(a)
	b.ResetTimer()
	for b.Loop() {
		a.do(Action{Cmd: CmdPageUp})
		a.main.Draw(scr)
	}
}

// BenchmarkResizeHugeSession: a frame at a new width (every visible block
// re-wrapped, nothing else).
func BenchmarkResizeHugeSession(b *testing.B) {
	a, scr := benchApp(b, hugeSession())
	a.main.Draw(scr)
	waitOverlay(a)
	w := 160
	b.ResetTimer()
	for b.Loop() {
		w = 320 - w + 1 // alternate 160 / 161
		a.main.SetRect(0, 0, w, 50)
		a.main.Draw(scr)
	}
}

// BenchmarkTurnStartHugeSession: the Conversation event a root turn starts
// with (the whole conversation again, earlier FYI calls removed), then a
// frame.
func BenchmarkTurnStartHugeSession(b *testing.B) {
	items := hugeSession()
	a, scr := benchApp(b, items)
	a.main.Draw(scr)
	waitOverlay(a)
	next := append(items[:len(items):len(items)], sessions.Item{Message: llm.Message{Role: "user", Content: "one more"}})
	b.ResetTimer()
	for b.Loop() {
		a.handle(rlm.Conversation{Items: next})
		a.main.Draw(scr)
	}
}

// TestLargeSessionFirstFrame: a large conversation's first frame does not
// wait for the overlay's counts; the frame after the build shows the same
// turns and total a synchronous build gives.
func TestLargeSessionFirstFrame(t *testing.T) {
	items := hugeSession()[:2400] // ~1.2 MB
	a, scr := benchApp(t, items)
	a.main.Draw(scr)
	if !a.root.building || !strings.Contains(a.statusText(), "counting tokens") ||
		!a.main.ov.Data().Counting {
		t.Fatalf("first frame: building %v, status %q", a.root.building, a.statusText())
	}
	waitOverlay(a)
	a.main.Draw(scr)
	want := BuildOverlayTurns(items, nil, -1)
	got := a.main.ov.Data()
	if got.Counting || len(got.Turns) != len(want) {
		t.Fatalf("after the build: counting %v, %d turns, want %d", got.Counting, len(got.Turns), len(want))
	}
	for i := range want {
		if got.Turns[i].Tokens != want[i].Tokens || len(got.Turns[i].Rows) != len(want[i].Rows) {
			t.Fatalf("turn %d: %+v, want %+v", i, got.Turns[i], want[i])
		}
	}
	total, _ := OverlayTotal(want)
	if s := a.statusText(); !strings.Contains(s, fmt.Sprintf("~%d tokens", total)) {
		t.Fatalf("status %q, want ~%d tokens", s, total)
	}
}

// BenchmarkCountsArriveHugeSession: the frame after /tokenize counts for
// every turn of a 20 MB session arrive (recount's end).
func BenchmarkCountsArriveHugeSession(b *testing.B) {
	items := hugeSession()
	counts := tokenizedCounts(items, func(_ int, c *llm.TurnCount) {
		for i := range c.Messages {
			c.Messages[i]++
		}
	})
	for b.Loop() {
		b.StopTimer()
		a, scr := benchApp(b, items)
		a.main.Draw(scr)
		waitOverlay(a)
		b.StartTimer()
		a.counts = counts
		a.ovDirty = true
		a.main.Draw(scr)
	}
}

// TestBuilderNewCountsSameRows: when only the counts change, the rows
// (previews reused) are those a fresh build gives.
func TestBuilderNewCountsSameRows(t *testing.T) {
	items := hugeSession()[:40]
	items[1].Message.Extra = []llm.Field{{Key: "reasoning_content", Value: []byte(`"thinking it over"`)}}
	var b OverlayBuilder
	first := b.Build(items, nil, -1)
	var counts []llm.TurnCount
	for i := range first {
		c := llm.TurnCount{Key: b.memo[i].key}
		for range b.memo[i].msgs {
			c.Messages = append(c.Messages, 7+i)
		}
		c.Tokens = 7 * len(c.Messages)
		counts = append(counts, c)
	}
	got := b.Build(items, counts, -1)
	want := BuildOverlayTurns(items, counts, -1)
	for i := range want {
		if !slices.Equal(got[i].Rows, want[i].Rows) || got[i].Tokens != want[i].Tokens || got[i].Estimated {
			t.Fatalf("turn %d:\n%+v\nwant\n%+v", i, got[i], want[i])
		}
	}
}

// tokenizedCounts is a turn_token_cache for items as /tokenize would give
// it: each turn's estimate, not estimated, changed by edit (its index and
// count).
func tokenizedCounts(items []sessions.Item, edit func(i int, c *llm.TurnCount)) []llm.TurnCount {
	var counts []llm.TurnCount
	for i, t := range sessions.Turns(items) {
		var msgs []llm.Message
		for _, it := range items[t.Start:t.End] {
			msgs = append(msgs, it.Message)
		}
		c := llm.EstimateTurn(msgs)
		c.Estimated = false
		edit(i, &c)
		counts = append(counts, c)
	}
	return counts
}
