// Pre-pass: a with statement inside a function, rewritten into a clause
// function that a hidden builtin runs, as a try inside a function is
// (prepass_trydef.go).

package rewrite

import (
	"strconv"
	"strings"
)

// Inside a function the driver does not run the code, so a with
// statement becomes the function of its block, defined where the with
// stands, and a call of the hidden builtin __py_withrun after the block
// (repl/pyrt/withrun.go), which enters the managers, calls the block with
// their values and exits them with Python's rules: the block's exception
// reaches each __exit__, a true result swallows it.
//
//	with A as a, B as (x, y):    def __py_with_7(__py_wv):
//	    BODY                         (a, (x, y)) = __py_wv
//	                                 BODY
//	                             __py_t_7 = __py_withrun(__py_with(A, B), __py_with_7)
//	                             if __py_t_7.ret: return __py_t_7.value
//
// The block is a clause: return, break and continue in it are signals the
// lines after the call act on, and the variables it assigns are its
// function's (tryTrailer, clauseReturn and the AST pass treat it as a try
// clause). The targets are bound inside the block's function, so that an
// error binding them reaches the managers, as in Python.

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
// into the def of its block's function, which binds the targets first.
func (rw *rewriter) defWith(lb *lineBuilder, t *defTry) {
	l := lb.l
	lb.replace(l.toks[0].start, l.toks[l.colon].start, "def "+withFn(t)+"(__py_wv)")
	var bind frag
	if hasTarget(t.with) {
		e := rw.emitter()
		rw.withTargets(e, t.with, &bind)
		bind.add(" = __py_wv", t.at)
		if e.err != nil {
			rw.fail(e.err.Pos, e.err.Msg)
			return
		}
	}
	switch {
	case len(bind) == 0:
	case !l.header:
		lb.copyTo(l.toks[l.colon].end)
		lb.f.add(" ", t.at)
		lb.f.addFrag(bind)
		lb.f.add(";", t.at)
	case len(l.kids) > 0:
		k := l.kids[0]
		bind.add("\n"+rw.src[strings.LastIndexByte(rw.src[:k.start], '\n')+1:k.start], t.at)
		rw.edits = append(rw.edits, edit{start: k.start, end: k.start, f: bind})
	}
	rw.inline(lb, t.clauseScope())
}

// withFn is the name of the with statement t's block function.
func withFn(t *defTry) string { return "__py_with_" + t.id }

// withCall writes the call running the with statement t: v =
// __py_withrun(__py_with(A, B), __py_with_7).
func (rw *rewriter) withCall(t *defTry, v string, f *frag) {
	f.add("\n"+t.indent+v+" = __py_withrun(__py_with(", t.at)
	e := rw.emitter()
	rw.withManagers(e, t.with, f)
	f.add("), "+withFn(t)+")", t.at)
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
}

func hasTarget(items []withItem) bool {
	for _, it := range items {
		if it.target != nil {
			return true
		}
	}
	return false
}
