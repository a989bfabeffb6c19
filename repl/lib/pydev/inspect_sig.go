// inspect's Signature, Parameter and BoundArguments over the functions
// defined in the REPL.

package pydev

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

// inspectClasses are the inspect module's classes, made once per
// interpreter.
type inspectClasses struct {
	empty, parameter, signature, bound, kindCls *pyrt.PyType
	kinds                                       [5]*paramKind
}

// paramKind is a member of inspect._ParameterKind.
type paramKind struct {
	cls  *pyrt.PyType
	v    int
	name string
}

var paramKindDescriptions = []string{"positional-only", "positional or keyword", "variadic positional", "keyword-only", "variadic keyword"}

func (k *paramKind) PyClass() *pyrt.PyType { return k.cls }
func (k *paramKind) String() string        { return k.name }
func (k *paramKind) StrPy() string         { return k.name }
func (k *paramKind) ReprPy() string        { return "<_ParameterKind." + k.name + ": " + pyrt.Itoa(k.v) + ">" }
func (k *paramKind) Type() string          { return "_ParameterKind" }
func (k *paramKind) Freeze()               {}
func (k *paramKind) Truth() starlark.Bool  { return k.v != 0 }
func (k *paramKind) Hash() (uint32, error) { return uint32(k.v), nil }
func (k *paramKind) AttrNames() []string   { return []string{"description", "name", "value"} }
func (k *paramKind) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(k.name), nil
	case "value":
		return starlark.MakeInt(k.v), nil
	case "description":
		return starlark.String(paramKindDescriptions[k.v]), nil
	}
	return nil, nil
}
func (k *paramKind) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, starlark.MakeInt(k.v), starlark.MakeInt(y.(*paramKind).v), depth)
}

func inspectTypes(r *pyrt.Interp) *inspectClasses {
	if ic, ok := r.ModState["inspect"].(*inspectClasses); ok {
		return ic
	}
	obj := r.Types["object"]
	ic := &inspectClasses{
		empty:     &pyrt.PyType{TypeName: "_empty", Module: "inspect", Base: obj},
		parameter: &pyrt.PyType{TypeName: "Parameter", Module: "inspect", Base: obj},
		signature: &pyrt.PyType{TypeName: "Signature", Module: "inspect", Base: obj},
		bound:     &pyrt.PyType{TypeName: "BoundArguments", Module: "inspect", Base: obj},
		kindCls:   &pyrt.PyType{TypeName: "_ParameterKind", Module: "inspect", Base: obj},
	}
	ic.parameter.Attrs = starlark.StringDict{"empty": ic.empty}
	for i, n := range pyrt.ParamKindNames {
		ic.kinds[i] = &paramKind{cls: ic.kindCls, v: i, name: n}
		ic.parameter.Attrs[n] = ic.kinds[i]
	}
	ic.signature.Attrs = starlark.StringDict{"empty": ic.empty}
	ic.parameter.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		p := &inspectParam{ic: ic, dflt: ic.empty, annot: ic.empty}
		var kind starlark.Value
		if err := pyrt.UnpackArgs("Parameter", args, kw, "name", &p.name, "kind", &kind, "default?", &p.dflt, "annotation?", &p.annot); err != nil {
			return nil, err
		}
		k, ok := kind.(*paramKind)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "value %s is not a valid Parameter.kind", pyrt.PyRepr(kind))
		}
		p.kind = k.v
		return p, nil
	}
	ic.signature.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var params starlark.Value = starlark.Tuple{}
		var ret starlark.Value = ic.empty
		if err := pyrt.UnpackArgs("Signature", args, kw, "parameters?", &params, "return_annotation?", &ret); err != nil {
			return nil, err
		}
		return newSignature(ic, params, ret)
	}
	if r.ModState == nil {
		r.ModState = map[string]any{}
	}
	r.ModState["inspect"] = ic
	return ic
}

// newSignature is Signature(parameters, return_annotation=...).
func newSignature(ic *inspectClasses, params, ret starlark.Value) (*inspectSig, error) {
	vals, err := pyrt.ListOf(params)
	if err != nil {
		return nil, err
	}
	s := &inspectSig{ic: ic, ret: ret}
	for _, v := range vals {
		p, ok := v.(*inspectParam)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Signature() takes Parameter objects, not %s", pyrt.PyTypeName(v))
		}
		s.params = append(s.params, p)
	}
	return s, nil
}

// signatureOf is inspect.signature(f).
func signatureOf(r *pyrt.Interp, f starlark.Value) (*inspectSig, error) {
	ic := inspectTypes(r)
	drop := 0
	target := f
	switch x := f.(type) {
	case *pyrt.BoundMethod:
		target, drop = x.Fn, 1
	case *pyrt.PyType:
		if x.User == nil {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "no signature found for builtin type %s (the REPL knows the signatures of the functions and classes defined in it)", pyrt.PyRepr(x))
		}
		init, _ := pyrt.ClassLookup(x, "__init__")
		if init == nil {
			return &inspectSig{ic: ic, ret: ic.empty}, nil
		}
		target, drop = init, 1
	}
	fn := pyrt.PyFunction(target)
	if fn == nil {
		if _, ok := f.(starlark.Callable); ok {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "no signature found for %s (the REPL knows the signatures of the functions and classes defined in it)", pyrt.PyRepr(f))
		}
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s is not a callable object", pyrt.PyRepr(f))
	}
	annots, err := r.Annotations(target)
	if err != nil {
		return nil, err
	}
	get := func(name string) starlark.Value {
		if v, found, _ := annots.Get(starlark.String(name)); found {
			return v
		}
		return ic.empty
	}
	s := &inspectSig{ic: ic, ret: get("return")}
	for i, p := range pyrt.FuncParams(fn) {
		if i < drop && p.Kind <= pyrt.ParamPosOrKw {
			continue
		}
		ip := &inspectParam{ic: ic, name: p.Name, kind: p.Kind, dflt: p.Dflt, annot: get(p.Name)}
		if ip.dflt == nil {
			ip.dflt = ic.empty
		}
		s.params = append(s.params, ip)
	}
	return s, nil
}

// inspectParam is an inspect.Parameter.
type inspectParam struct {
	ic          *inspectClasses
	name        string
	kind        int
	dflt, annot starlark.Value
}

func (p *inspectParam) PyClass() *pyrt.PyType { return p.ic.parameter }
func (p *inspectParam) String() string        { return p.StrPy() }
func (p *inspectParam) ReprPy() string        { return "<Parameter \"" + p.StrPy() + "\">" }
func (p *inspectParam) StrPy() string {
	s := p.name
	if p.annot != p.ic.empty {
		s += ": " + formatAnnotation(p.annot)
	}
	if p.dflt != p.ic.empty {
		if p.annot != p.ic.empty {
			s += " = " + pyrt.PyRepr(p.dflt)
		} else {
			s += "=" + pyrt.PyRepr(p.dflt)
		}
	}
	switch p.kind {
	case pyrt.ParamVarPos:
		s = "*" + s
	case pyrt.ParamVarKw:
		s = "**" + s
	}
	return s
}
func (p *inspectParam) Type() string          { return "Parameter" }
func (p *inspectParam) Freeze()               {}
func (p *inspectParam) Truth() starlark.Bool  { return true }
func (p *inspectParam) Hash() (uint32, error) { return starlark.String(p.name).Hash() }
func (p *inspectParam) AttrNames() []string {
	return []string{"annotation", "default", "empty", "kind", "name", "replace"}
}
func (p *inspectParam) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(p.name), nil
	case "kind":
		return p.ic.kinds[p.kind], nil
	case "default":
		return p.dflt, nil
	case "annotation":
		return p.annot, nil
	case "empty":
		return p.ic.empty, nil
	case "replace":
		return pyrt.Builtin("Parameter.replace", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			q := *p
			var kind starlark.Value = p.ic.kinds[p.kind]
			if err := pyrt.UnpackArgs("replace", args, kw, "name?", &q.name, "kind?", &kind, "default?", &q.dflt, "annotation?", &q.annot); err != nil {
				return nil, err
			}
			k, ok := kind.(*paramKind)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "value %s is not a valid Parameter.kind", pyrt.PyRepr(kind))
			}
			q.kind = k.v
			return &q, nil
		}), nil
	}
	return nil, nil
}

// formatAnnotation is inspect.formatannotation: typing's names without
// "typing.", classes by name (with their module unless builtins).
func formatAnnotation(a starlark.Value) string {
	switch x := a.(type) {
	case *pyrt.TypingAlias:
		return strings.ReplaceAll(x.String(), "typing.", "")
	case *pyrt.PyType, *pyrt.ExcType:
		return pyrt.TypeRepr(x, false)
	}
	return pyrt.PyRepr(a)
}

// inspectSig is an inspect.Signature.
type inspectSig struct {
	ic     *inspectClasses
	params []*inspectParam
	ret    starlark.Value
}

func (s *inspectSig) PyClass() *pyrt.PyType { return s.ic.signature }
func (s *inspectSig) String() string        { return s.StrPy() }
func (s *inspectSig) ReprPy() string        { return "<Signature " + s.StrPy() + ">" }
func (s *inspectSig) StrPy() string {
	var parts []string
	kwSep := true
	for _, p := range s.params {
		switch {
		case p.kind == pyrt.ParamVarPos:
			kwSep = false
		case p.kind == pyrt.ParamKwOnly && kwSep:
			parts = append(parts, "*")
			kwSep = false
		}
		parts = append(parts, p.StrPy())
	}
	out := "(" + strings.Join(parts, ", ") + ")"
	if s.ret != s.ic.empty {
		out += " -> " + formatAnnotation(s.ret)
	}
	return out
}
func (s *inspectSig) Type() string          { return "Signature" }
func (s *inspectSig) Freeze()               {}
func (s *inspectSig) Truth() starlark.Bool  { return true }
func (s *inspectSig) Hash() (uint32, error) { return starlark.String(s.StrPy()).Hash() }
func (s *inspectSig) AttrNames() []string {
	return []string{"bind", "bind_partial", "empty", "parameters", "replace", "return_annotation"}
}
func (s *inspectSig) Attr(name string) (starlark.Value, error) {
	switch name {
	case "parameters":
		d := &pyrt.DictLike{D: starlark.NewDict(len(s.params)), Cls: s.ic.orderedDict(), Kind: pyrt.KindOrdered}
		for _, p := range s.params {
			_ = d.D.SetKey(starlark.String(p.name), p)
		}
		d.D.Freeze()
		return &paramsProxy{d}, nil
	case "return_annotation":
		return s.ret, nil
	case "empty":
		return s.ic.empty, nil
	case "bind", "bind_partial":
		partial := name == "bind_partial"
		return pyrt.Builtin("Signature."+name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return s.bind(args, kw, partial)
		}), nil
	case "replace":
		return pyrt.Builtin("Signature.replace", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var params starlark.Value
			ret := s.ret
			if err := pyrt.UnpackArgs("replace", args, kw, "parameters?", &params, "return_annotation?", &ret); err != nil {
				return nil, err
			}
			if params == nil {
				return &inspectSig{ic: s.ic, params: s.params, ret: ret}, nil
			}
			return newSignature(s.ic, params, ret)
		}), nil
	}
	return nil, nil
}

// orderedDict is collections.OrderedDict's class, for parameters' repr.
func (ic *inspectClasses) orderedDict() *pyrt.PyType {
	return &pyrt.PyType{TypeName: "OrderedDict", Module: "collections"}
}

// paramsProxy is Signature.parameters: a read-only OrderedDict, shown as
// mappingproxy(OrderedDict([...])) by repr and as the OrderedDict by str.
type paramsProxy struct{ *pyrt.DictLike }

func (p *paramsProxy) ReprPy() string { return "mappingproxy(" + p.DictLike.ReprPy() + ")" }
func (p *paramsProxy) StrPy() string  { return p.DictLike.ReprPy() }
func (p *paramsProxy) String() string { return p.ReprPy() }
