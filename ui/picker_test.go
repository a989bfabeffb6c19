package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/sessions"
)

var pickNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func pickSessions() []sessions.Info {
	return []sessions.Info{
		{Name: "20260101-090000", Updated: pickNow.Add(-40 * 24 * time.Hour), Repository: "/home/me/src/old", Preview: "an old question"},
		{Name: "fix-parser", Updated: pickNow.Add(-5 * time.Minute), Repository: "/home/me/src/harness", Preview: "fix the parser's error on a cut-short patch"},
		{Name: "docs", Updated: pickNow.Add(-3 * time.Hour), Repository: "/srv/site", Preview: "rewrite the install page", InUse: true, PID: 4242},
		{Name: "20260308-101500", Updated: pickNow.Add(-26 * time.Hour), Repository: "/home/me/src/harness", Preview: "why does the overlay flicker when a subagent starts?"},
	}
}

func newPickScreen(t *testing.T, w, h int) tcell.SimulationScreen {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	return s
}

func key(k tcell.Key) *tcell.EventKey { return tcell.NewEventKey(k, 0, tcell.ModNone) }
func typed(r rune) *tcell.EventKey    { return tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone) }

// TestPickerScreens draws the picker: the newest session selected, then
// filtered by typing, then with nothing matching.
func TestPickerScreens(t *testing.T) {
	for _, tc := range []struct {
		name, about string
		w, h        int
		events      []tcell.Event
	}{
		{"picker", "harness --resume: every session, newest first and selected", 100, 10, nil},
		{"picker-filtered", "typing filters the list; Down moves the selection", 100, 10,
			[]tcell.Event{typed('h'), typed('a'), typed('r'), typed('n'), key(tcell.KeyDown)}},
		{"picker-none", "a filter that matches nothing", 60, 8, []tcell.Event{typed('z'), typed('z')}},
		{"picker-narrow", "a narrow terminal cuts the columns", 40, 8, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newPickScreen(t, tc.w, tc.h)
			p := newPicker(PickOptions{Theme: testTheme, Sessions: pickSessions(), Now: func() time.Time { return pickNow }, Home: "/home/me"})
			for _, ev := range tc.events {
				p.draw(s)
				if done, _ := p.handle(ev); done {
					t.Fatal("the picker ended")
				}
			}
			p.draw(s)
			s.Show()
			checkStyled(t, filepath.Join("testdata", "screens", tc.name+".txtar"), tc.about, s)
		})
	}
}

// TestPick runs Pick's loop on a simulation screen.
func TestPick(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []tcell.Event
		want   string
		inUse  func(string) (bool, int) // nil: none in use any more
	}{
		{"enter opens the newest", []tcell.Event{key(tcell.KeyEnter)}, "fix-parser", nil},
		{"down then enter", []tcell.Event{key(tcell.KeyDown), key(tcell.KeyEnter)}, "docs", nil},
		{"a session still in use stays unopened", []tcell.Event{key(tcell.KeyDown), key(tcell.KeyEnter), key(tcell.KeyDown), key(tcell.KeyEnter)},
			"20260308-101500", func(name string) (bool, int) { return name == "docs", 4242 }},
		{"a session taken since the list stays unopened", []tcell.Event{key(tcell.KeyEnter), key(tcell.KeyDown), key(tcell.KeyEnter)},
			"docs", func(name string) (bool, int) { return name == "fix-parser", 77 }},
		{"end then up", []tcell.Event{key(tcell.KeyEnd), key(tcell.KeyUp), key(tcell.KeyEnter)}, "20260308-101500", nil},
		{"up stays at the top", []tcell.Event{key(tcell.KeyUp), key(tcell.KeyEnter)}, "fix-parser", nil},
		{"filter then enter", []tcell.Event{typed('s'), typed('i'), typed('t'), typed('e'), key(tcell.KeyEnter)}, "docs", nil},
		{"backspace widens the filter", []tcell.Event{typed('z'), key(tcell.KeyBackspace2), key(tcell.KeyEnter)}, "fix-parser", nil},
		{"words match anywhere", []tcell.Event{typed('h'), typed('a'), typed('r'), typed(' '), typed('o'), typed('v'), key(tcell.KeyEnter)}, "20260308-101500", nil},
		{"enter on no match does nothing", []tcell.Event{typed('z'), typed('z'), key(tcell.KeyEnter), key(tcell.KeyCtrlU), key(tcell.KeyEnter)}, "fix-parser", nil},
		{"esc quits", []tcell.Event{key(tcell.KeyDown), key(tcell.KeyEscape)}, "", nil},
		{"ctrl+c quits", []tcell.Event{key(tcell.KeyCtrlC)}, "", nil},
		{"click selects, second click opens", []tcell.Event{
			tcell.NewEventMouse(5, 5, tcell.Button1, 0), tcell.NewEventMouse(5, 5, tcell.ButtonNone, 0),
			tcell.NewEventMouse(5, 5, tcell.Button1, 0)}, "20260308-101500", nil},
		{"wheel moves", []tcell.Event{tcell.NewEventMouse(5, 5, tcell.WheelDown, 0), key(tcell.KeyEnter)}, "docs", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newPickScreen(t, 100, 10)
			for _, ev := range tc.events {
				if err := s.PostEvent(ev); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan string, 1)
			go func() {
				inUse := tc.inUse
				if inUse == nil {
					inUse = func(string) (bool, int) { return false, 0 }
				}
				name, err := Pick(PickOptions{Theme: testTheme, Sessions: pickSessions(), Screen: s, Now: func() time.Time { return pickNow }, InUse: inUse})
				if err != nil {
					t.Error(err)
				}
				done <- name
			}()
			select {
			case got := <-done:
				if got != tc.want {
					t.Errorf("picked %q, want %q", got, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Pick did not return")
			}
		})
	}
}

// TestPickerShowsWholePID: the UPDATED column is wide enough for the PID
// of a session in use, however many digits it has.
func TestPickerShowsWholePID(t *testing.T) {
	for _, pid := range []int{42, 32733, 4194304} {
		list := pickSessions()
		list[2].PID = pid
		s := newPickScreen(t, 120, 10)
		p := newPicker(PickOptions{Theme: testTheme, Sessions: list, Now: func() time.Time { return pickNow }, Home: "/home/me"})
		p.draw(s)
		s.Show()
		text, _, _ := styledScreen(s)
		if want := fmt.Sprintf("in use: pid %d ", pid); !strings.Contains(text, want) {
			t.Errorf("pid %d: no %q on screen:\n%s", pid, want, text)
		}
	}
}

// TestPickerSaysWhyInUseStays: Enter on a session another harness has
// open says so on the hint line, until the next key.
func TestPickerSaysWhyInUseStays(t *testing.T) {
	s := newPickScreen(t, 120, 10)
	p := newPicker(PickOptions{Theme: testTheme, Sessions: pickSessions(), Now: func() time.Time { return pickNow }})
	for _, k := range []tcell.Key{tcell.KeyDown, tcell.KeyEnter} {
		if done, name := p.handle(key(k)); done {
			t.Fatalf("picked %q", name)
		}
	}
	p.draw(s)
	s.Show()
	text, _, _ := styledScreen(s)
	want := "docs is open in another harness (in use: pid 4242): quit that one first, or choose another"
	if !strings.Contains(text, want) {
		t.Fatalf("no %q on screen:\n%s", want, text)
	}
	p.handle(key(tcell.KeyUp))
	p.draw(s)
	s.Show()
	if text, _, _ := styledScreen(s); strings.Contains(text, want) || !strings.Contains(text, "Enter opens") {
		t.Errorf("the notice stayed after a key:\n%s", text)
	}
}
