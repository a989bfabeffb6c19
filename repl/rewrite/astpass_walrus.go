// The AST pass's walrus: the marker __py_walrus("NAME", value) the
// pre-pass writes for NAME := value (prepass_compwalrus.go) becomes a
// call of the hidden builtin HidWalrus, which stores the value where
// Python binds NAME and returns it.
//
// Python binds NAME in the enclosing function, also when the walrus is
// in a comprehension or a generator expression of it, or, outside
// functions, as a global. Starlark cannot assign a variable inside an
// expression, so a function keeps the names its walruses bind in its
// locals dict (astpass_locals.go), where every use in the function and
// the functions nested in it reads and writes them; outside functions,
// HidWalrus(None, "NAME", value) binds the global (the REPL's globals and
// the running chunk's own binding), and every read of NAME outside a
// scope binding it looks the global up when it runs. A lambda binds its
// walruses' names in a dict of its own (lambdaWithLocals); the lambdas the
// pre-pass writes to delay an evaluation (thinMarkers) are transparent.
// Python's SyntaxErrors (a walrus in a comprehension's iterable, or
// rebinding a comprehension's variable) are reported before anything
// runs; so is a walrus in a class body, which the REPL cannot give its
// meaning, with what to write instead.

package rewrite

import (
	"fmt"
	"strings"

	"go.starlark.net/syntax"
)

// HidWalrus is NAME := value: HidWalrus(locals or None, "NAME", value).
const HidWalrus = ":="

// walrusName returns the name a walrus marker binds, or "".
func walrusName(e syntax.Expr) string {
	c, name := MarkerCall(e)
	if name != walrusMarker || len(c.Args) != 2 && len(c.Args) != 3 {
		return ""
	}
	if lit, ok := c.Args[0].(*syntax.Literal); ok && lit.Token == syntax.STRING {
		s, _ := lit.Value.(string)
		return s
	}
	return ""
}

// walrusNames adds to out (made when needed) the names the walruses in n
// bind in n's scope: not those of nested functions and lambdas, but those
// of try clause functions (whose variables are their function's) and of
// parameter defaults (evaluated where the def is).
func walrusNames(n syntax.Node, out map[string]bool) map[string]bool {
	syntax.Walk(n, func(x syntax.Node) bool {
		switch x := x.(type) {
		case *syntax.LambdaExpr:
			return false
		case *syntax.DefStmt:
			for _, p := range x.Params {
				if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
					out = walrusNames(b.Y, out)
				}
			}
			if IsClause(x.Name.Name) {
				for _, s := range x.Body {
					out = walrusNames(s, out)
				}
			}
			return false
		case *syntax.CallExpr:
			if name := walrusName(x); name != "" && len(x.Args) == 2 {
				if out == nil {
					out = map[string]bool{}
				}
				out[name] = true
			}
			for _, lam := range thinLambdas(x) {
				out = walrusNames(lam.Body, out)
			}
		}
		return true
	})
	return out
}

// thinMarkers are the markers whose lambda arguments the pre-pass wrote
// to delay an evaluation (a chained comparison's later operands, an
// assert's message, an annotation, a with's managers inside a function):
// a walrus there binds in the enclosing
// scope. So does one in a match guard, which the pre-pass writes as
// (lambda captures: (guard))(*__py_cN[0]) (prepass_match.go).
var thinMarkers = map[string]bool{"__py_chain": true, "__py_assert": true, "__py_annotate": true, "__py_withrun": true}

// thinLambdas returns the lambdas of c the pre-pass wrote (see thinMarkers).
func thinLambdas(c *syntax.CallExpr) []*syntax.LambdaExpr {
	var out []*syntax.LambdaExpr
	if _, m := MarkerCall(c); thinMarkers[m] {
		for _, a := range c.Args {
			if lam, ok := a.(*syntax.LambdaExpr); ok {
				out = append(out, lam)
			}
		}
		return out
	}
	if p, ok := c.Fn.(*syntax.ParenExpr); ok && len(c.Args) == 1 {
		lam, isLam := p.X.(*syntax.LambdaExpr)
		star, isStar := c.Args[0].(*syntax.UnaryExpr)
		if isLam && isStar && star.Op == syntax.STAR {
			if ix, ok := star.X.(*syntax.IndexExpr); ok {
				if id, ok := ix.X.(*syntax.Ident); ok && strings.HasPrefix(id.Name, "__py_c") {
					out = append(out, lam)
				}
			}
		}
	}
	return out
}

// markThin notes the lambdas of c the pre-pass wrote.
func (w *astWalker) markThin(c *syntax.CallExpr) {
	for _, lam := range thinLambdas(c) {
		if w.thin == nil {
			w.thin = map[*syntax.LambdaExpr]bool{}
		}
		w.thin[lam] = true
	}
}

// globalWalrus adds to out the names walruses anywhere in n bind as
// globals: those a def declares global.
func globalWalrus(n syntax.Node, out map[string]bool) map[string]bool {
	syntax.Walk(n, func(x syntax.Node) bool {
		if c, ok := x.(*syntax.CallExpr); ok && len(c.Args) == 3 {
			if name := walrusName(c); name != "" {
				if out == nil {
					out = map[string]bool{}
				}
				out[name] = true
			}
		}
		return true
	})
	return out
}

// topWalrus returns the names walruses bind as globals.
func topWalrus(stmts []syntax.Stmt) map[string]bool {
	out := stmtsWalrus(stmts)
	for _, s := range stmts {
		out = globalWalrus(s, out)
	}
	return out
}

// stmtsWalrus is walrusNames over a statement list.
func stmtsWalrus(stmts []syntax.Stmt) map[string]bool {
	var out map[string]bool
	for _, s := range stmts {
		out = walrusNames(s, out)
	}
	return out
}

// walrus rewrites the marker c binding name.
func (w *astWalker) walrus(c *syntax.CallExpr, name string) syntax.Expr {
	pos := c.Fn.(*syntax.Ident).NamePos
	fail := func(format string, args ...any) syntax.Expr {
		if w.err == nil {
			w.err = &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
		}
		return c
	}
	if len(c.Args) == 3 { // declared global
		return hidden(HidWalrus, pos, &syntax.Ident{NamePos: pos, Name: "None"}, c.Args[0], w.expr(c.Args[1]))
	}
	if w.inIter > 0 {
		return fail("SyntaxError: assignment expression cannot be used in a comprehension iterable expression")
	}
	inComp := false
scopes:
	for i := len(w.scopes) - 1; i >= 0; i-- {
		s := w.scopes[i]
		if !s.fn {
			if s.names[name] {
				return fail("SyntaxError: assignment expression cannot rebind comprehension iteration variable '%s'", name)
			}
			inComp = true
			continue
		}
		switch {
		case s.clause || s.thin:
			continue
		case s.class && inComp:
			return fail("SyntaxError: assignment expression within a comprehension cannot be used in a class body")
		case s.class:
			return fail("an assignment expression (:=) in a class body is not supported; assign with = on the line before")
		}
		break scopes
	}
	val := w.expr(c.Args[1])
	var target syntax.Expr = &syntax.Ident{NamePos: pos, Name: "None"}
	if s, _ := w.lookup(name); s != nil {
		if !s.fn || !s.dict[name] {
			return fail("an assignment expression (:=) to %s, which this pattern binds, is not supported here; assign in the case body", name)
		}
		target = &syntax.Ident{NamePos: pos, Name: s.dictVar}
	}
	return hidden(HidWalrus, pos, target, c.Args[0], val)
}

// walrusRead turns a read of a name a walrus binds outside functions, and
// that no enclosing scope binds, into a lookup of the global when it
// runs; ok reports whether it did.
func (w *astWalker) walrusRead(id *syntax.Ident) (syntax.Expr, bool) {
	if !w.top[id.Name] {
		return nil, false
	}
	if s, _ := w.lookup(id.Name); s != nil {
		return nil, false
	}
	return globalRead(id), true
}

// lambdaLocals gives a lambda whose body holds walruses a locals dict for
// the names they bind, and returns the statement making it, or nil.
func (w *astWalker) lambdaLocals(scope *astScope, params []syntax.Expr, body syntax.Expr) syntax.Stmt {
	walrus := walrusNames(body, nil)
	if len(walrus) == 0 {
		return nil
	}
	for n := range walrus {
		scope.names[n] = true
	}
	init := w.locals(scope, params, nil, walrus)
	if a, ok := init.(*syntax.AssignStmt); ok {
		pos := syntax.Start(body)
		a.OpPos = pos
		a.LHS.(*syntax.Ident).NamePos = pos
		c := a.RHS.(*syntax.CallExpr)
		c.Fn.(*syntax.Ident).NamePos, c.Lparen, c.Rparen = pos, pos, pos
	}
	return init
}

// lambdaWithLocals writes a lambda's body as (lambda dictVar: body)(<locals>(...)),
// from the statement lambdaLocals made: the body's walruses store in the
// lambda's own dict, as Python binds them in the lambda's scope.
func lambdaWithLocals(init syntax.Stmt, body syntax.Expr) syntax.Expr {
	a := init.(*syntax.AssignStmt)
	pos := syntax.Start(body)
	inner := &syntax.LambdaExpr{Lambda: pos, Params: []syntax.Expr{a.LHS}, Body: body}
	return &syntax.CallExpr{Fn: &syntax.ParenExpr{Lparen: pos, X: inner, Rparen: pos}, Lparen: pos, Args: []syntax.Expr{a.RHS}, Rparen: pos}
}

// thinLambda names the scope of a lambda of thinMarkers.
const thinLambda = "<thin lambda>"
