package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/tools/txtar"

	"harness/llm"
	"harness/rlm"
)

// styledScreen returns the text of a simulation screen (trailing spaces
// cut), a map of its cells' styles, one letter per cell ("." the default
// style, trailing default cells cut), and the legend of the letters.
func styledScreen(s tcell.SimulationScreen) (text, styles, legend string) {
	cells, w, h := s.GetContents()
	letters := map[tcell.Style]byte{tcell.StyleDefault: '.'}
	var order []tcell.Style
	var tb, sb strings.Builder
	for y := 0; y < h; y++ {
		var row, srow strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) > 0 {
				row.WriteString(string(c.Runes))
			} else {
				row.WriteByte(' ')
			}
			l, ok := letters[c.Style]
			if !ok {
				l = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[len(order)%62]
				letters[c.Style] = l
				order = append(order, c.Style)
			}
			srow.WriteByte(l)
		}
		tb.WriteString(strings.TrimRight(row.String(), " ") + "\n")
		sb.WriteString(strings.TrimRight(srow.String(), ".") + "\n")
	}
	var lb strings.Builder
	for _, st := range order {
		fmt.Fprintf(&lb, "%c %s\n", letters[st], describeStyle(st))
	}
	return tb.String(), sb.String(), lb.String()
}

// describeStyle names a style's colours and attributes.
func describeStyle(st tcell.Style) string {
	fg, bg, attr := st.Decompose()
	name := func(c tcell.Color) string {
		if c == tcell.ColorDefault {
			return "default"
		}
		return fmt.Sprintf("#%06x", c.Hex())
	}
	out := "fg=" + name(fg) + " bg=" + name(bg)
	for _, a := range []struct {
		a tcell.AttrMask
		n string
	}{{tcell.AttrBold, "bold"}, {tcell.AttrItalic, "italic"}, {tcell.AttrUnderline, "underline"},
		{tcell.AttrReverse, "reverse"}, {tcell.AttrDim, "dim"}, {tcell.AttrStrikeThrough, "strike"}} {
		if attr&a.a != 0 {
			out += " " + a.n
		}
	}
	return out
}

// checkStyled compares a screen's text, styles and legend with the golden
// txtar at path (files "screen", "styles", "legend"), or rewrites it
// with about as its comment under -update.
func checkStyled(t *testing.T, path, about string, s tcell.SimulationScreen) {
	t.Helper()
	text, styles, legend := styledScreen(s)
	checkGolden(t, path, about, *update, "-update", txtar.File{Name: "screen", Data: []byte(text)},
		txtar.File{Name: "styles", Data: []byte(styles)}, txtar.File{Name: "legend", Data: []byte(legend)})
}

// TestBackgroundIsTheTerminals: nothing on screen paints a background
// colour of its own, blank cells included, so that the transcript reads
// the same on any terminal background (a black fill behind the text's
// default background shows as black bars on a light or a dark grey
// terminal).
func TestBackgroundIsTheTerminals(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
		llm.Message{Role: "user", Content: "hi"},
		llm.Message{Role: "assistant", Content: "A **short** answer."},
	)}
	s := newScreenApp(t, 50, 12, be, nil)
	s.a.main.ov.SetCollapsed(false)
	s.draw()
	cells, w, h := s.scr.GetContents()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if _, bg, _ := cells[y*w+x].Style.Decompose(); bg != tcell.ColorDefault {
				t.Fatalf("cell %d,%d (%q) has background %v, want the terminal's", x, y, string(cells[y*w+x].Runes), bg)
			}
		}
	}
}
