// File text split into lines, with line endings and final-newline state kept for rebuilding.

package patch

import "strings"

// text is a file's content split into lines. A line ends at "\n"; a "\r"
// just before it belongs to the ending (CRLF), any other "\r" to the line.
type text struct {
	data  string
	lines []string // each line without its ending
	offs  []int    // offs[i] is where line i starts in data; offs[len(lines)] == len(data)
	final bool     // the last line has an ending (true for an empty file)
	eol   string   // the dominant ending, given to new lines: "\n" or "\r\n"
}

// splitText splits data into lines and finds its dominant line ending: the
// more frequent of LF and CRLF, a tie going to the first line's ending, LF
// when the text has no line ending at all.
func splitText(data string) *text {
	n := strings.Count(data, "\n")
	t := &text{data: data, lines: make([]string, 0, n+1), offs: make([]int, 0, n+2), final: true}
	crlf, lf, first := 0, 0, ""
	for start := 0; start < len(data); {
		t.offs = append(t.offs, start)
		i := strings.IndexByte(data[start:], '\n')
		if i < 0 {
			t.lines = append(t.lines, data[start:])
			t.final = false
			break
		}
		end := start + i
		ending := "\n"
		if end > start && data[end-1] == '\r' {
			end--
			ending = "\r\n"
			crlf++
		} else {
			lf++
		}
		if first == "" {
			first = ending
		}
		t.lines = append(t.lines, data[start:end])
		start += i + 1
	}
	t.offs = append(t.offs, len(data))
	switch {
	case crlf > lf:
		t.eol = "\r\n"
	case crlf == lf && first != "":
		t.eol = first
	default:
		t.eol = "\n"
	}
	return t
}

// appendLines appends lines [a, b) with their own endings; an unterminated
// last line gets the dominant ending (finish removes it again when it ends
// the new text).
func (t *text) appendLines(out []byte, a, b int) []byte {
	if a >= b {
		return out
	}
	out = append(out, t.data[t.offs[a]:t.offs[b]]...)
	if b == len(t.lines) && !t.final {
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

// splice applies hunks at their located matches and returns the new text
// and the changed regions in new-text lines. Unchanged and context lines
// keep their own endings; added lines take the dominant ending.
func splice(t *text, hunks []*Hunk, ms []match) ([]byte, []span) {
	extra := 0
	for _, h := range hunks {
		for _, l := range h.Lines {
			extra += len(l.Text) + 2
		}
	}
	out := make([]byte, 0, len(t.data)+extra)
	regions := make([]span, 0, len(hunks))
	cursor, at := 0, 0 // next old line to copy; line number in the new text
	for k, h := range hunks {
		m := ms[k]
		out = t.appendLines(out, cursor, m.start)
		at += m.start - cursor
		old := m.start
		r := span{-1, -1}
		mark := func(from, to int) {
			if r.from < 0 {
				r.from = from
			}
			r.to = to
		}
		for _, l := range h.Lines {
			switch l.Op {
			case ' ':
				out = t.appendLines(out, old, old+1)
				old++
				at++
			case '-':
				old++
				mark(at, at)
			case '+':
				out = append(out, l.Text...)
				out = append(out, t.eol...)
				mark(at, at+1)
				at++
			}
		}
		regions = append(regions, r)
		cursor = m.end
	}
	out = t.appendLines(out, cursor, len(t.lines))
	return t.finish(out), regions
}

// diffRegion returns the one region of new that differs from old, after
// their common first and last lines (used for Replace File views).
func diffRegion(old, new []string) span {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	return span{p, len(new) - s}
}
