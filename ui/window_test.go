package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

// TestStatusLineWindow: with a known window the status line shows the
// tokens in use against it, in the warning colour past compact_at.
func TestStatusLineWindow(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bytes int
		want  string
		warn  bool
	}{
		{"under the threshold", 28000, "~8.6k / 12k · 70 %", false},
		{"past it", 34000, "~10k / 12k · 85 %", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			be := &fakeBackend{events: rlm.NewStream(), name: "s"}
			s := newScreenApp(t, 100, 8, be, func(o *Options) {
				o.Window = func() int { return 12288 }
				o.CompactAt = 0.8
			})
			root := rlm.Agent{Name: "s"}
			items := []sessions.Item{{Message: llm.Message{Role: "user", Content: strings.Repeat("x", tc.bytes)}}}
			s.handle(rlm.SessionReady{Name: "s"}, rlm.AgentStart{Agent: root}, rlm.Conversation{Agent: root, Items: items})
			rows := strings.Split(s.draw(), "\n")
			line := rows[len(rows)-2]
			i := strings.Index(line, tc.want)
			if i < 0 {
				t.Fatalf("status line %q lacks %q", line, tc.want)
			}
			x := len([]rune(line[:i]))
			_, st, _ := s.scr.Get(x, s.h-1)
			fg, _, _ := st.Decompose()
			if warned := fg == tcell.GetColor(testTheme.Warning); warned != tc.warn {
				t.Errorf("%q in the warning colour: %v, want %v", tc.want, warned, tc.warn)
			}
		})
	}
}

// TestTranscriptContextLines: a compaction's dim line, and the entry
// itself where it stands in the conversation.
func TestTranscriptContextLines(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s"}
	s := newScreenApp(t, 100, 20, be, nil)
	root := rlm.Agent{Name: "s"}
	items := []sessions.Item{
		{Message: llm.Message{Role: "user", Content: "first question"}},
		{Message: llm.Message{Role: "assistant", Content: "first answer"}},
		{Hidden: true, By: sessions.HiddenByCompaction},
		{Hidden: true, Compaction: &sessions.Compaction{Turns: []int{0}, Summary: "They talked about the first thing."}},
		{Message: llm.Message{Role: "user", Content: "second question"}},
	}
	s.handle(rlm.SessionReady{Name: "s"}, rlm.AgentStart{Agent: root}, rlm.Conversation{Agent: root, Items: items},
		rlm.ContextCompacted{Agent: root, Window: 12288, Turns: []int{0}, Summarised: true,
			Message: "context: turn 1 summarised to fit the 12k window"})
	screen := s.draw()
	for _, want := range []string{"context: summary of turn 1, sent in their place", "They talked about the first thing.",
		"context: turn 1 summarised to fit the 12k window · overlay to restore", "first answer", "second question"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
}

// entryBackend is a fakeBackend with entries to hide.
type entryBackend struct {
	*fakeBackend
	off []bool
}

func (e *entryBackend) SetEntryOff(item int, off bool) error {
	e.off = append(e.off, off)
	e.mu.Lock()
	e.items = sessions.SetEntryOff(e.items, item, off)
	e.mu.Unlock()
	return nil
}

// TestOverlayEntryRows: a compaction entry is a row of the overlay after
// the turns it stands for, counted in the total; the turns say they were
// compacted; a click on the entry hides it from requests.
func TestOverlayEntryRows(t *testing.T) {
	items := []sessions.Item{
		{Message: llm.Message{Role: "user", Content: "first question"}},
		{Message: llm.Message{Role: "assistant", Content: "first answer"}},
		{Hidden: true, By: sessions.HiddenByCompaction},
		{Hidden: true, Compaction: &sessions.Compaction{Turns: []int{0}, Summary: "They talked about the first thing."}},
		{Message: llm.Message{Role: "user", Content: "second question"}},
		{Message: llm.Message{Role: "assistant", Content: "second answer"}},
	}
	be := &entryBackend{fakeBackend: &fakeBackend{events: rlm.NewStream(), name: "s", items: items}}
	s := newScreenApp(t, 120, 24, be, nil)
	s.a.main.ov.SetCollapsed(false)
	root := rlm.Agent{Name: "s"}
	s.handle(rlm.SessionReady{Name: "s"}, rlm.AgentStart{Agent: root}, rlm.Conversation{Agent: root, Items: items})
	screen := s.draw()
	for _, want := range []string{"Turn 1", "compacted", "Summary", "summary", "turn 1: They talked", "Turn 2"} {
		if !strings.Contains(screen, want) {
			t.Errorf("overlay lacks %q:\n%s", want, screen)
		}
	}
	data := s.a.main.ov.Data()
	if len(data.Turns) != 3 || data.Turns[1].Label != "Summary" || data.Turns[0].By != sessions.HiddenByCompaction {
		t.Fatalf("overlay turns %+v", data.Turns)
	}
	withEntry := s.a.tokens(s.a.root).N
	s.a.toggleHidden(data.Turns[1].Index)
	if len(be.off) != 1 || !be.off[0] {
		t.Fatalf("the click set off %v", be.off)
	}
	s.a.handle(rlm.Conversation{Agent: root, Items: be.Conversation()})
	s.draw()
	if n := s.a.tokens(s.a.root).N; n >= withEntry {
		t.Errorf("hiding the entry left the total at %d (was %d)", n, withEntry)
	}
}

// TestEntryClickWithoutEntryHider: a backend that cannot leave summaries
// out says so when its Summary row is clicked, and no turn is touched.
func TestEntryClickWithoutEntryHider(t *testing.T) {
	items := []sessions.Item{
		{Message: llm.Message{Role: "user", Content: "first question"}},
		{Message: llm.Message{Role: "assistant", Content: "first answer"}},
		{Hidden: true, By: sessions.HiddenByCompaction},
		{Hidden: true, Compaction: &sessions.Compaction{Turns: []int{0}, Summary: "They talked about the first thing."}},
		{Message: llm.Message{Role: "user", Content: "second question"}},
	}
	be := &fakeBackend{events: rlm.NewStream(), name: "s", items: items}
	s := newScreenApp(t, 120, 24, be, nil)
	root := rlm.Agent{Name: "s"}
	s.handle(rlm.SessionReady{Name: "s"}, rlm.AgentStart{Agent: root}, rlm.Conversation{Agent: root, Items: items})
	s.draw()
	entry := s.a.main.ov.Data().Turns[1]
	if entry.Label != "Summary" {
		t.Fatalf("row 1 is %+v", entry)
	}
	s.a.toggleHidden(entry.Index)
	if got := be.Conversation(); fmt.Sprint(got) != fmt.Sprint(items) {
		t.Errorf("the conversation changed: %+v", got)
	}
	if screen := s.draw(); !strings.Contains(screen, "cannot leave its summaries out") {
		t.Errorf("no notice:\n%s", screen)
	}
}
