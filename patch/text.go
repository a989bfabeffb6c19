// File text split into lines, with line endings and final-newline state kept for rebuilding.

package patch

import (
	"strings"
	"unsafe"
)

// text is a file's content split into lines. A line ends at "\n"; a "\r"
// just before it belongs to the ending (CRLF), any other "\r" to the line.
// Lines are kept as offsets into data, so splitting allocates 4 bytes a line.
type text struct {
	data  string
	offs  []int32 // offs[i] is where line i starts in data; offs[len] == len(data)
	final bool    // the last line has an ending (true for an empty file)
	eol   string  // the dominant ending, given to new lines: "\n" or "\r\n"
}

// maxText is the largest file apply_patch edits (line offsets are 32-bit).
const maxText = 1<<31 - 1

// splitText splits data into lines and finds its dominant line ending: the
// more frequent of LF and CRLF, a tie going to the first line's ending, LF
// when the text has no line ending at all.
func splitText(data string) *text {
	t := &text{data: data, offs: make([]int32, 1, strings.Count(data, "\n")+2), final: true}
	crlf, lf := 0, 0
	var first byte // the first line's ending: '\n' (LF) or '\r' (CRLF)
	for i := 0; i < len(data); i++ {
		if data[i] != '\n' {
			continue
		}
		if i > 0 && data[i-1] == '\r' {
			crlf++
			if first == 0 {
				first = '\r'
			}
		} else {
			lf++
			if first == 0 {
				first = '\n'
			}
		}
		t.offs = append(t.offs, int32(i+1))
	}
	if n := len(t.offs); int(t.offs[n-1]) < len(data) {
		t.final = false // the last line has no ending
		t.offs = append(t.offs, int32(len(data)))
	} else if len(data) == 0 {
		t.offs = t.offs[:1] // no lines; offs[0] == len(data) == 0
	}
	switch {
	case crlf > lf, crlf == lf && first == '\r':
		t.eol = "\r\n"
	default:
		t.eol = "\n"
	}
	return t
}

// bytesText is splitText for a byte slice that is never modified afterwards
// (a file just read, or a text just built): it shares the bytes instead of
// copying them.
func bytesText(b []byte) *text {
	if len(b) == 0 {
		return splitText("")
	}
	return splitText(unsafe.String(&b[0], len(b)))
}

// textOf builds a text from lines ending in "\n" (used for added files and tests).
func textOf(lines []string) *text { return splitText(string(addedText(lines))) }

// len returns the number of lines.
func (t *text) len() int { return len(t.offs) - 1 }

// line returns line i without its ending.
func (t *text) line(i int) string {
	s, e := int(t.offs[i]), int(t.offs[i+1])
	if e > s && t.data[e-1] == '\n' {
		e--
		if e > s && t.data[e-1] == '\r' {
			e--
		}
	}
	return t.data[s:e]
}

// appendLines appends lines [a, b) with their own endings; an unterminated
// last line gets the dominant ending (finish removes it again when it ends
// the new text).
func (t *text) appendLines(out []byte, a, b int) []byte {
	if a >= b {
		return out
	}
	out = append(out, t.data[t.offs[a]:t.offs[b]]...)
	if b == t.len() && !t.final {
		out = append(out, t.eol...)
	}
	return out
}

// finish restores the final-newline state: a text that ended without a line
// ending keeps ending without one.
func (t *text) finish(out []byte) []byte {
	if t.final {
		return out
	}
	if n := len(out); n > 0 && out[n-1] == '\n' {
		out = out[:n-1]
		if n > 1 && out[n-2] == '\r' {
			out = out[:n-2]
		}
	}
	return out
}

// replaceWith returns lines as the whole new text with t's dominant ending
// and final-newline state.
func (t *text) replaceWith(lines []string) []byte {
	size := 0
	for _, l := range lines {
		size += len(l) + len(t.eol)
	}
	out := make([]byte, 0, size)
	for _, l := range lines {
		out = append(out, l...)
		out = append(out, t.eol...)
	}
	return t.finish(out)
}

// addedText is the content of an added file: each line ends with "\n".
func addedText(lines []string) []byte {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// span is a range of lines [from, to) of a new text, 0-based.
type span struct{ from, to int }

// splice applies hunks at their located matches and returns the new
// content, the same as a text, and the changed regions in its lines. Unchanged and context lines keep
// their own endings; added lines take the dominant ending.
func splice(t *text, hunks []*Hunk, ms []match) ([]byte, *text, []span) {
	extra, added := 0, 0
	for _, h := range hunks {
		for _, l := range h.Lines {
			extra += len(l.Text) + 2
			added++
		}
	}
	out := make([]byte, 0, len(t.data)+extra)
	offs := make([]int32, 0, len(t.offs)+added)
	regions := make([]span, 0, len(hunks))
	// copy appends old lines [a, b), recording where each starts in out.
	copyLines := func(a, b int) {
		shift := int32(len(out)) - t.offs[a]
		n := len(offs)
		offs = append(offs, t.offs[a:b]...)
		for k := n; k < len(offs); k++ {
			offs[k] += shift
		}
		out = t.appendLines(out, a, b)
	}
	cursor := 0 // next old line to copy
	for k, h := range hunks {
		m := ms[k]
		copyLines(cursor, m.start)
		old := m.start
		r := span{-1, -1}
		mark := func(from, to int) {
			if r.from < 0 {
				r.from = from
			}
			r.to = to
		}
		for _, l := range h.Lines {
			at := len(offs) // the line number in the new text
			switch l.Op {
			case ' ':
				copyLines(old, old+1)
				old++
			case '-':
				old++
				mark(at, at)
			case '+':
				offs = append(offs, int32(len(out)))
				out = append(out, l.Text...)
				out = append(out, t.eol...)
				mark(at, at+1)
			}
		}
		regions = append(regions, r)
		cursor = m.end
	}
	copyLines(cursor, t.len())
	out = t.finish(out)
	if n := len(offs); n > 0 && int(offs[n-1]) == len(out) {
		offs = offs[:n-1] // an empty last line whose ending finish removed: the text ends at its line ending
	}
	offs = append(offs, int32(len(out)))
	data := ""
	if len(out) > 0 {
		data = unsafe.String(&out[0], len(out)) // out is only read from here on
	}
	return out, &text{data: data, offs: offs, final: t.final, eol: t.eol}, regions
}

// diffRegion returns the one region of new that differs from old, after
// their common first and last lines (used for Replace File views).
func diffRegion(old *text, new []string) span {
	n := old.len()
	p := 0
	for p < n && p < len(new) && old.line(p) == new[p] {
		p++
	}
	s := 0
	for s < n-p && s < len(new)-p && old.line(n-1-s) == new[len(new)-1-s] {
		s++
	}
	return span{p, len(new) - s}
}
