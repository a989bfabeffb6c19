// inspect: signature (pymod_inspect_sig.go), the is* predicates, getdoc,
// cleandoc, getmembers, getfullargspec and getmodule over the REPL's
// values.

package pyrt

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

func (r *Interp) inspectModule() starlark.Value {
	ic := r.inspectTypes()
	one := func(name string, f func(v starlark.Value) (starlark.Value, error)) *starlark.Builtin {
		return builtin("inspect."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &v); err != nil {
				return nil, err
			}
			return f(v)
		})
	}
	m := starlark.StringDict{
		"Parameter": ic.parameter, "Signature": ic.signature, "BoundArguments": ic.bound,
		"signature": one("signature", func(v starlark.Value) (starlark.Value, error) { return r.signatureOf(v) }),
		"getdoc":    one("getdoc", r.inspectGetdoc),
		"cleandoc": one("cleandoc", func(v starlark.Value) (starlark.Value, error) {
			s, ok := v.(starlark.String)
			if !ok {
				return nil, pyErrorf(ExcAttribute, "'%s' object has no attribute 'expandtabs'", pyTypeName(v))
			}
			return starlark.String(cleandoc(string(s))), nil
		}),
		"getmembers":     builtin("inspect.getmembers", r.inspectGetmembers),
		"getfullargspec": builtin("inspect.getfullargspec", r.inspectFullargspec),
		"getmodule":      one("getmodule", r.inspectGetmodule),
	}
	for name, pred := range inspectPredicates {
		pred := pred
		m[name] = one(name, func(v starlark.Value) (starlark.Value, error) { return starlark.Bool(pred(v)), nil })
	}
	for _, name := range []string{"getsource", "getsourcelines", "getfile", "getsourcefile"} {
		m[name] = one(name, inspectNoSource)
	}
	return newModule("inspect", m)
}

// inspectPredicates are inspect's is* functions over the REPL's values.
var inspectPredicates = map[string]func(v starlark.Value) bool{
	"isfunction": func(v starlark.Value) bool { return pyFunction(v) != nil && !isBound(v) },
	"ismethod":   func(v starlark.Value) bool { return isBound(v) },
	"isbuiltin": func(v starlark.Value) bool {
		_, ok := v.(*starlark.Builtin)
		return ok
	},
	"isroutine": func(v starlark.Value) bool {
		switch v.(type) {
		case *starlark.Function, *genFunc, *boundMethod, *starlark.Builtin, *goMethod:
			return true
		}
		return false
	},
	"isclass": func(v starlark.Value) bool {
		switch v.(type) {
		case *PyType, *excType:
			return true
		}
		return false
	},
	"ismodule": func(v starlark.Value) bool {
		_, ok := AsModule(v)
		return ok
	},
	"isgenerator": func(v starlark.Value) bool {
		it, ok := v.(*pyIter)
		return ok && it.gen != nil
	},
	"isgeneratorfunction": func(v starlark.Value) bool {
		if m, ok := v.(*boundMethod); ok {
			v = m.fn
		}
		_, ok := v.(*genFunc)
		return ok
	},
	"iscoroutinefunction": func(starlark.Value) bool { return false },
	"iscoroutine":         func(starlark.Value) bool { return false },
	"isawaitable":         func(starlark.Value) bool { return false },
	"isasyncgenfunction":  func(starlark.Value) bool { return false },
	"isasyncgen":          func(starlark.Value) bool { return false },
}

// isBound reports whether v is a method bound to an instance or class,
// of a function defined in the REPL.
func isBound(v starlark.Value) bool {
	m, ok := v.(*boundMethod)
	return ok && pyFunction(m.fn) != nil
}

// inspectNoSource is getsource and its kin: the REPL does not keep the
// text of earlier calls, as CPython's interactive interpreter does not.
func inspectNoSource(v starlark.Value) (starlark.Value, error) {
	switch v.(type) {
	case *starlark.Function, *genFunc, *boundMethod, *PyType, *excType, *starlarkstruct.Module, *sysModule:
		return nil, pyErrorf(excOSError, "could not get source code")
	}
	return nil, pyErrorf(excTypeError, "module, class, method, function, traceback, frame, or code object was expected, got %s", pyTypeName(v))
}

// inspectGetdoc is inspect.getdoc: the docstring cleaned, a class's
// inherited from its bases.
func (r *Interp) inspectGetdoc(v starlark.Value) (starlark.Value, error) {
	doc, err := r.dunderAttr(v, "__doc__")
	if err != nil {
		return nil, err
	}
	if doc == starlark.None {
		if mro, ok := r.classIntrospect(v, "__mro__"); ok {
			for _, c := range mro.(starlark.Tuple)[1:] {
				if d, err := r.dunderAttr(c, "__doc__"); err == nil && d != starlark.None {
					doc = d
					break
				}
			}
		}
	}
	s, ok := doc.(starlark.String)
	if !ok {
		return starlark.None, nil
	}
	return starlark.String(cleandoc(string(s))), nil
}

// cleandoc is inspect.cleandoc: tabs expanded, the first line's leading
// space and the common indentation of the others removed, blank lines
// cut at both ends.
func cleandoc(doc string) string {
	lines := strings.Split(expandTabs(doc, 8), "\n")
	margin := math.MaxInt
	for _, l := range lines[1:] {
		content := len([]rune(strings.TrimLeftFunc(l, unicode.IsSpace)))
		if content > 0 {
			margin = min(margin, len([]rune(l))-content)
		}
	}
	lines[0] = strings.TrimLeftFunc(lines[0], unicode.IsSpace)
	if margin < math.MaxInt {
		for i := 1; i < len(lines); i++ {
			rs := []rune(lines[i])
			lines[i] = string(rs[min(margin, len(rs)):])
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

// expandTabs is str.expandtabs(size).
func expandTabs(s string, size int) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var sb strings.Builder
	col := 0
	for _, c := range s {
		switch c {
		case '\t':
			n := size - col%size
			sb.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n', '\r':
			sb.WriteRune(c)
			col = 0
		default:
			sb.WriteRune(c)
			col++
		}
	}
	return sb.String()
}

// inspectGetmembers is inspect.getmembers(obj[, predicate]): the
// (name, value) pairs of dir(obj), sorted by name.
func (r *Interp) inspectGetmembers(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var obj, pred starlark.Value = nil, starlark.None
	if err := starlark.UnpackPositionalArgs("getmembers", args, kw, 1, &obj, &pred); err != nil {
		return nil, err
	}
	var names []string
	if h, ok := obj.(starlark.HasAttrs); ok {
		names = h.AttrNames()
	}
	if mro, ok := r.classIntrospect(obj, "__mro__"); ok {
		for _, c := range mro.(starlark.Tuple) {
			if t, ok := c.(*PyType); ok && t.user != nil {
				names = append(names, t.user.order...)
			}
		}
	}
	sort.Strings(names)
	var out []starlark.Value
	for i, n := range names {
		if i > 0 && names[i-1] == n {
			continue
		}
		v, err := r.dunderAttr(obj, n)
		if err != nil || v == nil {
			continue
		}
		if pred != starlark.None {
			ok, err := starlark.Call(thread, pred, starlark.Tuple{v}, nil)
			if err != nil {
				return nil, err
			}
			if !ok.Truth() {
				continue
			}
		}
		out = append(out, starlark.Tuple{starlark.String(n), v})
	}
	return starlark.NewList(out), nil
}

// inspectGetmodule is inspect.getmodule: a module itself, or the module
// of an imported module's value.
func (r *Interp) inspectGetmodule(v starlark.Value) (starlark.Value, error) {
	if _, ok := AsModule(v); ok {
		return v, nil
	}
	name, err := r.dunderAttr(v, "__module__")
	if err != nil {
		return starlark.None, nil
	}
	s, _ := name.(starlark.String)
	if m, ok := r.Modules[string(s)]; ok {
		return m, nil
	}
	if s == "__main__" {
		return nil, pyErrorf(excValueError, "inspect.getmodule: the REPL has no __main__ module object; obj.__module__ is '__main__'")
	}
	return starlark.None, nil
}

// inspectFullargspec is inspect.getfullargspec(f).
func (r *Interp) inspectFullargspec(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Value
	if err := starlark.UnpackPositionalArgs("getfullargspec", args, kw, 1, &f); err != nil {
		return nil, err
	}
	sig, err := r.signatureOf(f)
	if err != nil {
		return nil, pyErrorf(excTypeError, "unsupported callable")
	}
	var posArgs, kwonly []starlark.Value
	var varargs, varkw starlark.Value = starlark.None, starlark.None
	var defaults starlark.Tuple
	kwdefaults := starlark.NewDict(0)
	annots := starlark.NewDict(0)
	if sig.ret != sig.ic.empty {
		_ = annots.SetKey(starlark.String("return"), sig.ret)
	}
	for _, p := range sig.params {
		name := starlark.String(p.name)
		switch p.kind {
		case paramPosOrKw:
			posArgs = append(posArgs, name)
			if p.dflt != sig.ic.empty {
				defaults = append(defaults, p.dflt)
			}
		case paramVarPos:
			varargs = name
		case paramKwOnly:
			kwonly = append(kwonly, name)
			if p.dflt != sig.ic.empty {
				_ = kwdefaults.SetKey(name, p.dflt)
			}
		case paramVarKw:
			varkw = name
		}
		if p.annot != sig.ic.empty {
			_ = annots.SetKey(name, p.annot)
		}
	}
	var dflt, kwd starlark.Value = starlark.None, starlark.None
	if defaults != nil {
		dflt = defaults
	}
	if kwdefaults.Len() > 0 {
		kwd = kwdefaults
	}
	fields := []string{"args", "varargs", "varkw", "defaults", "kwonlyargs", "kwonlydefaults", "annotations"}
	var fv starlark.Tuple
	for _, f := range fields {
		fv = append(fv, starlark.String(f))
	}
	cls, err := r.namedtuple(thread, builtin("namedtuple", nil), starlark.Tuple{starlark.String("FullArgSpec"), fv}, nil)
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, cls, starlark.Tuple{starlark.NewList(posArgs), varargs, varkw, dflt, starlark.NewList(kwonly), kwd, annots}, nil)
}
