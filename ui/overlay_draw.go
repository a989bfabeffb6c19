// Drawing the context overlay: its border, header, lines and colours.

package ui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"harness/config"
	"harness/sessions"
)

// Top-border controls and line layout, in cells.
const (
	overlayControlOpen   = "[-]" // drawn while expanded: collapses
	overlayControlClosed = "[+]" // drawn while collapsed: expands
	overlayTopExtra      = 7     // corners, control and one border cell each side of the header
	overlayLabelW        = 10    // "Turn N", or a row's indent and role
	overlayCountW        = 7     // "~999.9k"
	overlayFixedW        = overlayLabelW + 1 + overlayCountW + 1
)

// overlayLineStyles are the styles of one kind of turn's lines.
type overlayLineStyles struct {
	label, tokens, role, rowTokens, preview tcell.Style
}

// overlayStyles are the overlay's styles: title and border, and lines of
// visible (lines[0]) and hidden (lines[1]) turns.
type overlayStyles struct {
	theme         config.Theme
	title, border tcell.Style
	preview       tcell.Style
	lines         [2]overlayLineStyles
}

func newOverlayStyles(t config.Theme, bg tcell.Color) overlayStyles {
	base := tcell.StyleDefault.Background(bg)
	fg := func(s string, hidden bool) tcell.Style {
		c := tcell.GetColor(s)
		if c == tcell.ColorDefault {
			return base.Dim(hidden)
		}
		if hidden {
			c = overlayHalf(c, bg)
		}
		return base.Foreground(c)
	}
	s := overlayStyles{theme: t, title: fg(t.Assistant, false), border: fg(t.Status, false),
		preview: fg(t.Status, false)}
	for i, hidden := range []bool{false, true} {
		s.lines[i] = overlayLineStyles{
			label: fg(t.ContextTurn, hidden), tokens: fg(t.ContextTokens, hidden),
			role: fg(t.ContextRole, hidden), rowTokens: fg(t.ContextMessageTokens, hidden),
			preview: fg(t.Status, hidden),
		}
	}
	return s
}

// overlayHalf returns c at half brightness against bg: each of red, green
// and blue is the mean of c's and bg's (bg black when it is the terminal's
// default or has no RGB value).
func overlayHalf(c, bg tcell.Color) tcell.Color {
	r, g, b := c.RGB()
	if r < 0 {
		return c
	}
	var br, bgr, bb int32
	if bg != tcell.ColorDefault {
		if x, y, z := bg.RGB(); x >= 0 {
			br, bgr, bb = x, y, z
		}
	}
	return tcell.NewRGBColor((r+br)/2, (g+bgr)/2, (b+bb)/2)
}

// drawTop draws the top border: corners, the centred header and the
// collapse control.
func (o *Overlay) drawTop(screen tcell.Screen, x, y, w int) {
	for i := 0; i < w; i++ {
		screen.SetContent(x+i, y, tview.Borders.Horizontal, nil, o.styles.border)
	}
	if w < 2 {
		return
	}
	screen.SetContent(x, y, tview.Borders.TopLeft, nil, o.styles.border)
	screen.SetContent(x+w-1, y, tview.Borders.TopRight, nil, o.styles.border)
	control := overlayControlOpen
	if o.collapsed {
		control = overlayControlClosed
	}
	cw := len(control)
	if w < cw+2 {
		return
	}
	overlayPrint(screen, x+w-1-cw, y, cw, control, o.styles.title)
	areaW := w - 2 - cw // between the left corner and the control
	if areaW-2 < 1 {
		return
	}
	text := overlayFitHeader(o.data.Agents, areaW-2)
	tw := width(text)
	overlayPrint(screen, x+1+(areaW-tw)/2, y, tw, text, o.styles.title)
}

// drawFrame draws the sides and bottom border, with ▲ and ▼ on the bottom
// border when lines are scrolled out above or below.
func (o *Overlay) drawFrame(screen tcell.Screen, x, y, w, h int) {
	bs := o.styles.border
	for j := y + 1; j < y+h-1; j++ {
		screen.SetContent(x, j, tview.Borders.Vertical, nil, bs)
		screen.SetContent(x+w-1, j, tview.Borders.Vertical, nil, bs)
	}
	bottom := y + h - 1
	for i := x + 1; i < x+w-1; i++ {
		screen.SetContent(i, bottom, tview.Borders.Horizontal, nil, bs)
	}
	screen.SetContent(x, bottom, tview.Borders.BottomLeft, nil, bs)
	screen.SetContent(x+w-1, bottom, tview.Borders.BottomRight, nil, bs)
	if w < 5 {
		return
	}
	if o.total != "" && w >= len(o.total)+8 {
		overlayPrint(screen, x+2, bottom, w-6, " "+o.total+" ", o.styles.title)
	}
	if o.scroll > 0 {
		screen.SetContent(x+w-3, bottom, '▲', nil, o.styles.title)
	}
	if o.scroll+h-2 < len(o.lines) {
		screen.SetContent(x+w-2, bottom, '▼', nil, o.styles.title)
	}
}

// drawLine draws one content line in the w cells from (x, y).
func (o *Overlay) drawLine(screen tcell.Screen, x, y, w int, l overlayLine) {
	t := &o.data.Turns[l.turn]
	st := &o.styles.lines[0]
	if t.Hidden {
		st = &o.styles.lines[1]
	}
	end := x + w
	count := func(col int, n int, est bool, s tcell.Style) {
		c := overlayCount(n, est)
		cx := col + overlayCountW - len(c)
		overlayPrint(screen, cx, y, end-cx, c, s)
	}
	if l.row < 0 {
		label := "Turn " + strconv.Itoa(t.Index+1)
		if t.Label != "" {
			label = t.Label
		}
		lw := overlayPrint(screen, x, y, w, label, st.label)
		col := x + max(overlayLabelW, lw) + 1
		n, est := o.tokens(int(l.turn))
		count(col, n, est, st.tokens)
		state := ""
		switch {
		case t.Active:
			state = "running"
		case t.Hidden && t.By == sessions.HiddenByCompaction:
			state = "compacted"
		case t.Hidden && t.By == sessions.HiddenByRefusal:
			state = "refused"
		case t.Hidden:
			state = "hidden"
		}
		col += overlayCountW + 1
		overlayPrint(screen, col, y, end-col, state, st.preview)
		return
	}
	r := o.row(l)
	overlayPrint(screen, x+1, y, min(overlayLabelW-1, w-1), r.Role, st.role)
	count(x+overlayLabelW+1, r.Tokens, r.Estimated, st.rowTokens)
	col := x + overlayFixedW
	overlayPrint(screen, col, y, end-col, r.Preview, st.preview)
}

// overlayCount writes a token count: as is below 10,000, then 12.3k and
// 1.2M; estimated counts start with "~".
func overlayCount(n int, est bool) string {
	var s string
	switch {
	case n < 10000:
		s = strconv.Itoa(n)
	case n < 999950:
		s = strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	default:
		s = strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	}
	if est {
		return "~" + s
	}
	return s
}

// overlayHeaderText is the whole header: [Context] then each agent's name
// in brackets.
func overlayHeaderText(agents []string) string {
	var b strings.Builder
	b.WriteString("[Context]")
	for _, a := range agents {
		b.WriteString("[" + a + "]")
	}
	return b.String()
}

// overlayFitHeader returns the header for at most avail cells: the whole
// header if it fits; else with the oldest names replaced by one […], as few
// as needed; else [Context][…][<name>] with the on-screen name shortened to
// end in "…"; else the first of [Context][…], [Context], [Ctx] and […]
// that fits. Every bracket it opens is closed.
func overlayFitHeader(agents []string, avail int) string {
	full := overlayHeaderText(agents)
	if width(full) <= avail {
		return full
	}
	for k := 1; k < len(agents); k++ {
		s := "[Context][…]" + overlayHeaderText(agents[k:])[len("[Context]"):]
		if width(s) <= avail {
			return s
		}
	}
	prefix := "[Context]"
	if len(agents) > 1 {
		prefix += "[…]"
	}
	if room := avail - width(prefix) - 2; room >= 1 && len(agents) > 0 {
		return prefix + "[" + overlayCut(agents[len(agents)-1], room) + "]"
	}
	for _, s := range []string{prefix, "[Context]", "[Ctx]", "[…]"} {
		if width(s) <= avail {
			return s
		}
	}
	return ""
}

// overlayCut cuts s to at most w cells, ending a cut with "…".
func overlayCut(s string, w int) string {
	if width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		rw := cellWidth(r)
		if used+rw > w-1 {
			break
		}
		b.WriteRune(r)
		used += rw
	}
	return b.String() + "…"
}

// overlayPrint draws s from (x, y) in at most maxW cells, cutting it with
// "…" when it does not fit, and returns the cells used.
func overlayPrint(screen tcell.Screen, x, y, maxW int, s string, style tcell.Style) int {
	if maxW <= 0 {
		return 0
	}
	s = overlayCut(s, maxW)
	used := 0
	for _, r := range s {
		rw := cellWidth(r)
		if rw == 0 {
			continue
		}
		screen.SetContent(x+used, y, r, nil, style)
		used += rw
	}
	return used
}

// overlayNaturalWidth is the width the box needs to show every line and
// the whole header without cutting, borders included.
func overlayNaturalWidth(agents []string, turns []OverlayTurn) int {
	w := width(overlayHeaderText(agents)) + overlayTopExtra
	w = max(w, 2+overlayFixedW+len("running"))
	for i := range turns {
		for j := range turns[i].Rows {
			w = max(w, overlayRowWidth(turns[i].Rows[j]))
		}
	}
	return w
}

// overlayRowWidth is the width a row's line needs, borders included.
func overlayRowWidth(r OverlayRow) int {
	return 2 + overlayFixedW + utf8.RuneCountInString(r.Preview)
}
