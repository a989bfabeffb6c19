// The AST pass: after Starlark parses the pre-pass's text, calls of hidden
// builtins replace the operations whose Python meaning differs.

package rewrite

import (
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// Hidden builtins the AST pass calls. Their names are not identifiers, so
// REPL code can neither name nor rebind them.
const (
	HidPow      = "**"       // x ** y
	HidIs       = "is"       // x is y, when neither side is None, True or False
	HidGen      = "genexp"   // a generator expression: a one-pass iterator over the comprehension
	HidMod      = "%"        // x % y: Python's %-formatting for strings
	HidIndex    = "[]"       // x[i]: strings index characters
	HidSlice    = "[:]"      // x[a:b:c]: strings slice characters
	HidSetSlice = "[:]="     // x[a:b] = v
	HidShape    = "<shape>"  // a, b = v unless v is a display of as many: v shaped to the target, a string read as its characters
	HidIter     = "for"      // the iterable of a for loop or clause: strings iterate characters
	HidMethod   = "."        // x.name(...) for the names in astOptions.methods
	HidGlobal   = "global"   // a global read inside a function: looked up when it runs
	HidArgs     = "*args"    // the star arguments of a call, merged
	HidKwargs   = "**kw"     // the ** arguments of a call, merged
	HidLocals   = "<locals>" // the variables a function's try clauses assign (astpass_locals.go)
	HidDunder   = ".__"      // x.__name__ and the other attributes every Python object has
	HidSub      = "-"        // x - y, x / y, x // y unless both are number literals: a bool is the int it is in Python
	HidDiv      = "/"
	HidFloorDiv = "//"
	HidIAdd     = "+="    // name += y: a list is extended in place, a bool is an int
	HidAugItem  = "[]op=" // x[k] op= y for the operators of augOps, when y is not a number literal
	HidAugAttr  = ".op="  // x.name op= y, likewise
	HidSetAttr  = ".="    // name.attr = v, the value first: a function keeps attributes (astpass_attrs.go)
	HidLT       = "<"     // x < y and the other orderings unless a side is a string literal or both are number literals: a bool is an int
	HidLE       = "<="
	HidGT       = ">"
	HidGE       = ">="
	HidEq       = "==" // x == y when a side is 0, 1, True or False: True == 1 in Python
	HidNeg      = "u-" // -x, +x and ~x unless x is a number literal: -True is -1
	HidPos      = "u+"
	HidInvert   = "u~"
	HidAnd      = "&" // x & y, x | y, x ^ y, x << y, x >> y unless both are number literals: True & False is a bool, True & 3 an int
	HidOr       = "|"
	HidXor      = "^"
	HidShl      = "<<"
	HidShr      = ">>"
	HidIn       = "in"      // x in y unless x is a string or a number literal True and 1 cannot equal: 1 in [True], True in {1: "a"}
	HidInTwin   = "in?"     // the twin's answer after a miss of x in y, when x and y are names or literals (read twice)
	HidTwins    = "<twins>" // a frozen dict of the keys with a bool twin: 0, 1, False, True (0.0 and 1.0 find them)
	HidSetItem  = "[]="     // x[k] = v unless k is such a literal: a bool key is the key of the int it equals
	HidDict     = "{:}"     // a dict display with a key that is not a string literal, from its keys and values: True and 1 are one key, the last value wins
	HidKeys     = "{}"      // the dict a comprehension built: True and 1 made one key
)

// unaryOps are the unary operators whose hidden builtins read a bool as
// an int.
var unaryOps = map[syntax.Token]string{syntax.MINUS: HidNeg, syntax.PLUS: HidPos, syntax.TILDE: HidInvert}

// compareOps are the comparisons whose hidden builtins read a bool as an
// int, as Python does (True < 2, flag == 1).
var compareOps = map[syntax.Token]string{syntax.LT: HidLT, syntax.LE: HidLE, syntax.GT: HidGT, syntax.GE: HidGE}

// arithOps are the operators whose hidden builtins read a bool as an int
// (True - False, flag / 2), which Starlark refuses. x + y and x * y are
// the memory guard's calls (package repl), which do the same.
var arithOps = map[syntax.Token]string{syntax.MINUS: HidSub, syntax.SLASH: HidDiv, syntax.SLASHSLASH: HidFloorDiv,
	syntax.AMP: HidAnd, syntax.PIPE: HidOr, syntax.CIRCUMFLEX: HidXor, syntax.LTLT: HidShl, syntax.GTGT: HidShr}

// augOps are the augmented assignments to a name written as name =
// hidden(name, y) (count += found); a subscript or attribute target stays
// Starlark's, as its operands would be evaluated twice. name *= y is the
// memory guard's.
var augOps = map[syntax.Token]string{syntax.PLUS_EQ: HidIAdd, syntax.MINUS_EQ: HidSub, syntax.SLASH_EQ: HidDiv, syntax.SLASHSLASH_EQ: HidFloorDiv,
	syntax.AMP_EQ: HidAnd, syntax.PIPE_EQ: HidOr, syntax.CIRCUMFLEX_EQ: HidXor, syntax.LTLT_EQ: HidShl, syntax.GTGT_EQ: HidShr}

// ASTOptions say which rewrites apply to a file.
type ASTOptions struct {
	Loads      bool // the pre-pass renamed the name load (see loadName)
	Marks      map[markKind]map[[2]int]bool
	LiveGlobal func(name string) bool // whether a global read in a function is looked up when it runs
	Methods    map[string]bool        // the method names whose calls go through the runtime's dispatcher
	// SetAttrs, when not nil, holds the attribute names earlier files
	// assigned on names (astpass_attrs.go); the file's own are added.
	SetAttrs map[string]bool
}

// ASTPass rewrites f in place. Its error is one Python reports before
// the code runs (a nonlocal name no function binds).
func ASTPass(f *syntax.File, opts ASTOptions) error {
	if opts.Loads {
		syntax.Walk(f, func(n syntax.Node) bool {
			if id, ok := n.(*syntax.Ident); ok && id.Name == loadName {
				id.Name = "load" // a def, a parameter, a variable or an attribute named load
			}
			return true
		})
	}
	w := &astWalker{opts: opts, top: topWalrus(f.Stmts), setAttrs: setAttrNames(f, opts.SetAttrs)}
	w.stmts(f.Stmts)
	if w.err != nil {
		return w.err
	}
	return nil
}

type astWalker struct {
	opts   ASTOptions
	scopes []*astScope                 // innermost last; the first function scope starts live lookups
	funcs  int                         // function scopes on the stack
	dicts  int                         // locals dicts made, for their names
	err    *syntax.Error               // the first error found
	top    map[string]bool             // the names walruses bind outside functions (astpass_walrus.go)
	inIter int                         // walking a comprehension's iterable
	thin   map[*syntax.LambdaExpr]bool // lambdas of the pre-pass's markers (astpass_walrus.go)
	// setAttrs are the attribute names the file assigns on a name other
	// than self or cls, read through the runtime (astpass_attrs.go).
	setAttrs map[string]bool
}

func (w *astWalker) marked(k markKind, p syntax.Position) bool {
	return w.opts.Marks[k][[2]int{int(p.Line), int(p.Col)}]
}

func (w *astWalker) stmts(list []syntax.Stmt) {
	for i, s := range list {
		list[i] = w.stmt(s)
	}
}

// block walks a function body, which may grow: a def binding a variable
// of the locals dict is followed by its store there. The list is
// rewritten in place unless it grows.
func (w *astWalker) block(list []syntax.Stmt) []syntax.Stmt {
	var out []syntax.Stmt // set once a statement is added
	for i, s := range list {
		list[i] = w.stmt(s)
		if d, ok := s.(*syntax.DefStmt); ok {
			if sc, _ := w.lookup(d.Name.Name); sc != nil && sc.dict[d.Name.Name] {
				if out == nil {
					out = append([]syntax.Stmt(nil), list[:i+1]...)
				}
				id := &syntax.Ident{NamePos: d.Name.NamePos, Name: d.Name.Name}
				out = append(out, &syntax.AssignStmt{OpPos: d.Def, Op: syntax.EQ, LHS: dictAccess(sc.dictVar, id), RHS: id})
				continue
			}
		}
		if out != nil {
			out = append(out, list[i])
		}
	}
	if out == nil {
		return list
	}
	return out
}

func (w *astWalker) stmt(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.ExprStmt:
		if c, name := MarkerCall(s.X); name == "__py_nonlocal" {
			return w.nonlocal(c)
		}
		s.X = w.expr(s.X)
	case *syntax.AssignStmt:
		if sl, ok := s.LHS.(*syntax.SliceExpr); ok && s.Op == syntax.EQ {
			call := hidden(HidSetSlice, sl.Lbrack, w.expr(sl.X), w.opt(sl.Lo, sl.Lbrack), w.opt(sl.Hi, sl.Lbrack), w.opt(sl.Step, sl.Lbrack), w.expr(s.RHS))
			return &syntax.ExprStmt{X: call}
		}
		if id, ok := s.LHS.(*syntax.Ident); ok && s.Op == syntax.PERCENT_EQ {
			s.Op = syntax.EQ
			s.RHS = &syntax.BinaryExpr{X: &syntax.Ident{NamePos: id.NamePos, Name: id.Name}, OpPos: s.OpPos, Op: syntax.PERCENT, Y: s.RHS}
		}
		if set := w.setAttr(s); set != nil {
			return set
		}
		if aug := w.augTarget(s); aug != nil {
			return aug
		}
		if ix, ok := s.LHS.(*syntax.IndexExpr); ok && s.Op == syntax.EQ && !stringish(ix.Y) {
			return w.setItem(s, ix)
		}
		if id, ok := s.LHS.(*syntax.Ident); ok && augOps[s.Op] != "" {
			name := augOps[s.Op]
			s.Op = syntax.EQ
			s.RHS = hidden(name, s.OpPos, w.expr(&syntax.Ident{NamePos: id.NamePos, Name: id.Name}), w.expr(s.RHS))
			s.LHS = w.target(s.LHS)
			return s
		}
		s.LHS = w.target(s.LHS)
		s.RHS = w.expr(s.RHS)
		if s.Op == syntax.EQ && needsShape(s.LHS, s.RHS) {
			pat := targetPattern(s.LHS)
			s.RHS = hidden(HidShape, s.OpPos, s.RHS, &syntax.Literal{Token: syntax.STRING, TokenPos: s.OpPos, Raw: strconv.Quote(pat), Value: pat})
		}
	case *syntax.IfStmt:
		s.Cond = w.expr(s.Cond)
		s.True = w.block(s.True)
		s.False = w.block(s.False)
	case *syntax.ForStmt:
		s.X = forIter(s.For, w.expr(s.X), s.Vars)
		s.Vars = w.target(s.Vars)
		s.Body = w.block(s.Body)
	case *syntax.WhileStmt:
		s.Cond = w.expr(s.Cond)
		s.Body = w.block(s.Body)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = w.expr(s.Result)
		}
	case *syntax.DefStmt:
		w.params(s.Params)
		s.Body = w.function(s.Name.Name, s.Params, s.Body, nil)
	}
	return s
}

// function walks a def or lambda body in a new function scope and
// returns the body (which may have grown, see locals).
func (w *astWalker) function(name string, params []syntax.Expr, body []syntax.Stmt, expr *syntax.Expr) []syntax.Stmt {
	scope := &astScope{names: map[string]bool{}, fn: true, class: IsClassBody(name), clause: IsClause(name), lambda: expr != nil && name != thinLambda, thin: name == thinLambda}
	for i, p := range params {
		if id := paramName(p); id != nil {
			scope.names[id.Name] = true
			if i == 0 {
				scope.self = id.Name
			}
		}
	}
	var init syntax.Stmt
	if !scope.clause { // a clause's variables are its function's
		boundIn(body, scope.names)
		walrus := stmtsWalrus(body)
		for n := range walrus {
			scope.names[n] = true
		}
		for n := range nonlocalNames(body, nil) {
			delete(scope.names, n) // the enclosing function's (astpass_locals.go)
			delete(walrus, n)
		}
		init = w.locals(scope, params, body, walrus)
	}
	if scope.lambda {
		init = w.lambdaLocals(scope, params, *expr)
	}
	inIter := w.inIter
	w.inIter = 0
	defer func() { w.inIter = inIter }()
	w.scopes = append(w.scopes, scope)
	w.funcs++
	if expr != nil {
		*expr = w.expr(*expr)
	} else {
		body = w.block(body)
	}
	w.funcs--
	w.scopes = w.scopes[:len(w.scopes)-1]
	if scope.lambda && init != nil {
		*expr = lambdaWithLocals(init, *expr)
	} else if init != nil {
		body = append([]syntax.Stmt{init}, body...)
	}
	return body
}

// paramName is the name a parameter binds: x, x=default, *x or **x (nil
// for a bare *).
func paramName(p syntax.Expr) *syntax.Ident {
	switch p := p.(type) {
	case *syntax.Ident:
		return p
	case *syntax.BinaryExpr:
		return p.X.(*syntax.Ident)
	case *syntax.UnaryExpr:
		id, _ := p.X.(*syntax.Ident)
		return id
	}
	return nil
}

// params walks parameter defaults, which are evaluated where the def is.
func (w *astWalker) params(params []syntax.Expr) {
	for _, p := range params {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = w.expr(b.Y)
		}
	}
}

// boundIn adds the names a function body binds (its locals), those the
// try clause functions in it bind included (they share the function's
// variables).
func boundIn(body []syntax.Stmt, scope map[string]bool) {
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.AssignStmt:
			bindTargets(s.LHS, scope)
		case *syntax.ForStmt:
			bindTargets(s.Vars, scope)
			boundIn(s.Body, scope)
		case *syntax.WhileStmt:
			boundIn(s.Body, scope)
		case *syntax.IfStmt:
			boundIn(s.True, scope)
			boundIn(s.False, scope)
		case *syntax.DefStmt:
			scope[s.Name.Name] = true
			if IsClause(s.Name.Name) {
				boundIn(s.Body, scope)
			}
		case *syntax.LoadStmt:
			for _, id := range s.To {
				scope[id.Name] = true
			}
		}
	}
}

func bindTargets(e syntax.Expr, scope map[string]bool) {
	switch e := e.(type) {
	case *syntax.Ident:
		scope[e.Name] = true
	case *syntax.TupleExpr:
		for _, x := range e.List {
			bindTargets(x, scope)
		}
	case *syntax.ListExpr:
		for _, x := range e.List {
			bindTargets(x, scope)
		}
	case *syntax.ParenExpr:
		bindTargets(e.X, scope)
	}
}

// target walks an assignment target: its outermost subscript stays an
// assignment, and what it indexes is an ordinary expression.
func (w *astWalker) target(e syntax.Expr) syntax.Expr {
	switch t := e.(type) {
	case *syntax.TupleExpr:
		for i, x := range t.List {
			t.List[i] = w.target(x)
		}
	case *syntax.ListExpr:
		for i, x := range t.List {
			t.List[i] = w.target(x)
		}
	case *syntax.ParenExpr:
		t.X = w.target(t.X)
	case *syntax.Ident:
		if store := w.storeIdent(t); store != nil {
			return store
		}
	case *syntax.IndexExpr:
		t.X, t.Y = w.expr(t.X), w.expr(t.Y)
	case *syntax.DotExpr:
		t.X = w.expr(t.X)
	}
	return e
}

// opt returns e walked, or None for a missing slice bound.
func (w *astWalker) opt(e syntax.Expr, pos syntax.Position) syntax.Expr {
	if e == nil {
		return &syntax.Ident{NamePos: pos, Name: "None"}
	}
	return w.expr(e)
}

func hidden(name string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: name}, Lparen: pos, Args: args, Rparen: pos}
}

// expr rewrites an expression and returns its replacement.
func (w *astWalker) expr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.Ident:
		return w.ident(e)
	case *syntax.IndexExpr:
		x, y := w.expr(e.X), w.expr(e.Y)
		if w.marked(markPow, e.Lbrack) {
			return hidden(HidPow, e.Lbrack, x, y)
		}
		if lit, ok := y.(*syntax.Literal); ok && lit.Token == syntax.STRING {
			e.X, e.Y = x, y // d["key"]: a mapping lookup, the same natively
			return e
		}
		return hidden(HidIndex, e.Lbrack, x, y)
	case *syntax.SliceExpr:
		return hidden(HidSlice, e.Lbrack, w.expr(e.X), w.opt(e.Lo, e.Lbrack), w.opt(e.Hi, e.Lbrack), w.opt(e.Step, e.Lbrack))
	case *syntax.BinaryExpr:
		e.X, e.Y = w.expr(e.X), w.expr(e.Y)
		switch {
		case (e.Op == syntax.EQL || e.Op == syntax.NEQ) && w.marked(markIs, e.OpPos) && !isSingleton(e.X) && !isSingleton(e.Y):
			call := hidden(HidIs, e.OpPos, e.X, e.Y)
			if e.Op == syntax.NEQ {
				return &syntax.UnaryExpr{OpPos: e.OpPos, Op: syntax.NOT, X: call}
			}
			return call
		case e.Op == syntax.PERCENT && (stringish(e.X) || !numeric(e.X) && !numeric(e.Y) || isBoolLit(e.X) || isBoolLit(e.Y)):
			return hidden(HidMod, e.OpPos, e.X, e.Y)
		case (e.Op == syntax.IN || e.Op == syntax.NOT_IN) && !plainKey(e.X):
			var test syntax.Expr = hidden(HidIn, e.OpPos, e.X, e.Y)
			if simpleOperand(e.X) && simpleOperand(e.Y) {
				// x in y or x in HidTwins and HidInTwin(x, y): only a miss
				// by a value with a bool twin costs a call
				in := func(x, y syntax.Expr) syntax.Expr {
					return &syntax.BinaryExpr{X: x, OpPos: e.OpPos, Op: syntax.IN, Y: y}
				}
				twins := &syntax.Ident{NamePos: e.OpPos, Name: HidTwins}
				retry := &syntax.BinaryExpr{X: in(e.X, twins), OpPos: e.OpPos, Op: syntax.AND, Y: hidden(HidInTwin, e.OpPos, e.X, e.Y)}
				test = &syntax.ParenExpr{Lparen: e.OpPos, X: &syntax.BinaryExpr{X: in(e.X, e.Y), OpPos: e.OpPos, Op: syntax.OR, Y: retry}, Rparen: e.OpPos}
			}
			if e.Op == syntax.NOT_IN {
				return &syntax.UnaryExpr{OpPos: e.OpPos, Op: syntax.NOT, X: test}
			}
			return test
		case arithOps[e.Op] != "" && !(numeric(e.X) && numeric(e.Y)):
			return hidden(arithOps[e.Op], e.OpPos, e.X, e.Y)
		case compareOps[e.Op] != "" && !(numeric(e.X) && numeric(e.Y)) && !stringLit(e.X) && !stringLit(e.Y):
			return hidden(compareOps[e.Op], e.OpPos, e.X, e.Y)
		case (e.Op == syntax.EQL || e.Op == syntax.NEQ) && !(numeric(e.X) && numeric(e.Y)) && !(stringLit(e.X) && stringLit(e.Y)) && !isSingleton(e.X) && !isSingleton(e.Y) || (e.Op == syntax.EQL || e.Op == syntax.NEQ) && (boolish(e.X) || boolish(e.Y)) && !(numeric(e.X) && numeric(e.Y)):
			call := hidden(HidEq, e.OpPos, e.X, e.Y)
			if e.Op == syntax.NEQ {
				return &syntax.UnaryExpr{OpPos: e.OpPos, Op: syntax.NOT, X: call}
			}
			return call
		}
	case *syntax.UnaryExpr:
		if e.X != nil {
			e.X = w.expr(e.X)
			if name := unaryOps[e.Op]; name != "" && !numeric(e.X) {
				return hidden(name, e.OpPos, e.X)
			}
		}
	case *syntax.CallExpr:
		return w.call(e)
	case *syntax.DotExpr:
		e.X = w.expr(e.X)
		if dunderAttrs[e.Name.Name] || w.setAttrs[e.Name.Name] && !selfName(e.X) {
			lit := &syntax.Literal{Token: syntax.STRING, TokenPos: e.NamePos, Raw: strconv.Quote(e.Name.Name), Value: e.Name.Name}
			return hidden(HidDunder, e.Dot, e.X, lit)
		}
	case *syntax.ParenExpr:
		e.X = w.expr(e.X)
	case *syntax.TupleExpr:
		w.exprs(e.List)
	case *syntax.ListExpr:
		w.exprs(e.List)
	case *syntax.DictExpr:
		plain := true
		var args []syntax.Expr
		for _, x := range e.List {
			entry := x.(*syntax.DictEntry)
			plain = plain && stringLit(entry.Key)
			entry.Key, entry.Value = w.expr(entry.Key), w.expr(entry.Value)
			args = append(args, entry.Key, entry.Value)
		}
		if !plain {
			return hidden(HidDict, e.Lbrace, args...)
		}
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = w.expr(e.Cond), w.expr(e.True), w.expr(e.False)
	case *syntax.LambdaExpr:
		w.params(e.Params)
		name := "lambda"
		if w.thin[e] {
			name = thinLambda
		}
		w.function(name, e.Params, nil, &e.Body)
	case *syntax.DictEntry:
		e.Key, e.Value = w.expr(e.Key), w.expr(e.Value)
	case *syntax.Comprehension:
		if _, ok := e.Body.(*syntax.DictEntry); ok && e.Curly {
			return hidden(HidKeys, e.Lbrack, w.comprehension(e))
		}
		return w.comprehension(e)
	}
	return e
}

// dunderAttrs are the attributes Python gives every function or object,
// which Starlark's values lack (f.__name__); the hidden builtin supplies
// them.
var dunderAttrs = map[string]bool{"__name__": true, "__qualname__": true, "__doc__": true, "__module__": true, "__class__": true,
	"__mro__": true, "__subclasses__": true, "__bases__": true, "__dict__": true, "__abstractmethods__": true,
	"__annotations__": true, "__defaults__": true, "__kwdefaults__": true, "__code__": true,
	"real": true, "imag": true, "numerator": true, "denominator": true}

func (w *astWalker) exprs(list []syntax.Expr) {
	for i, x := range list {
		list[i] = w.expr(x)
	}
}

// ident turns a global read inside a function into a lookup when it runs,
// so a function sees the current value of a global however and whenever
// it was bound.
func (w *astWalker) ident(id *syntax.Ident) syntax.Expr {
	if x, ok := w.walrusRead(id); ok {
		return x
	}
	if w.funcs == 0 {
		return id
	}
	switch s, nested := w.lookup(id.Name); {
	case s != nil && s.dict[id.Name]:
		return dictAccess(s.dictVar, id)
	case s != nil && s.class && nested && id.Name != classCell:
		return globalRead(id) // a class body's names are not visible in its methods
	case s != nil:
		return id
	}
	if w.opts.LiveGlobal == nil || !w.opts.LiveGlobal(id.Name) {
		return id
	}
	return globalRead(id)
}

// globalRead looks name up among the globals when it runs.
func globalRead(id *syntax.Ident) syntax.Expr {
	lit := &syntax.Literal{Token: syntax.STRING, TokenPos: id.NamePos, Raw: strconv.Quote(id.Name), Value: id.Name}
	return hidden(HidGlobal, id.NamePos, lit)
}

// GenItem is the parameter of the function a generator expression's
// clauses run in: not an identifier, so REPL code cannot name it.
const GenItem = "<genexp item>"

// MarkerCall returns the hidden marker a statement's expression calls.
func MarkerCall(e syntax.Expr) (*syntax.CallExpr, string) {
	c, ok := e.(*syntax.CallExpr)
	if !ok {
		return nil, ""
	}
	id, ok := c.Fn.(*syntax.Ident)
	if !ok || !strings.HasPrefix(id.Name, "__py_") {
		return nil, ""
	}
	return c, id.Name
}

// FileOptions are the Starlark dialect of REPL code and helper files.
func FileOptions() *syntax.FileOptions {
	return &syntax.FileOptions{While: true, Recursion: true, Set: true, TopLevelControl: true, GlobalReassign: true}
}
