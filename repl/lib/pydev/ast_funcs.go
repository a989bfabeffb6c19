// ast: walk, iter_child_nodes, iter_fields, get_docstring, literal_eval,
// dump and the location helpers.

package pydev

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func (a *astInfo) nodeArg(fn string, args starlark.Tuple, kw []starlark.Tuple) (*pyrt.PyObject, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &v); err != nil {
		return nil, err
	}
	o, ok := a.isAST(v)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "expected AST, got '%s'", pyrt.PyTypeName(v))
	}
	return o, nil
}

// fieldsOf is node._fields.
func fieldsOf(o *pyrt.PyObject) []string {
	v, _ := pyrt.ClassLookup(o.Cls, "_fields")
	t, _ := v.(starlark.Tuple)
	out := make([]string, 0, len(t))
	for _, x := range t {
		if s, ok := x.(starlark.String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

// field is getattr(node, name), or nil when it has none.
func field(o *pyrt.PyObject, name string) starlark.Value {
	if v, ok := o.Attrs[name]; ok {
		return v
	}
	v, _ := pyrt.ClassLookup(o.Cls, name)
	return v
}

// children is iter_child_nodes(node).
func (a *astInfo) children(o *pyrt.PyObject) []starlark.Value {
	var out []starlark.Value
	for _, name := range fieldsOf(o) {
		switch v := field(o, name).(type) {
		case *pyrt.PyObject:
			if _, ok := a.isAST(v); ok {
				out = append(out, v)
			}
		case *starlark.List:
			for i := 0; i < v.Len(); i++ {
				if _, ok := a.isAST(v.Index(i)); ok {
					out = append(out, v.Index(i))
				}
			}
		}
	}
	return out
}

func (a *astInfo) iterChildNodes(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	o, err := a.nodeArg("iter_child_nodes", args, kw)
	if err != nil {
		return nil, err
	}
	return pyrt.NewListIter("generator", a.children(o)), nil
}

func (a *astInfo) iterFields(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	o, err := a.nodeArg("iter_fields", args, kw)
	if err != nil {
		return nil, err
	}
	var out []starlark.Value
	for _, name := range fieldsOf(o) {
		if v := field(o, name); v != nil {
			out = append(out, starlark.Tuple{starlark.String(name), v})
		}
	}
	return pyrt.NewListIter("generator", out), nil
}

// walk is ast.walk(node): breadth first, as CPython's deque does it.
func (a *astInfo) walk(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	o, err := a.nodeArg("walk", args, kw)
	if err != nil {
		return nil, err
	}
	todo := []starlark.Value{o}
	return pyrt.NewLazyIter(thread, "generator", func() (starlark.Value, bool, error) {
		if len(todo) == 0 {
			return nil, false, nil
		}
		n := todo[0]
		todo = todo[1:]
		if no, ok := a.isAST(n); ok {
			todo = append(todo, a.children(no)...)
		}
		return n, true, nil
	}), nil
}

// getDocstring is ast.get_docstring(node, clean=True).
func (a *astInfo) getDocstring(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	clean := true
	if err := pyrt.UnpackArgs("get_docstring", args, kw, "node", &v, "clean?", &clean); err != nil {
		return nil, err
	}
	o, ok := a.isAST(v)
	switch {
	case !ok:
		return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute '__class__'", pyrt.PyTypeName(v))
	case !o.Cls.SubclassOf(a.classes["FunctionDef"]) && !o.Cls.SubclassOf(a.classes["AsyncFunctionDef"]) &&
		!o.Cls.SubclassOf(a.classes["ClassDef"]) && !o.Cls.SubclassOf(a.classes["Module"]):
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s can't have docstrings", pyrt.PyRepr(starlark.String(o.Cls.TypeName)))
	}
	body, _ := field(o, "body").(*starlark.List)
	if body == nil || body.Len() == 0 {
		return starlark.None, nil
	}
	first, ok := a.isAST(body.Index(0))
	if !ok || first.Cls != a.classes["Expr"] {
		return starlark.None, nil
	}
	c, ok := a.isAST(field(first, "value"))
	if !ok || c.Cls != a.classes["Constant"] {
		return starlark.None, nil
	}
	s, ok := field(c, "value").(starlark.String)
	if !ok {
		return starlark.None, nil
	}
	if clean {
		return starlark.String(cleandocPy(string(s))), nil
	}
	return s, nil
}

// cleandocPy is inspect.cleandoc.
func cleandocPy(doc string) string {
	lines := strings.Split(strings.ReplaceAll(doc, "\t", "        "), "\n")
	margin := -1
	for _, l := range lines[1:] {
		content := len(strings.TrimLeft(l, " "))
		if content > 0 {
			ind := len(l) - content
			if margin < 0 || ind < margin {
				margin = ind
			}
		}
	}
	lines[0] = strings.TrimLeft(lines[0], " ")
	if margin >= 0 {
		for i := 1; i < len(lines); i++ {
			if len(lines[i]) >= margin {
				lines[i] = lines[i][margin:]
			} else {
				lines[i] = strings.TrimLeft(lines[i], " ")
			}
		}
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// dumpBuiltin is ast.dump(node, annotate_fields=True, include_attributes=False, *, indent=None).
func (a *astInfo) dumpBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v, indent starlark.Value = nil, starlark.None
	annotate, attrs := true, false
	if err := pyrt.UnpackArgs("dump", args, kw, "node", &v, "annotate_fields?", &annotate, "include_attributes?", &attrs, "indent?", &indent); err != nil {
		return nil, err
	}
	if _, ok := a.isAST(v); !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "expected AST, got %s", pyrt.PyRepr(starlark.String(pyrt.PyTypeName(v))))
	}
	d := astDumper{a: a, annotate: annotate, attrs: attrs}
	switch in := indent.(type) {
	case starlark.Int:
		n, _ := in.Int64()
		d.indent, d.hasIndent = strings.Repeat(" ", int(n)), true
	case starlark.String:
		d.indent, d.hasIndent = string(in), true
	}
	s, _ := d.format(v, 0)
	return starlark.String(s), nil
}

type astDumper struct {
	a               *astInfo
	annotate, attrs bool
	indent          string
	hasIndent       bool
}

func (d *astDumper) format(v starlark.Value, level int) (string, bool) {
	prefix, sep := "", ", "
	if d.hasIndent {
		level++
		prefix = "\n" + strings.Repeat(d.indent, level)
		sep = ",\n" + strings.Repeat(d.indent, level)
	}
	if o, ok := d.a.isAST(v); ok {
		var args []string
		allSimple, keywords := true, d.annotate
		add := func(name string, always bool) {
			val := field(o, name)
			if val == nil {
				keywords = true
				return
			}
			if val == starlark.None {
				if cv, _ := pyrt.ClassLookup(o.Cls, name); cv == starlark.None {
					keywords = keywords || !always
					return
				}
			}
			s, simple := d.format(val, level)
			allSimple = allSimple && simple
			if keywords || always {
				args = append(args, name+"="+s)
			} else {
				args = append(args, s)
			}
		}
		for _, name := range fieldsOf(o) {
			add(name, false)
		}
		if d.attrs {
			if at, _ := pyrt.ClassLookup(o.Cls, "_attributes"); at != nil {
				for _, n := range at.(starlark.Tuple) {
					kw := keywords
					add(string(n.(starlark.String)), true)
					keywords = kw
				}
			}
		}
		if allSimple && len(args) <= 3 {
			return o.Cls.TypeName + "(" + strings.Join(args, ", ") + ")", len(args) == 0
		}
		return o.Cls.TypeName + "(" + prefix + strings.Join(args, sep) + ")", false
	}
	if l, ok := v.(*starlark.List); ok {
		if l.Len() == 0 {
			return "[]", true
		}
		parts := make([]string, l.Len())
		for i := range parts {
			parts[i], _ = d.format(l.Index(i), level)
		}
		return "[" + prefix + strings.Join(parts, sep) + "]", false
	}
	return pyrt.PyRepr(v), true
}

// literalEval is ast.literal_eval(node_or_string).
func (a *astInfo) literalEval(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("literal_eval", args, kw, 1, &v); err != nil {
		return nil, err
	}
	if s, ok := v.(starlark.String); ok {
		n, err := a.parseText(strings.TrimLeft(string(s), " \t"), "<unknown>", "eval")
		if err != nil {
			return nil, err
		}
		v = n
	}
	if o, ok := a.isAST(v); ok && o.Cls == a.classes["Expression"] {
		v = field(o, "body")
	}
	return a.convert(v)
}

func (a *astInfo) malformed(v starlark.Value) error {
	msg := "malformed node or string"
	if o, ok := v.(*pyrt.PyObject); ok {
		if ln := field(o, "lineno"); ln != nil && ln != starlark.None {
			if ln.Truth() {
				msg += " on line " + pyrt.PyStr(ln)
			}
		}
	}
	return pyrt.PyErrorf(pyrt.ExcValueError, "%s: %s", msg, pyrt.PyRepr(v))
}

func (a *astInfo) is(v starlark.Value, class string) (*pyrt.PyObject, bool) {
	o, ok := a.isAST(v)
	if ok && o.Cls.SubclassOf(a.classes[class]) {
		return o, true
	}
	return nil, false
}

func (a *astInfo) convertList(v starlark.Value) ([]starlark.Value, error) {
	l, ok := v.(*starlark.List)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object is not iterable", pyrt.PyTypeName(v))
	}
	out := make([]starlark.Value, l.Len())
	for i := range out {
		x, err := a.convert(l.Index(i))
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func (a *astInfo) convert(v starlark.Value) (starlark.Value, error) {
	if o, ok := a.is(v, "Constant"); ok {
		if c, ok := field(o, "value").(*pyrt.Unavailable); ok {
			return nil, c.Err()
		}
		return field(o, "value"), nil
	}
	if o, ok := a.is(v, "Tuple"); ok {
		elts, err := a.convertList(field(o, "elts"))
		return starlark.Tuple(elts), err
	}
	if o, ok := a.is(v, "List"); ok {
		elts, err := a.convertList(field(o, "elts"))
		return starlark.NewList(elts), err
	}
	if o, ok := a.is(v, "Set"); ok {
		elts, err := a.convertList(field(o, "elts"))
		if err != nil {
			return nil, err
		}
		s := starlark.NewSet(len(elts))
		for _, x := range elts {
			if err := s.Insert(x); err != nil {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: '%s'", pyrt.PyTypeName(x))
			}
		}
		return s, nil
	}
	if o, ok := a.is(v, "Call"); ok {
		fn, isName := a.is(field(o, "func"), "Name")
		args, _ := field(o, "args").(*starlark.List)
		kws, _ := field(o, "keywords").(*starlark.List)
		if isName && field(fn, "id") == starlark.String("set") && args != nil && args.Len() == 0 && kws != nil && kws.Len() == 0 {
			return starlark.NewSet(0), nil
		}
	}
	if o, ok := a.is(v, "Dict"); ok {
		return a.convertDict(o)
	}
	if o, ok := a.is(v, "BinOp"); ok {
		_, add := a.is(field(o, "op"), "Add")
		_, sub := a.is(field(o, "op"), "Sub")
		if add || sub { // Python's complex literals: both sides must be numbers
			if _, err := a.signedNum(field(o, "left")); err != nil {
				return nil, err
			}
			if _, err := a.num(field(o, "right")); err != nil {
				return nil, err
			}
		}
	}
	return a.signedNum(v)
}

// convertDict converts a Dict node's keys and values in CPython's order:
// key, value, next key.
func (a *astInfo) convertDict(o *pyrt.PyObject) (starlark.Value, error) {
	keys, _ := field(o, "keys").(*starlark.List)
	vals, _ := field(o, "values").(*starlark.List)
	if keys == nil || vals == nil {
		return nil, a.malformed(o)
	}
	if keys.Len() != vals.Len() {
		return nil, a.malformed(o)
	}
	d := starlark.NewDict(keys.Len())
	for i := 0; i < keys.Len(); i++ {
		k, err := a.convert(keys.Index(i))
		if err != nil {
			return nil, err
		}
		v, err := a.convert(vals.Index(i))
		if err != nil {
			return nil, err
		}
		if err := d.SetKey(k, v); err != nil {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: '%s'", pyrt.PyTypeName(k))
		}
	}
	return d, nil
}

func (a *astInfo) num(v starlark.Value) (starlark.Value, error) {
	if o, ok := a.is(v, "Constant"); ok {
		switch c := field(o, "value").(type) {
		case starlark.Int, starlark.Float:
			return c, nil
		case *pyrt.Unavailable: // a complex literal: refused, never another answer
			return nil, c.Err()
		}
	}
	return nil, a.malformed(v)
}

func (a *astInfo) signedNum(v starlark.Value) (starlark.Value, error) {
	if o, ok := a.is(v, "UnaryOp"); ok {
		op := field(o, "op")
		_, plus := a.is(op, "UAdd")
		_, minus := a.is(op, "USub")
		if plus || minus {
			n, err := a.num(field(o, "operand"))
			if err != nil || plus {
				return n, err
			}
			switch n := n.(type) {
			case starlark.Int:
				return starlark.MakeInt(0).Sub(n), nil
			case starlark.Float:
				return -n, nil
			}
		}
	}
	return a.num(v)
}

func (a *astInfo) fixMissingLocations(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	o, err := a.nodeArg("fix_missing_locations", args, kw)
	if err != nil {
		return nil, err
	}
	var fix func(n *pyrt.PyObject, line, col, eline, ecol starlark.Value)
	fix = func(n *pyrt.PyObject, line, col, eline, ecol starlark.Value) {
		if at, _ := pyrt.ClassLookup(n.Cls, "_attributes"); at != nil && len(at.(starlark.Tuple)) > 0 {
			vals := []*starlark.Value{&line, &col, &eline, &ecol}
			for i, name := range astPosAttrs {
				if v, ok := n.Attrs[name]; ok && v != starlark.None {
					*vals[i] = v
				} else {
					setAttr(n, name, *vals[i])
				}
			}
		}
		for _, c := range a.children(n) {
			fix(c.(*pyrt.PyObject), line, col, eline, ecol)
		}
	}
	one, zero := starlark.MakeInt(1), starlark.MakeInt(0)
	fix(o, one, zero, one, zero)
	return o, nil
}

func (a *astInfo) copyLocation(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var nv, ov starlark.Value
	if err := starlark.UnpackPositionalArgs("copy_location", args, kw, 2, &nv, &ov); err != nil {
		return nil, err
	}
	n, ok1 := a.isAST(nv)
	o, ok2 := a.isAST(ov)
	if ok1 && ok2 {
		for _, name := range astPosAttrs {
			if v, ok := o.Attrs[name]; ok && v != starlark.None {
				setAttr(n, name, v)
			}
		}
	}
	return nv, nil
}

func (a *astInfo) incrementLineno(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	n := 1
	if err := pyrt.UnpackArgs("increment_lineno", args, kw, "node", &v, "n?", &n); err != nil {
		return nil, err
	}
	o, ok := a.isAST(v)
	if !ok {
		return v, nil
	}
	var walk func(x *pyrt.PyObject)
	walk = func(x *pyrt.PyObject) {
		for _, name := range []string{"lineno", "end_lineno"} {
			if l, ok := x.Attrs[name].(starlark.Int); ok {
				x.Attrs[name] = l.Add(starlark.MakeInt(n))
			}
		}
		for _, c := range a.children(x) {
			walk(c.(*pyrt.PyObject))
		}
	}
	walk(o)
	return v, nil
}
