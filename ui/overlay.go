// The context overlay: a compact context editor drawn over the transcript.

package ui

import (
	"slices"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"harness/config"
)

// Overlay is the context overlay: the on-screen agent's turns, one header
// line per turn and one line per row, in a bordered box at the upper right
// of the transcript area. It is a tview.Primitive to draw over the
// transcript; it never changes the transcript's layout.
//
// Placement: call Place with the transcript area before drawing (or SetRect
// with Rect's result offset by the transcript's origin). Expanded, the box
// is at most 9/16 of the transcript's width and height and as wide as its
// widest line needs (a width it keeps, so it does not shrink while rows
// come and go); collapsed, it is the one-row top border. After
// CollapseWhenNarrow, until the person opens or collapses it (a click on
// [+] or [-], or SetCollapsed), it is collapsed on a transcript narrower
// than overlayNarrow columns, where it would cover most of each line, and
// expanded on a wider one; their choice then holds for as long as the
// overlay lives.
//
// Top border: a [Context][<root>]…[<name>] header centred in theme.assistant
// and, at its right end, a [-] control that collapses the box ([+] expands
// it again at the same width and scroll position). When the header does
// not fit, the oldest names collapse into one […], then the on-screen name
// is shortened with an ellipsis.
//
// Lines: a turn header "Turn N" (theme.context_turn) with its count
// (theme.context_tokens) and "hidden" or "running" (theme.status); under it
// the rows: role (theme.context_role), count (theme.context_message_tokens)
// and preview (theme.status). Counts of 10,000 and more are written as
// 12.3k or 1.2M; "~" marks an estimated count. Every part of a hidden
// turn's lines is drawn at half brightness: each colour's red, green and
// blue are averaged with the background's (SetBackground; black when the
// background is the terminal's default), which is what dimming a light
// source to half does against that background.
//
// Mouse: the wheel scrolls the lines one at a time; a click on a line of a
// completed turn calls OnToggleHidden with the turn's Index (the overlay
// does not change Hidden itself: the owner applies the change and calls
// SetData); the active turn's lines do nothing. While the newest line is in
// view the overlay follows new lines. Every mouse event inside the box is
// consumed, so the transcript under it never sees it.
//
// Like every tview primitive it must be used from the application's
// goroutine only.
type Overlay struct {
	*tview.Box

	// OnToggleHidden is called with OverlayTurn.Index when a line of a
	// completed turn is clicked.
	OnToggleHidden func(turn int)

	styles    overlayStyles
	data      OverlayData
	lines     []overlayLine // the turns' lines, then the live rows'
	turnLine  []int         // the index in lines of each turn's header
	liveAt    int           // the index in lines of the first live row
	live      []OverlayRow  // SetLive's rows
	keptW     int           // widest natural width seen: the retained expanded width
	collapsed bool
	narrow    bool   // CollapseWhenNarrow: Place collapses it on a narrow transcript
	chosen    bool   // the person opened or collapsed it: Place no longer decides
	total     string // the agent's token figure, on the bottom border
	scroll    int    // first content line shown
	follow    bool   // keep the last line in view
	area      overlayArea
}

// overlayLine is one content line: row -1 is the turn's header.
type overlayLine struct {
	turn, row int32
}

// overlayArea is the transcript area given to Place.
type overlayArea struct {
	x, y, w, h int
	set        bool
}

// NewOverlay returns an expanded, empty overlay drawn with theme's colours.
func NewOverlay(theme config.Theme) *Overlay {
	o := &Overlay{Box: tview.NewBox(), follow: true}
	o.Box.SetBackgroundColor(tcell.ColorDefault)
	o.styles = newOverlayStyles(theme, tcell.ColorDefault)
	return o
}

// SetBackground sets the colour the box is filled with and that hidden
// turns' colours are blended towards (tcell.ColorDefault, the default,
// blends towards black).
func (o *Overlay) SetBackground(c tcell.Color) *Overlay {
	o.Box.SetBackgroundColor(c)
	o.styles = newOverlayStyles(o.styles.theme, c)
	return o
}

// SetData replaces what the overlay shows. The scroll position is kept
// (clamped when drawn) while the same agent is on screen; while the last
// line was in view, or when another agent comes on screen, the last lines
// are shown.
func (o *Overlay) SetData(d OverlayData) { o.setDataFrom(d, 0) }

// setDataFrom is SetData when d's turns before turn from are those of the
// last SetData (an OverlayBuilder's Build that extended the last one):
// only the later turns' lines are laid out again, so a message added to a
// long session costs its turn.
func (o *Overlay) setDataFrom(d OverlayData, from int) {
	if !slices.Equal(o.data.Agents, d.Agents) {
		o.follow = true
		from = 0
	}
	from = min(from, len(o.turnLine), len(d.Turns))
	cut := o.liveAt
	if from < len(o.turnLine) {
		cut = o.turnLine[from]
	}
	o.data = d
	o.lines, o.turnLine = o.lines[:cut], o.turnLine[:from]
	for i := from; i < len(d.Turns); i++ {
		o.turnLine = append(o.turnLine, len(o.lines))
		o.lines = append(o.lines, overlayLine{int32(i), -1})
		for j := range d.Turns[i].Rows {
			o.lines = append(o.lines, overlayLine{int32(i), int32(j)})
		}
	}
	o.liveAt = len(o.lines)
	o.keptW = max(o.keptW, overlayNaturalWidth(d.Agents, d.Turns[from:]))
	o.SetLive(o.live)
}

// SetLive sets the rows of the reply being streamed into the last turn
// (nil for none): they are drawn after that turn's rows, with its header
// counting their tokens too, until the next SetLive. It lays out only
// those rows, so it can follow a stream frame by frame.
func (o *Overlay) SetLive(rows []OverlayRow) {
	o.live = rows
	o.lines = o.lines[:o.liveAt]
	if last := len(o.data.Turns) - 1; last >= 0 {
		n := len(o.data.Turns[last].Rows)
		for j, r := range rows {
			o.lines = append(o.lines, overlayLine{int32(last), int32(n + j)})
			o.keptW = max(o.keptW, overlayRowWidth(r))
		}
	}
	o.replace()
}

// row returns the row a content line shows: one of its turn's, or a live
// row after the last turn's.
func (o *Overlay) row(l overlayLine) *OverlayRow {
	t := &o.data.Turns[l.turn]
	if int(l.row) < len(t.Rows) {
		return &t.Rows[l.row]
	}
	return &o.live[int(l.row)-len(t.Rows)]
}

// tokens returns turn i's count, the live rows' included for the last.
func (o *Overlay) tokens(i int) (int, bool) {
	t := &o.data.Turns[i]
	n, est := t.Tokens, t.Estimated
	if i == len(o.data.Turns)-1 {
		for _, r := range o.live {
			n, est = n+r.Tokens, true
		}
	}
	return n, est
}

// Data returns what SetData was last given.
func (o *Overlay) Data() OverlayData { return o.data }

// Collapsed reports whether the overlay is collapsed to its top border.
func (o *Overlay) Collapsed() bool { return o.collapsed }

// SetCollapsed collapses or expands the overlay, keeping its width and
// scroll position for when it expands again; Place no longer decides it.
func (o *Overlay) SetCollapsed(c bool) {
	o.collapsed, o.chosen = c, true
	o.replace()
}

// CollapseWhenNarrow makes Place collapse the overlay on a transcript
// narrower than overlayNarrow and expand it on a wider one, until the
// person chooses.
func (o *Overlay) CollapseWhenNarrow() { o.narrow = true }

// SetTotal sets the token figure the expanded box shows on its bottom
// border ("" for none).
func (o *Overlay) SetTotal(s string) { o.total = s }

// overlayNarrow is the transcript width under which the overlay starts
// collapsed.
const overlayNarrow = 120

// Scroll returns the index of the first content line shown (turn headers
// and rows counted in order).
func (o *Overlay) Scroll() int { return o.scroll }

// Rect returns where the overlay goes inside a transcript area of the given
// size, relative to the area's top-left corner: at the upper right, at most
// 9/16 of the width and height when expanded, one row when collapsed.
func (o *Overlay) Rect(transcriptW, transcriptH int) (x, y, w, h int) {
	if transcriptW <= 0 || transcriptH <= 0 {
		return 0, 0, 0, 0
	}
	capW := transcriptW * 9 / 16
	headerW := width(overlayHeaderText(o.data.Agents)) + overlayTopExtra
	if o.collapsed {
		w = min(headerW, capW)
		return transcriptW - w, 0, w, 1
	}
	w = min(max(o.keptW, headerW), capW)
	h = min(max(len(o.lines), 1)+2, transcriptH*9/16)
	if h < 3 {
		h = 1
	}
	return transcriptW - w, 0, w, h
}

// onHeader reports whether x, y is on the overlay's top border, left of
// its [-]/[+] control.
func (o *Overlay) onHeader(x, y int) bool {
	ox, oy, w, _ := o.GetRect()
	return y == oy && x >= ox && x < ox+w-1-len(overlayControlOpen)
}

// Place puts the overlay in the transcript area at (x, y) of size w×h, as
// Rect says; the overlay re-places itself there when it collapses or
// expands.
func (o *Overlay) Place(x, y, w, h int) {
	o.area = overlayArea{x, y, w, h, true}
	if o.narrow && !o.chosen {
		o.collapsed = w < overlayNarrow
	}
	o.replace()
}

func (o *Overlay) replace() {
	if !o.area.set {
		return
	}
	a := o.area
	rx, ry, rw, rh := o.Rect(a.w, a.h)
	o.SetRect(a.x+rx, a.y+ry, rw, rh)
}

// visible is how many content lines the current box shows.
func (o *Overlay) visible() int {
	_, _, _, h := o.GetRect()
	if o.collapsed || h < 3 {
		return 0
	}
	return h - 2
}

// clampScroll keeps scroll within the lines and applies follow.
func (o *Overlay) clampScroll() {
	last := max(len(o.lines)-o.visible(), 0)
	if o.follow || o.scroll > last {
		o.scroll = last
	}
	o.scroll = max(o.scroll, 0)
}

// ScrollBy moves the shown lines by n (positive: towards newer turns).
func (o *Overlay) ScrollBy(n int) {
	if o.collapsed {
		return
	}
	o.clampScroll()
	last := max(len(o.lines)-o.visible(), 0)
	o.scroll = min(max(o.scroll+n, 0), last)
	o.follow = o.scroll == last
}

// MouseHandler scrolls, toggles collapse and hides or restores turns.
func (o *Overlay) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return o.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := event.Position()
		if !o.InRect(mx, my) {
			return false, nil
		}
		switch action {
		case tview.MouseScrollUp:
			o.ScrollBy(-1)
		case tview.MouseScrollDown:
			o.ScrollBy(1)
		case tview.MouseLeftClick, tview.MouseLeftDoubleClick:
			o.click(mx, my)
		}
		return true, nil
	})
}

// click handles a click at screen cell (mx, my) inside the box.
func (o *Overlay) click(mx, my int) {
	x, y, w, _ := o.GetRect()
	if my == y {
		if mx >= x+w-1-len(overlayControlOpen) && mx < x+w-1 {
			o.SetCollapsed(!o.collapsed) // the person's choice, from now on
		}
		return
	}
	n := my - y - 1
	if n < 0 || n >= o.visible() || mx <= x || mx >= x+w-1 {
		return
	}
	o.clampScroll()
	i := o.scroll + n
	if i >= len(o.lines) {
		return
	}
	t := o.data.Turns[o.lines[i].turn]
	if !t.Active && o.OnToggleHidden != nil {
		o.OnToggleHidden(t.Index)
	}
}

// Draw draws the overlay in its rect.
func (o *Overlay) Draw(screen tcell.Screen) {
	o.replace()
	o.Box.DrawForSubclass(screen, o)
	x, y, w, h := o.GetRect()
	if w <= 0 || h <= 0 {
		return
	}
	o.drawTop(screen, x, y, w)
	if o.collapsed || h < 3 {
		return
	}
	o.clampScroll()
	o.drawFrame(screen, x, y, w, h)
	for n := 0; n < h-2; n++ {
		i := o.scroll + n
		if i >= len(o.lines) {
			if len(o.lines) == 0 && n == 0 {
				empty := "(no messages)"
				if o.data.Counting {
					empty = "counting tokens…"
				}
				overlayPrint(screen, x+2, y+1, w-3, empty, o.styles.preview)
			}
			break
		}
		o.drawLine(screen, x+1, y+1+n, w-2, o.lines[i])
	}
}
