package pyast

import (
	"fmt"
	"strings"
)

// tokKind is the kind of a token.
type tokKind int

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
	tNewline
	tIndent
	tDedent
)

// token is one token with its start and end (line 1-based, col in bytes).
type token struct {
	kind         tokKind
	val          string
	line, col    int
	eline, ecol  int
	strPrefixLen int // for strings: length of the prefix letters
}

// SyntaxError is a parse failure with CPython's message where feasible.
type SyntaxError struct {
	Msg    string
	Lineno int
	Offset int // 1-based column, as CPython's SyntaxError.offset
	Text   string
	Indent bool // IndentationError
	Tab    bool // TabError
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s (line %d)", e.Msg, e.Lineno)
}

var ops3 = []string{"**=", "//=", ">>=", "<<=", "..."}
var ops2 = []string{"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="}

const ops1 = "+-*/%@&|^~<>()[]{},:;.=!"

// lexer turns source into tokens.
type lexer struct {
	src     string
	lines   []string // physical lines, for error text
	pos     int
	line    int
	lstart  int // byte offset of the current line's start
	indent  []int
	depth   []byte // open brackets
	dline   []int  // their lines
	dcol    []int
	toks    []token
	atBOL   bool
	pending *SyntaxError // an error the parser reports if it gets to the end
	sub     bool         // an f-string's expression: no NEWLINE, INDENT or DEDENT
}

func tokenize(src string) ([]token, *SyntaxError, error) {
	lx := &lexer{src: src, line: 1, indent: []int{0}, atBOL: true}
	lx.lines = strings.Split(src, "\n")
	if err := lx.run(); err != nil {
		return nil, nil, err
	}
	return lx.toks, lx.pending, nil
}

func (lx *lexer) errAt(line, col int, msg string) *SyntaxError {
	text := ""
	if line-1 < len(lx.lines) && line >= 1 {
		text = lx.lines[line-1]
	}
	return &SyntaxError{Msg: msg, Lineno: line, Offset: col + 1, Text: text}
}

func (lx *lexer) emit(k tokKind, val string, line, col, eline, ecol int) {
	lx.toks = append(lx.toks, token{kind: k, val: val, line: line, col: col, eline: eline, ecol: ecol})
}

func (lx *lexer) col() int { return lx.pos - lx.lstart }

func (lx *lexer) newline() {
	lx.line++
	lx.lstart = lx.pos
}

func (lx *lexer) run() error {
	for {
		if lx.atBOL && len(lx.depth) == 0 {
			done, err := lx.indentation()
			if err != nil {
				return err
			}
			if done {
				break
			}
		}
		if lx.pos >= len(lx.src) {
			break
		}
		c := lx.src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\r':
			lx.pos++
		case c == '#':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
		case c == '\\':
			if lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '\n' {
				lx.pos += 2
				lx.newline()
			} else if lx.pos+2 < len(lx.src) && lx.src[lx.pos+1] == '\r' && lx.src[lx.pos+2] == '\n' {
				lx.pos += 3
				lx.newline()
			} else if lx.pos+1 >= len(lx.src) {
				return lx.errAt(lx.line, lx.col()+1, "unexpected EOF while parsing")
			} else {
				return lx.errAt(lx.line, lx.col()+1, "unexpected character after line continuation character")
			}
		case c == '\n':
			if len(lx.depth) == 0 {
				lx.emit(tNewline, "", lx.line, lx.col(), lx.line, lx.col()+1)
				lx.atBOL = true
			}
			lx.pos++
			lx.newline()
		case isIdentStart(c):
			if err := lx.nameOrString(); err != nil {
				return err
			}
		case c >= '0' && c <= '9' || c == '.' && lx.pos+1 < len(lx.src) && isDigit(lx.src[lx.pos+1]):
			if err := lx.number(); err != nil {
				return err
			}
		case c == '"' || c == '\'':
			if err := lx.str(lx.pos); err != nil {
				return err
			}
		default:
			if err := lx.op(); err != nil {
				return err
			}
		}
	}
	if lx.sub {
		lx.emit(tEOF, "", lx.line, lx.col(), lx.line, lx.col())
		return nil
	}
	if len(lx.depth) > 0 {
		n := len(lx.depth) - 1
		lx.pending = lx.errAt(lx.dline[n], lx.dcol[n], fmt.Sprintf("'%c' was never closed", lx.depth[n]))
	}
	if n := len(lx.toks); n > 0 && lx.toks[n-1].kind != tNewline && lx.toks[n-1].kind != tDedent {
		lx.emit(tNewline, "", lx.line, lx.col(), lx.line, lx.col()+1)
	}
	for len(lx.indent) > 1 {
		lx.indent = lx.indent[:len(lx.indent)-1]
		lx.emit(tDedent, "", lx.line, 0, lx.line, 0)
	}
	lx.emit(tEOF, "", lx.line, 0, lx.line, 0)
	return nil
}

// indentation reads a line's leading blanks; blank and comment lines are
// skipped. It reports true at the end of the source.
func (lx *lexer) indentation() (bool, error) {
	for {
		width := 0
		start := lx.pos
		for lx.pos < len(lx.src) {
			c := lx.src[lx.pos]
			if c == ' ' {
				width++
			} else if c == '\t' {
				width = (width/8 + 1) * 8
			} else if c == '\f' {
				width = 0
			} else {
				break
			}
			lx.pos++
		}
		if lx.pos >= len(lx.src) {
			return true, nil
		}
		c := lx.src[lx.pos]
		if c == '#' || c == '\n' || c == '\r' {
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
			if lx.pos >= len(lx.src) {
				return true, nil
			}
			lx.pos++
			lx.newline()
			continue
		}
		if c == '\\' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '\n' && len(lx.toks) == 0 {
			lx.pos = start
		}
		lx.atBOL = false
		cur := lx.indent[len(lx.indent)-1]
		switch {
		case width > cur:
			if n := len(lx.toks); n == 0 || lx.toks[n-1].kind != tNewline {
				e := lx.errAt(lx.line, lx.col(), "unexpected indent")
				e.Indent = true
				return false, e
			}
			lx.indent = append(lx.indent, width)
			lx.emit(tIndent, "", lx.line, 0, lx.line, lx.col())
		case width < cur:
			for width < lx.indent[len(lx.indent)-1] {
				lx.indent = lx.indent[:len(lx.indent)-1]
				lx.emit(tDedent, "", lx.line, lx.col(), lx.line, lx.col())
			}
			if width != lx.indent[len(lx.indent)-1] {
				e := lx.errAt(lx.line, lx.col(), "unindent does not match any outer indentation level")
				e.Indent = true
				return false, e
			}
		}
		return false, nil
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (lx *lexer) nameOrString() error {
	start := lx.pos
	for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
		lx.pos++
	}
	word := lx.src[start:lx.pos]
	if lx.pos < len(lx.src) && (lx.src[lx.pos] == '"' || lx.src[lx.pos] == '\'') && isStrPrefix(word) {
		lx.pos = start
		return lx.str(start)
	}
	lx.emit(tName, word, lx.line, start-lx.lstart, lx.line, lx.col())
	return nil
}

func isStrPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "u", "b", "br", "rb", "f", "fr", "rf":
		return true
	}
	return false
}

func (lx *lexer) number() error {
	start := lx.pos
	s := lx.src
	if s[lx.pos] == '0' && lx.pos+1 < len(s) && strings.ContainsRune("xXoObB", rune(s[lx.pos+1])) {
		lx.pos += 2
		for lx.pos < len(s) && (isIdentChar(s[lx.pos])) {
			lx.pos++
		}
	} else {
		for lx.pos < len(s) && (isDigit(s[lx.pos]) || s[lx.pos] == '_') {
			lx.pos++
		}
		if lx.pos < len(s) && s[lx.pos] == '.' {
			lx.pos++
			for lx.pos < len(s) && (isDigit(s[lx.pos]) || s[lx.pos] == '_') {
				lx.pos++
			}
		}
		if lx.pos < len(s) && (s[lx.pos] == 'e' || s[lx.pos] == 'E') {
			p := lx.pos + 1
			if p < len(s) && (s[p] == '+' || s[p] == '-') {
				p++
			}
			if p < len(s) && isDigit(s[p]) {
				lx.pos = p
				for lx.pos < len(s) && (isDigit(s[lx.pos]) || s[lx.pos] == '_') {
					lx.pos++
				}
			}
		}
		if lx.pos < len(s) && (s[lx.pos] == 'j' || s[lx.pos] == 'J') {
			lx.pos++
		}
	}
	if lx.pos < len(s) && isIdentStart(s[lx.pos]) || s[lx.pos-1] == '_' || strings.Contains(s[start:lx.pos], "__") {
		return lx.errAt(lx.line, start-lx.lstart, "invalid decimal literal")
	}
	lx.emit(tNumber, s[start:lx.pos], lx.line, start-lx.lstart, lx.line, lx.col())
	return nil
}

// str reads a string literal (with its prefix) starting at start.
func (lx *lexer) str(start int) error {
	s := lx.src
	p := start
	for s[p] != '"' && s[p] != '\'' {
		p++
	}
	prefix := p - start
	q := s[p]
	triple := p+2 < len(s) && s[p+1] == q && s[p+2] == q
	line, col := lx.line, start-lx.lstart
	if triple {
		p += 3
	} else {
		p++
	}
	for {
		if p >= len(s) {
			if triple {
				last := lx.line
				if strings.HasSuffix(s, "\n") {
					last--
				}
				return lx.errAt(line, col, fmt.Sprintf("unterminated triple-quoted string literal (detected at line %d)", last))
			}
			return lx.errAt(line, col, fmt.Sprintf("unterminated string literal (detected at line %d)", line))
		}
		c := s[p]
		if c == '\\' && p+1 < len(s) {
			if s[p+1] == '\n' {
				lx.pos = p + 2
				lx.newline()
			}
			p += 2
			continue
		}
		if c == '\n' {
			if !triple {
				return lx.errAt(line, col, fmt.Sprintf("unterminated string literal (detected at line %d)", line))
			}
			lx.pos = p + 1
			lx.newline()
			p++
			continue
		}
		if c == q {
			if !triple {
				p++
				break
			}
			if p+2 < len(s) && s[p+1] == q && s[p+2] == q {
				p += 3
				break
			}
		}
		p++
	}
	lx.pos = p
	lx.toks = append(lx.toks, token{kind: tString, val: s[start:p], line: line, col: col, eline: lx.line, ecol: lx.col(), strPrefixLen: prefix})
	return nil
}

func (lx *lexer) op() error {
	s := lx.src[lx.pos:]
	col := lx.col()
	n := 0
	for _, o := range ops3 {
		if strings.HasPrefix(s, o) {
			n = 3
			break
		}
	}
	if n == 0 {
		for _, o := range ops2 {
			if strings.HasPrefix(s, o) {
				n = 2
				break
			}
		}
	}
	if n == 0 && strings.IndexByte(ops1, s[0]) >= 0 {
		n = 1
	}
	if n == 0 || s[:n] == "!" {
		return lx.errAt(lx.line, col, fmt.Sprintf("invalid character '%c' (U+%04X)", s[0], s[0]))
	}
	v := s[:n]
	switch v {
	case "(", "[", "{":
		lx.depth = append(lx.depth, v[0])
		lx.dline = append(lx.dline, lx.line)
		lx.dcol = append(lx.dcol, col)
	case ")", "]", "}":
		open := map[string]byte{")": '(', "]": '[', "}": '{'}[v]
		if len(lx.depth) == 0 {
			return lx.errAt(lx.line, col, fmt.Sprintf("unmatched '%s'", v))
		}
		top := lx.depth[len(lx.depth)-1]
		if top != open {
			n := len(lx.depth) - 1
			msg := fmt.Sprintf("closing parenthesis '%s' does not match opening parenthesis '%c'", v, top)
			if lx.dline[n] != lx.line {
				msg += fmt.Sprintf(" on line %d", lx.dline[n])
			}
			return lx.errAt(lx.line, col, msg)
		}
		lx.depth = lx.depth[:len(lx.depth)-1]
		lx.dline = lx.dline[:len(lx.dline)-1]
		lx.dcol = lx.dcol[:len(lx.dcol)-1]
	}
	lx.pos += n
	lx.emit(tOp, v, lx.line, col, lx.line, col+n)
	return nil
}
