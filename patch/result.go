// The result text: the list of changes, numbered views of changed regions, and the size cap.

package patch

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"harness/tools"
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
	s := c.code + " " + quotePath(c.path)
	if c.code == "R" {
		s = "R " + quotePath(c.from) + " -> " + quotePath(c.path)
	}
	if c.code == "=" {
		s += " (the patch leaves its text as it was; not written)"
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
		fmt.Fprintf(&b, "\n%s:\n", quotePath(c.path))
		writeView(&b, c.text, c.regions)
	}
	return capText(b.String(), limit, "read_file shows the files.")
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

// capText cuts s to limit bytes (limit ≤ 0: no cap) with tools.Truncate,
// the output cap every tool uses, after making it valid UTF-8.
func capText(s string, limit int, hint string) string {
	return tools.Truncate(strings.ToValidUTF8(s, "\uFFFD"), limit, hint)
}

// quotePath prints a path as the tools do: unchanged when plain, otherwise
// as a Go string literal (a space, a quote, a backslash, a character that
// is not printable, or invalid UTF-8).
func quotePath(p string) string {
	if !utf8.ValidString(p) {
		return strconv.Quote(p)
	}
	for _, r := range p {
		if r == ' ' || r == '"' || r == '\'' || r == '`' || r == '\\' || !unicode.IsPrint(r) {
			return strconv.Quote(p)
		}
	}
	return p
}
