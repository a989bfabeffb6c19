package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// countScreen counts what reaches the real screen.
type countScreen struct {
	tcell.Screen
	sets, shows int
}

func (c *countScreen) SetContent(x, y int, r rune, comb []rune, st tcell.Style) {
	c.sets++
	c.Screen.SetContent(x, y, r, comb, st)
}

func (c *countScreen) Put(x, y int, s string, st tcell.Style) (string, int) {
	c.sets++
	return c.Screen.Put(x, y, s, st)
}

func (c *countScreen) Show() { c.shows++; c.Screen.Show() }

func simRow(s tcell.SimulationScreen, y int) string {
	cells, w, _ := s.GetContents()
	var row []rune
	for x := 0; x < w; x++ {
		if rs := cells[y*w+x].Runes; len(rs) > 0 {
			row = append(row, rs[0])
			x += cellWidth(rs[0]) - 1 // the cell a wide character covers
		}
	}
	return string(row)
}

// TestFrameScreen: a frame reaches the terminal only as the cells it
// changed; an unchanged frame writes nothing.
func TestFrameScreen(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	cs := &countScreen{Screen: sim}
	f := newFrameScreen(cs)
	if err := f.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(8, 2)
	// frame draws as tview and the widgets do: clear, fill, then text.
	frame := func(text string, cursor int) {
		f.Clear()
		for y := 0; y < 2; y++ {
			for x := 0; x < 8; x++ {
				f.SetContent(x, y, ' ', nil, tcell.StyleDefault.Background(tcell.ColorBlack))
			}
		}
		drawText(f, 0, 0, 8, text, tcell.StyleDefault, -1, -1)
		f.ShowCursor(cursor, 1)
		f.Show()
	}
	steps := []struct {
		name, text  string
		cursor      int
		sets, shows int
		row         string
	}{
		{"first frame whole", "hello", 0, 16, 1, "hello   "},
		{"same frame nothing", "hello", 0, 0, 0, "hello   "},
		{"one cell", "hellO", 0, 1, 1, "hellO   "},
		{"cursor only", "hellO", 3, 0, 1, "hellO   "},
		{"wide character", "日llO", 3, 2, 1, "日llO   "},
		{"wide one goes", "hhllO", 3, 2, 1, "hhllO   "},
	}
	for _, s := range steps {
		cs.sets, cs.shows = 0, 0
		frame(s.text, s.cursor)
		if cs.sets != s.sets || cs.shows != s.shows {
			t.Errorf("%s: %d cells set, %d shows; want %d, %d", s.name, cs.sets, cs.shows, s.sets, s.shows)
		}
		if got := simRow(sim, 0); got != s.row {
			t.Errorf("%s: row %q, want %q", s.name, got, s.row)
		}
	}
	if x, y, on := sim.GetCursor(); x != 3 || y != 1 || !on {
		t.Errorf("cursor at %d,%d (%v), want 3,1", x, y, on)
	}
	sim.SetSize(9, 2)
	cs.sets, cs.shows = 0, 0
	frame("hhllO", 3)
	if cs.sets != 18 || cs.shows != 1 {
		t.Errorf("after a resize: %d cells set, %d shows; want 18, 1", cs.sets, cs.shows)
	}
}

// TestFrameScreenManyStyles: past the most styles its table numbers (a
// colour for every cell, frame after frame), the frame screen still shows
// each cell in its style and character, combining characters included,
// and reads them back as set.
func TestFrameScreenManyStyles(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	f := newFrameScreen(sim)
	if err := f.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(40, 30)
	n := 0
	for frame := 0; frame < 6; frame++ {
		f.Clear()
		for y := 0; y < 30; y++ {
			for x := 0; x < 40; x++ {
				n++
				st := tcell.StyleDefault.Foreground(tcell.NewHexColor(int32(n)))
				var comb []rune
				if n%7 == 0 {
					comb = []rune{'\u0301' + rune(n%50)}
				}
				f.SetContent(x, y, 'a'+rune(n%26), comb, st)
			}
		}
		// What the cells hold, as set: read back from the frame.
		r, comb, st, _ := f.GetContent(3, 2)
		want := n - 40*30 + 2*40 + 3 + 1
		if r != 'a'+rune(want%26) || st != tcell.StyleDefault.Foreground(tcell.NewHexColor(int32(want))) {
			t.Fatalf("frame %d: GetContent(3, 2) = %q %v, want %q", frame, r, st, 'a'+rune(want%26))
		}
		if (want%7 == 0) != (len(comb) == 1) {
			t.Fatalf("frame %d: combining characters %q", frame, comb)
		}
		f.Show()
		cells, w, _ := sim.GetContents()
		k := n - 40*30
		for i, c := range cells {
			k++
			wantSt := tcell.StyleDefault.Foreground(tcell.NewHexColor(int32(k)))
			if len(c.Runes) == 0 || c.Runes[0] != 'a'+rune(k%26) || c.Style != wantSt || (k%7 == 0) != (len(c.Runes) == 2) {
				t.Fatalf("frame %d: cell %d,%d is %q %v", frame, i%w, i/w, c.Runes, c.Style)
			}
		}
	}
	if len(f.tab.styles) > maxTable+40*30 {
		t.Errorf("the table holds %d styles", len(f.tab.styles))
	}
}

// TestFrameScreenStylesRunOut: a frame that sets more styles than a cell
// can number (a cell set over and over) still shows each cell as set last.
func TestFrameScreenStylesRunOut(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	f := newFrameScreen(sim)
	if err := f.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(4, 1)
	f.Clear()
	f.SetContent(1, 0, 'k', nil, tcell.StyleDefault.Bold(true))
	n := int32(1<<16 + 10)
	for i := int32(1); i <= n; i++ {
		f.SetContent(0, 0, 'x', nil, tcell.StyleDefault.Foreground(tcell.NewHexColor(i)))
	}
	f.Show()
	cells, _, _ := sim.GetContents()
	if c := cells[0]; c.Runes[0] != 'x' || c.Style != tcell.StyleDefault.Foreground(tcell.NewHexColor(n)) {
		t.Errorf("cell 0 is %q %v", c.Runes, c.Style)
	}
	if c := cells[1]; c.Runes[0] != 'k' || c.Style != tcell.StyleDefault.Bold(true) {
		t.Errorf("cell 1 is %q %v", c.Runes, c.Style)
	}
}
