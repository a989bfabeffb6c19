// The matching engine: where each hunk of an update applies, or why it cannot.

package patch

import (
	"fmt"
	"strings"
)

// match is the range of old lines [start, end) a hunk replaces.
type match struct{ start, end int }

// locator finds hunks in one file's lines. Indexes are built on first use.
type locator struct {
	name  string // the file as the model named it, for messages
	text  *text
	hunks []*Hunk
	exact *index // the old lines of every hunk
	trim  *index // the anchors of every hunk, compared without surrounding white space
}

// locate finds every hunk of an update in lines (the file before the
// update). Hunks must match in file order without overlapping. The error
// text is written for the model: it names the file, the hunk and its first
// line, and shows the nearest candidate region.
func locate(name string, t *text, hunks []*Hunk) ([]match, error) {
	l := &locator{name: name, text: t, hunks: hunks}
	ms := make([]match, 0, len(hunks))
	prev := 0
	for i, h := range hunks {
		m, err := l.hunk(i, h)
		if err != nil {
			return nil, err
		}
		if m.start < prev {
			last := ms[len(ms)-1]
			rel := "comes before"
			if m.end > last.start {
				rel = "overlaps"
			}
			return nil, l.errf(i, h, "matches %s, which %s hunk %d (%s). Hunks of one file must follow the file's order and must not overlap; merge overlapping hunks into one.",
				lineRange(m.start, m.end), rel, i, lineRange(last.start, last.end))
		}
		ms = append(ms, m)
		prev = m.end
	}
	return ms, nil
}

func (l *locator) errf(i int, h *Hunk, format string, args ...any) error {
	head := fmt.Sprintf("Hunk %d (patch line %d, first line %q) ", i+1, h.Line, clip(firstLine(h)))
	return fmt.Errorf("%s%s", head, fmt.Sprintf(format, args...))
}

func firstLine(h *Hunk) string {
	if len(h.Lines) == 0 {
		return h.Header()
	}
	return string(h.Lines[0].Op) + h.Lines[0].Text
}

// hunk locates one hunk.
func (l *locator) hunk(i int, h *Hunk) (match, error) {
	old := h.Old()
	n := l.text.len()
	anchor, err := l.anchor(i, h)
	if err != nil {
		return match{}, err
	}
	lo := anchor + 1 // the search window is lines lo.. of the file (0-based)
	switch {
	case len(old) == 0 && h.EOF:
		return match{n, n}, nil
	case len(old) == 0 && anchor >= 0:
		return match{lo, lo}, nil
	case len(old) == 0 && n == 0:
		return match{0, 0}, nil
	case len(old) == 0:
		return match{}, l.errf(i, h, "has only added lines, so nothing says where they go. Start it with an unchanged line of the file (\" \" prefix), put an anchor line \"@@ <text of the line above>\" before it, or end it with %q to append to the file.", eofMarker)
	case h.EOF:
		s := n - len(old)
		if s >= lo && l.exactIndex().equalAt(s, l.ids(old)) {
			return match{s, n}, nil
		}
		return match{}, l.notFound(i, h, old, lo, true)
	}
	starts, count := l.exactIndex().find(old, lo, 8)
	switch {
	case count == 1:
		return match{starts[0], starts[0] + len(old)}, nil
	case count == 0:
		return match{}, l.notFound(i, h, old, lo, false)
	}
	return match{}, l.errf(i, h, "matches %d places in %s (its first line at lines %s). Include more unchanged lines before or after the change so that the hunk matches one place; an anchor (\"@@ <line text>\" or \"@@ line N: <line text>\") narrows the search to the lines after it.",
		count, l.name, lineList(starts, count))
}

// ids returns the exact-index ids of seq (-1 for a line that occurs nowhere).
func (l *locator) ids(seq []string) []int32 {
	ids := make([]int32, len(seq))
	for k, s := range seq {
		ids[k] = l.exactIndex().lookup(s)
	}
	return ids
}

func (l *locator) exactIndex() *index {
	if l.exact == nil {
		var wanted []string
		for _, h := range l.hunks {
			wanted = append(wanted, h.Old()...)
		}
		l.exact = newIndex(l.text, nil, wanted)
	}
	return l.exact
}

func (l *locator) trimIndex() *index {
	if l.trim == nil {
		var wanted []string
		for _, h := range l.hunks {
			if h.HasAnchor {
				wanted = append(wanted, h.Anchor)
			}
		}
		l.trim = newIndex(l.text, trimKey, wanted)
	}
	return l.trim
}

// anchor returns the 0-based line of the hunk's anchor, or -1 when it has none.
// A text anchor must equal exactly one line of the file, ignoring leading
// and trailing white space; "@@ line N:" must name a line holding the text.
func (l *locator) anchor(i int, h *Hunk) (int, error) {
	if !h.HasAnchor {
		return -1, nil
	}
	want := trimKey(h.Anchor)
	if h.AnchorLine > 0 {
		n := h.AnchorLine
		if n > l.text.len() {
			return 0, l.errf(i, h, "has the anchor %q, but %s has only %d lines.", h.Header(), l.name, l.text.len())
		}
		if trimKey(l.text.line(n-1)) == want {
			return n - 1, nil
		}
		var b strings.Builder
		fmt.Fprintf(&b, "line %d of %s holds %q.", n, l.name, clip(l.text.line(n-1)))
		if id := l.trimIndex().lookup(want); id >= 0 {
			ps := l.trim.occurrences(id, 0)
			fmt.Fprintf(&b, " That text is on %s %s.", map[bool]string{true: "line", false: "lines"}[len(ps) == 1], lineList32(ps))
		}
		b.WriteString(" Lines of the file before the update:\n")
		writeNumbered(&b, l.text, n-3, n+2)
		return 0, l.errf(i, h, "has the anchor %q, but %s", h.Header(), strings.TrimSuffix(b.String(), "\n"))
	}
	id := l.trimIndex().lookup(want)
	if id < 0 {
		return 0, l.errf(i, h, "has the anchor %q, which is the text of no line in %s. An anchor is the whole text of one line (leading and trailing spaces are ignored).%s",
			h.Anchor, l.name, l.containing(want))
	}
	ps := l.trim.occurrences(id, 0)
	if len(ps) > 1 {
		return 0, l.errf(i, h, "has the anchor %q, which is on %d lines of %s: %s. Name the one you mean with \"@@ line N: %s\".",
			h.Anchor, len(ps), l.name, lineList32(ps), h.Anchor)
	}
	return int(ps[0]), nil
}

// containing lists a few lines that contain s, to help fix an anchor.
func (l *locator) containing(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	found := 0
	for k := range l.text.len() {
		if strings.Contains(l.text.line(k), s) {
			if found == 0 {
				b.WriteString(" Lines containing that text:\n")
			}
			writeNumbered(&b, l.text, k, k+1)
			if found++; found == 5 {
				break
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// lineRange renders old lines [s, e) 1-based, e.g. "lines 4-7" or "line 4".
func lineRange(s, e int) string {
	switch {
	case e-s == 1:
		return fmt.Sprintf("line %d", s+1)
	case e <= s:
		return fmt.Sprintf("the place after line %d", s)
	}
	return fmt.Sprintf("lines %d-%d", s+1, e)
}

// lineList renders 0-based starts 1-based, noting how many were left out.
func lineList(starts []int, count int) string {
	parts := make([]string, len(starts))
	for k, s := range starts {
		parts[k] = fmt.Sprint(s + 1)
	}
	out := strings.Join(parts, ", ")
	if count > len(starts) {
		out += fmt.Sprintf(" and %d more", count-len(starts))
	}
	return out
}

func lineList32(ps []int32) string {
	const max = 8
	starts := make([]int, 0, max)
	for _, p := range ps {
		if len(starts) == max {
			break
		}
		starts = append(starts, int(p))
	}
	return lineList(starts, len(ps))
}
