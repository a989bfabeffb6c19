// The pre-pass expression parser: Python expressions as spans, and the
// rewrites of the expression habits Starlark cannot parse.

package rewrite

import (
	"fmt"
	"strings"
)

type nodeKind uint8

const (
	nName nodeKind = iota
	nNumber
	nStrings // adjacent string literals
	nEllipsis
	nParen // ( ), (x), (x, y), (x for ...)
	nList
	nDict
	nSet
	nCall
	nArg // keyword, *args or **kwargs argument
	nSubscript
	nSlice
	nAttr
	nUnary
	nBinary
	nPower
	nCompare
	nNot
	nBoolOp
	nIfExp
	nLambda
	nStar
	nNamed // NAME := value
	nTuple
	nYield
	nAwait
	nDictItem // key: value, or **mapping
	nComp     // a comprehension clause: for targets in iter, or if cond
)

// node is a parsed expression: the tokens [a, b) and its parts in source
// order.
type node struct {
	kind   nodeKind
	a, b   int
	kids   []*node
	ops    []int // nCompare: the first token of each operator
	opn    []int // nCompare: tokens in each operator (2 for "not in", "is not")
	dirty  bool
	genexp bool   // nParen, nCall: the only content is a generator expression
	dstar  bool   // nDict: has **mapping items
	refuse string // Python's SyntaxError for this form, reported at its first token
	glob   bool   // nNamed: the name is declared global
}

// exprParser parses one range of tokens.
type exprParser struct {
	src   string
	toks  []token
	i     int
	end   int // index of the token ending the range (tNewline, tEOF, or a stop)
	err   *Error
	named []*node // walrus expressions found
}

// Error is a refusal: a Python form the pre-pass cannot give its
// meaning, at an offset of the user's code.
type Error struct {
	Pos int
	Msg string
}

func (e *Error) Error() string { return e.Msg }

func (p *exprParser) tok() token {
	if p.i >= p.end {
		return token{kind: tEOF, start: p.toks[p.end].start, end: p.toks[p.end].start}
	}
	return p.toks[p.i]
}

func (p *exprParser) peek(k int) token {
	if p.i+k >= p.end {
		return token{kind: tEOF}
	}
	return p.toks[p.i+k]
}

func (p *exprParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Pos: p.tok().start, Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *exprParser) expect(op string) bool {
	if !p.tok().op(op) {
		p.fail("expected %q", op)
		return false
	}
	p.i++
	return true
}

func (p *exprParser) mk(kind nodeKind, a int, kids ...*node) *node {
	n := &node{kind: kind, a: a, b: p.i, kids: kids}
	for _, k := range kids {
		if k != nil && k.dirty {
			n.dirty = true
		}
	}
	return n
}

// atEnd reports whether the current token cannot continue an expression.
func (p *exprParser) atEnd() bool {
	t := p.tok()
	if t.kind == tEOF || t.kind == tNewline {
		return true
	}
	if t.kind == tOp {
		switch t.text {
		case ")", "]", "}", ",", ":", "=", ";", "->", "+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^=", "@=":
			return true
		}
	}
	if t.kind == tName {
		switch t.text {
		case "for", "if", "else", "in", "as", "from", "async":
			return true
		}
	}
	return false
}

// testList parses expressions separated by commas; more than one (or a
// trailing comma) is a tuple.
func (p *exprParser) testList(allowStar bool) *node {
	a := p.i
	first := p.testOrStar(allowStar)
	if !p.tok().op(",") {
		return first
	}
	kids := []*node{first}
	for p.tok().op(",") {
		p.i++
		if p.atEnd() {
			break
		}
		kids = append(kids, p.testOrStar(allowStar))
	}
	return p.starred(p.mk(nTuple, a, kids...))
}

func (p *exprParser) testOrStar(allowStar bool) *node {
	if allowStar && p.tok().op("*") {
		a := p.i
		p.i++
		return p.mk(nStar, a, p.binary(0))
	}
	return p.namedTest()
}

// namedTest parses NAME := test, or test.
func (p *exprParser) namedTest() *node {
	if p.tok().kind == tName && p.peek(1).op(":=") {
		a := p.i
		name := p.mk(nName, a)
		name.b = a + 1
		p.i += 2
		n := p.mk(nNamed, a, name, p.test())
		n.dirty = true
		p.named = append(p.named, n)
		return n
	}
	return p.test()
}

func (p *exprParser) test() *node {
	if p.tok().kw("lambda") {
		return p.lambda()
	}
	a := p.i
	x := p.orTest()
	if p.tok().kw("if") && p.err == nil {
		p.i++
		cond := p.orTest()
		if !p.tok().kw("else") {
			p.fail("expected 'else' in a conditional expression")
			return x
		}
		p.i++
		return p.mk(nIfExp, a, x, cond, p.test())
	}
	return x
}

func (p *exprParser) lambda() *node {
	a := p.i
	p.i++ // lambda
	var kids []*node
	for !p.tok().op(":") && p.err == nil {
		t := p.tok()
		switch {
		case t.op("*") || t.op("**"):
			p.i++
		case t.kind == tName:
			p.i++
			if p.tok().op("=") {
				p.i++
				kids = append(kids, p.test())
			}
		case t.op(",") || t.op("/"):
			p.i++
		default:
			p.fail("unexpected %q in lambda parameters", t.text)
			return p.mk(nLambda, a, kids...)
		}
	}
	p.i++ // ':'
	kids = append(kids, p.test())
	return p.mk(nLambda, a, kids...)
}

func (p *exprParser) orTest() *node {
	a := p.i
	x := p.andTest()
	for p.tok().kw("or") {
		p.i++
		x = p.mk(nBoolOp, a, x, p.andTest())
	}
	return x
}

func (p *exprParser) andTest() *node {
	a := p.i
	x := p.notTest()
	for p.tok().kw("and") {
		p.i++
		x = p.mk(nBoolOp, a, x, p.notTest())
	}
	return x
}

func (p *exprParser) notTest() *node {
	if p.tok().kw("not") {
		a := p.i
		p.i++
		return p.mk(nNot, a, p.notTest())
	}
	return p.comparison()
}

// compOp returns the number of tokens of the comparison operator at the
// current token, or 0.
func (p *exprParser) compOp() int {
	t := p.tok()
	switch {
	case t.kind == tOp && (t.text == "<" || t.text == ">" || t.text == "==" || t.text == ">=" || t.text == "<=" || t.text == "!="):
		return 1
	case t.kw("in"):
		return 1
	case t.kw("not") && p.peek(1).kw("in"):
		return 2
	case t.kw("is") && p.peek(1).kw("not"):
		return 2
	case t.kw("is"):
		return 1
	}
	return 0
}

func (p *exprParser) comparison() *node {
	a := p.i
	x := p.binary(0)
	if p.compOp() == 0 {
		return x
	}
	n := &node{kind: nCompare, a: a, kids: []*node{x}}
	for k := p.compOp(); k > 0 && p.err == nil; k = p.compOp() {
		n.ops = append(n.ops, p.i)
		n.opn = append(n.opn, k)
		if p.toks[p.i].kw("is") {
			n.dirty = true
		}
		p.i += k
		n.kids = append(n.kids, p.binary(0))
	}
	n.b = p.i
	if len(n.ops) > 1 {
		n.dirty = true
	}
	for _, k := range n.kids {
		n.dirty = n.dirty || k.dirty
	}
	return n
}

var binaryLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}

func (p *exprParser) binary(level int) *node {
	if level == len(binaryLevels) {
		return p.factor()
	}
	a := p.i
	x := p.binary(level + 1)
	for p.err == nil {
		t := p.tok()
		matched := false
		for _, op := range binaryLevels[level] {
			if t.op(op) {
				matched = true
			}
		}
		if !matched {
			return x
		}
		p.i++
		x = p.mk(nBinary, a, x, p.binary(level+1))
	}
	return x
}

func (p *exprParser) factor() *node {
	t := p.tok()
	if t.op("-") || t.op("+") || t.op("~") {
		a := p.i
		p.i++
		return p.mk(nUnary, a, p.factor())
	}
	return p.power()
}

func (p *exprParser) power() *node {
	a := p.i
	var x *node
	if p.tok().kw("await") {
		p.i++
		x = p.mk(nAwait, a, p.primary())
	} else {
		x = p.primary()
	}
	if p.tok().op("**") && p.err == nil {
		p.i++
		n := p.mk(nPower, a, x, p.factor())
		n.dirty = true
		return n
	}
	return x
}

func (p *exprParser) primary() *node {
	a := p.i
	x := p.atom()
	for p.err == nil {
		switch t := p.tok(); {
		case t.op("."):
			p.i++
			if p.tok().kind != tName {
				p.fail("expected a name after '.'")
				return x
			}
			p.i++
			x = p.mk(nAttr, a, x)
		case t.op("("):
			x = p.call(a, x)
		case t.op("["):
			p.i++
			kids := []*node{x}
			kids = append(kids, p.subscripts()...)
			p.expect("]")
			x = p.mk(nSubscript, a, kids...)
		default:
			return x
		}
	}
	return x
}

func (p *exprParser) call(a int, fn *node) *node {
	p.i++ // (
	kids := []*node{fn}
	genexp := false
	for !p.tok().op(")") && p.err == nil {
		b := p.i
		switch t := p.tok(); {
		case t.op("*") || t.op("**"):
			p.i++
			kids = append(kids, p.mk(nArg, b, p.test()))
		case t.kind == tName && p.peek(1).op("="):
			p.i += 2
			kids = append(kids, p.mk(nArg, b, p.test()))
		default:
			x := p.namedTest()
			kids = append(kids, x)
			if p.tok().kw("for") || p.tok().kw("async") {
				kids = append(kids, p.compClauses()...)
				genexp = b == fn.b+1 && p.tok().op(")")
			}
		}
		if !p.tok().op(",") {
			break
		}
		p.i++
	}
	p.expect(")")
	n := p.mk(nCall, a, kids...)
	if genexp {
		n.genexp, n.dirty = true, true
	}
	return n
}

func (p *exprParser) subscripts() []*node {
	var kids []*node
	for !p.tok().op("]") && p.err == nil {
		kids = append(kids, p.subscript())
		if !p.tok().op(",") {
			break
		}
		p.i++
	}
	return kids
}

func (p *exprParser) subscript() *node {
	a := p.i
	var kids []*node
	if !p.tok().op(":") {
		x := p.namedTest()
		if !p.tok().op(":") {
			return x
		}
		kids = append(kids, x)
	}
	for p.tok().op(":") {
		p.i++
		if !p.tok().op(":") && !p.tok().op("]") && !p.tok().op(",") {
			kids = append(kids, p.test())
		}
	}
	return p.mk(nSlice, a, kids...)
}

// numberNeedsFix reports whether a Python number literal needs a rewrite
// for Starlark (digit separators).
func numberNeedsFix(s string) bool { return strings.Contains(s, "_") }

// simpleOperand reports whether n can be evaluated twice without a
// visible difference: names, literals, attributes and subscripts of them,
// and len() of one.
func (e *emitter) simpleOperand(n *node) bool {
	switch n.kind {
	case nName, nNumber:
		return true
	case nStrings:
		return !n.dirty
	case nAttr:
		return e.simpleOperand(n.kids[0])
	case nUnary:
		return e.simpleOperand(n.kids[0])
	case nSubscript:
		for _, k := range n.kids {
			if !e.simpleOperand(k) {
				return false
			}
		}
		return true
	case nCall:
		return len(n.kids) == 2 && n.kids[0].kind == nName && e.toks[n.kids[0].a].text == "len" && e.simpleOperand(n.kids[1])
	}
	return false
}
