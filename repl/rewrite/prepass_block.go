// Pre-pass compound statements: try clauses, with, def, decorators, and
// the headers of if, elif, while and for.

package rewrite

import (
	"strconv"
	"strings"
)

// tryClause writes the clauses of a top-level try as the markers the
// driver runs: if __py_try(): / elif __py_except(E, "e"): /
// elif __py_finally():.
func (rw *rewriter) tryClause(lb *lineBuilder, sc scope) {
	l := lb.l
	if l.colon < 0 {
		return
	}
	first, colon := l.toks[0], l.toks[l.colon]
	switch l.kw {
	case "try":
		if l.colon != 1 {
			return
		}
		lb.replace(first.start, first.end, "if __py_try()")
	case "finally":
		if l.colon != 1 {
			return
		}
		lb.replace(first.start, first.end, "elif __py_finally()")
	case "except":
		if l.colon == 1 {
			lb.replace(first.start, first.end, "elif __py_except()")
			break
		}
		types, name, ok := rw.exceptHeader(l, false)
		if !ok {
			return
		}
		e := rw.emitter()
		ta, tb := e.span(types)
		lb.replace(first.start, ta, "elif __py_except(")
		e.emit(types, &lb.f)
		if name != "" {
			lb.f.add(", "+strconv.Quote(name), tb)
		}
		lb.f.add(")", tb)
		lb.pos = colon.start
		if e.err != nil {
			rw.fail(e.err.Pos, e.err.Msg)
		}
	}
	rw.inline(lb, sc)
}

// withStmt writes a top-level with A as a, B: as for (a, __py_w) in
// __py_with(A, B):. The iterable enters the context managers and exits
// them when the loop ends, by an error too; the driver runs the loop, so
// that the block's exception reaches the managers and a break or continue
// of an enclosing loop leaves that loop. Inside a function the with is a
// clause function run by __py_withrun (prepass_withdef.go).
func (rw *rewriter) withStmt(lb *lineBuilder, sc scope) {
	l := lb.l
	if t := rw.tries[l]; t != nil {
		rw.defWith(lb, t)
		return
	}
	items, ok := rw.withItems(l)
	if !ok {
		return
	}
	e := rw.emitter()
	var f frag
	f.add("for ", l.toks[0].start)
	rw.withTargets(e, items, &f)
	f.add(" in __py_with(", l.toks[0].start)
	rw.withManagers(e, items, &f)
	f.add(")", l.toks[l.colon].start)
	lb.copyTo(l.toks[0].start)
	lb.f.addFrag(f)
	lb.pos, lb.changed = l.toks[l.colon].start, true
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
	rw.inline(lb, sc)
}

// withItem is one item of a with statement: the manager's expression and
// its target (nil without as).
type withItem struct{ x, target *node }

// withItems parses the items of a with statement's header; it reports
// false when they cannot be read (left to Starlark's error).
func (rw *rewriter) withItems(l *pline) ([]withItem, bool) {
	if l.colon < 0 {
		return nil, false
	}
	a, b := 1, l.colon
	if l.toks[1].op("(") && l.toks[b-1].op(")") && l.toks[b-1].depth == 0 && hasAsAtDepth(l.toks[2:b-1], 1) {
		a, b = 2, b-1
	}
	p := rw.parser(l, a, b)
	var items []withItem
	for {
		it := withItem{x: p.test()}
		if p.tok().kw("as") {
			p.i++
			it.target = p.binary(0)
		}
		items = append(items, it)
		if !p.tok().op(",") {
			break
		}
		p.i++
		if p.i == p.end {
			break
		}
	}
	return items, p.err == nil && p.i == p.end
}

// withTargets writes the targets of items, (a, __py_w) for with A as a,
// B: (a alone for one item).
func (rw *rewriter) withTargets(e *emitter, items []withItem, f *frag) {
	at := e.toks[items[0].x.a].start
	if len(items) > 1 {
		f.add("(", at)
	}
	for i, it := range items {
		if i > 0 {
			f.add(", ", at)
		}
		if it.target == nil {
			f.add("__py_w", e.toks[it.x.a].start)
		} else {
			e.emit(it.target, f)
		}
	}
	if len(items) > 1 {
		f.add(")", at)
	}
}

// withManagers writes the managers' expressions of items, A, B.
func (rw *rewriter) withManagers(e *emitter, items []withItem, f *frag) {
	for i, it := range items {
		if i > 0 {
			f.add(", ", e.toks[it.x.a].start)
		}
		e.emit(it.x, f)
	}
}

func hasAsAtDepth(toks []token, depth int) bool {
	for _, t := range toks {
		if t.kw("as") && t.depth == depth {
			return true
		}
	}
	return false
}

// defStmt drops the annotations of a def's parameters and its return
// annotation, and positional-only markers; defaults are rewritten. The
// annotations are kept in rw.annots for annotate.
func (rw *rewriter) defStmt(lb *lineBuilder, sc scope) {
	l := lb.l
	if l.colon < 0 || len(l.toks) < 4 || !l.toks[2].op("(") {
		return
	}
	open := 2
	close := -1
	for i := open + 1; i < l.colon; i++ {
		if l.toks[i].op(")") && l.toks[i].depth == l.toks[open].depth {
			close = i
			break
		}
	}
	if close < 0 {
		return
	}
	d := l.toks[open].depth + 1
	e := rw.emitter()
	start := open + 1
	for i := open + 1; i <= close; i++ {
		t := l.toks[i]
		if i < close && !(t.op(",") && t.depth == d) {
			continue
		}
		rw.param(lb, e, start, i, d)
		if rw.err != nil {
			return
		}
		start = i + 1
	}
	if close+1 < l.colon && l.toks[close+1].op("->") {
		rw.keepAnnotation(l, e, "return", close+2, l.colon)
		lb.replace(l.toks[close].end, l.toks[l.colon].start, "")
	}
	rw.inline(lb, scope{def: true})
}

// param rewrites one parameter, the line's tokens [a, b) at depth d.
func (rw *rewriter) param(lb *lineBuilder, e *emitter, a, b, d int) {
	l := lb.l
	if a >= b {
		return
	}
	if b-a == 1 && l.toks[a].op("/") {
		end := l.toks[a].end
		if b < len(l.toks) && l.toks[b].op(",") {
			end = l.toks[b].end
		}
		lb.replace(l.toks[a].start, end, "")
		return
	}
	i := a
	if l.toks[i].op("*") || l.toks[i].op("**") {
		i++
	}
	if i >= b || l.toks[i].kind != tName {
		return
	}
	i++
	if i < b && l.toks[i].op(":") {
		j := i + 1
		for j < b && !(l.toks[j].op("=") && l.toks[j].depth == d) {
			j++
		}
		end := l.toks[b-1].end
		if j < b {
			end = l.toks[j].start
		}
		rw.keepAnnotation(l, e, l.toks[i-1].text, i+1, j)
		lb.replace(l.toks[i].start, end, "")
		i = j
	}
	if i < b && l.toks[i].op("=") {
		p := rw.parser(l, i+1, b)
		x := p.test()
		if p.err == nil && p.i == p.end {
			lb.node(e, x)
		}
	}
}

// keepAnnotation adds ("name", (annotation)) to the def's annotations,
// the line's tokens [a, b); one the pre-pass cannot read is left out.
func (rw *rewriter) keepAnnotation(l *pline, e *emitter, name string, a, b int) {
	rw.keepAnnotationOf(l, l, e, name, a, b)
}

// keepAnnotationOf is keepAnnotation of the tokens [a, b) of line l for
// key, the def or class statement the annotation belongs to.
func (rw *rewriter) keepAnnotationOf(key, l *pline, e *emitter, name string, a, b int) {
	if a >= b {
		return
	}
	if rw.lazyAnnots {
		g := rw.annots[key]
		g.add("("+strconv.Quote(name)+", "+strconv.Quote(annotationText(l.toks[a:b]))+"), ", l.toks[a].start)
		rw.annots[key] = g
		return
	}
	p := rw.parser(l, a, b)
	x := p.test()
	if p.err != nil || p.i != p.end {
		return
	}
	var f frag
	e.emit(x, &f)
	if e.err != nil {
		return
	}
	at := l.toks[a].start
	g := rw.annots[key]
	g.add("("+strconv.Quote(name)+", (", at)
	g.addFrag(f)
	g.add(")), ", at)
	rw.annots[key] = g
}

// annotationText is an annotation as PEP 563 keeps it, the text
// ast.unparse writes for its tokens: ", " after a comma, " | " for |,
// a plain string literal in single quotes.
func annotationText(toks []token) string {
	var sb strings.Builder
	for i, t := range toks {
		switch {
		case t.op(","):
			sb.WriteString(", ")
		case t.op("|"):
			sb.WriteString(" | ")
		case t.kind == tString && len(t.text) >= 2 && t.text[0] == '"' && t.text[len(t.text)-1] == '"' && !strings.ContainsAny(t.text[1:len(t.text)-1], "'\\\""):
			sb.WriteString("'" + t.text[1:len(t.text)-1] + "'")
		case t.kind == tName && i > 0 && toks[i-1].kind == tName:
			sb.WriteString(" " + t.text) // a keyword between names: "not", "in", "if", ...
		default:
			sb.WriteString(t.text)
		}
	}
	return strings.TrimSuffix(sb.String(), " ")
}

// annotate follows def l with __py_annotate(NAME, lambda: [("x", (int)),
// ...]): the runtime evaluates the annotations at once and keeps them for
// f.__annotations__ and inspect.
func (rw *rewriter) annotate(l *pline) {
	if len(l.toks) < 2 || l.toks[1].kind != tName {
		return
	}
	name := l.toks[1].text
	if name == "load" {
		name = loadName
	}
	indent := rw.src[strings.LastIndexByte(rw.src[:l.start], '\n')+1 : l.start]
	end := l.lastLine().end
	var f frag
	f.add("\n"+indent+"__py_annotate("+name+", lambda: [", l.start)
	f.addFrag(rw.annots[l])
	f.add("])", l.start)
	rw.edits = append(rw.edits, edit{start: end, end: end, f: f})
}

// decorate empties the decorator lines of def (or class) l and applies
// the decorators after its block: f = d1(d2(f)). A decorator that names
// the function itself (@size.setter on def size) is evaluated where it
// stands, before the def rebinds the name, as Python does:
// __py_deco_N = size.setter, then size = __py_deco_N(size).
func (rw *rewriter) decorate(l *pline) {
	if len(l.toks) < 2 || l.toks[1].kind != tName {
		return
	}
	name := l.toks[1].text
	e := rw.emitter()
	var exprs []frag
	for _, d := range l.deco {
		p := rw.parser(d, 1, len(d.toks))
		x := p.namedTest()
		if p.err != nil || p.i != p.end {
			return
		}
		var f frag
		e.emit(x, &f)
		exprs = append(exprs, f)
	}
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
		return
	}
	for i, d := range l.deco {
		hoist := false
		for _, t := range d.toks[1:] {
			hoist = hoist || t.kw(name)
		}
		if !hoist {
			rw.edits = append(rw.edits, edit{start: d.start, end: d.end})
			continue
		}
		line, _ := LineCol(rw.src, LineStarts(rw.src), d.start)
		tmp := "__py_deco_" + strconv.Itoa(line)
		var f frag
		f.add(tmp+" = ", d.start)
		f.addFrag(exprs[i])
		rw.edits = append(rw.edits, edit{start: d.start, end: d.end, f: f})
		exprs[i] = frag{{text: tmp, orig: d.start}}
	}
	if name == "load" {
		name = loadName // as renameLoads writes the def's name
	}
	indent := rw.src[strings.LastIndexByte(rw.src[:l.start], '\n')+1 : l.start]
	at := l.deco[0].toks[0].start
	var f frag
	f.add("\n"+indent+name+" = ", at)
	for _, x := range exprs {
		f.addFrag(x)
		f.add("(", at)
	}
	f.add(name+strings.Repeat(")", len(exprs)), at)
	end := l.lastLine().end
	rw.edits = append(rw.edits, edit{start: end, end: end, f: f})
}

// condHeader rewrites the condition of if, elif and while.
func (rw *rewriter) condHeader(lb *lineBuilder, sc scope) {
	l := lb.l
	if l.colon < 1 {
		return
	}
	p := rw.parser(l, 1, l.colon)
	cond := p.namedTest()
	if p.err != nil || p.i != p.end || !rw.checkNamed(p, sc) {
		return
	}
	lb.node(rw.emitter(), cond)
	rw.inline(lb, sc)
}

// forHeader rewrites the targets and iterable of a for statement.
func (rw *rewriter) forHeader(lb *lineBuilder, sc scope) {
	l := lb.l
	if l.colon < 0 {
		return
	}
	p := rw.parser(l, 1, l.colon)
	targets := p.targetList()
	if !p.tok().kw("in") {
		return
	}
	p.i++
	iter := p.testList(true)
	if p.err != nil || p.i != p.end {
		return
	}
	e := rw.emitter()
	if !rw.checkNamed(p, sc) {
		return
	}
	if starDeep(targets) {
		ta, _ := e.span(targets)
		_, ib := e.span(iter)
		lb.copyTo(ta)
		e.starredFor(targets, iter, &lb.f)
		lb.pos, lb.changed = ib, true
		if e.err != nil {
			rw.fail(e.err.Pos, e.err.Msg)
		}
		rw.inline(lb, sc)
		return
	}
	lb.node(e, targets)
	lb.node(e, iter)
	rw.inline(lb, sc)
}

// loopElse prepares a for or while statement with an else clause, which
// Starlark lacks: a flag set before the loop, cleared by each break of
// this loop, guards the else block.
//
//	flag = True     (a line before the loop)
//	for ...: ... flag = False; break ...
//	if flag:        (was else:)
func (rw *rewriter) loopElse(loop, els *pline) {
	line, _ := LineCol(rw.src, LineStarts(rw.src), loop.start)
	flag := "__py_loop_else_" + strconv.Itoa(line)
	rw.elses[els] = flag
	at := strings.LastIndexByte(rw.src[:loop.start], '\n') + 1
	var f frag
	f.add(rw.src[at:loop.start]+flag+" = True\n", loop.start)
	rw.edits = append(rw.edits, edit{start: at, end: at, f: f})
	var mark func(l *pline, inline bool)
	mark = func(l *pline, inline bool) {
		if l.colon >= 0 || inline {
			start := l.colon + 1
			if inline {
				start = 0
			}
			for i := start; i < len(l.toks); i++ {
				if t := l.toks[i]; t.kw("break") && t.depth == 0 && (i == 0 || l.toks[i-1].op(";") || l.toks[i-1].op(":")) {
					rw.breaks[t.start] = flag
				}
			}
		}
		for _, k := range l.kids {
			switch k.kw {
			case "for", "while", "def", "class":
				continue
			}
			mark(k, k.colon < 0)
		}
	}
	mark(loop, false)
}

// declaredGlobals returns the names a def's body declares global (in its
// own statements, not in nested functions), or nil.
func declaredGlobals(def *pline) map[string]bool {
	var names map[string]bool
	var scan func(l *pline)
	scan = func(l *pline) {
		for _, k := range l.kids {
			switch {
			case k.kw == "def" || k.kw == "class":
				continue
			case k.kw == "global":
				for _, t := range k.toks[1:] {
					if t.kind == tName {
						if names == nil {
							names = map[string]bool{}
						}
						names[t.text] = true
					}
				}
			}
			scan(k)
		}
	}
	scan(def)
	return names
}

// globalAssign rewrites an assignment to a name the def declares global:
// x = v as __py_setglobal("x", v), x += v as __py_setglobal("x", x + (v)).
// It reports whether it handled the statement.
func (rw *rewriter) globalAssign(lb *lineBuilder, e *emitter, parts []*node, p *exprParser, a int, sc scope) bool {
	target := parts[0]
	names := map[string]bool{}
	var collect func(n *node)
	collect = func(n *node) {
		switch n.kind {
		case nName:
			names[e.toks[n.a].text] = true
		case nTuple, nParen, nList, nStar:
			for _, k := range n.kids {
				collect(k)
			}
		}
	}
	for _, t := range parts[:len(parts)-1] {
		collect(t)
	}
	hit := false
	for n := range names {
		hit = hit || sc.globals[n]
	}
	if !hit {
		return false
	}
	if len(parts) != 2 || target.kind != nName {
		rw.fail(e.toks[target.a].start, "a name declared global can be assigned here only on its own (x = value or x += value)")
		return true
	}
	name := e.toks[target.a].text
	opTok := e.toks[target.b]
	value := parts[1]
	va, vb := e.span(value)
	lb.copyTo(e.toks[target.a].start)
	lb.f.add("__py_setglobal("+strconv.Quote(name)+", ", e.toks[target.a].start)
	if op := opTok.text; op != "=" {
		lb.f.add(name+" "+strings.TrimSuffix(op, "=")+" (", opTok.start)
		e.emit(value, &lb.f)
		lb.f.add(")", vb)
	} else {
		lb.f.copy(rw.src, va, va)
		e.emit(value, &lb.f)
	}
	lb.f.add(")", vb)
	lb.pos, lb.changed = vb, true
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
	return true
}
