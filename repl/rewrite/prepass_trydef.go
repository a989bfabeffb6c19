// Pre-pass: try/except/else/finally inside a function, rewritten into
// clause functions that a hidden builtin runs; the except header that both
// kinds of try read.

package rewrite

import (
	"strconv"
	"strings"
)

// Starlark has no exceptions and the driver runs only top-level code, so a
// try inside a def becomes functions, one per clause, defined where the
// clauses stand, and a call of the hidden builtin __py_tryrun after the
// last clause, which runs them with Python's rules (repl/tryrun.go):
//
//	try:                      def __py_try_7():
//	    BODY                      BODY
//	except E as e:            def __py_exc_7_1(e):
//	    H                         H
//	else:                     def __py_else_7():
//	    ELSE                      ELSE
//	finally:                  def __py_fin_7():
//	    FIN                       FIN
//	                          __py_t_7 = __py_tryrun(__py_try_7, ((E, __py_exc_7_1),), __py_else_7, __py_fin_7)
//	                          if __py_t_7.ret: return __py_t_7.value
//
// In a clause, return x becomes return __py_ret(x), and a break or
// continue of a loop outside the clause returns __py_brk or __py_cont;
// the lines after the call act on them (return, break, continue, or,
// inside another clause, pass the signal on). The clause functions share
// the function's variables: the AST pass keeps every variable a clause
// assigns in a dict of the function (astpass_locals.go), so the handler,
// the finally and the code after the try see what the body assigned, as
// far as it got.

// defTry is one try statement inside a function.
type defTry struct {
	id       string   // the try's line number: its functions' names
	lines    []*pline // the try line, then its except, else and finally lines
	handlers []tryHandler
	elseFn   string
	finFn    string
	outer    scope      // the scope the try statement is in
	sigs     [3]bool    // return, break, continue: which reach the lines after the call
	sigPos   [3]int     // where each first occurs, for a refusal
	indent   string     // the try line's indentation
	at       int        // the offset inserted text is attributed to (the try keyword)
	with     []withItem // a with statement's items, whose block is the one clause (prepass_withdef.go)
}

// tryHandler is one except clause: the classes it catches (nil for a bare
// except) and its function's name.
type tryHandler struct {
	types frag
	fn    string
}

const (
	SigRet = iota
	SigBrk
	SigCont
)

// clauseScope is the scope of the statements in t's clauses.
func (t *defTry) clauseScope() scope {
	return scope{def: true, clause: t, globals: t.outer.globals}
}

// last is the try statement's last clause line.
func (t *defTry) last() *pline { return t.lines[len(t.lines)-1] }

// setupTry records the try statement starting at lines[i], inside a
// function, with its clauses; it refuses a malformed one.
func (rw *rewriter) setupTry(lines []*pline, i int, sc scope) {
	l := lines[i]
	line, _ := LineCol(rw.src, LineStarts(rw.src), l.start)
	t := &defTry{id: strconv.Itoa(line), lines: []*pline{l}, outer: sc, at: l.toks[0].start}
	t.indent = rw.src[strings.LastIndexByte(rw.src[:l.start], '\n')+1 : l.start]
	excepts, bare, hasElse, hasFinal := 0, false, false, false
	for j := i + 1; j < len(lines); j++ {
		k := lines[j]
		switch k.kw {
		case "except":
			if hasElse || hasFinal {
				rw.fail(k.toks[0].start, "an except clause must come before else and finally")
				return
			}
			if bare {
				rw.fail(k.toks[0].start, "a bare 'except:' must be the last except clause")
				return
			}
			bare = k.colon == 1
			excepts++
		case "else":
			if excepts == 0 || hasElse || hasFinal {
				rw.fail(k.toks[0].start, "the else of a try needs an except clause before it and comes before finally")
				return
			}
			hasElse = true
		case "finally":
			if hasFinal {
				rw.fail(k.toks[0].start, "a try statement has one finally clause")
				return
			}
			hasFinal = true
		default:
			j = len(lines)
			continue
		}
		t.lines = append(t.lines, k)
	}
	if excepts == 0 && !hasFinal {
		rw.fail(l.toks[0].start, "expected 'except' or 'finally' block after this try")
		return
	}
	for _, k := range t.lines {
		if k.colon < 0 {
			return // not a clause header Starlark or the pre-pass can read: left to Starlark's error
		}
		rw.tries[k] = t
	}
}

// defTryClause rewrites a clause header of a try inside a function into
// the def of its clause function.
func (rw *rewriter) defTryClause(lb *lineBuilder, t *defTry) {
	l := lb.l
	first := l.toks[0]
	switch l.kw {
	case "try", "else", "finally":
		if l.colon != 1 {
			rw.fail(first.start, l.kw+" takes no expression here: write "+l.kw+":")
			return
		}
		name := map[string]string{"try": "__py_try_", "else": "__py_else_", "finally": "__py_fin_"}[l.kw] + t.id
		switch l.kw {
		case "else":
			t.elseFn = name
		case "finally":
			t.finFn = name
		}
		lb.replace(first.start, first.end, "def "+name+"()")
	case "except":
		fn := "__py_exc_" + t.id + "_" + strconv.Itoa(len(t.handlers)+1)
		if l.colon == 1 {
			lb.replace(first.start, first.end, "def "+fn+"(__py_e)")
			t.handlers = append(t.handlers, tryHandler{fn: fn})
			break
		}
		types, name, ok := rw.exceptHeader(l, true)
		if !ok {
			return
		}
		if name == "" {
			name = "__py_e"
		}
		e := rw.emitter()
		var f frag
		e.emit(types, &f)
		if e.err != nil {
			rw.fail(e.err.Pos, e.err.Msg)
			return
		}
		lb.replace(first.start, l.toks[l.colon].start, "def "+fn+"("+name+")")
		t.handlers = append(t.handlers, tryHandler{types: f, fn: fn})
	}
	rw.inline(lb, t.clauseScope())
}

// clauseReturn rewrites return [x] inside a clause function as
// return __py_ret(x).
func (rw *rewriter) clauseReturn(lb *lineBuilder, a, b int, sc scope) {
	l := lb.l
	first := l.toks[a]
	sc.clause.signal(SigRet, first.start)
	if b == a+1 {
		lb.replace(first.start, first.end, "return __py_ret(None)")
		return
	}
	p := rw.parser(l, a+1, b)
	n := p.testList(true)
	if p.err != nil || p.i != p.end {
		return
	}
	if !rw.checkNamed(p, sc, n) {
		return
	}
	e := rw.emitter()
	na, nb := e.span(n)
	lb.copyTo(na)
	lb.f.add("__py_ret((", na) // (a, b) for return a, b
	e.emit(n, &lb.f)
	lb.f.add("))", nb)
	lb.pos, lb.changed = nb, true
	if e.err != nil {
		rw.fail(e.err.Pos, e.err.Msg)
	}
}

// signal records that a return, break or continue leaves t's clauses.
func (t *defTry) signal(kind, pos int) {
	if !t.sigs[kind] {
		t.sigs[kind], t.sigPos[kind] = true, pos
	}
}

// tryTrailer writes the call of __py_tryrun (__py_withrun for a with)
// after t's last clause, and the lines acting on the signal it returns.
func (rw *rewriter) tryTrailer(t *defTry) {
	if len(t.lines) < 2 && t.with == nil || rw.err != nil {
		return
	}
	v := "__py_t_" + t.id
	var f frag
	if t.with != nil {
		rw.withCall(t, v, &f)
	} else {
		tryCall(t, v, &f)
	}
	rw.signalLines(t, v, &f)
	end := t.last().lastLine().end
	rw.edits = append(rw.edits, edit{start: end, end: end, f: f})
}

// tryCall writes v = __py_tryrun(...), the call running the try t.
func tryCall(t *defTry, v string, f *frag) {
	f.add("\n"+t.indent+v+" = __py_tryrun(__py_try_"+t.id+", (", t.at)
	for _, h := range t.handlers {
		f.add("(", t.at)
		if h.types == nil {
			f.add("None", t.at)
		} else {
			f.addFrag(h.types)
		}
		f.add(", "+h.fn+"), ", t.at)
	}
	f.add("), "+orNone(t.elseFn)+", "+orNone(t.finFn)+")", t.at)
}

// signalLines writes the lines after the call that act on the signal v
// it returned: return, break, continue, or pass the signal on to the
// clause t is in.
func (rw *rewriter) signalLines(t *defTry, v string, f *frag) {
	nl := "\n" + t.indent
	o := t.outer
	pass := "return " + v // the signal goes on to the clause this try is in
	if t.sigs[SigRet] {
		if o.clause != nil {
			o.clause.signal(SigRet, t.sigPos[SigRet])
			f.add(nl+"if "+v+".ret: "+pass, t.at)
		} else {
			f.add(nl+"if "+v+".ret: return "+v+".value", t.at)
		}
	}
	for _, k := range []int{SigBrk, SigCont} {
		if !t.sigs[k] {
			continue
		}
		word, attr := "break", ".brk"
		if k == SigCont {
			word, attr = "continue", ".cont"
		}
		switch {
		case o.loop:
			stmt := word
			if k == SigBrk && o.loopFlag != "" {
				stmt = o.loopFlag + " = False; break"
			}
			f.add(nl+"if "+v+attr+": "+stmt, t.at)
		case o.clause != nil:
			o.clause.signal(k, t.sigPos[k])
			f.add(nl+"if "+v+attr+": "+pass, t.at)
		default:
			rw.fail(t.sigPos[k], "'"+word+"' outside loop")
			return
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "None"
	}
	return s
}

// exceptHeader reads the header of an except clause that names its
// classes, except T: or except T as name: (name "" without as). It
// reports except* itself; a header it cannot read otherwise it reports
// when strict (in a function's try, which it rewrites whole), and leaves
// to Starlark's parser when not.
func (rw *rewriter) exceptHeader(l *pline, strict bool) (types *node, name string, ok bool) {
	first := l.toks[0]
	if l.toks[1].op("*") {
		rw.fail(l.toks[1].start, "except* (exception groups) is not supported")
		return nil, "", false
	}
	p := rw.parser(l, 1, l.colon)
	types = p.test()
	if p.tok().kw("as") {
		p.i++
		if p.tok().kind != tName {
			if strict {
				rw.fail(first.start, "except ... as needs a name")
			}
			return nil, "", false
		}
		name = p.tok().text
		p.i++
	}
	if p.err != nil || p.i != p.end {
		if strict {
			rw.fail(first.start, "this except clause cannot be read; write except Name:, except (A, B) as e: or except:")
		}
		return nil, "", false
	}
	return types, name, true
}
