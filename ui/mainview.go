// The screen layout: transcript, input, command list and status line.

package ui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// listMax is the most commands the list shows.
const listMax = 10

// mainView lays out and draws the whole screen. The transcript fills the
// top; under it a rule, the input, the command list (while typing a
// command) and the status line.
type mainView struct {
	*tview.Box
	a        *App
	tr       *transcript
	screen   tcell.Screen
	welcomeB *block // the welcome of an empty session, reused between frames
	inW      int
	ov       *Overlay
	// stripY, stripH: the rows the strip of running subagents took in
	// the last frame (strip.go).
	stripY, stripH int
}

func newMainView(a *App) *mainView {
	m := &mainView{Box: tview.NewBox(), a: a, ov: NewOverlay(a.opts.Theme)}
	// The terminal's own background, as the text over it has: tview's
	// default (black) would show as bars beside every line on a terminal
	// whose background is not black.
	m.Box.SetBackgroundColor(tcell.ColorDefault)
	m.ov.OnToggleHidden = a.toggleHidden
	m.ov.CollapseWhenNarrow()
	m.tr = newTranscript(&a.st,
		func() doc {
			d := doc{blocks: a.top().blocks, tail: a.tail()}
			if a.showWelcome() {
				d.head = a.welcome()
			}
			return d
		},
		func() *scroll { return &a.top().scroll })
	return m
}

func (m *mainView) inputWidth() int { return m.inW }

// inTranscript reports whether x, y is on the transcript.
func (m *mainView) inTranscript(x, y int) bool { return m.tr.InRect(x, y) }

// MouseHandler reports every mouse action as handled, so tview redraws:
// App.mouse has already acted on it.
func (m *mainView) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return m.WrapMouseHandler(func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
		return true, nil
	})
}

// PasteHandler inserts pasted text into the input: a paste never sends.
func (m *mainView) PasteHandler() func(string, func(tview.Primitive)) {
	return m.WrapPasteHandler(func(text string, _ func(tview.Primitive)) {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
		m.a.lastTyped = m.a.clock.Now()
		m.a.edit(func() { m.a.in.insert(text) })
	})
}

// Draw lays the screen out and draws every part. It fills its area with
// the background once; the transcript under it draws only its text.
func (m *mainView) Draw(s tcell.Screen) {
	m.screen = s
	x, y, w, h := m.GetInnerRect()
	if w <= 0 || h <= 0 {
		return
	}
	fillRect(s, x, y, w, h, tcell.StyleDefault.Background(m.GetBackgroundColor()))
	a := m.a
	m.inW = w
	list := a.matches()
	listH := min(len(list), listMax)
	in := &a.in
	if a.noting() {
		in, list, listH = &a.prompt.note, nil, 0
	}
	inH := in.height(w, max(1, (h-2)/3))
	stH := min(a.stripHeight(), max(0, (h-2-inH)/3))
	trH := h - 2 - listH - inH - stH
	if trH < 0 {
		listH = max(0, listH+trH)
		trH = 0
	}
	m.tr.SetRect(x, y, w, trH)
	m.tr.Draw(s)
	a.refreshOverlay()
	a.refreshLive()
	m.ov.SetTotal(a.tokens(a.top()).String())
	m.ov.Place(x, y, w, trH)
	m.ov.Draw(s)
	row := y + trH
	m.stripY, m.stripH = row, stH
	if stH > 0 {
		m.drawStrip(x, row, w, stH)
		row += stH
	}
	if trH > 0 || h > 2 {
		drawText(s, x, row, w, strings.Repeat("─", w), a.st.status, -1, -1)
		row++
	}
	inSt := a.st.input
	if in != &a.in {
		inSt = a.st.approval
	}
	in.draw(s, x, row, w, inH, inSt, true)
	row += inH
	sel := min(a.cmdSel, len(list)-1)
	first := max(0, sel-listH+1)
	for i := 0; i < listH; i++ {
		c := list[first+i]
		st := a.st.status
		if first+i == sel {
			st = st.Reverse(true)
		}
		line := fmt.Sprintf("  %-16s %s", c.name+c.args, c.help)
		drawText(s, x, row, w, line, st, -1, -1)
		row++
	}
	line := a.statusLine(w)
	drawText(s, x, y+h-1, w, line, a.st.status, -1, -1)
	if t := a.tokens(a.top()); t.Over() {
		// Past the compaction threshold: the count in the warning colour.
		if i := strings.Index(line, t.String()); i >= 0 {
			off := width(line[:i])
			drawText(s, x+off, y+h-1, w-off, t.String(), a.st.warning.Background(backgroundOf(a.st.status)), -1, -1)
		}
	}
}

// backgroundOf is st's background colour.
func backgroundOf(st tcell.Style) tcell.Color {
	_, bg, _ := st.Decompose()
	return bg
}

// statusText is the status line: the agent on screen, the model, the
// tokens in use, the permission level, and what keys do now.
func (a *App) statusText() string {
	return joinStatus(a.statusParts())
}

// statusLine is the status line fitted to w cells: when it is too long,
// the model, then the permission level, then the token count give way,
// so that what the keys do now (y / n, PageDown, Esc) stays in view; only
// then is the end cut.
func (a *App) statusLine(w int) string {
	parts := a.statusParts()
	line := joinStatus(parts)
	for _, drop := range []int{statusModel, statusLevel, statusTokens} {
		if width(line) <= w {
			break
		}
		parts[drop] = ""
		line = joinStatus(parts)
	}
	return line
}

// joinStatus joins the status line's non-empty parts.
func joinStatus(parts []string) string {
	var sb strings.Builder
	for _, p := range parts {
		if p == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString(" │ ")
		}
		sb.WriteString(p)
	}
	return " " + sb.String()
}

// The fixed parts of the status line, by index in statusParts.
const (
	statusAgent = iota
	statusModel
	statusTokens
	statusLevel
)

// statusParts are the status line's parts: the fixed ones, then the hints.
func (a *App) statusParts() []string {
	v := a.top()
	parts := []string{a.agentName(v), a.opts.Model, a.tokens(v).String(), a.opts.Level.Get().String()}
	req := a.head()
	switch {
	case a.noting():
		parts = append(parts, "Enter refuses with the note · Esc goes back")
	case req != nil:
		parts = append(parts, strings.Join(answerHints(req.op, true), " · "))
	case a.exitArmed(a.retryClock().Now()):
		parts = append(parts, exitHint)
	}
	// The scroll hint goes before the longer turn hints: a narrow status
	// line cuts the end, and a view that does not follow needs saying.
	if !v.scroll.follow {
		parts = append(parts, "scrolled · PageDown to follow")
	}
	switch {
	case req != nil:
	case a.waiting:
		parts = append(parts, a.progressText()+" · your message waits: Enter sends it after the turn")
	case a.running:
		parts = append(parts, a.progressText()+" · Esc stops")
	}
	return parts
}

// rootPages is the root primitive: tview.Pages, drawing its visible pages
// without first filling its whole area with the background, which every
// page (mainView) fills itself: one pass less over every cell per frame.
type rootPages struct{ *tview.Pages }

func (p rootPages) Draw(s tcell.Screen) {
	x, y, w, h := p.GetInnerRect()
	for _, name := range p.GetPageNames(true) {
		item := p.GetPage(name)
		item.SetRect(x, y, w, h)
		item.Draw(s)
	}
}
