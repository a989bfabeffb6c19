// The walrus, NAME := value, wherever Python allows it: any condition,
// a comprehension's element or if clause, after and/or, call arguments,
// subscripts, f-string expressions, nested. The pre-pass writes it as the
// marker call __py_walrus("NAME", value); the AST pass binds NAME where
// Python does (astpass_walrus.go): in the enclosing function, as a
// variable of its locals dict, or, outside functions, as a global, also
// when the walrus is inside a comprehension.
//
//	if (n := len(xs)) > 3: ...     if __py_walrus("n", len(xs)) > 3: ...
//
// Forms Python rejects are refused before anything runs: an
// unparenthesized walrus as a statement, an assignment's value or a
// return value (SyntaxError: invalid syntax). A walrus binding a name the
// function declares global is written __py_walrus("NAME", value, True).

package rewrite

import "strconv"

// walrusMarker is the marker call the pre-pass writes for NAME := value.
const walrusMarker = "__py_walrus"

// emitNamed writes NAME := value as __py_walrus("NAME", value).
func (e *emitter) emitNamed(n *node, f *frag) {
	name := e.toks[n.a]
	f.add(walrusMarker+"("+strconv.Quote(name.text)+", ", name.start)
	e.emit(n.kids[1], f)
	_, b := e.span(n)
	if n.glob {
		f.add(", True", b)
	}
	f.add(")", b)
}

// bareNamed returns the first walrus written without parentheses at the
// top of a statement's expression (x := 5, y = x := 5, return x := 1, a,
// b := 1, 2), which Python rejects, or nil.
func bareNamed(n *node) *node {
	if n == nil {
		return nil
	}
	if n.kind == nNamed {
		return n
	}
	if n.kind == nTuple {
		for _, k := range n.kids {
			if k.kind == nNamed {
				return k
			}
		}
	}
	return nil
}

// checkNamed refuses, before anything runs, the walruses of a statement
// that Python rejects or whose meaning the REPL cannot keep: bare ones at
// the top of the statement's expressions (parts), and those binding a
// name the current def declares global, which it marks. It reports whether
// all is well.
func (rw *rewriter) checkNamed(p *exprParser, sc scope, parts ...*node) bool {
	for _, n := range parts {
		if b := bareNamed(n); b != nil {
			rw.fail(p.toks[b.a].start, "SyntaxError: invalid syntax (an assignment expression (:=) needs parentheses here, or assign with =)")
			return false
		}
	}
	for _, n := range p.named {
		n.glob = sc.globals[p.toks[n.a].text]
	}
	return true
}
