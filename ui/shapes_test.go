package ui

import (
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/tools/txtar"

	"harness/rlm"
)

// whole is the shape's reply as one event: what a full render draws.
func (sh streamShape) whole() rlm.Event {
	var text string
	for _, ev := range sh.chunks {
		switch e := ev.(type) {
		case rlm.TextDelta:
			text += e.Text
		case rlm.ReasoningDelta:
			text += e.Text
		case rlm.ToolArgsDelta:
			text += e.Text
		}
	}
	switch e := sh.chunks[0].(type) {
	case rlm.ToolArgsDelta:
		e.Text = text
		return e
	case rlm.ReasoningDelta:
		return rlm.ReasoningDelta{Text: text}
	}
	return rlm.TextDelta{Text: text}
}

// screenOf draws an App that was given events on a fresh 100×30 screen.
func screenOf(t *testing.T, setup, events []rlm.Event, every int, check func(i int, scr tcell.SimulationScreen)) tcell.SimulationScreen {
	a, scr := benchApp(t, nil)
	scr.SetSize(100, 30)
	a.main.SetRect(0, 0, 100, 30)
	a.running = true
	for _, ev := range setup {
		a.handle(ev)
	}
	for i, ev := range events {
		a.handle(ev)
		if i%every == every-1 || i == len(events)-1 {
			a.main.Draw(scr)
			scr.Show()
			if check != nil {
				check(i, scr)
			}
		}
	}
	return scr
}

// TestShapesFinalScreen streams each shape, smaller, chunk by chunk with a
// frame every chunksPerFrame chunks, and checks that its frames (every
// 40th, and the last) are what a full render of the text so far draws,
// cell for cell and style for style, and that the last is the golden
// screen ui/testdata/shapes/<name>.txtar (-update rewrites them).
func TestShapesFinalScreen(t *testing.T) {
	for _, sh := range shapesOf(700, 160) {
		t.Run(sh.name, func(t *testing.T) {
			frames := 0
			last := screenOf(t, sh.setup, sh.chunks, chunksPerFrame, func(i int, scr tcell.SimulationScreen) {
				frames++
				if frames%40 != 0 && i != len(sh.chunks)-1 {
					return
				}
				part := streamShape{chunks: sh.chunks[:i+1]}
				full := screenOf(t, sh.setup, []rlm.Event{part.whole()}, 1, nil)
				gotText, gotStyles, _ := styledScreen(scr)
				wantText, wantStyles, _ := styledScreen(full)
				if gotText != wantText || gotStyles != wantStyles {
					t.Fatalf("after %d chunks the screen differs from a full render:\n%s\nwant\n%s\nstyles\n%s\nwant\n%s",
						i+1, gotText, wantText, gotStyles, wantStyles)
				}
			})
			text, styles, legend := styledScreen(last)
			checkGolden(t, filepath.Join("testdata", "shapes", sh.name+".txtar"),
				"the last frame of the "+sh.name+" shape streamed (TestShapesFinalScreen)", *update, "-update",
				txtar.File{Name: "screen", Data: []byte(text)}, txtar.File{Name: "styles", Data: []byte(styles)},
				txtar.File{Name: "legend", Data: []byte(legend)})
		})
	}
}
