// The result text: the list of changes, numbered views of changed regions, and the size cap.

package patch

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// viewContext is how many unchanged lines a view shows around a change.
const viewContext = 2

// change is one applied operation as the result reports it.
type change struct {
	code    string // "A" added, "M" modified, "D" deleted, "R" renamed, "=" unchanged
	path    string // the path after the operation
	from    string // "R": the path before
	note    string // e.g. how a symlink was followed
	text    *text  // the new text, for the view
	regions []span // changed regions of lines, for the view
}

func (c *change) summary() string {
	s := c.code + " " + c.path
	if c.code == "R" {
		s = "R " + c.from + " -> " + c.path
	}
	if c.code == "=" {
		s = "= " + c.path + " (the patch leaves its text as it was; not written)"
	}
	if c.note != "" {
		s += " (" + c.note + ")"
	}
	return s
}

// render writes the change list, then a view of each changed file, capped at limit bytes.
func render(changes []*change, limit int) string {
	var b strings.Builder
	for _, c := range changes {
		b.WriteString(c.summary() + "\n")
	}
	for _, c := range changes {
		if len(c.regions) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n", c.path)
		writeView(&b, c.text, c.regions)
	}
	return capText(b.String(), limit, "; read_file shows the files")
}

// writeView writes the regions with viewContext lines around each, merging
// regions that touch, and "..." between separate ones.
func writeView(b *strings.Builder, t *text, regions []span) {
	var shown []span
	for _, r := range regions {
		v := span{max(r.from-viewContext, 0), min(r.to+viewContext, t.len())}
		if n := len(shown); n > 0 && v.from <= shown[n-1].to {
			shown[n-1].to = max(shown[n-1].to, v.to)
			continue
		}
		shown = append(shown, v)
	}
	for k, v := range shown {
		if k > 0 {
			b.WriteString("...\n")
		}
		writeNumbered(b, t, v.from, v.to)
	}
	if t.len() == 0 {
		b.WriteString("(the file is empty)\n")
	}
}

// capText cuts s to at most limit bytes (limit ≤ 0: no cap) on a UTF-8
// boundary, ending it with a notice of how many bytes were left out. The
// text is made valid UTF-8 first.
func capText(s string, limit int, hint string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if limit <= 0 || len(s) <= limit {
		return s
	}
	notice := func(omitted int) string {
		return fmt.Sprintf("\n[output truncated: %d bytes omitted%s]", omitted, hint)
	}
	cut := max(limit-len(notice(len(s))), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if nl := strings.LastIndexByte(s[:cut], '\n'); nl >= cut/2 {
		cut = nl + 1 // prefer ending on a whole line
	}
	return strings.TrimSuffix(s[:cut], "\n") + notice(len(s)-cut)
}
