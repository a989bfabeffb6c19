// The AST pass: attributes assigned on names, which may be functions
// (wrapper.calls = 0, inc.reset = reset, fn.registered = True). A
// Starlark function takes no attribute, so the assignment is a hidden
// call the runtime answers, keeping the function's __dict__, and the
// file's reads of those attribute names go through the runtime's getattr.

package rewrite

import (
	"strconv"

	"go.starlark.net/syntax"
)

// selfName reports whether e is self or cls, whose attributes are an
// instance's or a class's: Starlark's own reads and stores serve them.
func selfName(e syntax.Expr) bool {
	id, ok := e.(*syntax.Ident)
	return ok && (id.Name == "self" || id.Name == "cls")
}

// attrTarget returns the name.attr target of an assignment, nil for any
// other target or for self.attr and cls.attr.
func attrTarget(lhs syntax.Expr) *syntax.DotExpr {
	dot, ok := lhs.(*syntax.DotExpr)
	if !ok {
		return nil
	}
	if _, isName := dot.X.(*syntax.Ident); !isName || selfName(dot.X) {
		return nil
	}
	return dot
}

// setAttrNames adds to names (made when nil) the attribute names f
// assigns on names other than self and cls, with = or an augmented
// operator or by a setattr call with a string literal.
func setAttrNames(f *syntax.File, names map[string]bool) map[string]bool {
	if names == nil {
		names = map[string]bool{}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.AssignStmt:
			if dot := attrTarget(n.LHS); dot != nil {
				names[dot.Name.Name] = true
			}
		case *syntax.CallExpr:
			if id, ok := n.Fn.(*syntax.Ident); ok && id.Name == "setattr" && len(n.Args) == 3 {
				if lit, ok := n.Args[1].(*syntax.Literal); ok && lit.Token == syntax.STRING {
					names[lit.Value.(string)] = true
				}
			}
		}
		return true
	})
	return names
}

// setAttr writes name.attr = v as HidSetAttr(v, name, "attr"), the value
// first as Python evaluates it; nil for any other assignment.
func (w *astWalker) setAttr(s *syntax.AssignStmt) syntax.Stmt {
	dot := attrTarget(s.LHS)
	if dot == nil || s.Op != syntax.EQ {
		return nil
	}
	lit := &syntax.Literal{Token: syntax.STRING, TokenPos: dot.NamePos, Raw: strconv.Quote(dot.Name.Name), Value: dot.Name.Name}
	v := w.expr(s.RHS)
	return &syntax.ExprStmt{X: hidden(HidSetAttr, s.OpPos, v, w.expr(dot.X), lit)}
}
