// The session picker: harness --resume on a terminal.

package ui

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/config"
	"harness/sessions"
)

// PickOptions are what Pick needs.
type PickOptions struct {
	Theme    config.Theme
	Sessions []sessions.Info // in any order; shown newest first
	Screen   tcell.Screen    // nil opens the terminal; one given is initialized, and left so
	Now      func() time.Time
	Home     string // shown as "~" at the start of a repository path
	// InUse, when set, says whether a session is open in another harness
	// now (and its PID), checked when it is chosen: the marks of Sessions
	// may be out of date. nil trusts Sessions' marks.
	InUse func(name string) (bool, int)
}

// Pick shows the saved sessions full-screen and returns the name of the
// one chosen with Enter, or "" when the person quits with Esc or Ctrl+C.
// Typing filters the list (every word must occur in the name, the
// repository or the first message, case ignored), Up/Down, PageUp/PageDown,
// Home/End and the wheel move the selection, a click selects a row and a
// click on the selected row opens it. The newest session starts selected.
// A session another harness has open says "in use" where its time would
// be; choosing one still in use says so on the hint line and stays in the
// picker.
func Pick(o PickOptions) (string, error) {
	s := o.Screen
	if s == nil {
		var err error
		if s, err = tcell.NewScreen(); err != nil {
			return "", err
		}
		if err := s.Init(); err != nil {
			return "", err
		}
		defer s.Fini()
	}
	s.EnableMouse()
	p := newPicker(o)
	for {
		p.draw(s)
		s.Show()
		ev := s.PollEvent()
		if ev == nil {
			return "", errors.New("the terminal closed")
		}
		if done, name := p.handle(ev); done {
			return name, nil
		}
	}
}

// picker is the picker's state, apart from the terminal.
type picker struct {
	o      PickOptions
	all    []sessions.Info // newest first
	shown  []int           // indexes into all matching the filter
	filter []rune
	sel    int // index into shown
	top    int // first row of shown drawn
	rows   int // list rows at the last draw
	listY  int // screen row of the list's first row
	st     pickerStyles
	notice string // replaces the key hints until the next key: why Enter did not open
}

type pickerStyles struct {
	title, hint, header, name, when, repo, preview, filter, none, inUse tcell.Style
}

func newPicker(o PickOptions) *picker {
	if o.Now == nil {
		o.Now = time.Now
	}
	all := slices.Clone(o.Sessions)
	slices.SortStableFunc(all, func(a, b sessions.Info) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	st := newStyles(o.Theme)
	p := &picker{o: o, all: all, st: pickerStyles{
		title: st.user.Bold(true), hint: st.status, header: st.status.Bold(true),
		name: st.assistant.Bold(true), when: st.status, repo: st.toolResult, preview: st.assistant,
		filter: st.input, none: st.status.Italic(true), inUse: st.warning,
	}}
	p.refilter()
	return p
}

// refilter recomputes the rows shown and selects the newest.
func (p *picker) refilter() {
	words := strings.Fields(strings.ToLower(string(p.filter)))
	p.shown = p.shown[:0]
	for i, s := range p.all {
		hay := strings.ToLower(s.Name + "\x00" + s.Repository + "\x00" + s.Preview)
		ok := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				ok = false
				break
			}
		}
		if ok {
			p.shown = append(p.shown, i)
		}
	}
	p.sel, p.top = 0, 0
}

// handle applies one terminal event; done says the picker ends, with the
// chosen name or "".
func (p *picker) handle(ev tcell.Event) (done bool, name string) {
	switch ev := ev.(type) {
	case *tcell.EventKey:
		return p.key(ev)
	case *tcell.EventMouse:
		return p.mouse(ev)
	}
	return false, ""
}

// open chooses the selected session, unless another harness has it open:
// then the hint line says so and the picker stays.
func (p *picker) open() (bool, string) {
	info := &p.all[p.shown[p.sel]]
	if p.o.InUse != nil {
		info.InUse, info.PID = p.o.InUse(info.Name)
	}
	if info.InUse {
		p.notice = fmt.Sprintf("%s is open in another harness (%s): quit that one first, or choose another", info.Name, inUseText(*info))
		return false, ""
	}
	return true, info.Name
}

func (p *picker) key(ev *tcell.EventKey) (bool, string) {
	page := max(p.rows-1, 1)
	p.notice = ""
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlC:
		return true, ""
	case tcell.KeyEnter:
		if len(p.shown) > 0 {
			return p.open()
		}
	case tcell.KeyUp, tcell.KeyCtrlP:
		p.move(-1)
	case tcell.KeyDown, tcell.KeyCtrlN:
		p.move(1)
	case tcell.KeyPgUp:
		p.move(-page)
	case tcell.KeyPgDn:
		p.move(page)
	case tcell.KeyHome:
		p.move(-len(p.shown))
	case tcell.KeyEnd:
		p.move(len(p.shown))
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if len(p.filter) > 0 {
			p.filter = p.filter[:len(p.filter)-1]
			p.refilter()
		}
	case tcell.KeyCtrlU:
		p.filter = p.filter[:0]
		p.refilter()
	case tcell.KeyRune:
		p.filter = append(p.filter, ev.Rune())
		p.refilter()
	}
	return false, ""
}

func (p *picker) mouse(ev *tcell.EventMouse) (bool, string) {
	_, y := ev.Position()
	switch {
	case ev.Buttons()&tcell.WheelUp != 0:
		p.move(-1)
	case ev.Buttons()&tcell.WheelDown != 0:
		p.move(1)
	case ev.Buttons()&tcell.Button1 != 0:
		i := p.top + y - p.listY
		if y >= p.listY && y < p.listY+p.rows && i < len(p.shown) {
			if i == p.sel {
				return p.open()
			}
			p.sel = i
		}
	}
	return false, ""
}

// move moves the selection by n rows, within the list.
func (p *picker) move(n int) {
	if len(p.shown) == 0 {
		return
	}
	p.sel = min(max(p.sel+n, 0), len(p.shown)-1)
}

// draw draws the picker: a title, the filter line, the column headers,
// the list and the key hints.
func (p *picker) draw(s tcell.Screen) {
	s.Clear()
	w, h := s.Size()
	if w <= 0 || h <= 0 {
		return
	}
	count := fmt.Sprintf("%d of %d", len(p.shown), len(p.all))
	put(s, 0, 0, w, "Resume a session", p.st.title)
	if len(count) < w-18 {
		put(s, w-len(count), 0, len(count), count, p.st.hint)
	}
	if h > 1 {
		x := put(s, 0, 1, w, "> ", p.st.filter)
		if len(p.filter) == 0 {
			put(s, x, 1, w-x, "type to filter", p.st.hint.Dim(true))
			s.ShowCursor(x, 1)
		} else {
			x = put(s, x, 1, w-x, string(p.filter), p.st.filter)
			s.ShowCursor(min(x, w-1), 1)
		}
	}
	p.listY = 3
	p.rows = max(h-p.listY-1, 0)
	if h <= 4 { // no room for the headers and the hints: the list alone
		p.listY, p.rows = min(2, h), max(h-2, 0)
	}
	cols := p.columns(w)
	if h > 4 {
		p.row(s, 2, cols, [4]string{"NAME", "UPDATED", "REPOSITORY", "FIRST MESSAGE"},
			[4]tcell.Style{p.st.header, p.st.header, p.st.header, p.st.header})
		if p.notice != "" {
			put(s, 0, h-1, w, p.notice, p.st.inUse)
		} else {
			put(s, 0, h-1, w, "↑/↓ choose · Enter opens · Esc quits", p.st.hint)
		}
	}
	if len(p.shown) == 0 && p.rows > 0 {
		put(s, 2, p.listY, w-2, "no session matches", p.st.none)
		return
	}
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.rows > 0 && p.sel >= p.top+p.rows {
		p.top = p.sel - p.rows + 1
	}
	for r := 0; r < p.rows && p.top+r < len(p.shown); r++ {
		i := p.top + r
		info := p.all[p.shown[i]]
		st := [4]tcell.Style{p.st.name, p.st.when, p.st.repo, p.st.preview}
		when := p.when(info.Updated)
		if info.InUse {
			when, st[1] = inUseText(info), p.st.inUse
		}
		if i == p.sel {
			for k := range st {
				st[k] = st[k].Reverse(true)
			}
			for x := 0; x < w; x++ {
				s.SetContent(x, p.listY+r, ' ', nil, st[3])
			}
		}
		p.row(s, p.listY+r, cols, [4]string{info.Name, when, p.repo(info.Repository), info.Preview}, st)
	}
}

// inUseText is what the UPDATED column says of a session in use.
func inUseText(s sessions.Info) string {
	if s.PID > 0 {
		return fmt.Sprintf("in use: pid %d", s.PID)
	}
	return "in use"
}

// columns returns the start column of each of the four columns at width w
// (a column that does not fit starts at w).
func (p *picker) columns(w int) [4]int {
	nameW, repoW, whenW := len("NAME"), len("REPOSITORY"), 16
	for _, s := range p.all {
		nameW = max(nameW, width(s.Name))
		repoW = max(repoW, width(p.repo(s.Repository)))
		if s.InUse {
			whenW = max(whenW, len(inUseText(s)))
		}
	}
	nameW, repoW = min(nameW, 32), min(repoW, 36)
	c := [4]int{1, 1 + nameW + 2, 1 + nameW + 2 + whenW + 2, 1 + nameW + 2 + whenW + 2 + repoW + 2}
	for i := range c {
		c[i] = min(c[i], w)
	}
	return c
}

// row draws the four fields of one row, each cut to its column.
func (p *picker) row(s tcell.Screen, y int, cols [4]int, f [4]string, st [4]tcell.Style) {
	w, _ := s.Size()
	for i := range f {
		end := w
		if i < 3 {
			end = cols[i+1] - 2
		}
		put(s, cols[i], y, end-cols[i], f[i], st[i])
	}
}

// when shows a time relative to now: "just now", "5 min ago", "3 h ago",
// "2 days ago", then the date.
func (p *picker) when(t time.Time) string {
	d := p.o.Now().Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	case d < 7*24*time.Hour:
		n := int(d / (24 * time.Hour))
		if n == 1 {
			return "yesterday"
		}
		return fmt.Sprintf("%d days ago", n)
	}
	return t.Local().Format("2006-01-02")
}

// repo shortens the home directory to "~".
func (p *picker) repo(r string) string {
	if h := p.o.Home; h != "" && (r == h || strings.HasPrefix(r, h+string(os.PathSeparator))) {
		return "~" + r[len(h):]
	}
	return r
}

// put draws text from x, y in at most n cells, ending with "…" when cut,
// and returns the column after it.
func put(s tcell.Screen, x, y, n int, text string, st tcell.Style) int {
	if n <= 0 {
		return x
	}
	if width(text) > n {
		text = cutTo(text, n-1) + "…"
	}
	for _, r := range text {
		cw := cellWidth(r)
		if r < ' ' {
			r, cw = ' ', 1
		}
		s.SetContent(x, y, r, nil, st)
		x += cw
	}
	return x
}

// cutTo returns the longest start of s that fits in n cells.
func cutTo(s string, n int) string {
	col := 0
	for i, r := range s {
		if col+cellWidth(r) > n {
			return s[:i]
		}
		col += cellWidth(r)
	}
	return s
}
