// Explaining a hunk that does not match: the nearest candidate region and its first difference.

package patch

import (
	"fmt"
	"strings"

	"harness/tools"
)

// notFound explains why old (a hunk's context and removed lines) matches
// nowhere in the window lines lo.. (or at the end of the file, for eof).
func (l *locator) notFound(i int, h *Hunk, old []string, lo int, eof bool) error {
	n := l.text.len()
	var b strings.Builder
	where := "in " + l.name
	switch {
	case eof:
		where = "at the end of " + l.name + " (the hunk ends with " + eofMarker + ")"
	case lo > 0:
		where = fmt.Sprintf("in %s after the anchor on line %d", l.name, lo)
	}
	fmt.Fprintf(&b, "does not match: no place %s holds its %s in order.", where, plural(len(old), "unchanged or removed line"))
	if lo > 0 || eof {
		if starts, count := l.exactIndex().find(old, 0, 4); count > 0 {
			fmt.Fprintf(&b, " They match exactly at line %s; ", lineList(starts, count))
			switch {
			case eof:
				b.WriteString("remove the " + eofMarker + " line if that is the place.")
			case starts[0] == lo-1 && count == 1:
				b.WriteString("that is the anchor line itself, and the search starts after the anchor: drop the anchor line from the hunk or remove the anchor.")
			default:
				b.WriteString("that is before the anchor, so move or remove the anchor.")
			}
			return l.errf(i, h, "%s", b.String())
		}
	}
	s, votes := nearest(l.text, lo, old, trimKey)
	if votes == 0 {
		s, votes = nearest(l.text, lo, old, prefixKey)
	}
	if eof {
		s, votes = max(n-len(old), 0), 1
	}
	if n == 0 {
		fmt.Fprintf(&b, " %s is empty.", l.name)
		return l.errf(i, h, "%s", b.String())
	}
	if votes == 0 {
		fmt.Fprintf(&b, " None of its lines occur %s, even ignoring leading and trailing white space. Check the file name and read the file's current text (read_file).", where)
		return l.errf(i, h, "%s", b.String())
	}
	agree, first := 0, -1
	for k, want := range old {
		if s+k < n && l.text.line(s+k) == want {
			agree++
		} else if first < 0 {
			first = k
		}
	}
	e := min(s+len(old), n)
	fmt.Fprintf(&b, "\nThe nearest candidate is %s of %s, where %d of the hunk's %s agree:\n", lineRange(s, max(e, s+1)), l.name, agree, plural(len(old), "line"))
	writeNumbered(&b, l.text, s-1, min(e+1, s+40))
	if first >= 0 {
		b.WriteString(difference(h, old, first, s+first, l.text))
	}
	b.WriteString("Copy unchanged and removed lines exactly from the file (read_file shows its current text).")
	return l.errf(i, h, "%s", b.String())
}

// difference describes the first hunk line that disagrees with the file.
func difference(h *Hunk, old []string, k, line int, t *text) string {
	hl := hunkLineOf(h, k)
	if line >= t.len() {
		return fmt.Sprintf("First difference: hunk line %q expects a line after the file's last line (%d).\n", clip(hl), t.len())
	}
	got := t.line(line)
	note := ""
	switch {
	case strings.Join(strings.Fields(got), " ") == strings.Join(strings.Fields(old[k]), " "):
		note = " (they differ only in white space)"
	case !isASCII(got) || !isASCII(old[k]):
		note = fmt.Sprintf(" (with non-ASCII characters escaped: %+q and %+q)", clip(old[k]), clip(got))
	}
	return fmt.Sprintf("First difference: hunk line %q expects %q, but line %d is %q%s.\n", clip(hl), clip(old[k]), line+1, clip(got), note)
}

// hunkLineOf returns the hunk line (with its prefix) of old line k.
func hunkLineOf(h *Hunk, k int) string {
	for _, hl := range h.Lines {
		if hl.Op == '+' {
			continue
		}
		if k == 0 {
			return string(hl.Op) + hl.Text
		}
		k--
	}
	return ""
}

// nearest returns the start s ≥ lo where the most lines of old agree with
// lines s, s+1, … under key, and that count
// (0 when no line agrees). Blank lines do not count unless old has only
// blank lines. Ties go to the earliest start.
func nearest(t *text, lo int, old []string, key func(string) string) (best, votes int) {
	last := max(t.len()-len(old), lo)
	keys := map[string][]int{}
	blankOnly := true
	for k, s := range old {
		t := key(s)
		blankOnly = blankOnly && t == ""
		keys[t] = append(keys[t], k)
	}
	count := map[int]int{}
	for i := lo; i < t.len(); i++ {
		kt := key(t.line(i))
		if kt == "" && !blankOnly {
			continue
		}
		for _, k := range keys[kt] {
			if s := i - k; s >= lo && s <= last {
				count[s]++
			}
		}
	}
	best = lo
	for s, c := range count {
		if c > votes || c == votes && s < best {
			best, votes = s, c
		}
	}
	return best, votes
}

// writeNumbered writes lines [from, to) (clamped) in the numbered-line
// format read_file uses (tools.Numbered).
func writeNumbered(b *strings.Builder, t *text, from, to int) {
	from, to = max(from, 0), min(to, t.len())
	if from >= to {
		return
	}
	lines := make([]string, 0, to-from)
	for k := from; k < to; k++ {
		lines = append(lines, t.line(k))
	}
	b.WriteString(tools.Numbered(lines, from+1))
}

// prefixKey compares lines by their first three characters after leading
// white space: a loose key for finding a candidate when no line agrees.
func prefixKey(s string) string {
	s = strings.TrimSpace(s)
	n := 0
	for i := range s {
		if n == 3 {
			return s[:i]
		}
		n++
	}
	if n < 3 {
		return ""
	}
	return s
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// plural renders "1 line" or "3 lines".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
