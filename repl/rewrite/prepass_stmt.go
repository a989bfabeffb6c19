// Pre-pass statements: imports, assert, raise, del, try, with, def,
// decorators, annotations, star targets and the walrus in conditions.

package rewrite

import (
	"fmt"
	"strconv"
	"strings"
)

// simpleStmt rewrites one simple statement, the line's tokens [a, b).
func (rw *rewriter) simpleStmt(lb *lineBuilder, a, b int, sc scope) {
	l := lb.l
	first := l.toks[a]
	switch {
	case first.kw("import"):
		rw.importStmt(lb, a, b)
	case first.kw("from"):
		rw.fromStmt(lb, a, b, sc)
	case first.kw("assert") && !(a+1 < b && (l.toks[a+1].op(".") || l.toks[a+1].op("="))):
		rw.assertStmt(lb, a, b)
	case first.kw("raise"):
		rw.raiseStmt(lb, a, b)
	case first.kw("del"):
		rw.delStmt(lb, a, b, sc)
	case first.kw("global") && (sc.top || sc.globals != nil):
		lb.replace(first.start, l.toks[b-1].end, "pass")
	case sc.clause != nil && first.kw("return"):
		rw.clauseReturn(lb, a, b, sc)
	case sc.clause != nil && !sc.loop && b == a+1 && (first.kw("break") || first.kw("continue")):
		kind, sig := SigBrk, "__py_brk"
		if first.text == "continue" {
			kind, sig = SigCont, "__py_cont"
		}
		sc.clause.signal(kind, first.start)
		lb.replace(first.start, first.end, "return "+sig)
	case first.kw("break") && rw.breaks[first.start] != "":
		lb.replace(first.start, first.end, rw.breaks[first.start]+" = False; break")
	case first.kw("nonlocal"):
		rw.nonlocalStmt(lb, a, b, sc)
	case rw.yieldStmt(lb, a, b, sc): // prepass_yield.go
	case first.kw("global"), first.kw("pass"), first.kw("break"), first.kw("continue"),
		first.kw("async"), first.kw("await"), first.kw("class"):
		// left as written
	case first.kw("return"):
		if b > a+1 {
			rw.exprs(lb, a+1, b, true, sc)
		}
	default:
		rw.assignment(lb, a, b, sc)
	}
}

// nonlocalStmt writes nonlocal a, b as __py_nonlocal("a", "b"): the AST
// pass keeps a and b of the enclosing function in its locals dict
// (astpass_locals.go), where the nested function reads and assigns them.
func (rw *rewriter) nonlocalStmt(lb *lineBuilder, a, b int, sc scope) {
	first, last := lb.l.toks[a], lb.l.toks[b-1]
	if !sc.def {
		rw.fail(first.start, "SyntaxError: nonlocal declaration not allowed at module level")
		return
	}
	var names []string
	for i := a + 1; i < b; i++ {
		t := lb.l.toks[i]
		switch {
		case t.kind == tName && (i-a)%2 == 1:
			names = append(names, strconv.Quote(t.text))
		case t.op(",") && (i-a)%2 == 0:
		default:
			return // Starlark reports it
		}
	}
	if len(names) == 0 {
		return
	}
	lb.replace(first.start, last.end, "__py_nonlocal("+strings.Join(names, ", ")+")")
}

// exprs rewrites the expression list in the line's tokens [a, b); it does
// nothing when they do not parse as one (Starlark then reports them).
func (rw *rewriter) exprs(lb *lineBuilder, a, b int, star bool, sc scope) {
	p := rw.parser(lb.l, a, b)
	n := p.testList(star)
	if p.err != nil || p.i != p.end {
		return
	}
	if !rw.checkNamed(p, sc, n) {
		return
	}
	lb.node(rw.emitter(), n)
}

// assignment rewrites an expression statement or an assignment, with
// annotations dropped, star targets unpacked and **= expanded.
func (rw *rewriter) assignment(lb *lineBuilder, a, b int, sc scope) {
	p := rw.parser(lb.l, a, b)
	var parts []*node
	parts = append(parts, p.testList(true))
	if p.err != nil {
		return
	}
	e := rw.emitter()
	switch t := p.tok(); {
	case t.op(":"): // x: int [= value]
		colon := p.i
		p.i++
		p.test()
		if p.err != nil {
			return
		}
		annEnd := p.i
		if !p.tok().op("=") {
			if p.i != p.end {
				return
			}
			lb.replace(lb.l.toks[a].start, p.toks[annEnd-1].end, "pass")
			return
		}
		p.i++
		value := p.testList(true)
		if p.err != nil || p.i != p.end {
			return
		}
		lb.node(e, parts[0])
		lb.replace(p.toks[colon].start, p.toks[annEnd].start, " ")
		lb.node(e, value)
		return
	case t.op("**="):
		target := parts[0]
		op := p.i
		p.i++
		value := p.testList(true)
		if p.err != nil || p.i != p.end {
			return
		}
		if target.kind != nName {
			rw.fail(t.start, "x **= y works on a plain name only here; write x = x ** y")
			return
		}
		name := p.toks[target.a].text
		lb.copyTo(p.toks[op].start)
		lb.f.add("= "+name+" ", p.toks[op].start)
		lb.f.mark("[", p.toks[op].start, markPow)
		va, vb := e.span(value)
		lb.f.copy(rw.src, p.toks[op].end, va)
		e.emit(value, &lb.f)
		lb.f.add("]", vb)
		lb.pos, lb.changed = vb, true
		if e.err != nil {
			rw.fail(e.err.Pos, e.err.Msg)
		}
		return
	case t.kind == tOp && strings.HasSuffix(t.text, "=") && t.text != "=" && t.text != "==":
		p.i++
		parts = append(parts, p.testList(true))
	default:
		for p.tok().op("=") && p.err == nil {
			p.i++
			if p.tok().kw("yield") {
				return
			}
			parts = append(parts, p.testList(true))
		}
		if len(parts) > 2 && p.err == nil && p.i == p.end && rw.checkNamed(p, sc, parts...) {
			rw.chainAssign(lb, e, parts)
			return
		}
	}
	if p.err != nil || p.i != p.end {
		return
	}
	if !rw.checkNamed(p, sc, parts...) {
		return
	}
	if sc.globals != nil && rw.globalAssign(lb, e, parts, p, a, sc) {
		return
	}
	if len(parts) == 2 && starTarget(parts[0]) >= 0 && !nestedStar(parts[0]) {
		rw.starAssign(lb, e, parts[0], parts[1])
		return
	}
	if len(parts) == 2 && starDeep(parts[0]) {
		rw.nestedStarAssign(lb, e, parts[0], parts[1])
		return
	}
	for i, n := range parts {
		if starTarget(n) >= 0 && i < len(parts)-1 {
			rw.fail(e.toks[n.a].start, "a starred target (a, *rest = ...) works in a single assignment only")
			return
		}
		if bareTrailingComma(e, n) {
			parenthesize(lb, e, n)
			continue
		}
		lb.node(e, n)
	}
}

// bareTrailingComma reports whether n is a tuple written with a trailing
// comma and no parentheses, x, = v or v = 1, (Starlark refuses it).
func bareTrailingComma(e *emitter, n *node) bool {
	last := e.toks[n.b-1]
	return n.kind == nTuple && last.op(",") && last.depth == e.toks[n.a].depth
}

// parenthesize writes n inside parentheses: (x,) = v.
func parenthesize(lb *lineBuilder, e *emitter, n *node) {
	a, b := e.span(n)
	lb.copyTo(a)
	lb.f.add("(", a)
	e.emit(n, &lb.f)
	lb.f.add(")", b)
	lb.pos, lb.changed = b, true
	if e.err != nil {
		lb.rw.fail(e.err.Pos, e.err.Msg)
	}
}

// chainAssign writes a = b = v as (a, b) = __py_dup(v, 2): v evaluated
// once, the same value bound to each target from left to right.
func (rw *rewriter) chainAssign(lb *lineBuilder, e *emitter, parts []*node) {
	targets, value := parts[:len(parts)-1], parts[len(parts)-1]
	for _, t := range targets {
		if starTarget(t) >= 0 {
			rw.fail(e.toks[t.a].start, "a starred target (a, *rest = ...) works in a single assignment only")
			return
		}
	}
	first, _ := e.span(targets[0])
	lb.copyTo(first)
	lb.f.add("(", first)
	for i, t := range targets {
		if i > 0 {
			lb.f.add(", ", e.toks[t.a].start)
		}
		lb.f.add("(", e.toks[t.a].start)
		e.emit(t, &lb.f)
		lb.f.add(")", e.toks[t.b-1].end)
	}
	va, vb := e.span(value)
	lb.f.add(") = __py_dup(", va)
	e.emit(value, &lb.f)
	lb.f.add(", "+strconv.Itoa(len(targets))+")", vb)
	lb.pos, lb.changed = vb, true
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
}

// starTarget returns the index of the starred element of a target tuple,
// or -1.
func starTarget(n *node) int {
	if n.kind == nStar {
		return 0
	}
	if n.kind != nTuple {
		return -1
	}
	for i, k := range n.kids {
		if k.kind == nStar {
			return i
		}
	}
	return -1
}

// starAssign writes a, *b, c = v as (a, b, c) = __py_unpack(v, 1, 1).
func (rw *rewriter) starAssign(lb *lineBuilder, e *emitter, target, value *node) {
	kids := target.kids
	if target.kind == nStar {
		kids = []*node{target}
	}
	k := starTarget(target)
	for i, n := range kids {
		if n.kind == nStar && i != k {
			rw.fail(e.toks[n.a].start, "only one starred target is allowed")
			return
		}
	}
	ta, tb := e.span(target)
	lb.copyTo(ta)
	lb.f.add("(", ta)
	pos := ta
	for i, n := range kids {
		na, nb := e.span(n)
		lb.f.copy(rw.src, pos, na)
		if i == k {
			e.emit(n.kids[0], &lb.f)
		} else {
			e.emit(n, &lb.f)
		}
		pos = nb
	}
	lb.f.copy(rw.src, pos, tb)
	if len(kids) == 1 && !strings.HasSuffix(strings.TrimSpace(rw.src[pos:tb]), ",") {
		lb.f.add(",", tb)
	}
	lb.f.add(")", tb)
	va, vb := e.span(value)
	lb.f.copy(rw.src, tb, va)
	lb.f.add("__py_unpack(", va)
	e.emit(value, &lb.f)
	lb.f.add(fmt.Sprintf(", %d, %d)", k, len(kids)-k-1), vb)
	lb.pos, lb.changed = vb, true
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
}

// dottedName reads NAME(.NAME)* at p.
func dottedName(p *exprParser) (string, bool) {
	var parts []string
	for {
		if p.tok().kind != tName {
			return "", false
		}
		parts = append(parts, p.tok().text)
		p.i++
		if !p.tok().op(".") {
			return strings.Join(parts, "."), true
		}
		p.i++
	}
}

// importStmt writes import a.b as c, d as c = __py_import("a.b", True);
// d = __py_import("d", False). Without "as", the name bound is the first
// component (the package), as in Python.
func (rw *rewriter) importStmt(lb *lineBuilder, a, b int) {
	p := rw.parser(lb.l, a+1, b)
	var stmts []string
	for {
		name, ok := dottedName(p)
		if !ok {
			return
		}
		bind, full := strings.Split(name, ".")[0], "False"
		if p.tok().kw("as") {
			p.i++
			if p.tok().kind != tName {
				return
			}
			bind, full = p.tok().text, "True"
			p.i++
		}
		stmts = append(stmts, fmt.Sprintf("%s = __py_import(%s, %s)", bind, strconv.Quote(name), full))
		if !p.tok().op(",") {
			break
		}
		p.i++
	}
	if p.i != p.end {
		return
	}
	first := lb.l.toks[a]
	lb.replace(first.start, lb.l.toks[b-1].end, strings.Join(stmts, "; ")+newlines(rw.src[first.start:lb.l.toks[b-1].end]))
}

// newlines returns the line breaks in s, so that a rewritten statement
// keeps the line count of the original.
func newlines(s string) string { return strings.Repeat("\n", strings.Count(s, "\n")) }

// fromStmt writes from a import b as c, d as [c, d] = __py_from("a", "b",
// "d"); from a import * as __py_import_star("a") (top level only).
func (rw *rewriter) fromStmt(lb *lineBuilder, a, b int, sc scope) {
	p := rw.parser(lb.l, a+1, b)
	dots := ""
	for p.tok().op(".") || p.tok().op("...") {
		dots += p.tok().text
		p.i++
	}
	module := dots
	if !p.tok().kw("import") {
		name, ok := dottedName(p)
		if !ok {
			return
		}
		module += name
	}
	if !p.tok().kw("import") {
		return
	}
	p.i++
	first, last := lb.l.toks[a], lb.l.toks[b-1]
	keep := newlines(rw.src[first.start:last.end])
	if p.tok().op("*") {
		p.i++
		if p.i != p.end {
			return
		}
		if !sc.top {
			rw.fail(first.start, "from ... import * is allowed only at the top level")
			return
		}
		lb.replace(first.start, last.end, fmt.Sprintf("__py_import_star(%s)", strconv.Quote(module))+keep)
		return
	}
	if module == "__future__" {
		lb.replace(first.start, last.end, "pass"+keep)
		return
	}
	paren := p.tok().op("(")
	if paren {
		p.i++
	}
	var binds, names []string
	for p.tok().kind == tName {
		name := p.tok().text
		p.i++
		bind := name
		if p.tok().kw("as") {
			p.i++
			if p.tok().kind != tName {
				return
			}
			bind = p.tok().text
			p.i++
		}
		binds, names = append(binds, bind), append(names, strconv.Quote(name))
		if !p.tok().op(",") {
			break
		}
		p.i++
	}
	if paren && !p.tok().op(")") {
		return
	}
	if paren {
		p.i++
	}
	if p.i != p.end || len(names) == 0 {
		return
	}
	text := fmt.Sprintf("[%s] = __py_from(%s, %s)", strings.Join(binds, ", "), strconv.Quote(module), strings.Join(names, ", "))
	lb.replace(first.start, last.end, text+keep)
}

// assertStmt writes assert t, m as __py_assert(t, lambda: (m)): the message
// is evaluated only when the assertion fails.
func (rw *rewriter) assertStmt(lb *lineBuilder, a, b int) {
	rw.callStmt(lb, a, b, "__py_assert(", func(t token) bool { return t.op(",") }, ", lambda: (", ")")
}

// raiseStmt writes raise E from c as __py_raise(E, c).
func (rw *rewriter) raiseStmt(lb *lineBuilder, a, b int) {
	if b == a+1 {
		first := lb.l.toks[a]
		lb.replace(first.start, first.end, "__py_raise()")
		return
	}
	rw.callStmt(lb, a, b, "__py_raise(", func(t token) bool { return t.kw("from") }, ", ", "")
}

// callStmt writes the statement at tokens a to b, a keyword then X or X
// sep Y, as a call: call X) or call X, pre Y post). The statement is left
// as it is when it does not read so.
func (rw *rewriter) callStmt(lb *lineBuilder, a, b int, call string, sep func(token) bool, pre, post string) {
	p := rw.parser(lb.l, a+1, b)
	x := p.test()
	var y *node
	if sep(p.tok()) {
		p.i++
		y = p.test()
	}
	if p.err != nil || p.i != p.end {
		return
	}
	e := rw.emitter()
	first := lb.l.toks[a]
	xa, xb := e.span(x)
	lb.replace(first.start, xa, call)
	e.emit(x, &lb.f)
	lb.pos = xb
	if y != nil {
		ya, yb := e.span(y)
		lb.f.add(pre, ya)
		e.emit(y, &lb.f)
		if post != "" {
			lb.f.add(post, yb)
		}
		lb.pos = yb
	}
	lb.f.add(")", lb.pos)
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
}

// delStmt writes each target of del as a call: __py_delitem(d, k),
// __py_delslice(xs, lo, hi, step), __py_delattr(o, "a") or, at the top
// level, __py_delname("x") (which the driver runs between chunks).
func (rw *rewriter) delStmt(lb *lineBuilder, a, b int, sc scope) {
	p := rw.parser(lb.l, a+1, b)
	list := p.testList(false)
	if p.err != nil || p.i != p.end {
		return
	}
	targets := []*node{list}
	if list.kind == nTuple {
		targets = list.kids
	}
	e := rw.emitter()
	var calls []frag
	var add func(n *node) bool
	add = func(n *node) bool {
		var f frag
		na, nb := e.span(n)
		switch n.kind {
		case nParen, nTuple, nList:
			for _, k := range n.kids {
				if !add(k) {
					return false
				}
			}
			return true
		case nName:
			if !sc.top {
				rw.fail(na, "del of a function's local variable is not supported; rebind it (x = None)")
				return false
			}
			f.add(fmt.Sprintf("__py_delname(%s)", strconv.Quote(e.toks[n.a].text)), na)
		case nAttr:
			x := n.kids[0]
			f.add("__py_delattr(", na)
			e.emit(x, &f)
			f.add(fmt.Sprintf(", %s)", strconv.Quote(e.toks[n.b-1].text)), nb)
		case nSubscript:
			x, idx := n.kids[0], n.kids[1:]
			if len(idx) == 1 && idx[0].kind == nSlice {
				f.add("__py_delslice(", na)
				e.emit(x, &f)
				rw.sliceArgs(e, idx[0], &f)
				f.add(")", nb)
			} else {
				f.add("__py_delitem(", na)
				e.emit(x, &f)
				f.add(", ", na)
				if len(idx) > 1 {
					f.add("(", na)
				}
				for i, k := range idx {
					if i > 0 {
						f.add(", ", na)
					}
					e.emit(k, &f)
				}
				if len(idx) > 1 {
					f.add(",)", na)
				}
				f.add(")", nb)
			}
		default:
			rw.fail(na, "cannot delete this expression")
			return false
		}
		calls = append(calls, f)
		return true
	}
	for _, t := range targets {
		if !add(t) {
			return
		}
	}
	first, last := lb.l.toks[a], lb.l.toks[b-1]
	lb.copyTo(first.start)
	for i, c := range calls {
		if i > 0 {
			lb.f.add("; ", first.start)
		}
		lb.f.addFrag(c)
	}
	lb.f.add(newlines(rw.src[first.start:last.end]), last.end)
	lb.pos, lb.changed = last.end, true
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
}

// sliceArgs writes ", lo, hi, step" for a slice node, None where missing.
func (rw *rewriter) sliceArgs(e *emitter, s *node, f *frag) {
	var parts [3]*node
	d := e.toks[s.a].depth
	for _, n := range s.kids {
		k := 0
		for i := s.a; i < n.a; i++ {
			if e.toks[i].op(":") && e.toks[i].depth == d {
				k++
			}
		}
		if k < 3 {
			parts[k] = n
		}
	}
	for _, n := range parts {
		if n == nil {
			f.add(", None", e.toks[s.a].start)
		} else {
			f.add(", ", e.toks[n.a].start)
			e.emit(n, f)
		}
	}
}
