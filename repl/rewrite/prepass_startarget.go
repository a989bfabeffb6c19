// Starred targets below the top of an assignment, and in for statements
// and comprehension clauses: the target is written without its stars and
// the value goes through a hidden builtin that shapes it to the target.
//
//	for a, *rest in rows:       for (a, rest) in __py_unpack_each(rows, "(_,*)"):
//	[x for *_, x in rows]       [x for (_, x) in __py_unpack_each(rows, "(*,_)")]
//	(a, *b), c = v              ((a, b), c) = __py_unpack_to(v, "((_,*),_)")

package rewrite

import "strconv"

// starDeep reports whether target n holds a starred target at any depth.
func starDeep(n *node) bool {
	switch n.kind {
	case nStar:
		return true
	case nTuple, nList, nParen:
		for _, k := range n.kids {
			if starDeep(k) {
				return true
			}
		}
	}
	return false
}

// nestedStar reports whether target n holds a star below its top level.
func nestedStar(n *node) bool {
	if n.kind != nTuple && n.kind != nList && n.kind != nParen {
		return n.kind == nStar && starDeep(n.kids[0])
	}
	for _, k := range n.kids {
		if k.kind == nStar && starDeep(k.kids[0]) || k.kind != nStar && starDeep(k) {
			return true
		}
	}
	return false
}

// starPattern describes target n for the hidden builtins: "_" one target,
// "*" the starred one, "(...)" a sequence of targets.
func (e *emitter) starPattern(n *node) string {
	switch n.kind {
	case nStar:
		return "*"
	case nParen:
		if len(n.kids) == 1 && !e.toks[n.b-2].op(",") {
			return e.starPattern(n.kids[0])
		}
	case nTuple, nList:
	default:
		return "_"
	}
	s := "("
	for i, k := range n.kids {
		if i > 0 {
			s += ","
		}
		s += e.starPattern(k)
	}
	return s + ")"
}

// stripped writes target n without its stars, each sequence of targets
// in parentheses.
func (e *emitter) stripped(n *node, f *frag) {
	a, b := e.span(n)
	switch n.kind {
	case nStar:
		e.stripped(n.kids[0], f)
		return
	case nParen:
		if len(n.kids) == 1 && !e.toks[n.b-2].op(",") {
			e.stripped(n.kids[0], f)
			return
		}
	case nTuple, nList:
	default:
		e.emit(n, f)
		return
	}
	f.add("(", a)
	for i, k := range n.kids {
		if i > 0 {
			f.add(", ", e.toks[k.a].start)
		}
		e.stripped(k, f)
	}
	if len(n.kids) == 1 {
		f.add(",", b)
	}
	f.add(")", b)
}

// starredFor writes "target in iter" of a for statement or clause whose
// target holds a star.
func (e *emitter) starredFor(target, iter *node, f *frag) {
	e.stripped(target, f)
	_, tb := e.span(target)
	ia, ib := e.span(iter)
	f.copy(e.src, tb, ia)
	f.add("__py_unpack_each(", ia)
	e.emitGrouped(iter, f)
	f.add(", "+strconv.Quote(e.starPattern(target))+")", ib)
}

// comp writes a comprehension clause.
func (e *emitter) comp(n *node, f *frag) {
	if len(n.kids) != 2 || !starDeep(n.kids[0]) {
		e.generic(n, f)
		return
	}
	a, _ := e.span(n)
	ta, _ := e.span(n.kids[0])
	f.copy(e.src, a, ta)
	e.starredFor(n.kids[0], n.kids[1], f)
}

// nestedStarAssign writes target = value for a target whose star is not at
// its top.
func (rw *rewriter) nestedStarAssign(lb *lineBuilder, e *emitter, target, value *node) {
	ta, tb := e.span(target)
	lb.copyTo(ta)
	e.stripped(target, &lb.f)
	va, vb := e.span(value)
	lb.f.copy(rw.src, tb, va)
	lb.f.add("__py_unpack_to(", va)
	e.emitGrouped(value, &lb.f)
	lb.f.add(", "+strconv.Quote(e.starPattern(target))+")", vb)
	lb.pos, lb.changed = vb, true
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
}

// emitGrouped writes expression n as one argument of a hidden call: a
// tuple without parentheses (a, b = x, y) gets them, else its elements
// would be the call's arguments.
func (e *emitter) emitGrouped(n *node, f *frag) {
	if n.kind != nTuple {
		e.emit(n, f)
		return
	}
	a, b := e.span(n)
	f.add("(", a)
	e.emit(n, f)
	f.add(")", b)
}
