// The AST pass: what kind of expression an operand is (a literal, a
// name, a display), which decides whether an operation needs a hidden
// builtin.

package rewrite

import "go.starlark.net/syntax"

// stringish reports whether e is a string literal (parenthesized, joined
// with + or repeated with *): x % y is then Python's %-formatting, which
// the hidden builtin gives. So is x % y when neither side is a number
// literal (fmt % args); i % 7 stays Starlark's operator, the same for
// numbers and much cheaper in loops.
func stringish(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Literal:
		return e.Token == syntax.STRING
	case *syntax.ParenExpr:
		return stringish(e.X)
	case *syntax.BinaryExpr:
		return (e.Op == syntax.PLUS || e.Op == syntax.STAR) && (stringish(e.X) || stringish(e.Y))
	case *syntax.CallExpr:
		if id, ok := e.Fn.(*syntax.Ident); ok && id.Name == HidMethod && len(e.Args) > 0 {
			return stringish(e.Args[0]) // "...".format(...) or a rewritten f-string
		}
	}
	return false
}

// numeric reports whether e is a number literal, possibly negated or
// parenthesized.
func numeric(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Literal:
		return e.Token == syntax.INT || e.Token == syntax.FLOAT
	case *syntax.ParenExpr:
		return numeric(e.X)
	case *syntax.UnaryExpr:
		return (e.Op == syntax.MINUS || e.Op == syntax.PLUS) && e.X != nil && numeric(e.X)
	}
	return false
}

// stringLit reports whether e is a string literal.
func stringLit(e syntax.Expr) bool {
	lit, ok := e.(*syntax.Literal)
	return ok && lit.Token == syntax.STRING
}

// boolish reports whether e is a literal a bool can equal in Python but
// not in Starlark: True, False, 0, 1, 0.0 or 1.0.
func boolish(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Ident:
		return e.Name == "True" || e.Name == "False"
	case *syntax.Literal:
		return (e.Token == syntax.INT || e.Token == syntax.FLOAT) && (e.Raw == "0" || e.Raw == "1" || e.Raw == "0.0" || e.Raw == "1.0")
	case *syntax.ParenExpr:
		return boolish(e.X)
	}
	return false
}

// isBoolLit reports whether e is True or False.
func isBoolLit(e syntax.Expr) bool {
	id, ok := e.(*syntax.Ident)
	return ok && (id.Name == "True" || id.Name == "False")
}

func isSingleton(e syntax.Expr) bool {
	id, ok := e.(*syntax.Ident)
	return ok && (id.Name == "None" || id.Name == "True" || id.Name == "False")
}

// simpleOperand reports whether e is a name or a literal, which may be
// read twice.
func simpleOperand(e syntax.Expr) bool {
	switch e.(type) {
	case *syntax.Ident, *syntax.Literal:
		return true
	}
	return false
}

// plainKey reports whether e is a literal no bool can equal: a string, or
// a number other than 0 and 1. Such a key, or the left operand of in, is
// left to Starlark.
func plainKey(e syntax.Expr) bool {
	return stringish(e) || numeric(e) && !boolish(e)
}

// sequenceLiteral reports whether e is a list or tuple display, which
// Starlark's *args takes as Python does; any other value goes through the
// hidden *args builtin, which iterates strings, sets and iterators as
// Python.
func sequenceLiteral(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.ListExpr, *syntax.TupleExpr:
		return true
	case *syntax.ParenExpr:
		return sequenceLiteral(e.X)
	}
	return false
}
