// The AST pass: assignments whose Starlark meaning differs from Python's
// (x[k] = v with a bool key, augmented assignments to items and
// attributes, a, b = v with a string or a nested target).

package rewrite

import (
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// targetSeq returns the elements of a tuple or list target or display.
func targetSeq(e syntax.Expr) ([]syntax.Expr, bool) {
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return targetSeq(e.X)
	case *syntax.TupleExpr:
		return e.List, true
	case *syntax.ListExpr:
		return e.List, true
	}
	return nil, false
}

// needsShape reports whether a, b = v must go through HidShape: Starlark
// unpacks a tuple, list or other iterable but not a string, so any value
// but a display of as many flat elements is shaped.
func needsShape(lhs, rhs syntax.Expr) bool {
	targets, ok := targetSeq(lhs)
	if !ok {
		return false
	}
	vals, ok := targetSeq(rhs)
	if !ok || len(vals) != len(targets) {
		return true
	}
	for _, t := range targets {
		if _, nested := targetSeq(t); nested {
			return true
		}
	}
	return false
}

// targetPattern is the shape of a target, as pyunpack.go reads it:
// "(_,(_,_))".
func targetPattern(e syntax.Expr) string {
	elems, ok := targetSeq(e)
	if !ok {
		return "_"
	}
	parts := make([]string, len(elems))
	for i, x := range elems {
		parts[i] = targetPattern(x)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// setItem writes x[k] = v as HidSetItem(v, x, k), the value first as
// Python evaluates it. When x and k are names or literals and v holds no
// function or comprehension, it writes
//
//	if k in HidTwins: HidSetItem(v, x, k)
//	else: x[k] = v
//
// so that a key with no bool twin is stored by Starlark, with no call.
func (w *astWalker) setItem(s *syntax.AssignStmt, ix *syntax.IndexExpr) syntax.Stmt {
	x, k, v := w.expr(ix.X), w.expr(ix.Y), w.expr(s.RHS)
	call := &syntax.ExprStmt{X: hidden(HidSetItem, ix.Lbrack, v, x, k)}
	if !simpleOperand(x) || !simpleOperand(k) || !plainValue(v) {
		return call
	}
	ix.X, ix.Y, s.RHS = x, k, v
	cond := &syntax.BinaryExpr{X: k, OpPos: ix.Lbrack, Op: syntax.IN, Y: &syntax.Ident{NamePos: ix.Lbrack, Name: HidTwins}}
	return &syntax.IfStmt{If: s.OpPos, Cond: cond, True: []syntax.Stmt{call}, ElsePos: s.OpPos, False: []syntax.Stmt{s}}
}

// plainValue reports whether e holds no lambda and no comprehension, so
// that it may stand in two branches of which one runs.
func plainValue(e syntax.Expr) bool {
	plain := true
	syntax.Walk(e, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.LambdaExpr, *syntax.Comprehension:
			plain = false
		}
		return plain
	})
	return plain
}

// augTarget writes x[k] op= y and x.name op= y, for the operators of
// augOps and a y that is not a number literal (counts[w] += 1 stays
// Starlark's, the hot statement of counting loops), as a hidden call
// that reads the target once, applies the operator as name op= y does
// (a bool is an int; a list is extended in place) and stores the result.
func (w *astWalker) augTarget(s *syntax.AssignStmt) syntax.Stmt {
	name := augOps[s.Op]
	if name == "" {
		return nil
	}
	op := &syntax.Literal{Token: syntax.STRING, TokenPos: s.OpPos, Raw: strconv.Quote(name), Value: name}
	// name.attr += 1 is the runtime's too: name may be a function
	if ix, ok := s.LHS.(*syntax.IndexExpr); numeric(s.RHS) && !(ok && isBoolLit(ix.Y)) && attrTarget(s.LHS) == nil {
		// counts[k] += 1 stays Starlark's unless k has a bool twin
		// (flags[True] += 1 takes the bool as an index)
		if !ok || stringish(ix.Y) || numeric(ix.Y) {
			return nil
		}
		x, k := w.expr(ix.X), w.expr(ix.Y)
		ix.X, ix.Y = x, k
		if !simpleOperand(x) || !simpleOperand(k) {
			s.RHS = w.expr(s.RHS)
			return s
		}
		call := &syntax.ExprStmt{X: hidden(HidAugItem, s.OpPos, x, k, op, s.RHS)}
		cond := &syntax.BinaryExpr{X: k, OpPos: s.OpPos, Op: syntax.IN, Y: &syntax.Ident{NamePos: s.OpPos, Name: HidTwins}}
		return &syntax.IfStmt{If: s.OpPos, Cond: cond, True: []syntax.Stmt{call}, ElsePos: s.OpPos, False: []syntax.Stmt{s}}
	}
	switch t := s.LHS.(type) {
	case *syntax.IndexExpr:
		return &syntax.ExprStmt{X: hidden(HidAugItem, s.OpPos, w.expr(t.X), w.expr(t.Y), op, w.expr(s.RHS))}
	case *syntax.DotExpr:
		attr := &syntax.Literal{Token: syntax.STRING, TokenPos: t.NamePos, Raw: strconv.Quote(t.Name.Name), Value: t.Name.Name}
		return &syntax.ExprStmt{X: hidden(HidAugAttr, s.OpPos, w.expr(t.X), attr, op, w.expr(s.RHS))}
	}
	return nil
}

// forIter writes the iterable x of a for loop or clause over vars as
// HidIter(x), and as HidIter(x, pattern) when vars is a tuple or list
// target, so that the runtime shapes each element to it as a, b = v is
// shaped (a string unpacks into its characters). The iterables the
// pre-pass already shapes (star targets) or binds itself (a top-level
// with) keep the plain form.
func forIter(pos syntax.Position, x, vars syntax.Expr) syntax.Expr {
	if _, ok := targetSeq(vars); !ok {
		return hidden(HidIter, pos, x)
	}
	if _, m := MarkerCall(x); m == "__py_with" || m == "__py_unpack_each" {
		return hidden(HidIter, pos, x)
	}
	pat := targetPattern(vars)
	return hidden(HidIter, pos, x, &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: strconv.Quote(pat), Value: pat})
}
