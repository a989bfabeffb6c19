// The AST pass: calls, their argument order and the comprehensions
// passed to them.

package rewrite

import (
	"strconv"

	"go.starlark.net/syntax"
)

// reorderArgs puts a call's arguments in the order Starlark requires
// (positional, named, *args, **kwargs), as Python allows them in any
// order after the positional ones: f(*xs, sep=", ") and f(*a, b, *c)
// (the star arguments merged into one), and f(*s) over any iterable.
func reorderArgs(c *syntax.CallExpr) {
	var pos, named, stars, dstars, afterStar []syntax.Expr
	needs, seenStar := false, false
	for _, a := range c.Args {
		switch a := a.(type) {
		case *syntax.UnaryExpr:
			switch a.Op {
			case syntax.STAR:
				needs = needs || len(named) > 0 || len(dstars) > 0 || seenStar || !sequenceLiteral(a.X)
				stars, seenStar = append(stars, a), true
				afterStar = append(afterStar, a.X)
				continue
			case syntax.STARSTAR:
				dstars = append(dstars, a)
				continue
			}
		case *syntax.BinaryExpr:
			if _, ok := a.X.(*syntax.Ident); ok && a.Op == syntax.EQ {
				needs = needs || seenStar || len(dstars) > 0
				named = append(named, a)
				continue
			}
		}
		if seenStar {
			needs = true
			afterStar = append(afterStar, &syntax.ListExpr{Lbrack: syntax.Start(a), List: []syntax.Expr{a}, Rbrack: syntax.Start(a)})
			continue
		}
		if len(named) > 0 || len(dstars) > 0 {
			return // a positional argument after a named one: Python's error too
		}
		pos = append(pos, a)
	}
	if !needs && len(dstars) <= 1 {
		return
	}
	args := append(pos, named...)
	if len(stars) > 0 {
		star := stars[0].(*syntax.UnaryExpr)
		if len(afterStar) > 1 || !sequenceLiteral(star.X) {
			star = &syntax.UnaryExpr{OpPos: star.OpPos, Op: syntax.STAR, X: hidden(HidArgs, star.OpPos, afterStar...)}
		}
		args = append(args, star)
	}
	if len(dstars) == 1 {
		args = append(args, dstars[0])
	} else if len(dstars) > 1 {
		first := dstars[0].(*syntax.UnaryExpr)
		var maps []syntax.Expr
		for _, d := range dstars {
			maps = append(maps, d.(*syntax.UnaryExpr).X)
		}
		args = append(args, &syntax.UnaryExpr{OpPos: first.OpPos, Op: syntax.STARSTAR, X: hidden(HidKwargs, first.OpPos, maps...)})
	}
	c.Args = args
}

// call rewrites a call: its arguments, and x.name(...) for the names in
// opts.methods, whose Python behaviour the runtime supplies.
func (w *astWalker) call(c *syntax.CallExpr) syntax.Expr {
	if name := walrusName(c); name != "" {
		return w.walrus(c, name)
	}
	w.markThin(c)
	w.superArgs(c)
	for i, a := range c.Args {
		switch a := a.(type) {
		case *syntax.BinaryExpr:
			if a.Op == syntax.EQ {
				if _, ok := a.X.(*syntax.Ident); ok {
					a.Y = w.expr(a.Y) // name=value: the name is not an expression
					continue
				}
			}
		}
		c.Args[i] = w.expr(a)
	}
	reorderArgs(c)
	if dot, ok := c.Fn.(*syntax.DotExpr); ok && w.opts.Methods[dot.Name.Name] {
		name := dot.Name.Name
		lit := &syntax.Literal{Token: syntax.STRING, TokenPos: dot.NamePos, Raw: strconv.Quote(name), Value: name}
		args := append([]syntax.Expr{w.expr(dot.X), lit}, c.Args...)
		return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: c.Lparen, Name: HidMethod}, Lparen: c.Lparen, Args: args, Rparen: c.Rparen}
	}
	c.Fn = w.expr(c.Fn)
	return c
}

func (w *astWalker) comprehension(c *syntax.Comprehension) syntax.Expr {
	scope := &astScope{names: map[string]bool{}}
	w.scopes = append(w.scopes, scope)
	for _, cl := range c.Clauses {
		switch cl := cl.(type) {
		case *syntax.ForClause:
			w.inIter++
			x := w.expr(cl.X)
			w.inIter--
			cl.X = forIter(cl.For, x, cl.Vars)
			bindTargets(cl.Vars, scope.names)
			cl.Vars = w.target(cl.Vars)
		case *syntax.IfClause:
			cl.Cond = w.expr(cl.Cond)
		}
	}
	c.Body = w.expr(c.Body)
	w.scopes = w.scopes[:len(w.scopes)-1]
	if !c.Curly && w.marked(markGen, c.Lbrack) {
		return lazyGenexp(c)
	}
	return c
}

// lazyGenexp writes (E for T in S <clauses>) as
// HidGen(S, lambda item: [E for T in [item] <clauses>]): S is evaluated
// where the expression is, as Python does, and the runtime takes one
// element of S at a time, only when the consumer asks for the next value,
// so a generator that feeds it is drained no further than Python drains
// it (zip with a shorter iterable, next(), any(), a take(n) helper).
func lazyGenexp(c *syntax.Comprehension) syntax.Expr {
	first := c.Clauses[0].(*syntax.ForClause)
	src := first.X
	item := &syntax.Ident{NamePos: first.For, Name: GenItem}
	first.X = &syntax.ListExpr{Lbrack: first.For, List: []syntax.Expr{&syntax.Ident{NamePos: first.For, Name: GenItem}}, Rbrack: first.For}
	fn := &syntax.LambdaExpr{Lambda: c.Lbrack, Params: []syntax.Expr{item}, Body: c}
	return hidden(HidGen, c.Lbrack, src, fn)
}
