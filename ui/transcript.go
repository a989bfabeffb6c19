// The transcript widget: draws the on-screen agent's blocks, scrolls, selects.

package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"harness/styled"
)

// scroll is one view's scroll state. Following, the last line is at the
// bottom of the widget and new text scrolls into sight; held, top is the
// first line shown and stays put until the view is scrolled back to the
// bottom.
type scroll struct {
	follow bool
	top    pos
}

// point is a cell of the document: column col of line p.
type point struct {
	p   pos
	col int
}

func (a point) less(b point) bool { return a.p.less(b.p) || a.p == b.p && a.col < b.col }

// selection is the text selected with the mouse.
type selection struct {
	on       bool
	dragging bool
	from, to point // from is where the drag started
}

// ordered returns the selection's ends in document order.
func (s selection) ordered() (point, point) {
	if s.to.less(s.from) {
		return s.to, s.from
	}
	return s.from, s.to
}

// transcript draws a doc. It is not safe for concurrent use: tview's event
// goroutine owns it.
type transcript struct {
	*tview.Box
	st     *styles
	doc    func() doc
	scroll func() *scroll
	sel    selection
	rows   []pos // the line drawn on each row from off at the last Draw
	off    int   // the empty rows above the first line drawn
	w, h   int   // inner size at the last Draw
}

func newTranscript(st *styles, d func() doc, sc func() *scroll) *transcript {
	return &transcript{Box: tview.NewBox(), st: st, doc: d, scroll: sc}
}

// top returns the first line to show at width w and height h, resuming
// following when a held view reaches the bottom, and how many rows stay
// empty above it: a document shorter than the widget sits at its bottom,
// its last line right above the input, so the context overlay at the top
// never covers the newest lines.
func (t *transcript) top(d doc, w, h int) (pos, int) {
	sc := t.scroll()
	if !sc.follow {
		top := d.norm(sc.top, w)
		if p, _ := d.fwd(top, h, w); p.b < d.n() {
			return top, 0
		}
		sc.follow = true
	}
	p, moved := d.back(d.end(), h, w)
	return p, h - moved
}

// Draw draws the lines from top, highlighting the selection.
// The area's background is mainView's: the transcript draws only text.
func (t *transcript) Draw(s tcell.Screen) {
	x, y, w, h := t.GetInnerRect()
	t.w, t.h = w, h
	t.rows = t.rows[:0]
	if w <= 0 || h <= 0 {
		return
	}
	d := t.doc()
	p, off := t.top(d, w, h)
	t.off = off
	from, to := t.sel.ordered()
	for row := off; row < h; row++ {
		p = d.norm(p, w)
		if p.b >= d.n() {
			break
		}
		b := d.at(p.b)
		lo, hi := -1, -1
		if t.sel.on && !p.less(from.p) && !to.p.less(p) {
			lo, hi = 0, w
			if p == from.p {
				lo = from.col
			}
			if p == to.p {
				hi = to.col + 1
			}
		}
		if b.styledOn() {
			drawStyled(s, x, y+row, w, b.srow(w, p.l), t.st.of(b.kind), t.st, lo, hi)
		} else {
			drawText(s, x, y+row, w, b.lineText(w, p.l), t.st.of(b.kind), lo, hi)
		}
		t.rows = append(t.rows, p)
		p.l++
	}
}

// drawText draws one line clipped to w cells, reversing cells [lo, hi).
func drawText(s tcell.Screen, x, y, w int, text string, style tcell.Style, lo, hi int) {
	col := 0
	put := func(r rune, cw int) {
		st := style
		if col >= lo && col < hi {
			st = st.Reverse(true)
		}
		s.SetContent(x+col, y, r, nil, st)
		col += cw
	}
	for _, r := range text {
		cw := cellWidth(r)
		if col+cw > w {
			break
		}
		switch {
		case r == '\t':
			for i := 0; i < tabWidth; i++ {
				put(' ', 1)
			}
		case cw == 0:
		case r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0:
			put('\uFFFD', 1)
		default:
			put(r, cw)
		}
	}
	for col < lo && col < w {
		col++
	}
	for ; col < hi && col < w && lo >= 0; col++ {
		s.SetContent(x+col, y, ' ', nil, style.Reverse(true))
	}
}

// drawStyled draws one styled line clipped to w cells, each span in its
// class's colour over base, reversing cells [lo, hi).
func drawStyled(s tcell.Screen, x, y, w int, l styled.Line, base tcell.Style, st *styles, lo, hi int) {
	col := 0
	last := base
	for _, sp := range l.Spans {
		style := st.span(base, sp.Style)
		last = style
		for _, r := range sp.Text {
			cw := cellWidth(r)
			if col+cw > w {
				break
			}
			c := style
			if col >= lo && col < hi {
				c = c.Reverse(true)
			}
			switch {
			case r == '\t':
				for i := 0; i < tabWidth && col < w; i++ {
					s.SetContent(x+col, y, ' ', nil, c)
					col++
				}
				continue
			case cw == 0:
				continue
			case r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0:
				r, cw = '\uFFFD', 1
			}
			s.SetContent(x+col, y, r, nil, c)
			col += cw
		}
	}
	for ; col < hi && col < w && lo >= 0; col++ {
		if col >= lo {
			s.SetContent(x+col, y, ' ', nil, last.Reverse(true))
		}
	}
}

// scrollBy moves the view n lines down (negative: up).
func (t *transcript) scrollBy(n int) {
	d, w, h := t.doc(), t.w, t.h
	if w <= 0 {
		return
	}
	sc := t.scroll()
	top, _ := t.top(d, w, h)
	if n < 0 {
		sc.top, _ = d.back(top, -n, w)
		sc.follow = false
		return
	}
	if sc.follow {
		return
	}
	sc.top, _ = d.fwd(top, n, w)
}

// pointAt returns the document cell under screen row y, column x (clamped
// to the lines drawn), and whether there is one.
func (t *transcript) pointAt(x, y int) (point, bool) {
	tx, ty, _, _ := t.GetInnerRect()
	if len(t.rows) == 0 {
		return point{}, false
	}
	rel := y - ty - t.off
	row := min(max(rel, 0), len(t.rows)-1)
	col := max(x-tx, 0)
	switch {
	case rel < 0:
		col = 0
	case rel >= len(t.rows):
		col = t.w
	}
	return point{t.rows[row], col}, true
}

// press starts a selection at x, y.
func (t *transcript) press(x, y int) {
	t.sel = selection{}
	if p, ok := t.pointAt(x, y); ok {
		t.sel = selection{on: true, dragging: true, from: p, to: p}
	}
}

// drag extends the selection to x, y, scrolling when it leaves the widget.
func (t *transcript) drag(x, y int) {
	if !t.sel.dragging {
		return
	}
	_, ty, _, _ := t.GetInnerRect()
	switch {
	case y < ty:
		t.scrollBy(-1)
	case y >= ty+t.h:
		t.scrollBy(1)
	}
	if p, ok := t.pointAt(x, y); ok {
		t.sel.to = p
	}
}

// release ends the selection and returns its text ("" for a click), and
// whether it was a click (press and release on one cell) and where.
func (t *transcript) release(x, y int) (string, bool, point) {
	if !t.sel.dragging {
		return "", false, point{}
	}
	t.drag(x, y)
	t.sel.dragging = false
	if t.sel.from == t.sel.to {
		t.sel.on = false
		return "", true, t.sel.from
	}
	return t.selectedText(), false, point{}
}

// selectedText returns the selected text: within a block, exactly the
// block's text between the ends (wrapping adds no newlines); blocks are
// joined by a newline, two when a blank line separates them on screen.
func (t *transcript) selectedText() string {
	from, to := t.sel.ordered()
	d, w := t.doc(), t.w
	var sb strings.Builder
	for bi := from.p.b; bi <= to.p.b && bi < d.n(); bi++ {
		b := d.at(bi)
		if b.styledOn() {
			// The text as shown: styled rows, joined where they wrapped.
			if bi > from.p.b {
				sb.WriteByte('\n')
				if b.gap {
					sb.WriteByte('\n')
				}
			}
			rows := b.slines(w)
			fl, fc, tl, tc := 0, 0, len(rows)-1, 1<<30
			if bi == from.p.b {
				fl, fc = from.p.l, from.col
			}
			if bi == to.p.b {
				tl, tc = to.p.l, to.col
			}
			if b.gap { // row 0 is the gap: the ends given as rows move up one
				if bi == from.p.b {
					if from.p.l == 0 {
						fc = 0
					}
					fl = max(fl-1, 0)
				}
				if bi == to.p.b {
					tl--
				}
			}
			if tl >= 0 {
				sb.WriteString(styled.CopyRange(rows, fl, fc, tl, tc))
			}
			continue
		}
		text := b.String()
		start, end := 0, len(text)
		if bi == from.p.b {
			start = byteAt(b, w, from.p.l, from.col, false)
		}
		if bi == to.p.b {
			end = byteAt(b, w, to.p.l, to.col, true)
		}
		if bi > from.p.b {
			sb.WriteByte('\n')
			if b.gap {
				sb.WriteByte('\n') // the blank line drawn above the block
			}
		}
		if start < end {
			sb.WriteString(text[start:end])
		}
	}
	return sb.String()
}

// byteAt returns the offset in b's text of the cell col of line l at width
// w; after says to include the character in that cell.
func byteAt(b *block, w, l, col int, after bool) int {
	lines := b.lines(w)
	if l >= len(lines) {
		return len(b.String())
	}
	s := lines[l]
	if s.start < 0 {
		return 0
	}
	text := b.String()
	c := 0
	for i := s.start; i < s.end; {
		r, n := utf8.DecodeRuneInString(text[i:s.end])
		c += cellWidth(r)
		if c > col {
			if after {
				return i + n
			}
			return i
		}
		i += n
	}
	return s.end
}
