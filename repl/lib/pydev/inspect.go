// inspect: signature (inspect_sig.go), the is* predicates, getdoc,
// cleandoc, getmembers, getfullargspec and getmodule over the REPL's
// values.

package pydev

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

func inspectModule(r *pyrt.Interp) starlark.Value {
	ic := inspectTypes(r)
	one := func(name string, f func(v starlark.Value) (starlark.Value, error)) *starlark.Builtin {
		return pyrt.Builtin("inspect."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &v); err != nil {
				return nil, err
			}
			return f(v)
		})
	}
	m := starlark.StringDict{
		"Parameter": ic.parameter, "Signature": ic.signature, "BoundArguments": ic.bound,
		"signature": one("signature", func(v starlark.Value) (starlark.Value, error) { return signatureOf(r, v) }),
		"getdoc":    one("getdoc", func(p0 starlark.Value) (starlark.Value, error) { return inspectGetdoc(r, p0) }),
		"cleandoc": one("cleandoc", func(v starlark.Value) (starlark.Value, error) {
			s, ok := v.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'expandtabs'", pyrt.PyTypeName(v))
			}
			return starlark.String(cleandoc(string(s))), nil
		}),
		"getmembers": pyrt.Builtin("inspect.getmembers", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return inspectGetmembers(r, p0, p1, p2, p3)
		}),
		"getfullargspec": pyrt.Builtin("inspect.getfullargspec", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return inspectFullargspec(r, p0, p1, p2, p3)
		}),
		"getmodule": one("getmodule", func(p0 starlark.Value) (starlark.Value, error) { return inspectGetmodule(r, p0) }),
	}
	for name, pred := range inspectPredicates {
		pred := pred
		m[name] = one(name, func(v starlark.Value) (starlark.Value, error) { return starlark.Bool(pred(v)), nil })
	}
	for _, name := range []string{"getsource", "getsourcelines", "getfile", "getsourcefile"} {
		m[name] = one(name, inspectNoSource)
	}
	return pyrt.NewModule("inspect", m)
}

// inspectPredicates are inspect's is* functions over the REPL's values.
var inspectPredicates = map[string]func(v starlark.Value) bool{
	"isfunction": func(v starlark.Value) bool { return pyrt.PyFunction(v) != nil && !isBound(v) },
	"ismethod":   func(v starlark.Value) bool { return isBound(v) },
	"isbuiltin": func(v starlark.Value) bool {
		_, ok := v.(*starlark.Builtin)
		return ok
	},
	"isroutine": func(v starlark.Value) bool {
		switch v.(type) {
		case *starlark.Function, *pyrt.GenFunc, *pyrt.BoundMethod, *starlark.Builtin, *pyrt.GoMethod:
			return true
		}
		return false
	},
	"isclass": func(v starlark.Value) bool {
		switch v.(type) {
		case *pyrt.PyType, *pyrt.ExcType:
			return true
		}
		return false
	},
	"ismodule": func(v starlark.Value) bool {
		_, ok := pyrt.AsModule(v)
		return ok
	},
	"isgenerator": func(v starlark.Value) bool {
		it, ok := v.(*pyrt.PyIter)
		return ok && it.Gen != nil
	},
	"isgeneratorfunction": func(v starlark.Value) bool {
		if m, ok := v.(*pyrt.BoundMethod); ok {
			v = m.Fn
		}
		_, ok := v.(*pyrt.GenFunc)
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
	m, ok := v.(*pyrt.BoundMethod)
	return ok && pyrt.PyFunction(m.Fn) != nil
}

// inspectNoSource is getsource and its kin: the REPL does not keep the
// text of earlier calls, as CPython's interactive interpreter does not.
func inspectNoSource(v starlark.Value) (starlark.Value, error) {
	switch v.(type) {
	case *starlark.Function, *pyrt.GenFunc, *pyrt.BoundMethod, *pyrt.PyType, *pyrt.ExcType, *starlarkstruct.Module, *pyrt.SysModule:
		return nil, pyrt.PyErrorf(pyrt.ExcOSError, "could not get source code")
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "module, class, method, function, traceback, frame, or code object was expected, got %s", pyrt.PyTypeName(v))
}

// inspectGetdoc is inspect.getdoc: the docstring cleaned, a class's
// inherited from its bases.
func inspectGetdoc(r *pyrt.Interp, v starlark.Value) (starlark.Value, error) {
	doc, err := r.DunderAttr(v, "__doc__")
	if err != nil {
		return nil, err
	}
	if doc == starlark.None {
		if mro, ok := r.ClassIntrospect(v, "__mro__"); ok {
			for _, c := range mro.(starlark.Tuple)[1:] {
				if d, err := r.DunderAttr(c, "__doc__"); err == nil && d != starlark.None {
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
	lines := strings.Split(pystr.ExpandTabs(doc, 8), "\n")
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

// inspectGetmembers is inspect.getmembers(obj[, predicate]): the
// (name, value) pairs of dir(obj), sorted by name.
func inspectGetmembers(r *pyrt.Interp, thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var obj, pred starlark.Value = nil, starlark.None
	if err := starlark.UnpackPositionalArgs("getmembers", args, kw, 1, &obj, &pred); err != nil {
		return nil, err
	}
	var names []string
	if h, ok := obj.(starlark.HasAttrs); ok {
		names = h.AttrNames()
	}
	if mro, ok := r.ClassIntrospect(obj, "__mro__"); ok {
		for _, c := range mro.(starlark.Tuple) {
			if t, ok := c.(*pyrt.PyType); ok && t.User != nil {
				names = append(names, t.User.Order...)
			}
		}
	}
	sort.Strings(names)
	var out []starlark.Value
	for i, n := range names {
		if i > 0 && names[i-1] == n {
			continue
		}
		v, err := r.DunderAttr(obj, n)
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
func inspectGetmodule(r *pyrt.Interp, v starlark.Value) (starlark.Value, error) {
	if _, ok := pyrt.AsModule(v); ok {
		return v, nil
	}
	name, err := r.DunderAttr(v, "__module__")
	if err != nil {
		return starlark.None, nil
	}
	s, _ := name.(starlark.String)
	if m, ok := r.Modules[string(s)]; ok {
		return m, nil
	}
	if s == "__main__" {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "inspect.getmodule: the REPL has no __main__ module object; obj.__module__ is '__main__'")
	}
	return starlark.None, nil
}

// inspectFullargspec is inspect.getfullargspec(f).
func inspectFullargspec(r *pyrt.Interp, thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Value
	if err := starlark.UnpackPositionalArgs("getfullargspec", args, kw, 1, &f); err != nil {
		return nil, err
	}
	sig, err := signatureOf(r, f)
	if err != nil {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "unsupported callable")
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
		case pyrt.ParamPosOrKw:
			posArgs = append(posArgs, name)
			if p.dflt != sig.ic.empty {
				defaults = append(defaults, p.dflt)
			}
		case pyrt.ParamVarPos:
			varargs = name
		case pyrt.ParamKwOnly:
			kwonly = append(kwonly, name)
			if p.dflt != sig.ic.empty {
				_ = kwdefaults.SetKey(name, p.dflt)
			}
		case pyrt.ParamVarKw:
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
	cls, err := r.Namedtuple(thread, pyrt.Builtin("namedtuple", nil), starlark.Tuple{starlark.String("FullArgSpec"), fv}, nil)
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, cls, starlark.Tuple{starlark.NewList(posArgs), varargs, varkw, dflt, starlark.NewList(kwonly), kwd, annots}, nil)
}
