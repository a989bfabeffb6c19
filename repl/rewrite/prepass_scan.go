// The pre-pass tokenizer: Python source into tokens with byte offsets.

package rewrite

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF     tokKind = iota
	tName            // identifier or keyword
	tNumber          // numeric literal
	tString          // string or bytes literal of any prefix, f-strings included
	tOp              // operator or delimiter
	tNewline         // the end of a logical line
)

// token is one token of the source; start and end are byte offsets.
type token struct {
	kind       tokKind
	start, end int
	text       string
	depth      int // bracket depth before the token
}

// scanError is a tokenizing failure; the pre-pass then leaves the code to
// Starlark, whose error is clearer about what it expected.
type scanError struct {
	pos int
	msg string
}

func (e *scanError) Error() string { return e.msg }

// operators, longest first within each leading character.
var operators = []string{
	"**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=",
	":=", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|=",
	"!", "%", "&", "(", ")", "*", "+", ",", "-", ".", "/", ":", ";", "<", "=", ">", "@", "[", "]", "^", "{", "|", "}", "~",
}

// tokenize splits src[start:end] into tokens. Comments, blank lines and
// newlines inside brackets produce no token; a logical line ends with a
// tNewline token (at the newline, or at end for the last line). depth is
// the bracket depth at start: 1 reads the range as if it were inside
// parentheses (an f-string's expression), so newlines end nothing.
func tokenize(src string, start, end, depth int) ([]token, error) {
	var toks []token
	i := start
	lineHasTokens := false
	base := depth
	for i < end {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
			continue
		case c == '#':
			for i < end && src[i] != '\n' && src[i] != '\r' {
				i++
			}
			continue
		case c == '\\' && i+1 < end && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
			if src[i-1] == '\r' && i < end && src[i] == '\n' {
				i++
			}
			continue
		case c == '\n' || c == '\r':
			if depth == 0 && lineHasTokens {
				toks = append(toks, token{kind: tNewline, start: i, end: i, depth: 0})
				lineHasTokens = false
			}
			i++
			continue
		}
		lineHasTokens = true
		tok := token{start: i, depth: depth}
		switch {
		case isNameStart(src, i):
			j := i
			for j < end {
				r, w := utf8.DecodeRuneInString(src[j:end])
				if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				j += w
			}
			if j < end && (src[j] == '"' || src[j] == '\'') && isStringPrefix(src[i:j]) {
				k, err := scanString(src, i, j, end)
				if err != nil {
					return nil, err
				}
				tok.kind, tok.end = tString, k
			} else {
				tok.kind, tok.end = tName, j
			}
		case c == '"' || c == '\'':
			k, err := scanString(src, i, i, end)
			if err != nil {
				return nil, err
			}
			tok.kind, tok.end = tString, k
		case c >= '0' && c <= '9' || c == '.' && i+1 < end && src[i+1] >= '0' && src[i+1] <= '9':
			tok.kind, tok.end = tNumber, scanNumber(src, i, end)
		default:
			op := ""
			for _, o := range operators {
				if strings.HasPrefix(src[i:end], o) {
					op = o
					break
				}
			}
			if op == "" {
				return nil, &scanError{i, fmt.Sprintf("unexpected character %q", src[i])}
			}
			tok.kind, tok.end = tOp, i+len(op)
			switch op {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
				if depth == 0 && base > 0 {
					return nil, &scanError{i, fmt.Sprintf("unmatched %q", op)}
				}
				tok.depth = depth
			}
		}
		tok.text = src[tok.start:tok.end]
		toks = append(toks, tok)
		i = tok.end
	}
	if lineHasTokens && depth == 0 {
		toks = append(toks, token{kind: tNewline, start: end, end: end})
	}
	toks = append(toks, token{kind: tEOF, start: end, end: end})
	return toks, nil
}

func isNameStart(src string, i int) bool {
	r, _ := utf8.DecodeRuneInString(src[i:])
	return r == '_' || unicode.IsLetter(r)
}

// isStringPrefix reports whether p is a Python string prefix.
func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// scanNumber returns the end of the number starting at i: digits, letters
// (0x, e, j), underscores, dots, and a sign after an exponent.
func scanNumber(src string, i, end int) int {
	j := i
	hex := j+1 < end && src[j] == '0' && (src[j+1] == 'x' || src[j+1] == 'X')
	for j < end {
		c := src[j]
		switch {
		case c >= '0' && c <= '9', c == '_', c == '.', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			j++
		case (c == '+' || c == '-') && !hex && (src[j-1] == 'e' || src[j-1] == 'E'):
			j++
		default:
			return j
		}
	}
	return j
}

// scanString returns the end of the string literal whose prefix starts at
// i and whose first quote is at q.
func scanString(src string, i, q, end int) (int, error) {
	prefix := strings.ToLower(src[i:q])
	quote := src[q : q+1]
	if q+2 < end && src[q+1] == src[q] && src[q+2] == src[q] {
		quote = src[q : q+3]
	}
	body := q + len(quote)
	if strings.Contains(prefix, "f") {
		fs, err := parseFString(src, body, end, quote, strings.Contains(prefix, "r"))
		if err != nil {
			return 0, err
		}
		return fs.end, nil
	}
	for j := body; j < end; {
		switch c := src[j]; {
		case c == '\\':
			j += 2
		case strings.HasPrefix(src[j:end], quote):
			return j + len(quote), nil
		case (c == '\n' || c == '\r') && len(quote) == 1:
			return 0, &scanError{i, "unterminated string literal"}
		default:
			j++
		}
	}
	return 0, &scanError{i, "unterminated string literal"}
}

// Python's keywords that cannot be names.
var pyKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

func (t token) op(text string) bool { return t.kind == tOp && t.text == text }
func (t token) kw(text string) bool { return t.kind == tName && t.text == text }
