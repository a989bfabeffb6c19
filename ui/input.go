// The input editor: a multi-line, word-wrapped prompt.

package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// prompt is drawn before the first input line; later lines are indented
// by as much.
const prompt = "> "

// input is the text being typed, with a cursor (a byte offset). label,
// when set, is drawn instead of the prompt.
type input struct {
	text  string
	cur   int
	label string
}

// promptText is what is drawn before the first line.
func (in *input) promptText() string {
	if in.label != "" {
		return in.label
	}
	return prompt
}

func (in *input) insert(s string) {
	in.text = in.text[:in.cur] + s + in.text[in.cur:]
	in.cur += len(s)
}

func (in *input) backspace() {
	if in.cur == 0 {
		return
	}
	_, n := utf8.DecodeLastRuneInString(in.text[:in.cur])
	in.text = in.text[:in.cur-n] + in.text[in.cur:]
	in.cur -= n
}

func (in *input) del() {
	if in.cur == len(in.text) {
		return
	}
	_, n := utf8.DecodeRuneInString(in.text[in.cur:])
	in.text = in.text[:in.cur] + in.text[in.cur+n:]
}

func (in *input) left() {
	if in.cur > 0 {
		_, n := utf8.DecodeLastRuneInString(in.text[:in.cur])
		in.cur -= n
	}
}

func (in *input) right() {
	if in.cur < len(in.text) {
		_, n := utf8.DecodeRuneInString(in.text[in.cur:])
		in.cur += n
	}
}

// lineStart and lineEnd are the bounds of the cursor's logical line.
func (in *input) lineStart() int { return strings.LastIndexByte(in.text[:in.cur], '\n') + 1 }

func (in *input) lineEnd() int {
	if i := strings.IndexByte(in.text[in.cur:], '\n'); i >= 0 {
		return in.cur + i
	}
	return len(in.text)
}

// killEnd deletes to the end of the line; at the end of a line it deletes
// the newline, joining the next line.
func (in *input) killEnd() {
	e := in.lineEnd()
	if e == in.cur && e < len(in.text) {
		e++
	}
	in.text = in.text[:in.cur] + in.text[e:]
}

// killStart deletes to the start of the line.
func (in *input) killStart() {
	s := in.lineStart()
	in.text = in.text[:s] + in.text[in.cur:]
	in.cur = s
}

func (in *input) home() { in.cur = in.lineStart() }
func (in *input) end()  { in.cur = in.lineEnd() }

// set replaces the text and puts the cursor at its end.
func (in *input) set(s string) { in.text, in.cur = s, len(s) }

// layout wraps the text to w cells (the prompt's width excluded) and
// returns the lines and the cursor's line and column.
func (in *input) layout(w int) (lines []seg, cl, cc int) {
	lines = wrap(in.text, w-width(in.promptText()), nil)
	for i, s := range lines {
		next := len(in.text) + 1
		if i+1 < len(lines) {
			next = lines[i+1].start
		}
		if in.cur >= s.start && in.cur < next {
			return lines, i, width(in.text[s.start:min(in.cur, s.end)])
		}
	}
	return lines, len(lines) - 1, 0
}

// upDown moves the cursor one wrapped line up (d = -1) or down, keeping
// its column; it reports false at the first or last line.
func (in *input) upDown(w, d int) bool {
	lines, cl, cc := in.layout(w)
	t := cl + d
	if t < 0 || t >= len(lines) {
		return false
	}
	s := lines[t]
	c, i := 0, s.start
	for i < s.end {
		r, n := utf8.DecodeRuneInString(in.text[i:s.end])
		if c+cellWidth(r) > cc {
			break
		}
		c += cellWidth(r)
		i += n
	}
	in.cur = i
	return true
}

// draw draws the input's last h lines at x, y, w and places the cursor.
func (in *input) draw(s tcell.Screen, x, y, w, h int, st tcell.Style, cursor bool) {
	lines, cl, cc := in.layout(w)
	first := max(0, len(lines)-h)
	if cl < first {
		first = cl
	}
	pw := width(in.promptText())
	for row := 0; row < h && first+row < len(lines); row++ {
		p := strings.Repeat(" ", pw)
		if first+row == 0 {
			p = in.promptText()
		}
		drawText(s, x, y+row, w, p, st, -1, -1)
		l := lines[first+row]
		drawText(s, x+pw, y+row, w-pw, in.text[l.start:l.end], st, -1, -1)
	}
	if cursor {
		s.ShowCursor(min(x+pw+cc, x+w-1), y+cl-first)
	}
}

// height is how many rows the input needs at width w, at most max.
func (in *input) height(w, limit int) int {
	lines, _, _ := in.layout(w)
	return min(len(lines), limit)
}
