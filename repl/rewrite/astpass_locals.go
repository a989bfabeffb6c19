// The AST pass's scopes: a function's variables shared with its try
// clause functions, class bodies, and super().

package rewrite

import (
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// astScope is a function's or a comprehension's scope.
//
// A try inside a function runs as clause functions (prepass_trydef.go),
// but its variables are the function's: what the body assigns, the
// handler and the code after the try see. Starlark's nested functions
// can read their enclosing function's variables but not assign them, so
// every variable a clause assigns lives in a dict the function makes on
// entry (dictVar = <locals>(param=param, ...)), and each of its uses in
// the function and its clauses reads or writes dictVar["x"]. Other
// variables stay as they are.
//
// A class body is a function too (prepass_class.go); Python does not let
// its methods see the names it binds, so a method reading one reads the
// global of that name instead, as in Python.
type astScope struct {
	names   map[string]bool // the names bound in the scope
	fn      bool            // a function (not a comprehension)
	clause  bool            // a try clause function: its variables are its function's
	class   bool            // a class body
	lambda  bool            // a lambda
	thin    bool            // a lambda of a pre-pass marker: a walrus binds outside it
	self    string          // the first parameter, for super()
	dict    map[string]bool // names kept in dictVar
	dictVar string
}

// classCell is the class body's variable bound to the class once made;
// methods read it for super().
const classCell = "__py_cls"

func IsClause(name string) bool {
	for _, p := range []string{"__py_try_", "__py_exc_", "__py_else_", "__py_fin_", "__py_with_", "__py_wbind_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func IsClassBody(name string) bool { return strings.HasPrefix(name, "__py_class_") }

// lookup returns the innermost scope binding name, and whether a
// function scope lies inside it (the name is read from a nested function).
func (w *astWalker) lookup(name string) (*astScope, bool) {
	nested := false
	for i := len(w.scopes) - 1; i >= 0; i-- {
		s := w.scopes[i]
		if s.names[name] {
			return s, nested
		}
		nested = nested || s.fn
	}
	return nil, false
}

// dictAccess is dictVar["name"] at id's position.
func dictAccess(dictVar string, id *syntax.Ident) syntax.Expr {
	return &syntax.IndexExpr{
		X:      &syntax.Ident{NamePos: id.NamePos, Name: dictVar},
		Lbrack: id.NamePos,
		Y:      &syntax.Literal{Token: syntax.STRING, TokenPos: id.NamePos, Raw: strconv.Quote(id.Name), Value: id.Name},
		Rbrack: id.NamePos,
	}
}

// storeIdent returns the target an assignment to id becomes: the locals
// dict's entry, or nil for the name itself.
func (w *astWalker) storeIdent(id *syntax.Ident) syntax.Expr {
	if s, _ := w.lookup(id.Name); s != nil && s.dict[id.Name] {
		return dictAccess(s.dictVar, id)
	}
	return nil
}

// locals sets up the locals dict of a function whose try clauses assign
// variables, or whose walruses bind names (walrus), and returns the
// statement making it (to come first in the body, once walked), or nil.
func (w *astWalker) locals(scope *astScope, params []syntax.Expr, body []syntax.Stmt, walrus map[string]bool) syntax.Stmt {
	var shared map[string]bool
	clauseBound(body, &shared)
	for n := range walrus {
		if shared == nil {
			shared = map[string]bool{}
		}
		shared[n] = true
	}
	for n := range nestedNonlocals(body, nil) {
		if scope.names[n] {
			if shared == nil {
				shared = map[string]bool{}
			}
			shared[n] = true
		}
	}
	for name := range shared {
		if strings.HasPrefix(name, "__py_") {
			delete(shared, name)
		}
	}
	if len(shared) == 0 {
		return nil
	}
	scope.dict = shared
	scope.dictVar = "__py_l" + strconv.Itoa(w.dicts)
	w.dicts++
	pos := syntax.Position{}
	if len(body) > 0 {
		pos, _ = body[0].Span()
	}
	call := &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: HidLocals}, Lparen: pos, Rparen: pos}
	for _, p := range params {
		if id := paramName(p); id != nil && shared[id.Name] {
			call.Args = append(call.Args, &syntax.BinaryExpr{
				X: &syntax.Ident{NamePos: pos, Name: id.Name}, OpPos: pos, Op: syntax.EQ,
				Y: &syntax.Ident{NamePos: pos, Name: id.Name},
			})
		}
	}
	return &syntax.AssignStmt{OpPos: pos, Op: syntax.EQ, LHS: &syntax.Ident{NamePos: pos, Name: scope.dictVar}, RHS: call}
}

// clauseBound adds the names the try clause functions in body bind to
// *out, made when the first is found.
func clauseBound(body []syntax.Stmt, out *map[string]bool) {
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.DefStmt:
			if IsClause(s.Name.Name) {
				if *out == nil {
					*out = map[string]bool{}
				}
				boundIn(s.Body, *out)
			}
		case *syntax.ForStmt:
			clauseBound(s.Body, out)
		case *syntax.WhileStmt:
			clauseBound(s.Body, out)
		case *syntax.IfStmt:
			clauseBound(s.True, out)
			clauseBound(s.False, out)
		}
	}
}

// A nested function's nonlocal x reads and assigns the x of the nearest
// enclosing function that binds it: that function keeps x in its locals
// dict, as for a try clause, and the nested function does not bind x.
// The pre-pass writes the declaration as __py_nonlocal("x").

// nonlocalNames adds to out (made when needed) the names body declares
// nonlocal, outside nested functions.
func nonlocalNames(body []syntax.Stmt, out map[string]bool) map[string]bool {
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.ExprStmt:
			if c, name := MarkerCall(s.X); name == "__py_nonlocal" {
				for _, a := range c.Args {
					if lit, ok := a.(*syntax.Literal); ok {
						if out == nil {
							out = map[string]bool{}
						}
						out[lit.Value.(string)] = true
					}
				}
			}
		case *syntax.ForStmt:
			out = nonlocalNames(s.Body, out)
		case *syntax.WhileStmt:
			out = nonlocalNames(s.Body, out)
		case *syntax.IfStmt:
			out = nonlocalNames(s.True, out)
			out = nonlocalNames(s.False, out)
		}
	}
	return out
}

// nestedNonlocals adds to out the names the functions nested in body, at
// any depth, declare nonlocal.
func nestedNonlocals(body []syntax.Stmt, out map[string]bool) map[string]bool {
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.DefStmt:
			out = nonlocalNames(s.Body, out)
			out = nestedNonlocals(s.Body, out)
		case *syntax.ForStmt:
			out = nestedNonlocals(s.Body, out)
		case *syntax.WhileStmt:
			out = nestedNonlocals(s.Body, out)
		case *syntax.IfStmt:
			out = nestedNonlocals(s.True, out)
			out = nestedNonlocals(s.False, out)
		}
	}
	return out
}

// nonlocal checks a declaration: a name no enclosing function binds is
// Python's SyntaxError, reported before the code runs. The declaration
// itself becomes pass.
func (w *astWalker) nonlocal(c *syntax.CallExpr) syntax.Stmt {
	for _, a := range c.Args {
		lit, ok := a.(*syntax.Literal)
		if !ok {
			continue
		}
		name := lit.Value.(string)
		if s, _ := w.lookup(name); (s == nil || !s.fn || !s.dict[name]) && w.err == nil {
			w.err = &syntax.Error{Pos: c.Fn.(*syntax.Ident).NamePos, Msg: "SyntaxError: no binding for nonlocal '" + name + "' found"}
		}
	}
	return &syntax.BranchStmt{Token: syntax.PASS, TokenPos: c.Fn.(*syntax.Ident).NamePos}
}

// superArgs gives super() inside a method its class and instance:
// super(__py_cls, self), as Python's zero-argument form means.
func (w *astWalker) superArgs(c *syntax.CallExpr) {
	id, ok := c.Fn.(*syntax.Ident)
	if !ok || id.Name != "super" || len(c.Args) != 0 {
		return
	}
	var method *astScope
	for i := len(w.scopes) - 1; i >= 0; i-- {
		s := w.scopes[i]
		switch {
		case !s.fn || s.clause:
			continue
		case method == nil:
			method = s
			continue
		case s.class && method.self != "":
			c.Args = []syntax.Expr{
				&syntax.Ident{NamePos: c.Lparen, Name: classCell},
				&syntax.Ident{NamePos: c.Lparen, Name: method.self},
			}
		}
		return
	}
}
