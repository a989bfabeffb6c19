// ast.unparse: CPython 3.11's ast._Unparser over the REPL's node objects,
// statements here and expressions in ast_unparse_expr.go: the same
// precedence table and parentheses, string quoting (repr, or the quotes
// needing the fewest escapes inside f-strings), f-strings, docstrings.

package pydev

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// Precedences, as CPython's _Precedence.
const (
	precNamedExpr = iota + 1
	precTuple
	precYield
	precTest
	precOr
	precAnd
	precNot
	precCmp
	precExpr
	precBXor
	precBAnd
	precShift
	precArith
	precTerm
	precFactor
	precPower
	precAwait
	precAtom
)

const precBOr = precExpr

// unparser is one ast.unparse run.
type unparser struct {
	a         *astInfo
	out       *[]string
	prec      map[*pyrt.PyObject]int
	indent    int
	noBacksl  bool // inside an f-string's expression
	inTryStar bool
	err       error
}

func (a *astInfo) unparseBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("unparse", args, kw, 1, &v); err != nil {
		return nil, err
	}
	u := a.newUnparser(false)
	s := u.visit(v)
	if u.err != nil {
		return nil, u.err
	}
	return starlark.String(s), nil
}

func (a *astInfo) newUnparser(noBacksl bool) *unparser {
	return &unparser{a: a, out: new([]string), prec: map[*pyrt.PyObject]int{}, noBacksl: noBacksl}
}

// visit is _Unparser.visit: the source for node.
func (u *unparser) visit(v starlark.Value) string {
	*u.out = nil
	u.traverse(v)
	return strings.Join(*u.out, "")
}

func (u *unparser) Write(s ...string) { *u.out = append(*u.out, s...) }

// buffered runs f writing to a buffer of its own, and returns what it wrote.
func (u *unparser) buffered(f func()) []string {
	saved := u.out
	u.out = new([]string)
	f()
	buf := *u.out
	u.out = saved
	return buf
}

func (u *unparser) Fail(exc *pyrt.ExcType, format string, args ...any) {
	if u.err == nil {
		u.err = pyrt.PyErrorf(exc, format, args...)
	}
}

func (u *unparser) maybeNewline() {
	if len(*u.out) > 0 {
		u.Write("\n")
	}
}

func (u *unparser) fill(text string) {
	u.maybeNewline()
	u.Write(strings.Repeat("    ", u.indent) + text)
}

// block writes ":" (and extra), then body one level deeper.
func (u *unparser) block(body func()) {
	u.Write(":")
	u.indent++
	body()
	u.indent--
}

func (u *unparser) delimit(start, end string, f func()) {
	u.Write(start)
	f()
	u.Write(end)
}

func (u *unparser) delimitIf(start, end string, cond bool, f func()) {
	if cond {
		u.delimit(start, end, f)
	} else {
		f()
	}
}

func (u *unparser) requireParens(p int, n *pyrt.PyObject, f func()) {
	u.delimitIf("(", ")", u.precOf(n) > p, f)
}

func (u *unparser) precOf(n *pyrt.PyObject) int {
	if p, ok := u.prec[n]; ok {
		return p
	}
	return precTest
}

func (u *unparser) setPrec(p int, vs ...starlark.Value) {
	for _, v := range vs {
		if o, ok := v.(*pyrt.PyObject); ok {
			u.prec[o] = p
		}
	}
}

// nodes returns the elements of a list field.
func nodes(v starlark.Value) []starlark.Value {
	switch l := v.(type) {
	case *starlark.List:
		out := make([]starlark.Value, l.Len())
		for i := range out {
			out[i] = l.Index(i)
		}
		return out
	case starlark.Tuple:
		return l
	}
	return nil
}

// f is node.name, None when missing.
func f(o *pyrt.PyObject, name string) starlark.Value {
	if v := field(o, name); v != nil {
		return v
	}
	return starlark.None
}

func present(v starlark.Value) bool { return v != nil && v != starlark.None && bool(v.Truth()) }

func (u *unparser) interleave(sep string, items []starlark.Value, each func(starlark.Value)) {
	for i, x := range items {
		if i > 0 {
			u.Write(sep)
		}
		each(x)
	}
}

func (u *unparser) traverse(v starlark.Value) {
	if u.err != nil {
		return
	}
	if l, ok := v.(*starlark.List); ok {
		for _, x := range nodes(l) {
			u.traverse(x)
		}
		return
	}
	o, ok := u.a.isAST(v)
	if !ok {
		u.Fail(pyrt.ExcAttribute, "'%s' object has no attribute '_fields'", pyrt.PyTypeName(v))
		return
	}
	for t := o.Cls; t != nil; t = t.Base {
		if u.stmt(t.TypeName, o) || u.expr(t.TypeName, o) || u.misc(t.TypeName, o) {
			return
		}
	}
	u.Fail(pyrt.ExcValueError, "unparse() cannot write %s nodes", o.Cls.TypeName)
}

func (u *unparser) className(v starlark.Value) string {
	if o, ok := u.a.isAST(v); ok {
		return o.Cls.TypeName
	}
	return ""
}

// docstring returns the docstring node of a module, class or function body.
func (u *unparser) docstring(o *pyrt.PyObject) *pyrt.PyObject {
	switch o.Cls.TypeName {
	case "Module", "ClassDef", "FunctionDef", "AsyncFunctionDef":
	default:
		return nil
	}
	body := nodes(f(o, "body"))
	if len(body) == 0 || u.className(body[0]) != "Expr" {
		return nil
	}
	c, ok := f(body[0].(*pyrt.PyObject), "value").(*pyrt.PyObject)
	if !ok || c.Cls.TypeName != "Constant" {
		return nil
	}
	if _, isStr := f(c, "value").(starlark.String); !isStr {
		return nil
	}
	return c
}

func (u *unparser) docAndBody(o *pyrt.PyObject) {
	if d := u.docstring(o); d != nil {
		u.fill("")
		if f(d, "kind") == starlark.String("u") {
			u.Write("u")
		}
		u.strAvoidingBackslashes(string(f(d, "value").(starlark.String)), multiQuotes)
		u.traverse(starlark.NewList(nodes(f(o, "body"))[1:]))
		return
	}
	u.traverse(f(o, "body"))
}

func (u *unparser) typeComment(o *pyrt.PyObject) {
	if c, ok := f(o, "type_comment").(starlark.String); ok {
		u.Write(" # type: " + string(c))
	}
}

func (u *unparser) elseBlock(o *pyrt.PyObject, name, kw string) {
	if body := f(o, name); present(body) {
		u.fill(kw)
		u.block(func() { u.traverse(body) })
	}
}
