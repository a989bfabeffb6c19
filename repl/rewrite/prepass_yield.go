// yield: the statements of a generator function written as hidden calls,
// and the def marked as a generator (repl/pygen.go runs it).

package rewrite

import "strings"

// yieldStmt rewrites yield [x], yield from xs and TARGET = yield x in the
// line's tokens [a, b), which start with yield or hold it after a
// top-level =. It reports whether it did.
func (rw *rewriter) yieldStmt(lb *lineBuilder, a, b int, sc scope) bool {
	toks := lb.l.toks
	y := -1
	for i := a; i < b; i++ {
		if toks[i].kw("yield") {
			if i == a || toks[i-1].depth == 0 && toks[i-1].op("=") {
				y = i
			}
			break
		}
	}
	if y < 0 {
		return false
	}
	if !sc.def {
		rw.fail(toks[y].start, "SyntaxError: 'yield' outside function")
		return true
	}
	if y > a {
		rw.exprs(lb, a, y-1, true, sc) // the target
		lb.copyTo(toks[y-1].end)
	}
	fn, x := "__py_yield(", y+1
	if x < b && toks[x].kw("from") {
		fn, x = "__py_yield_from(", x+1
	}
	if x >= b {
		lb.replace(toks[y].start, toks[b-1].end, fn+"None)")
		return true
	}
	lb.replace(toks[y].start, toks[x].start, fn+"(") // yield a, b yields a tuple
	rw.exprs(lb, x, b, true, sc)
	lb.copyTo(toks[b-1].end)
	lb.f.add("))", toks[b-1].end)
	lb.changed = true
	return true
}

// yields reports whether a def's own body (not its nested functions and
// classes) holds yield.
func yields(def *pline) bool {
	has := func(l *pline, from int) bool {
		for _, t := range l.toks[from:] {
			if t.kw("yield") {
				return true
			}
		}
		return false
	}
	if def.colon >= 0 && has(def, def.colon+1) {
		return true
	}
	var scan func(l *pline) bool
	scan = func(l *pline) bool {
		for _, k := range l.kids {
			if k.kw == "def" || k.kw == "class" || k.kw == "@" {
				continue
			}
			if has(k, 0) || scan(k) {
				return true
			}
		}
		return false
	}
	return scan(def)
}

// markGenerator follows a generator def with NAME = __py_generator(NAME),
// before its decorators are applied.
func (rw *rewriter) markGenerator(def *pline) {
	if len(def.toks) < 2 || def.toks[1].kind != tName {
		return
	}
	name := def.toks[1].text
	indent := rw.src[strings.LastIndexByte(rw.src[:def.start], '\n')+1 : def.start]
	end := def.lastLine().end
	var f frag
	f.add("\n"+indent+name+" = __py_generator("+name+")", def.start)
	rw.edits = append(rw.edits, edit{start: end, end: end, f: f})
}
