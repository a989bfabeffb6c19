package ui

import (
	"fmt"
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
func benchApp(b *testing.B, items []sessions.Item) (*App, tcell.SimulationScreen) {
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
// drawing its first frame (the overlay's estimates included).
func BenchmarkOpenHugeSession(b *testing.B) {
	items := hugeSession()
	b.SetBytes(int64(sessionBytes(items)))
	b.ResetTimer()
	for b.Loop() {
		a, scr := benchApp(b, items)
		a.main.Draw(scr)
	}
}

// BenchmarkStreamFrameHugeSession: one frame while a reply streams into a
// 20 MB session.
func BenchmarkStreamFrameHugeSession(b *testing.B) {
	a, scr := benchApp(b, hugeSession())
	a.main.Draw(scr)
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
	next := append(items[:len(items):len(items)], sessions.Item{Message: llm.Message{Role: "user", Content: "one more"}})
	b.ResetTimer()
	for b.Loop() {
		a.handle(rlm.Conversation{Items: next})
		a.main.Draw(scr)
	}
}
