// argparse's values: converting argument strings (type=, choices=), the
// actions' effects on the Namespace, errors and exits, and Namespace.

package pytext

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

// getValues is _get_values; isDefault reports that the value is the
// action's default (an absent positional), which does not count as seen.
func (p *argParser) getValues(a *argAction, strs []string) (starlark.Value, bool, error) {
	if !a.nargsIs("A...") && !a.nargsIs("...") {
		for i, s := range strs {
			if s == "--" {
				strs = append(append([]string(nil), strs[:i]...), strs[i+1:]...)
				break
			}
		}
	}
	switch {
	case len(strs) == 0 && a.nargsIs("?"):
		v, isDefault := a.defaultV, true
		if len(a.options) > 0 {
			v, isDefault = a.constV, false
		}
		if s, ok := v.(starlark.String); ok {
			conv, err := p.getValue(a, string(s))
			if err != nil {
				return nil, false, err
			}
			return conv, isDefault && conv == v, p.checkValue(a, conv)
		}
		return v, isDefault, nil
	case len(strs) == 0 && a.nargsIs("*") && len(a.options) == 0:
		if a.defaultV != starlark.None {
			return a.defaultV, true, p.checkValue(a, a.defaultV)
		}
		v := starlark.NewList(nil)
		return v, false, p.checkValue(a, v)
	case len(strs) == 1 && (a.nargs == starlark.None || a.nargsIs("?")):
		v, err := p.getValue(a, strs[0])
		if err != nil {
			return nil, false, err
		}
		return v, false, p.checkValue(a, v)
	case a.nargsIs(string(argparseSuppress)):
		return argparseSuppress, false, nil
	}
	v, err := p.listValues(a, strs)
	return v, false, err
}

// listValues is _get_values for the nargs that make a list: every string
// converted, every value checked (only the first for a subcommand, none
// for REMAINDER).
func (p *argParser) listValues(a *argAction, strs []string) (starlark.Value, error) {
	out := make([]starlark.Value, len(strs))
	for i, s := range strs {
		v, err := p.getValue(a, s)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	check := out
	switch {
	case a.nargsIs("..."):
		check = nil
	case a.nargsIs("A..."):
		check = out[:1]
	}
	for _, v := range check {
		if err := p.checkValue(a, v); err != nil {
			return nil, err
		}
	}
	return starlark.NewList(out), nil
}

// getValue is _get_value: type(s), with type's errors as ArgumentError.
func (p *argParser) getValue(a *argAction, s string) (starlark.Value, error) {
	if a.typ == starlark.None {
		return starlark.String(s), nil
	}
	v, err := starlark.Call(p.r.Thread, a.typ, starlark.Tuple{starlark.String(s)}, nil)
	if err == nil || !p.r.Catchable(err) {
		return v, err
	}
	exc := p.r.ExceptionOf(err)
	switch {
	case exc.Typ.IsSubclass(excArgumentTypeError):
		return nil, argumentError(a, exc.Str())
	case exc.Typ.IsSubclass(pyrt.ExcTypeError) || exc.Typ.IsSubclass(pyrt.ExcValueError):
		return nil, argumentError(a, "invalid "+argTypeName(a.typ)+" value: "+pyrt.PyRepr(starlark.String(s)))
	}
	return nil, err
}

// argTypeName is getattr(type, '__name__', repr(type)).
func argTypeName(t starlark.Value) string {
	if h, ok := t.(starlark.HasAttrs); ok {
		if v, err := h.Attr("__name__"); err == nil && v != nil {
			return pyrt.PyStr(v)
		}
	}
	switch t := t.(type) {
	case *starlark.Function:
		if t.Name() == "lambda" {
			return "<lambda>"
		}
		return t.Name()
	case *starlark.Builtin:
		return t.Name()
	}
	return pyrt.PyRepr(t)
}

// checkValue is _check_value: the value must be one of the choices.
func (p *argParser) checkValue(a *argAction, v starlark.Value) error {
	if a.sub != nil {
		if _, ok := a.sub.parsers[pyrt.PyStr(v)]; ok {
			return nil
		}
		return argumentError(a, "invalid choice: "+pyrt.PyRepr(v)+" (choose from "+strings.Join(reprAll(a.sub.names), ", ")+")")
	}
	if a.choices == starlark.None {
		return nil
	}
	in, err := starlark.Binary(syntax.IN, v, a.choices)
	if err != nil {
		return err
	}
	if in.Truth() {
		return nil
	}
	var shown []string
	if err := pyrt.Iterate(a.choices, func(c starlark.Value) (bool, error) {
		shown = append(shown, pyrt.PyRepr(c))
		return true, nil
	}); err != nil {
		return err
	}
	return argumentError(a, "invalid choice: "+pyrt.PyRepr(v)+" (choose from "+strings.Join(shown, ", ")+")")
}

func reprAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = pyrt.PyRepr(starlark.String(s))
	}
	return out
}

// act is the action's __call__.
func (p *argParser) act(a *argAction, ns *argNamespace, v starlark.Value, option string) error {
	switch a.kind {
	case "store":
		ns.Set(a.dest, v)
	case "store_const", "store_true", "store_false":
		ns.Set(a.dest, a.constV)
	case "append", "append_const", "extend":
		items, err := copyItems(ns, a.dest)
		if err != nil {
			return err
		}
		switch a.kind {
		case "append":
			err = items.Append(v)
		case "append_const":
			err = items.Append(a.constV)
		default:
			err = pyrt.Iterate(v, func(x starlark.Value) (bool, error) { return true, items.Append(x) })
		}
		if err != nil {
			return err
		}
		ns.Set(a.dest, items)
	case "count":
		n, _ := ns.get(a.dest)
		if n == nil || n == starlark.None {
			n = starlark.MakeInt(0)
		}
		sum, err := starlark.Binary(syntax.PLUS, n, starlark.MakeInt(1))
		if err != nil {
			return err
		}
		ns.Set(a.dest, sum)
	case "help":
		text, err := p.formatHelp()
		if err == nil {
			err = p.r.WriteStd(0, text)
		}
		if err != nil {
			return err
		}
		return p.Exit(starlark.MakeInt(0), "")
	case "version":
		f := p.newFormatter()
		if err := p.r.WriteStd(0, finishHelp(f.formatText(pyrt.PyStr(a.version), 0))); err != nil {
			return err
		}
		return p.Exit(starlark.MakeInt(0), "")
	case "parsers":
		return p.subparse(a, ns, v)
	}
	return nil
}

// copyItems is _copy_items(getattr(namespace, dest, None)).
func copyItems(ns *argNamespace, dest string) (*starlark.List, error) {
	v, _ := ns.get(dest)
	if v == nil || v == starlark.None {
		return starlark.NewList(nil), nil
	}
	items, err := pyrt.ListOf(v)
	if err != nil {
		return nil, err
	}
	return starlark.NewList(append([]starlark.Value(nil), items...)), nil
}

// subparse runs the chosen subparser on the rest of the strings.
func (p *argParser) subparse(a *argAction, ns *argNamespace, v starlark.Value) error {
	l, _ := pyrt.ListOf(v)
	name := pyrt.PyStr(l[0])
	if a.dest != string(argparseSuppress) {
		ns.Set(a.dest, l[0])
	}
	sub := a.sub.parsers[name]
	var rest []string
	for _, x := range l[1:] {
		rest = append(rest, pyrt.PyStr(x))
	}
	subNs, extras, err := sub.parseKnownArgs(rest, nil)
	if err != nil {
		return err
	}
	for _, kv := range subNs.d.Items() {
		_ = ns.d.SetKey(kv[0], kv[1])
	}
	if len(extras) > 0 {
		prev, _ := ns.get("_unrecognized_args")
		list, _ := prev.(*starlark.List)
		if list == nil {
			list = starlark.NewList(nil)
			ns.Set("_unrecognized_args", list)
		}
		for _, e := range extras {
			_ = list.Append(starlark.String(e))
		}
	}
	return nil
}

// fail is parser.error(message): the usage and the message on stderr,
// then SystemExit(2).
func (p *argParser) Fail(msg string) error {
	if err := p.r.WriteStd(1, p.formatUsage()); err != nil {
		return err
	}
	return p.Exit(starlark.MakeInt(2), p.prog+": error: "+msg+"\n")
}

// exit is parser.exit(status, message).
func (p *argParser) Exit(status starlark.Value, msg string) error {
	if msg != "" {
		if err := p.r.WriteStd(1, msg); err != nil {
			return err
		}
	}
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcSystemExit, Args: starlark.Tuple{status}}}
}

// argNamespace is argparse.Namespace: its attributes are its __dict__.
type argNamespace struct{ d *starlark.Dict }

var (
	_ starlark.HasSetField = (*argNamespace)(nil)
	_ starlark.Comparable  = (*argNamespace)(nil)
	_ starlark.Container   = (*argNamespace)(nil)
)

func newArgNamespace() *argNamespace { return &argNamespace{d: starlark.NewDict(0)} }

func (ns *argNamespace) get(k string) (starlark.Value, bool) {
	v, ok, _ := ns.d.Get(starlark.String(k))
	return v, ok
}
func (ns *argNamespace) has(k string) bool              { _, ok := ns.get(k); return ok }
func (ns *argNamespace) Set(k string, v starlark.Value) { _ = ns.d.SetKey(starlark.String(k), v) }
func (ns *argNamespace) del(k string)                   { _, _, _ = ns.d.Delete(starlark.String(k)) }

func (ns *argNamespace) String() string        { return ns.ReprPy() }
func (ns *argNamespace) Type() string          { return "Namespace" }
func (ns *argNamespace) PyClass() *pyrt.PyType { return argNamespaceType }
func (ns *argNamespace) Freeze()               {}
func (ns *argNamespace) Truth() starlark.Bool  { return true }
func (ns *argNamespace) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'Namespace'")
}
func (ns *argNamespace) VarsDict() *starlark.Dict { return ns.d }

// reprPy is _AttributeHolder's repr: identifiers as name=value, the
// other names in **{...}.
func (ns *argNamespace) ReprPy() string {
	var parts []string
	star := starlark.NewDict(0)
	for _, kv := range ns.d.Items() {
		k, ok := kv[0].(starlark.String)
		if ok && isIdentifier(string(k)) {
			parts = append(parts, string(k)+"="+pyrt.PyRepr(kv[1]))
		} else {
			_ = star.SetKey(kv[0], kv[1])
		}
	}
	if star.Len() > 0 {
		parts = append(parts, "**"+pyrt.PyRepr(star))
	}
	return "Namespace(" + strings.Join(parts, ", ") + ")"
}

func isIdentifier(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c > 127 || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

func (ns *argNamespace) AttrNames() []string {
	var out []string
	for _, k := range ns.d.Keys() {
		if s, ok := k.(starlark.String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

func (ns *argNamespace) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__dict__":
		return ns.d, nil
	case "__class__":
		return argNamespaceType, nil
	}
	if v, ok := ns.get(name); ok {
		return v, nil
	}
	return nil, nil
}

func (ns *argNamespace) DelAttr(name string) error {
	if !ns.has(name) {
		return pyrt.PyErrorf(pyrt.ExcAttribute, "'Namespace' object has no attribute '%s'", name)
	}
	ns.del(name)
	return nil
}

func (ns *argNamespace) SetField(name string, v starlark.Value) error {
	ns.Set(name, v)
	return nil
}

func (ns *argNamespace) Has(k starlark.Value) (bool, error) {
	_, ok, err := ns.d.Get(k)
	return ok, err
}

func (ns *argNamespace) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	eq, err := starlark.EqualDepth(ns.d, y.(*argNamespace).d, depth)
	switch op {
	case syntax.EQL:
		return eq, err
	case syntax.NEQ:
		return !eq, err
	}
	return false, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' not supported between instances of 'Namespace' and 'Namespace'", op)
}
