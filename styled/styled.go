// Styles, spans and lines: the data the renderers hand the UI.

package styled

import (
	"strings"
	"unicode"
)

// Class is what a span of text is; the UI gives each class a colour.
type Class uint8

// Classes of text. Plain is the surrounding block's own colour (an
// assistant message's, a reasoning block's).
const (
	Plain   Class = iota
	Heading       // a markdown heading
	Code          // inline code
	Link          // a link's text
	URL           // a link's target, shown after its text
	Quote         // block quote text
	Marker        // bullets, quote bars, table borders, rules, a fence's language
	// Code block tokens, from the syntax highlighter.
	CodeText    // code without a more specific class
	Keyword     // keywords
	Name        // identifiers with no more specific class
	Function    // function and method names
	Type        // type and class names
	Builtin     // builtins, constants such as true and nil
	String      // string and character literals
	Number      // numeric literals
	Comment     // comments
	Operator    // operators
	Punctuation // brackets, commas
	Tag         // markup tags and attributes
	// Diffs.
	DiffFile    // a file's header line: "M path", "A path", "R old -> new"
	DiffHunk    // a hunk's "@@" line
	DiffAdd     // an added line
	DiffRemove  // a removed line
	DiffContext // an unchanged line around a change
	Note        // a remark of the renderer's own ("old text not kept")
	Failure     // what did not happen: a patch not applied, a command's non-zero exit
	numClasses
)

// NumClasses is the number of classes, for tables indexed by Class.
const NumClasses = int(numClasses)

// Attr is a set of text attributes.
type Attr uint8

// Attributes; they combine.
const (
	Bold Attr = 1 << iota
	Italic
	Underline
	Strike
	Dim
)

// Style is how a span is drawn: its class and attributes.
type Style struct {
	Class Class
	Attr  Attr
}

// With returns s with the attributes a added.
func (s Style) With(a Attr) Style { s.Attr |= a; return s }

// Span is text drawn in one style. Its text holds no newline once it is
// part of a Line.
type Span struct {
	Text  string
	Style Style
}

// Break says how a line joins the line above it.
type Break uint8

const (
	Hard  Break = iota // a line of its own
	Space              // wrapped at a space, which was dropped
	Cut                // wrapped inside a word
)

// Line is one screen row of spans.
type Line struct {
	Spans      []Span
	Break      Break // how it joins the line above
	Decoration int   // leading cells that are drawn and never copied
}

// Text returns the line's text.
func (l Line) Text() string {
	if len(l.Spans) == 1 {
		return l.Spans[0].Text
	}
	var sb strings.Builder
	for _, s := range l.Spans {
		sb.WriteString(s.Text)
	}
	return sb.String()
}

// Width returns the cells the line takes.
func (l Line) Width() int {
	n := 0
	for _, s := range l.Spans {
		n += Width(s.Text)
	}
	return n
}

// Copy returns the text of lines as copied from the screen: each line's
// text after its decoration, joined as its Break says.
func Copy(lines []Line) string {
	if len(lines) == 0 {
		return ""
	}
	return CopyRange(lines, 0, 0, len(lines)-1, lines[len(lines)-1].Width())
}

// CopyRange returns the text of lines from cell fromCol of line from to
// cell toCol of line to (inclusive; past the end means to the end), as
// Copy joins them. Decoration cells are never part of it.
func CopyRange(lines []Line, from, fromCol, to, toCol int) string {
	var sb strings.Builder
	for i := from; i <= to && i < len(lines); i++ {
		l := lines[i]
		if i > from {
			switch l.Break {
			case Hard:
				sb.WriteByte('\n')
			case Space:
				sb.WriteByte(' ')
			}
		}
		lo, hi := l.Decoration, l.Width()
		if i == from {
			lo = max(lo, fromCol)
		}
		if i == to {
			hi = min(hi, toCol+1)
		}
		sb.WriteString(cells(l.Text(), lo, hi))
	}
	return sb.String()
}

// cells returns the characters of s in cells [lo, hi).
func cells(s string, lo, hi int) string {
	col, start, end := 0, -1, len(s)
	for i, r := range s {
		if col >= lo && start < 0 {
			start = i
		}
		rw := RuneWidth(r)
		if col >= hi && rw > 0 { // a zero-width mark belongs to the cell before
			end = i
			break
		}
		col += rw
	}
	if start < 0 || start >= end {
		return ""
	}
	return s[start:end]
}

// CellsFrom returns s without the characters in its first n cells.
func CellsFrom(s string, n int) string {
	col := 0
	for i, r := range s {
		if col >= n {
			return s[i:]
		}
		col += RuneWidth(r)
	}
	return ""
}

// TabWidth is how many cells a tab takes.
const TabWidth = 4

// RuneWidth returns how many terminal cells r takes: 0 for combining marks
// and carriage returns, 2 for wide East Asian characters and emoji, 1 for
// everything else (other control characters are drawn as one replacement
// character).
func RuneWidth(r rune) int {
	switch {
	case r == '\t':
		return TabWidth
	case r == '\r':
		return 0
	case r < 0x300:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF && r != 0x303F,
		r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F,
		r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x1F300 && r <= 0x1F64F, r >= 0x1F900 && r <= 0x1F9FF,
		r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}

// Width returns the cells s takes.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n += RuneWidth(r)
	}
	return n
}

// One returns a line of one span.
func One(text string, st Style) Line { return Line{Spans: []Span{{text, st}}} }
