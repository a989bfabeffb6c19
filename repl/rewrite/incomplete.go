// Incomplete: whether code typed at an interactive prompt needs more lines
// (harness repl's "..." prompt). Standalone over the pre-pass tokenizer, so
// it can move with the rewrite layer.

package rewrite

import "strings"

// Incomplete reports whether src, the lines typed so far at an interactive
// prompt joined by "\n" (without a final newline), still needs more lines
// before it can run, as Python's interactive loop decides:
//
//   - a bracket ( [ { is still open, or a triple-quoted string;
//   - the last line ends with a backslash;
//   - the first line opens a block (a compound statement such as if, for,
//     def, class, try, with, or a line ending in ':', or a decorator) and
//     no empty line has ended it yet.
//
// Code that more lines cannot mend (a one-line string left open, a stray
// closing bracket, an unknown character) is complete: running it shows
// the error at its place.
func Incomplete(src string) bool {
	if strings.TrimSpace(src) == "" {
		return false
	}
	lines := strings.Split(src, "\n")
	last := strings.TrimRight(lines[len(lines)-1], " \t")
	if strings.HasSuffix(last, "\\") && !strings.Contains(last, "#") {
		return true
	}
	toks, err := tokenize(src, 0, len(src), 0)
	if err != nil {
		return inTripleQuote(src) // the one error more lines can mend
	}
	depth := 0
	for _, t := range toks {
		switch {
		case t.op("(") || t.op("[") || t.op("{"):
			depth++
		case (t.op(")") || t.op("]") || t.op("}")) && depth > 0:
			depth--
		}
	}
	if depth > 0 {
		return true
	}
	if !opensBlock(toks) {
		return false
	}
	// A block ends with an empty line after at least one line of its body.
	return len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != ""
}

// inTripleQuote reports whether src ends inside a triple-quoted string
// (of any prefix; f-string fields are read as text, which finds their
// quotes only when they differ from the string's own).
func inTripleQuote(src string) bool {
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case '"', '\'':
			q := src[i : i+1]
			if strings.HasPrefix(src[i:], strings.Repeat(q, 3)) {
				q = strings.Repeat(q, 3)
			}
			j := i + len(q)
			for j < len(src) && !strings.HasPrefix(src[j:], q) && (len(q) == 3 || src[j] != '\n') {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return len(q) == 3
			}
			i = j + len(q)
		default:
			i++
		}
	}
	return false
}

// blockKeywords start a compound statement.
var blockKeywords = map[string]bool{
	"if": true, "elif": true, "else": true, "for": true, "while": true, "def": true, "class": true,
	"try": true, "except": true, "finally": true, "with": true, "async": true,
}

// opensBlock reports whether the first logical line of toks opens a
// block: it starts with a compound statement's keyword or a decorator, or
// ends with ':' (match and case are names elsewhere).
func opensBlock(toks []token) bool {
	if len(toks) == 0 || toks[0].kind == tEOF {
		return false
	}
	first := toks[0]
	if first.op("@") || first.kind == tName && blockKeywords[first.text] {
		return true
	}
	for i, t := range toks {
		if t.kind == tNewline || t.kind == tEOF {
			return i > 0 && toks[i-1].op(":")
		}
	}
	return false
}
