// Word wrapping by terminal cells.

package ui

import (
	"unicode/utf8"

	"harness/styled"
)

// seg is one wrapped line: the bytes text[start:end].
type seg struct{ start, end int }

// tabWidth is how many cells a tab takes.
const tabWidth = styled.TabWidth

// cellWidth returns how many terminal cells r takes (styled.RuneWidth: the
// transcript's plain and styled blocks measure alike).
func cellWidth(r rune) int { return styled.RuneWidth(r) }

// wrap splits text into lines of at most width cells. Lines break at
// newlines and, within a paragraph, after the last space that fits; a
// word longer than the width is cut. The space a line breaks at is dropped.
// An empty text is one empty line.
func wrap(text string, width int, out []seg) []seg { return wrapFrom(text, 0, width, out) }

// wrapFrom wraps text from offset start, which must begin a line of wrap's
// result: text[:start] is wrapped exactly as before, since a line's breaks
// depend only on the text from its start to the character that overflows
// it, so text appended later moves only the last line's break.
func wrapFrom(text string, start, width int, out []seg) []seg {
	if width < 1 {
		width = 1
	}
	for {
		nl := indexByte(text, start, '\n')
		out = wrapPara(text, start, nl, width, out)
		if nl == len(text) {
			return out
		}
		start = nl + 1
	}
}

func indexByte(s string, from int, c byte) int {
	for i := from; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return len(s)
}

// wrapPara wraps text[start:end], which holds no newline.
func wrapPara(text string, start, end, width int, out []seg) []seg {
	lineStart, col := start, 0
	brk, brkCol := -1, 0 // after the last space on this line, and the column there
	for i := start; i < end; {
		r, n := utf8.DecodeRuneInString(text[i:end])
		w := cellWidth(r)
		if col+w > width && col > 0 {
			switch {
			case r == ' ':
				out = append(out, seg{lineStart, i})
				i += n
				lineStart, col, brk = i, 0, -1
				continue
			case brk > lineStart:
				out = append(out, seg{lineStart, brk - 1})
				lineStart, col = brk, col-brkCol
				brk = -1
			default:
				out = append(out, seg{lineStart, i})
				lineStart, col, brk = i, 0, -1
			}
			if col+w > width && col > 0 {
				continue
			}
		}
		col += w
		i += n
		if r == ' ' {
			brk, brkCol = i, col
		}
	}
	return append(out, seg{lineStart, end})
}

// width returns the cells s takes.
func width(s string) int {
	n := 0
	for _, r := range s {
		n += cellWidth(r)
	}
	return n
}
