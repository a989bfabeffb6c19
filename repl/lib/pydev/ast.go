// ast: Python's ast module over harness/repl/pyast: parse gives the node
// classes of Python 3.11 (instances of REPL classes, so isinstance,
// attribute access and assignment work as on any object), walk,
// NodeVisitor and NodeTransformer (base classes a class statement can
// derive from), iter_child_nodes, iter_fields, get_docstring,
// literal_eval, dump and unparse.

package pydev

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyast"
	"harness/repl/pyrt"
)

// astInfo is one interpreter's ast classes.
type astInfo struct {
	r       *pyrt.Interp
	root    *pyrt.PyType
	classes map[string]*pyrt.PyType
	leaves  map[string]*pyrt.PyObject // Load(), Add(), ...: one instance each, as CPython shares them
}

var excIndentation = &pyrt.ExcType{TypeName: "IndentationError", Base: pyrt.ExcSyntax}

func astModule(r *pyrt.Interp) starlark.Value {
	a := astClasses(r)
	members := starlark.StringDict{}
	for name, t := range a.classes {
		members[name] = t
	}
	visitor := a.visitorClass()
	members["NodeVisitor"] = visitor
	members["NodeTransformer"] = a.transformerClass(visitor)
	fns := map[string]pyrt.BuiltinFunc{
		"parse": a.parse, "walk": a.walk, "iter_child_nodes": a.iterChildNodes, "iter_fields": a.iterFields,
		"get_docstring": a.getDocstring, "literal_eval": a.literalEval, "dump": a.dumpBuiltin, "unparse": a.unparseBuiltin,
		"fix_missing_locations": a.fixMissingLocations, "copy_location": a.copyLocation, "increment_lineno": a.incrementLineno,
	}
	for name, f := range fns {
		members[name] = pyrt.Builtin(name, f)
	}
	members["PyCF_ONLY_AST"] = starlark.MakeInt(1024)
	return pyrt.NewModule("ast", members)
}

// astClasses makes the node classes once per interpreter.
func astClasses(r *pyrt.Interp) *astInfo {
	a := &astInfo{r: r, classes: map[string]*pyrt.PyType{}, leaves: map[string]*pyrt.PyObject{}}
	a.root = a.newClass("AST", r.Types["object"], nil, false)
	a.root.User.Set("__repr__", &pyrt.GoMethod{MethodName: "__repr__", Fn: func(_ *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return starlark.String(fmt.Sprintf("<ast.%s object at %#x>", self.(*pyrt.PyObject).Cls.TypeName, reflect.ValueOf(self).Pointer())), nil
	}})
	a.classes["AST"] = a.root
	for _, c := range astClassTable {
		var fields []string
		if c.fields != "" {
			fields = strings.Fields(c.fields)
		}
		a.classes[c.name] = a.newClass(c.name, a.classes[c.base], fields, c.pos)
	}
	return a
}

func strTuple(names []string) starlark.Tuple {
	t := make(starlark.Tuple, len(names))
	for i, n := range names {
		t[i] = starlark.String(n)
	}
	return t
}

var astPosAttrs = []string{"lineno", "col_offset", "end_lineno", "end_col_offset"}

func (a *astInfo) newClass(name string, base *pyrt.PyType, fields []string, pos bool) *pyrt.PyType {
	t := &pyrt.PyType{TypeName: name, Module: "ast", Base: base, User: &pyrt.UserClass{R: a.r, Dict: map[string]starlark.Value{}}}
	t.User.Set("_fields", strTuple(fields))
	if pos {
		t.User.Set("_attributes", strTuple(astPosAttrs))
		t.User.Set("end_lineno", starlark.None)
		t.User.Set("end_col_offset", starlark.None)
	} else {
		t.User.Set("_attributes", starlark.Tuple{})
	}
	for _, f := range fields {
		if pyast.OptionalField(name, f) {
			t.User.Set(f, starlark.None)
		}
	}
	t.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return a.Construct(t, fields, pos, args, kw)
	}
	return t
}

// construct is NodeClass(*args, **kw): positional arguments fill _fields in order.
func (a *astInfo) Construct(t *pyrt.PyType, fields []string, pos bool, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) > len(fields) {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s constructor takes at most %d positional argument%s", t.TypeName, len(fields), astPlural(len(fields)))
	}
	o := &pyrt.PyObject{Cls: t, Attrs: map[string]starlark.Value{}}
	for i, v := range args {
		setAttr(o, fields[i], v)
	}
	for _, p := range kw {
		name := string(p[0].(starlark.String))
		if _, dup := o.Attrs[name]; dup {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s got multiple values for argument '%s'", t.TypeName, name)
		}
		setAttr(o, name, p[1])
	}
	return o, nil
}

func astPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func setAttr(o *pyrt.PyObject, name string, v starlark.Value) {
	if _, ok := o.Attrs[name]; !ok {
		o.Keys = append(o.Keys, name)
	}
	o.Attrs[name] = v
}

func delAttr(o *pyrt.PyObject, name string) {
	if _, ok := o.Attrs[name]; !ok {
		return
	}
	delete(o.Attrs, name)
	for i, k := range o.Keys {
		if k == name {
			o.Keys = append(o.Keys[:i:i], o.Keys[i+1:]...)
			break
		}
	}
}

// isAST reports whether v is a node.
func (a *astInfo) isAST(v starlark.Value) (*pyrt.PyObject, bool) {
	o, ok := v.(*pyrt.PyObject)
	if ok && o.Cls.SubclassOf(a.root) {
		return o, true
	}
	return nil, false
}

// object makes the REPL's value for a parsed node.
func (a *astInfo) object(n *pyast.Node) starlark.Value {
	if n == nil {
		return starlark.None
	}
	if len(n.Fields) == 0 && !n.HasPos {
		if o, ok := a.leaves[n.Type]; ok {
			return o
		}
	}
	o := &pyrt.PyObject{Cls: a.classes[n.Type], Attrs: map[string]starlark.Value{}}
	for _, f := range n.Fields {
		setAttr(o, f.Name, a.value(f.Value))
	}
	if n.HasPos {
		setAttr(o, "lineno", starlark.MakeInt(n.Pos.Line))
		setAttr(o, "col_offset", starlark.MakeInt(n.Pos.Col))
		setAttr(o, "end_lineno", starlark.MakeInt(n.Pos.EndLine))
		setAttr(o, "end_col_offset", starlark.MakeInt(n.Pos.EndCol))
	}
	if len(n.Fields) == 0 && !n.HasPos {
		a.leaves[n.Type] = o
	}
	return o
}

func (a *astInfo) value(v any) starlark.Value {
	switch v := v.(type) {
	case *pyast.Node:
		return a.object(v)
	case []*pyast.Node:
		out := make([]starlark.Value, len(v))
		for i, x := range v {
			out[i] = a.object(x)
		}
		return starlark.NewList(out)
	case []string:
		out := make([]starlark.Value, len(v))
		for i, x := range v {
			out[i] = starlark.String(x)
		}
		return starlark.NewList(out)
	case string:
		return starlark.String(v)
	case int:
		return starlark.MakeInt(v)
	case pyast.Const:
		return constValue(v)
	}
	return starlark.None
}

func constValue(c pyast.Const) starlark.Value {
	switch c.Kind {
	case pyast.CBool:
		return starlark.Bool(c.Bool)
	case pyast.CInt:
		return starlark.MakeBigInt(new(big.Int).Set(c.Int))
	case pyast.CFloat:
		return starlark.Float(c.Float)
	case pyast.CComplex:
		return &pyrt.Unavailable{ModName: "the complex constant " + c.Repr(), Why: "complex numbers are not supported"}
	case pyast.CStr:
		return starlark.String(c.Str)
	case pyast.CBytes:
		return starlark.Bytes(c.Str)
	case pyast.CEllipsis:
		return pyrt.Ellipsis{}
	}
	return starlark.None
}

// parse is ast.parse(source, filename='<unknown>', mode='exec', *, type_comments=False, feature_version=None).
func (a *astInfo) parse(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var src starlark.Value
	filename, mode := "<unknown>", "exec"
	var typeComments bool
	var feature starlark.Value
	if err := pyrt.UnpackArgs("parse", args, kw, "source", &src, "filename?", &filename, "mode?", &mode, "type_comments?", &typeComments, "feature_version?", &feature); err != nil {
		return nil, err
	}
	var text string
	switch s := src.(type) {
	case starlark.String:
		text = string(s)
	case starlark.Bytes:
		text = string(s)
	default:
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "compile() arg 1 must be a string, bytes or AST object")
	}
	return a.parseText(text, filename, mode)
}

func (a *astInfo) parseText(text, filename, mode string) (starlark.Value, error) {
	var n *pyast.Node
	var err error
	switch mode {
	case "exec":
		n, err = pyast.Parse(text)
	case "eval":
		n, err = pyast.ParseExpr(text)
	default:
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "compile() mode must be 'exec' or 'eval' in this REPL (got '%s')", mode)
	}
	if err != nil {
		return nil, syntaxErrorOf(err.(*pyast.SyntaxError), filename)
	}
	return a.object(n), nil
}

// syntaxErrorOf is CPython's SyntaxError (or IndentationError) for a parse failure.
func syntaxErrorOf(se *pyast.SyntaxError, filename string) error {
	typ := pyrt.ExcSyntax
	if se.Indent {
		typ = excIndentation
	}
	text := starlark.Value(starlark.None)
	if se.Text != "" {
		text = starlark.String(se.Text + "\n")
	}
	line, off := starlark.MakeInt(se.Lineno), starlark.MakeInt(se.Offset)
	e := &pyrt.PyException{Typ: typ,
		Args: starlark.Tuple{starlark.String(se.Msg), starlark.Tuple{starlark.String(filename), line, off, text}},
		Text: fmt.Sprintf("%s (%s, line %d)", se.Msg, filename, se.Lineno),
		Attrs: starlark.StringDict{"msg": starlark.String(se.Msg), "lineno": line, "offset": off, "text": text,
			"filename": starlark.String(filename), "end_lineno": starlark.None, "end_offset": starlark.None}}
	return &pyrt.PyError{Exc: e}
}
