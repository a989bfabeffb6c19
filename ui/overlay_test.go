package ui

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"harness/config"
)

var overlayUpdate = flag.Bool("update-overlay", false, "rewrite ui/testdata/overlay/*.txtar with the screens drawn")

var overlayTestTheme = config.Theme{
	Assistant: "#e4e4e4", Status: "#a8a8a8", ContextTurn: "#5fafd7",
	ContextTokens: "#d7d787", ContextRole: "#af87d7", ContextMessageTokens: "#87afaf",
}

// overlayTestData is three turns: a completed one, a hidden one with an
// estimated count, and the running one.
func overlayTestData() OverlayData {
	return OverlayData{
		Agents: []string{"20261129-183012", "explore"},
		Turns: []OverlayTurn{
			{Index: 0, Tokens: 1234, Rows: []OverlayRow{
				{Role: "user", Preview: "fix the failing test in sessions", Tokens: 12},
				{Role: "reasoning", Preview: "The test expects a marker", Tokens: 300},
				{Role: "tool", Preview: "rlm look name: explore", Tokens: 900},
				{Role: "assistant", Preview: "Done: the marker is written.", Tokens: 22},
			}},
			{Index: 1, Tokens: 15000, Estimated: true, Hidden: true, Rows: []OverlayRow{
				{Role: "user", Preview: "and the docs", Tokens: 7, Estimated: true},
				{Role: "assistant", Preview: "Updated.", Tokens: 14993, Estimated: true},
			}},
			{Index: 2, Tokens: 40, Estimated: true, Active: true, Rows: []OverlayRow{
				{Role: "user", Preview: "now the README", Tokens: 40, Estimated: true},
			}},
		},
	}
}

// overlayScreen draws o (placed in a w×h transcript at the origin) on a
// new simulation screen filled with '.' so that covered cells show.
func overlayScreen(t *testing.T, o *Overlay, w, h int) tcell.SimulationScreen {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Fini)
	s.SetSize(w, h)
	s.Fill('.', tcell.StyleDefault)
	o.Place(0, 0, w, h)
	o.Draw(s)
	s.Show()
	return s
}

// overlayText returns the screen's rows as text, trailing spaces cut.
func overlayText(s tcell.SimulationScreen) string {
	cells, w, h := s.GetContents()
	var b strings.Builder
	for y := 0; y < h; y++ {
		var line strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				line.WriteByte(' ')
				continue
			}
			line.WriteString(string(c.Runes))
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	return b.String()
}

// overlayCell returns the text and style of the cell at (x, y).
func overlayCell(s tcell.SimulationScreen, x, y int) (string, tcell.Style) {
	cells, w, _ := s.GetContents()
	c := cells[y*w+x]
	return string(c.Runes), c.Style
}

// overlayFind returns the screen position of the first cell of sub.
func overlayFind(t *testing.T, s tcell.SimulationScreen, sub string) (int, int) {
	t.Helper()
	for y, line := range strings.Split(overlayText(s), "\n") {
		if i := strings.Index(line, sub); i >= 0 {
			return len([]rune(line[:i])), y
		}
	}
	t.Fatalf("%q not on screen:\n%s", sub, overlayText(s))
	return 0, 0
}

func overlayFg(st tcell.Style) tcell.Color {
	fg, _, _ := st.Decompose()
	return fg
}

// TestOverlayGolden compares drawn screens with testdata/overlay/*.txtar;
// go test ./ui -run TestOverlayGolden -update-overlay rewrites them.
func TestOverlayGolden(t *testing.T) {
	long := overlayTestData()
	long.Agents = []string{"20261129-183012", "explore", "grep-it-all-very-thoroughly"}
	tests := []struct {
		name      string
		data      OverlayData
		w, h      int
		collapsed bool
		scroll    int
	}{
		{"expanded", overlayTestData(), 80, 24, false, 0},
		{"scrolled", overlayTestData(), 80, 16, false, -1},
		{"collapsed", overlayTestData(), 80, 6, true, 0},
		{"narrow", long, 50, 20, false, 0},
		{"empty", OverlayData{Agents: []string{"new"}}, 60, 10, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := NewOverlay(overlayTestTheme)
			o.SetData(tc.data)
			o.Place(0, 0, tc.w, tc.h)
			o.ScrollBy(tc.scroll)
			o.SetCollapsed(tc.collapsed)
			got := overlayText(overlayScreen(t, o, tc.w, tc.h))
			checkScreen(t, filepath.Join("testdata", "overlay", tc.name+".txtar"),
				"The context overlay drawn over a transcript of dots.", got, *overlayUpdate, "-update-overlay")
		})
	}
}

func TestOverlayFitHeader(t *testing.T) {
	agents := []string{"20261129-183012", "explore", "grep-it"}
	tests := []struct {
		agents []string
		avail  int
		want   string
	}{
		{agents, 60, "[Context][20261129-183012][explore][grep-it]"},
		{agents, 44, "[Context][20261129-183012][explore][grep-it]"},
		{agents, 43, "[Context][…][explore][grep-it]"},
		{agents, 30, "[Context][…][explore][grep-it]"},
		{agents, 29, "[Context][…][grep-it]"},
		{agents, 21, "[Context][…][grep-it]"},
		{agents, 20, "[Context][…][grep-…]"},
		{agents, 15, "[Context][…][…]"},
		{agents, 14, "[Context][…]"},
		{agents, 11, "[Context]"},
		{agents, 5, "[Ctx]"},
		{agents, 3, "[…]"},
		{agents, 2, ""},
		{[]string{"20261129-183012"}, 26, "[Context][20261129-183012]"},
		{[]string{"20261129-183012"}, 20, "[Context][20261129…]"},
		{nil, 20, "[Context]"},
		{nil, 4, "[…]"},
		{[]string{"20261129-183012"}, 12, "[Context][…]"},
		{[]string{"20261129-183012"}, 11, "[Context]"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			got := overlayFitHeader(tc.agents, tc.avail)
			if got != tc.want {
				t.Errorf("overlayFitHeader(%q, %d) = %q, want %q", tc.agents, tc.avail, got, tc.want)
			}
			if width(got) > tc.avail {
				t.Errorf("%q is wider than %d", got, tc.avail)
			}
		})
	}
}

func TestOverlayRect(t *testing.T) {
	o := NewOverlay(overlayTestTheme)
	o.SetData(overlayTestData()) // 10 lines
	tests := []struct {
		name       string
		collapsed  bool
		tw, th     int
		x, y, w, h int
	}{
		{"expanded, capped width", false, 80, 24, 35, 0, 45, 12},
		{"expanded, capped height", false, 80, 16, 35, 0, 45, 9},
		{"expanded, natural width", false, 200, 60, 200 - 53, 0, 53, 12},
		{"too short for lines", false, 80, 4, 35, 0, 45, 1},
		{"collapsed", true, 80, 24, 80 - 42, 0, 42, 1},
		{"collapsed, capped", true, 60, 24, 60 - 33, 0, 33, 1},
		{"no area", false, 0, 0, 0, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o.SetCollapsed(tc.collapsed)
			x, y, w, h := o.Rect(tc.tw, tc.th)
			if x != tc.x || y != tc.y || w != tc.w || h != tc.h {
				t.Errorf("Rect(%d, %d) = %d,%d %dx%d; want %d,%d %dx%d", tc.tw, tc.th, x, y, w, h, tc.x, tc.y, tc.w, tc.h)
			}
		})
	}
}

func TestOverlayStyles(t *testing.T) {
	o := NewOverlay(overlayTestTheme)
	o.SetData(overlayTestData())
	s := overlayScreen(t, o, 80, 24)
	col := tcell.GetColor
	half := func(hex string) tcell.Color { // towards the default (black) background
		r, g, b := col(hex).RGB()
		return tcell.NewRGBColor(r/2, g/2, b/2)
	}
	checks := []struct {
		name string
		find string // the text whose first cell is checked
		want tcell.Color
	}{
		{"header", "[Context]", col("#e4e4e4")},
		{"control", "[-]", col("#e4e4e4")},
		{"turn label", "Turn 1", col("#5fafd7")},
		{"turn count", "1234", col("#d7d787")},
		{"role", "reasoning", col("#af87d7")},
		{"row count", "300", col("#87afaf")},
		{"preview", "The test", col("#a8a8a8")},
		{"hidden label", "Turn 2", half("#5fafd7")},
		{"hidden count", "~15.0k", half("#d7d787")},
		{"hidden state", "hidden", half("#a8a8a8")},
		{"hidden role", "assistant  ~15.0k", half("#af87d7")},
		{"hidden row count", "~7 and", half("#87afaf")},
		{"hidden preview", "Updated.", half("#a8a8a8")},
		{"running state", "running", col("#a8a8a8")},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			x, y := overlayFind(t, s, c.find)
			if _, st := overlayCell(s, x, y); overlayFg(st) != c.want {
				t.Errorf("%q at %d,%d has colour %v, want %v", c.find, x, y, overlayFg(st), c.want)
			}
		})
	}
	// A coloured background is blended towards, not black.
	o.SetBackground(tcell.NewRGBColor(0x20, 0x40, 0x60))
	s = overlayScreen(t, o, 80, 24)
	x, y := overlayFind(t, s, "Turn 2")
	_, st := overlayCell(s, x, y)
	if fg, bg, _ := st.Decompose(); fg != tcell.NewRGBColor((0x5f+0x20)/2, (0xaf+0x40)/2, (0xd7+0x60)/2) || bg != tcell.NewRGBColor(0x20, 0x40, 0x60) {
		t.Errorf("hidden label on a coloured background: fg %v bg %v", fg, bg)
	}
}
