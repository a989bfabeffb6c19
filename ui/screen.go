// The screen the widgets draw on: a frame buffer that hands the terminal
// only the cells a frame changed.

package ui

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// frameScreen is the terminal as the widgets see it: every cell they set
// goes into a grid of its own, and Show gives the real screen only the
// cells that differ from the last frame it showed, then shows it; a frame
// equal to the last one writes nothing at all.
//
// Without it every visible character went to the terminal in every
// frame: tview clears the screen before each frame and boxes fill their
// background before their text is drawn, and tcell marks a cell dirty
// whenever it is set to something other than what it holds, even when the
// frame ends with the cell as it was shown. It also spares tcell's
// per-cell cost (a string allocated and a grapheme cluster segmented for
// each cell set) for the cells that did not change.
//
// Everything else is the real screen's. Like the widgets, it belongs to
// tview's event goroutine.
type frameScreen struct {
	tcell.Screen
	w, h   int
	cur    []frameCell // what the frame being drawn sets
	shown  []frameCell // what the real screen holds
	valid  bool        // shown is what the real screen holds (false after a resize or Init)
	cursor frameCursor // where the frame puts the cursor
	shownC frameCursor // where the real screen has it
	tab    cellTable   // the styles and combining characters the cells name
}

// frameCell is one cell: a character, and its style and combining
// characters as numbers in the frameScreen's cellTable. Eight bytes
// compared as one, where a tcell.Style alone is fifty with two strings:
// setting, clearing and comparing the grids of a frame is a copy and a
// compare of 8 bytes a cell.
type frameCell struct {
	r    rune
	st   uint16 // tab.styles[st]
	comb uint16 // tab.combs[comb]; 0: none
}

// cellTable numbers the styles and combining characters that cells hold.
type cellTable struct {
	styles  []tcell.Style
	styleID map[tcell.Style]uint16
	combs   []string // combs[0] is ""
	combID  map[string]uint16
	last    tcell.Style // the style numbered last, and its number
	lastID  uint16
	hasLast bool
}

// newCellTable returns a table whose number 0 is the default style and
// no combining characters, which a zero frameCell holds.
func newCellTable() cellTable {
	return cellTable{
		styles: []tcell.Style{tcell.StyleDefault}, styleID: map[tcell.Style]uint16{tcell.StyleDefault: 0},
		combs: []string{""}, combID: map[string]uint16{},
	}
}

// maxTable is the most styles, or combining sequences, a cellTable
// numbers; past it, Show numbers again only those the cells hold.
const maxTable = 1 << 12

// style returns st's number.
func (t *cellTable) style(st tcell.Style) uint16 {
	if t.hasLast && st == t.last {
		return t.lastID
	}
	id, ok := t.styleID[st]
	if !ok {
		id = uint16(len(t.styles))
		t.styles = append(t.styles, st)
		t.styleID[st] = id
	}
	t.last, t.lastID, t.hasLast = st, id, true
	return id
}

// comb returns the number of the combining characters cs.
func (t *cellTable) comb(cs string) uint16 {
	if cs == "" {
		return 0
	}
	id, ok := t.combID[cs]
	if !ok {
		id = uint16(len(t.combs))
		t.combs = append(t.combs, cs)
		t.combID[cs] = id
	}
	return id
}

// text is cell c's characters as Put takes them; an ASCII character's
// string is shared, not allocated (SetContent allocates one per cell).
func (t *cellTable) text(c frameCell) string {
	if c.comb == 0 && c.r >= 0 && c.r < utf8.RuneSelf {
		return asciiStrings[c.r]
	}
	return string(c.r) + t.combs[c.comb]
}

// cell returns the cell of r, comb and st.
func (t *cellTable) cell(r rune, comb string, st tcell.Style) frameCell {
	return frameCell{r: r, st: t.style(st), comb: t.comb(comb)}
}

// renumber numbers again only what the cells of cur hold, when the
// table has grown past maxTable (a style a link, many links), or when
// force: the cells shown name old numbers, so the next frame is written
// whole.
func (f *frameScreen) renumber(force bool) {
	if !force && len(f.tab.styles) <= maxTable && len(f.tab.combs) <= maxTable {
		return
	}
	old := f.tab
	f.tab = newCellTable()
	for i, c := range f.cur {
		f.cur[i] = f.tab.cell(c.r, old.combs[c.comb], old.styles[c.st])
	}
	f.valid = false
}

var asciiStrings = func() (t [utf8.RuneSelf]string) {
	for i := range t {
		t[i] = string(rune(i))
	}
	return t
}()

type frameCursor struct {
	x, y int
	on   bool
}

var _ tcell.Screen = (*frameScreen)(nil)

func newFrameScreen(s tcell.Screen) *frameScreen {
	return &frameScreen{Screen: s, tab: newCellTable()}
}

// Init initializes the real screen; the next frame is written whole.
func (f *frameScreen) Init() error {
	f.valid = false
	return f.Screen.Init()
}

// fit sizes the grid to the real screen, invalidating it on a change.
func (f *frameScreen) fit() {
	w, h := f.Screen.Size()
	if w == f.w && h == f.h && f.cur != nil {
		return
	}
	f.w, f.h = w, h
	f.cur = make([]frameCell, max(w*h, 0))
	f.shown = make([]frameCell, len(f.cur))
	f.valid = false
}

func (f *frameScreen) Clear() { f.Fill(' ', tcell.StyleDefault) }

func (f *frameScreen) Fill(r rune, st tcell.Style) {
	f.fit()
	c := f.cell(r, "", st)
	for i := range f.cur {
		f.cur[i] = c
	}
}

func (f *frameScreen) SetContent(x, y int, r rune, comb []rune, st tcell.Style) {
	if x < 0 || y < 0 || x >= f.w || y >= f.h {
		return
	}
	cs := ""
	if len(comb) > 0 {
		cs = string(comb)
	}
	f.cur[y*f.w+x] = f.cell(r, cs, st)
}

// cell returns the cell of r, comb and st, numbering the table again
// first when a frame has set so many styles that numbers would run out.
func (f *frameScreen) cell(r rune, comb string, st tcell.Style) frameCell {
	if len(f.tab.styles) >= 1<<16-1 || len(f.tab.combs) >= 1<<16-1 {
		f.renumber(true)
	}
	return f.tab.cell(r, comb, st)
}

func (f *frameScreen) SetCell(x, y int, st tcell.Style, ch ...rune) {
	if len(ch) > 0 {
		f.SetContent(x, y, ch[0], ch[1:], st)
	}
}

// Put sets the cell at x, y to the first character of str and the
// zero-width characters after it, and returns the rest and the width.
func (f *frameScreen) Put(x, y int, str string, st tcell.Style) (string, int) {
	var main rune
	var comb []rune
	for i, r := range str {
		switch {
		case i == 0:
			main = r
		case cellWidth(r) == 0:
			comb = append(comb, r)
		default:
			f.SetContent(x, y, main, comb, st)
			return str[i:], cellWidth(main)
		}
	}
	if str == "" {
		return "", 0
	}
	f.SetContent(x, y, main, comb, st)
	return "", cellWidth(main)
}

func (f *frameScreen) PutStr(x, y int, str string) { f.PutStrStyled(x, y, str, tcell.StyleDefault) }

func (f *frameScreen) PutStrStyled(x, y int, str string, st tcell.Style) {
	for str != "" {
		var w int
		str, w = f.Put(x, y, str, st)
		x += max(w, 1)
	}
}

func (f *frameScreen) Get(x, y int) (string, tcell.Style, int) {
	r, comb, st, w := f.GetContent(x, y)
	return string(r) + string(comb), st, w
}

func (f *frameScreen) GetContent(x, y int) (rune, []rune, tcell.Style, int) {
	if x < 0 || y < 0 || x >= f.w || y >= f.h {
		return ' ', nil, tcell.StyleDefault, 1
	}
	c := f.cur[y*f.w+x]
	var comb []rune
	if c.comb != 0 {
		comb = []rune(f.tab.combs[c.comb])
	}
	return c.r, comb, f.tab.styles[c.st], max(cellWidth(c.r), 1)
}

func (f *frameScreen) ShowCursor(x, y int) { f.cursor = frameCursor{x, y, true} }
func (f *frameScreen) HideCursor()         { f.cursor = frameCursor{} }

// Show hands the real screen the cells that changed since the last frame
// and shows it; when nothing changed, it does nothing.
func (f *frameScreen) Show() {
	f.fit()
	changed := !f.valid || f.cursor != f.shownC
	for i := range f.cur {
		c := f.cur[i]
		if f.valid && c == f.shown[i] {
			continue
		}
		changed = true
		// A wide character covers the next cell too: when one comes or
		// goes, that cell is written again as well.
		if cellWidth(c.r) > 1 || cellWidth(f.shown[i].r) > 1 {
			if j := i + 1; j < len(f.cur) && j%f.w != 0 {
				f.shown[j] = frameCell{r: -1}
			}
		}
		f.shown[i] = c
		f.Screen.Put(i%f.w, i/f.w, f.tab.text(c), f.tab.styles[c.st])
	}
	if !changed {
		f.renumber(false)
		return
	}
	f.valid = true
	if f.cursor != f.shownC {
		if f.cursor.on {
			f.Screen.ShowCursor(f.cursor.x, f.cursor.y)
		} else {
			f.Screen.HideCursor()
		}
		f.shownC = f.cursor
	}
	f.Screen.Show()
	f.renumber(false)
}

// Sync redraws the whole terminal from the real screen's cells (which
// hold the last frame shown).
func (f *frameScreen) Sync() { f.Screen.Sync() }

// fillRect sets every cell of the rectangle to a blank of style st: on a
// frameScreen straight into its grid, elsewhere cell by cell.
func fillRect(s tcell.Screen, x, y, w, h int, st tcell.Style) {
	f, ok := s.(*frameScreen)
	if !ok {
		for j := y; j < y+h; j++ {
			for i := x; i < x+w; i++ {
				s.SetContent(i, j, ' ', nil, st)
			}
		}
		return
	}
	x0, x1 := max(x, 0), min(x+w, f.w)
	c := f.cell(' ', "", st)
	for j := max(y, 0); j < min(y+h, f.h); j++ {
		row := f.cur[j*f.w : (j+1)*f.w]
		for i := x0; i < x1; i++ {
			row[i] = c
		}
	}
}
