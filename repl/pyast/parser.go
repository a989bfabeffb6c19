package pyast

import (
	"fmt"
	"strings"
)

var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// parser is a recursive-descent parser over the tokens; errors are
// panics of *SyntaxError, recovered by Parse.
type parser struct {
	toks    []token
	p       int
	lines   []string
	end     token          // the last consumed token that is not NEWLINE/INDENT/DEDENT
	paren   map[*Node]bool // expressions written inside parentheses
	pending *SyntaxError   // the tokenizer's error at the end (an unclosed bracket)
	assign  bool           // parsing an assignment's targets
	strPos  Pos            // the run of strings being parsed
	lexOff  [2]int         // for f-string parts: line and column of the part's start
}

// Parse parses a module: ast.parse(src).
func Parse(src string) (mod *Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			mod, err = nil, se
		}
	}()
	toks, pending, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, lines: strings.Split(src, "\n"), paren: map[*Node]bool{}, pending: pending}
	var body []*Node
	for p.tok().kind != tEOF {
		body = append(body, p.statement()...)
	}
	return &Node{Type: "Module", Fields: []Field{{"body", nonNil(body)}, {"type_ignores", []*Node{}}}}, nil
}

// ParseExpr parses an expression: ast.parse(src, mode="eval").
func ParseExpr(src string) (mod *Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			mod, err = nil, se
		}
	}()
	toks, pending, err := tokenize(strings.TrimLeft(src, " \t"))
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, lines: strings.Split(src, "\n"), paren: map[*Node]bool{}, pending: pending}
	e := p.starExpressions()
	for p.tok().kind == tNewline {
		p.p++
	}
	if p.tok().kind != tEOF {
		p.fail("invalid syntax")
	}
	return &Node{Type: "Expression", Fields: []Field{{"body", e}}}, nil
}

func nonNil(l []*Node) []*Node {
	if l == nil {
		return []*Node{}
	}
	return l
}

func (p *parser) tok() token { return p.toks[p.p] }

func (p *parser) peekAt(i int) token {
	if p.p+i < len(p.toks) {
		return p.toks[p.p+i]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.p]
	if t.kind != tEOF {
		p.p++
	}
	if t.kind != tNewline && t.kind != tIndent && t.kind != tDedent {
		p.end = t
	}
	return t
}

func (p *parser) isOp(v string) bool {
	t := p.tok()
	return t.kind == tOp && t.val == v
}

func (p *parser) isKw(v string) bool {
	t := p.tok()
	return t.kind == tName && t.val == v
}

func (p *parser) acceptOp(v string) bool {
	if p.isOp(v) {
		p.next()
		return true
	}
	return false
}

func (p *parser) acceptKw(v string) bool {
	if p.isKw(v) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expectOp(v string) token {
	if !p.isOp(v) {
		if v == ":" || v == "(" || v == ")" || v == "]" || v == "}" || v == "=" {
			p.failAt(p.end, true, fmt.Sprintf("expected '%s'", v))
		}
		p.fail("invalid syntax")
	}
	return p.next()
}

func (p *parser) expectKw(v string) token {
	if !p.isKw(v) {
		p.fail("invalid syntax")
	}
	return p.next()
}

func (p *parser) name() string {
	t := p.tok()
	if t.kind != tName || keywords[t.val] {
		p.fail("invalid syntax")
	}
	p.next()
	return t.val
}

// fail raises a SyntaxError at the current token.
func (p *parser) fail(msg string) {
	t := p.tok()
	if t.kind == tEOF && msg == "invalid syntax" {
		msg = "invalid syntax"
	}
	p.failAt(t, false, msg)
}

// failAt raises a SyntaxError at t's start (or its end when after).
func (p *parser) failAt(t token, after bool, msg string) {
	if p.pending != nil && p.p >= len(p.toks)-2 {
		panic(p.pending)
	}
	line, col := t.line, t.col
	if after {
		line, col = t.eline, t.ecol
	}
	line, col = p.shift(line, col)
	text := ""
	if line >= 1 && line <= len(p.lines) {
		text = p.lines[line-1]
	}
	panic(&SyntaxError{Msg: msg, Lineno: line, Offset: col + 1, Text: text})
}

func (p *parser) shift(line, col int) (int, int) {
	if p.lexOff[0] == 0 {
		return line, col
	}
	if line == 1 {
		col += p.lexOff[1]
	}
	return line + p.lexOff[0] - 1, col
}

// posFrom is the position from token start to the last consumed token.
func (p *parser) posFrom(start token) Pos {
	l, c := p.shift(start.line, start.col)
	el, ec := p.shift(p.end.eline, p.end.ecol)
	return Pos{l, c, el, ec}
}

// try runs f and reports whether it parsed; on failure the parser is
// back where it was.
func (p *parser) try(f func()) (ok bool) {
	save, saveEnd := p.p, p.end
	defer func() {
		if r := recover(); r != nil {
			if _, isSE := r.(*SyntaxError); !isSE {
				panic(r)
			}
			p.p, p.end = save, saveEnd
			ok = false
		}
	}()
	f()
	return true
}
