// Pre-pass: a with statement inside a function, rewritten into a clause
// function that a hidden builtin runs, as a try inside a function is
// (prepass_trydef.go).

package rewrite

import (
	"strconv"
	"strings"
)

// Inside a function the driver does not run the code, so a with
// statement becomes functions defined where the with stands, one binding
// each item's target and one running the block, and a call of the hidden
// builtin __py_withrun after the block (repl/pyrt/withrun.go). It takes
// the block, then each item's manager (a lambda, so that it is evaluated
// after the items before it are entered) and its binder (None without
// as); it enters the managers in turn, calls the block, and exits them
// with Python's rules: the block's exception reaches each __exit__, a
// true result swallows it.
//
//	with A as a, B as (x, y):    def __py_wbind_7_1(__py_wv): a = __py_wv
//	                             def __py_wbind_7_2(__py_wv): (x, y) = __py_wv
//	                             def __py_with_7():
//	    BODY                         BODY
//	                             __py_t_7 = __py_withrun(__py_with_7, lambda: A, __py_wbind_7_1, lambda: B, __py_wbind_7_2)
//	                             if __py_t_7.ret: return __py_t_7.value
//
// The block and the binders are clauses: return, break and continue in
// the block are signals the lines after the call act on, and the
// variables they assign are their function's (tryTrailer, clauseReturn
// and the AST pass treat them as try clauses). As in Python, B is
// evaluated once A is entered and a bound, and an error binding a target
// reaches the managers entered.

// setupWith records the with statement l, inside a function, as a clause
// of its own; one whose items cannot be read is left to Starlark's error.
func (rw *rewriter) setupWith(l *pline, sc scope) {
	items, ok := rw.withItems(l)
	if !ok {
		return
	}
	line, _ := LineCol(rw.src, LineStarts(rw.src), l.start)
	t := &defTry{id: strconv.Itoa(line), lines: []*pline{l}, outer: sc, at: l.toks[0].start, with: items}
	t.indent = rw.src[strings.LastIndexByte(rw.src[:l.start], '\n')+1 : l.start]
	rw.tries[l] = t
}

// defWith rewrites the header of the with statement t inside a function
// into the defs of its binders and of its block's function.
func (rw *rewriter) defWith(lb *lineBuilder, t *defTry) {
	l := lb.l
	var f frag
	e := rw.emitter()
	for i, it := range t.with {
		if it.target == nil {
			continue
		}
		f.add("def "+withBinder(t, i)+"(__py_wv): ", t.at)
		e.emit(it.target, &f)
		f.add(" = __py_wv\n"+t.indent, t.at)
	}
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
		return
	}
	f.add("def "+withFn(t)+"()", t.at)
	lb.copyTo(l.toks[0].start)
	lb.f.addFrag(f)
	lb.pos, lb.changed = l.toks[l.colon].start, true
	rw.inline(lb, t.clauseScope())
}

// withFn is the name of the with statement t's block function, and
// withBinder that of the function binding its item i's target.
func withFn(t *defTry) string { return "__py_with_" + t.id }

func withBinder(t *defTry, i int) string {
	return "__py_wbind_" + t.id + "_" + strconv.Itoa(i+1)
}

// withCall writes the call running the with statement t: v =
// __py_withrun(__py_with_7, lambda: A, __py_wbind_7_1, lambda: B, None).
func (rw *rewriter) withCall(t *defTry, v string, f *frag) {
	f.add("\n"+t.indent+v+" = __py_withrun("+withFn(t), t.at)
	e := rw.emitter()
	for i, it := range t.with {
		f.add(", lambda: ", e.toks[it.x.a].start)
		e.emit(it.x, f)
		binder := "None"
		if it.target != nil {
			binder = withBinder(t, i)
		}
		f.add(", "+binder, t.at)
	}
	f.add(")", t.at)
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
}
