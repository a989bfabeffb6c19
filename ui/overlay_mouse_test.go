package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// overlaySendMouse sends one mouse action at (x, y) to o's handler.
func overlaySendMouse(o *Overlay, action tview.MouseAction, x, y int) bool {
	ev := tcell.NewEventMouse(x, y, tcell.ButtonNone, 0)
	consumed, _ := o.MouseHandler()(action, ev, func(tview.Primitive) {
		panic("the overlay must not take the focus")
	})
	return consumed
}

func TestOverlayClick(t *testing.T) {
	o := NewOverlay(overlayTestTheme)
	o.SetData(overlayTestData())
	var toggled []int
	o.OnToggleHidden = func(turn int) { toggled = append(toggled, turn) }
	s := overlayScreen(t, o, 80, 24)
	at := func(sub string) (int, int) { return overlayFind(t, s, sub) }
	x0, _ := at("┌")
	tests := []struct {
		name   string
		x, y   int
		action tview.MouseAction
		want   []int // nil: no call
	}{
		{"turn header", 0, 0, tview.MouseLeftClick, []int{0}},
		{"row of a completed turn", 0, 0, tview.MouseLeftClick, []int{0}},
		{"row of a hidden turn", 0, 0, tview.MouseLeftClick, []int{1}},
		{"double click counts as a click", 0, 0, tview.MouseLeftDoubleClick, []int{1}},
		{"active turn header", 0, 0, tview.MouseLeftClick, nil},
		{"active turn row", 0, 0, tview.MouseLeftClick, nil},
		{"left border", x0, 3, tview.MouseLeftClick, nil},
		{"bottom border", x0 + 5, 11, tview.MouseLeftClick, nil},
		{"top border, not the control", x0 + 5, 0, tview.MouseLeftClick, nil},
		{"button down alone", 0, 0, tview.MouseLeftDown, nil},
	}
	places := map[string]string{
		"turn header": "Turn 1", "row of a completed turn": "rlm look",
		"row of a hidden turn": "Updated.", "double click counts as a click": "and the docs",
		"active turn header": "Turn 3", "active turn row": "now the README", "button down alone": "Turn 1",
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if p, ok := places[tc.name]; ok {
				tc.x, tc.y = at(p)
			}
			toggled = nil
			if !overlaySendMouse(o, tc.action, tc.x, tc.y) {
				t.Errorf("a mouse event inside the overlay was not consumed")
			}
			if !equalInts(toggled, tc.want) {
				t.Errorf("OnToggleHidden got %v, want %v", toggled, tc.want)
			}
		})
	}
	if overlaySendMouse(o, tview.MouseLeftClick, x0-1, 3) || overlaySendMouse(o, tview.MouseLeftClick, x0+3, 12) {
		t.Errorf("a click outside the overlay was consumed")
	}
	if len(toggled) != 0 || o.Collapsed() {
		t.Errorf("a click outside changed something: %v, collapsed %v", toggled, o.Collapsed())
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestOverlayWheel(t *testing.T) {
	o := NewOverlay(overlayTestTheme)
	o.SetData(overlayTestData())     // 10 lines
	s := overlayScreen(t, o, 80, 12) // 9/16 of 12: 6 rows, 4 lines shown
	x, y := overlayFind(t, s, "Turn 3")
	if o.Scroll() != 6 {
		t.Fatalf("a new overlay shows lines from %d, want the last ones (6)", o.Scroll())
	}
	steps := []struct {
		action tview.MouseAction
		times  int
		want   int
		first  string // the first line shown
	}{
		{tview.MouseScrollUp, 1, 5, "Turn 2"},
		{tview.MouseScrollUp, 10, 0, "Turn 1"},
		{tview.MouseScrollDown, 2, 2, "reasoning"},
		{tview.MouseScrollDown, 10, 6, "~7 and the docs"},
	}
	for _, st := range steps {
		for range st.times {
			overlaySendMouse(o, st.action, x, y)
		}
		if o.Scroll() != st.want {
			t.Errorf("after %d× action %d: scroll %d, want %d", st.times, st.action, o.Scroll(), st.want)
		}
		s = overlayScreen(t, o, 80, 12)
		if _, fy := overlayFind(t, s, st.first); fy != 1 {
			t.Errorf("scroll %d: %q on row %d, want the first line:\n%s", o.Scroll(), st.first, fy, overlayText(s))
		}
	}
	// At the bottom it follows new lines; scrolled up, it stays put.
	d := overlayTestData()
	d.Turns[2].Rows = append(d.Turns[2].Rows, OverlayRow{Role: "assistant", Preview: "new"})
	o.SetData(d)
	overlayScreen(t, o, 80, 12)
	if o.Scroll() != 7 {
		t.Errorf("following: scroll %d after a line was added, want 7", o.Scroll())
	}
	overlaySendMouse(o, tview.MouseScrollUp, x, y)
	d.Turns[2].Rows = append(d.Turns[2].Rows, OverlayRow{Role: "assistant", Preview: "newer"})
	o.SetData(d)
	overlayScreen(t, o, 80, 12)
	if o.Scroll() != 6 {
		t.Errorf("scrolled up: scroll %d after a line was added, want 6", o.Scroll())
	}
}

func TestOverlayCollapseKeepsScroll(t *testing.T) {
	o := NewOverlay(overlayTestTheme)
	o.SetData(overlayTestData())
	s := overlayScreen(t, o, 80, 16)
	_, _, w0, _ := o.GetRect()
	for range 2 {
		overlaySendMouse(o, tview.MouseScrollUp, 50, 3)
	}
	scroll := o.Scroll()
	cx, cy := overlayFind(t, s, "[-]")
	overlaySendMouse(o, tview.MouseLeftClick, cx+1, cy)
	if !o.Collapsed() {
		t.Fatalf("[-] did not collapse the overlay")
	}
	s = overlayScreen(t, o, 80, 16)
	lines := strings.Split(overlayText(s), "\n")
	if !strings.Contains(lines[0], "[Context][20261129-183012][explore]") || strings.Trim(lines[1], ".") != "" {
		t.Errorf("collapsed overlay is not one header row:\n%s", overlayText(s))
	}
	if _, _, _, h := o.GetRect(); h != 1 {
		t.Errorf("collapsed height %d, want 1", h)
	}
	overlaySendMouse(o, tview.MouseScrollDown, 60, 0) // ignored while collapsed
	d := overlayTestData()
	d.Turns[2].Rows = append(d.Turns[2].Rows, OverlayRow{Role: "assistant", Preview: "more"})
	o.SetData(d)
	cx, cy = overlayFind(t, s, "[+]")
	overlaySendMouse(o, tview.MouseLeftClick, cx, cy)
	if o.Collapsed() {
		t.Fatalf("[+] did not expand the overlay")
	}
	s = overlayScreen(t, o, 80, 16)
	if o.Scroll() != scroll {
		t.Errorf("scroll %d after collapse and expand, want %d", o.Scroll(), scroll)
	}
	if _, _, w, _ := o.GetRect(); w != w0 {
		t.Errorf("width %d after collapse and expand, want %d", w, w0)
	}
	if _, y := overlayFind(t, s, "Turn 2"); y != 1+5-scroll {
		t.Errorf("Turn 2 on row %d:\n%s", y, overlayText(s))
	}
}

// TestOverlayInApplication drives the overlay through a tview application
// on a simulation screen with injected mouse events.
func TestOverlayInApplication(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(80, 12)
	o := NewOverlay(overlayTestTheme)
	o.SetData(overlayTestData())
	o.Place(0, 0, 80, 12)
	toggled := make(chan int, 4)
	o.OnToggleHidden = func(turn int) { toggled <- turn }
	drawn := make(chan struct{}, 64)
	app := tview.NewApplication().SetScreen(sim).EnableMouse(true).SetRoot(o, false)
	app.SetAfterDrawFunc(func(tcell.Screen) {
		select {
		case drawn <- struct{}{}:
		default:
		}
	})
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	defer func() {
		app.Stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	wait := func(what string) {
		t.Helper()
		select {
		case <-drawn:
		case <-time.After(5 * time.Second):
			t.Fatalf("no redraw after %s", what)
		}
	}
	wait("start")
	var row, col int
	done2 := make(chan struct{})
	app.QueueUpdate(func() {
		defer close(done2)
		text := overlayText(sim)
		for y, line := range strings.Split(text, "\n") {
			if i := strings.Index(line, "Updated."); i >= 0 {
				row, col = y, len([]rune(line[:i]))
			}
		}
	})
	<-done2
	if row == 0 {
		t.Fatalf("the hidden turn's row is not on screen")
	}
	sim.InjectMouse(col, row, tcell.Button1, tcell.ModNone)
	sim.InjectMouse(col, row, tcell.ButtonNone, tcell.ModNone)
	select {
	case turn := <-toggled:
		if turn != 1 {
			t.Errorf("OnToggleHidden(%d), want 1", turn)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("a click on a hidden turn's row did not call OnToggleHidden")
	}
	// The wheel: the overlay starts at its last lines (scroll 6 of 10 lines
	// in 4 rows) and one notch up shows the line before.
	before := overlayAppScroll(app, o)
	sim.InjectMouse(col, row, tcell.WheelUp, tcell.ModNone)
	deadline := time.After(5 * time.Second)
	for {
		if got := overlayAppScroll(app, o); got == before-1 {
			break
		}
		select {
		case <-drawn:
		case <-deadline:
			t.Fatalf("the wheel did not scroll the overlay (scroll %d)", before)
		}
	}
}

// overlayAppScroll reads o's scroll position on the application's goroutine.
func overlayAppScroll(app *tview.Application, o *Overlay) int {
	c := make(chan int, 1)
	app.QueueUpdate(func() { c <- o.Scroll() })
	return <-c
}

func TestOverlayFollowsNewAgent(t *testing.T) {
	o := NewOverlay(overlayTestTheme)
	o.SetData(overlayTestData())
	overlayScreen(t, o, 80, 12)
	for range 10 {
		overlaySendMouse(o, tview.MouseScrollUp, 60, 2)
	}
	if o.Scroll() != 0 {
		t.Fatalf("scroll %d, want 0", o.Scroll())
	}
	d := overlayTestData()
	o.SetData(d) // same agent: stays put
	overlayScreen(t, o, 80, 12)
	if o.Scroll() != 0 {
		t.Errorf("same agent: scroll %d, want 0", o.Scroll())
	}
	d.Agents = append(d.Agents, "grep-it")
	o.SetData(d) // a subagent comes on screen: its last lines
	overlayScreen(t, o, 80, 12)
	if o.Scroll() != 6 {
		t.Errorf("new agent: scroll %d, want 6", o.Scroll())
	}
}

// BenchmarkOverlaySetDataDraw gives the overlay 10,000 turns and draws it.
func BenchmarkOverlaySetDataDraw(b *testing.B) {
	items, counts := ctxBenchConversation()
	d := OverlayData{Agents: []string{"20261129-183012"}, Turns: BuildOverlayTurns(items, counts, 9999)}
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		b.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(200, 60)
	o := NewOverlay(overlayTestTheme)
	o.Place(0, 0, 200, 60)
	b.ReportAllocs()
	for b.Loop() {
		o.SetData(d)
		o.Draw(s)
	}
}
