// Function introspection: __annotations__, __defaults__, __kwdefaults__
// and __code__ of functions defined in the REPL, the numbers' real, imag,
// numerator and denominator, and getattr/hasattr over them.

package pyrt

import (
	"go.starlark.net/starlark"
)

// fnAnnots are a function's annotations, evaluated when the def ran; err
// is the error evaluating them raised, raised again when they are read.
type fnAnnots struct {
	dict *starlark.Dict
	err  error
}

// pyAnnotate is __py_annotate(f, lambda: [("x", int), ...]), which the
// pre-pass writes after a def with annotations.
func (r *Interp) pyAnnotate(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if r.annots == nil {
		r.annots = map[starlark.Value]*fnAnnots{}
	}
	a := &fnAnnots{dict: starlark.NewDict(0)}
	r.annots[args[0]] = a
	v, err := starlark.Call(thread, args[1], nil, nil)
	if err != nil {
		if !r.Catchable(err) {
			return nil, err
		}
		a.err = err
		return starlark.None, nil
	}
	l := v.(*starlark.List)
	for i := 0; i < l.Len(); i++ {
		kv := l.Index(i).(starlark.Tuple)
		_ = a.dict.SetKey(kv[0], kv[1])
	}
	return starlark.None, nil
}

// pyFunction returns the Starlark function behind f (a generator
// function's body), or nil.
func PyFunction(f starlark.Value) *starlark.Function {
	if m, ok := f.(*BoundMethod); ok {
		f = m.Fn
	}
	if g, ok := f.(*GenFunc); ok {
		f = g.fn
	}
	fn, _ := f.(*starlark.Function)
	return fn
}

// annotations returns f.__annotations__, the same dict each time.
func (r *Interp) Annotations(f starlark.Value) (*starlark.Dict, error) {
	if m, ok := f.(*BoundMethod); ok {
		f = m.Fn
	}
	if g, ok := f.(*GenFunc); ok {
		f = g.fn
	}
	a := r.annots[f]
	if a == nil {
		if r.annots == nil {
			r.annots = map[starlark.Value]*fnAnnots{}
		}
		a = &fnAnnots{dict: starlark.NewDict(0)}
		r.annots[f] = a
	}
	return a.dict, a.err
}

// funcAttr answers the introspection attributes of a function defined in
// the REPL; ok is false when name is not one of them.
func (r *Interp) funcAttr(f starlark.Value, name string) (starlark.Value, bool, error) {
	fn := PyFunction(f)
	if fn == nil {
		return nil, false, nil
	}
	switch name {
	case "__annotations__":
		d, err := r.Annotations(f)
		return d, true, err
	case "__defaults__":
		var out starlark.Tuple
		for _, p := range FuncParams(fn) {
			if p.Kind <= ParamPosOrKw && p.Dflt != nil {
				out = append(out, p.Dflt)
			}
		}
		if out == nil {
			return starlark.None, true, nil
		}
		return out, true, nil
	case "__kwdefaults__":
		d := starlark.NewDict(0)
		for _, p := range FuncParams(fn) {
			if p.Kind == ParamKwOnly && p.Dflt != nil {
				_ = d.SetKey(starlark.String(p.Name), p.Dflt)
			}
		}
		if d.Len() == 0 {
			return starlark.None, true, nil
		}
		return d, true, nil
	case "__code__":
		return &codeObject{fn: fn}, true, nil
	case "__dict__":
		if d := r.funcDict(f, true); d != nil {
			return d, true, nil
		}
	}
	return nil, false, nil
}

// The kinds of parameters, in inspect's order.
const (
	paramPosOnly = iota
	ParamPosOrKw
	ParamVarPos
	ParamKwOnly
	ParamVarKw
)

var ParamKindNames = []string{"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL", "KEYWORD_ONLY", "VAR_KEYWORD"}

// funcParam is one parameter of a function; dflt is nil when it has no
// default.
type funcParam struct {
	Name string
	Kind int
	Dflt starlark.Value
}

// funcParams lists fn's parameters in Python's order: the positional
// ones, *args, the keyword-only ones, **kwargs. (The pre-pass drops the
// positional-only marker /, so there are none.)
func FuncParams(fn *starlark.Function) []funcParam {
	n, kwonly := fn.NumParams(), fn.NumKwonlyParams()
	named := n
	if fn.HasVarargs() {
		named--
	}
	if fn.HasKwargs() {
		named--
	}
	var out []funcParam
	for i := 0; i < named; i++ {
		name, _ := fn.Param(i)
		kind := ParamPosOrKw
		if i >= named-kwonly {
			kind = ParamKwOnly
		}
		out = append(out, funcParam{Name: name, Kind: kind, Dflt: fn.ParamDefault(i)})
	}
	if fn.HasVarargs() {
		name, _ := fn.Param(named)
		p := funcParam{Name: name, Kind: ParamVarPos}
		out = append(out[:named-kwonly], append([]funcParam{p}, out[named-kwonly:]...)...)
	}
	if fn.HasKwargs() {
		name, _ := fn.Param(n - 1)
		out = append(out, funcParam{Name: name, Kind: ParamVarKw})
	}
	return out
}

// codeObject is f.__code__, with the co_ attributes about parameters.
type codeObject struct{ fn *starlark.Function }

func (c *codeObject) String() string {
	pos := c.fn.Position()
	return "<code object " + c.fn.Name() + ", file \"<stdin>\", line " + Itoa(int(pos.Line)) + ">"
}
func (c *codeObject) Type() string          { return "code" }
func (c *codeObject) Freeze()               {}
func (c *codeObject) Truth() starlark.Bool  { return true }
func (c *codeObject) Hash() (uint32, error) { return 0, nil }
func (c *codeObject) AttrNames() []string {
	return []string{"co_argcount", "co_filename", "co_firstlineno", "co_kwonlyargcount", "co_name", "co_posonlyargcount", "co_qualname", "co_varnames"}
}
func (c *codeObject) Attr(name string) (starlark.Value, error) {
	params := FuncParams(c.fn)
	count := func(kind int) starlark.Value {
		n := 0
		for _, p := range params {
			if p.Kind == kind {
				n++
			}
		}
		return starlark.MakeInt(n)
	}
	switch name {
	case "co_argcount":
		return count(ParamPosOrKw), nil
	case "co_kwonlyargcount":
		return count(ParamKwOnly), nil
	case "co_posonlyargcount":
		return starlark.MakeInt(0), nil
	case "co_name", "co_qualname":
		return starlark.String(c.fn.Name()), nil
	case "co_filename":
		return starlark.String("<stdin>"), nil
	case "co_firstlineno":
		return starlark.MakeInt(int(c.fn.Position().Line)), nil
	case "co_varnames":
		var out starlark.Tuple // Starlark's order is Python's: *args and **kwargs last
		for i := 0; i < c.fn.NumParams(); i++ {
			name, _ := c.fn.Param(i)
			out = append(out, starlark.String(name))
		}
		return out, nil
	}
	return nil, nil
}

// numberAttr answers real, imag, numerator and denominator of int, bool
// and float; ok is false for other values and names.
func numberAttr(x starlark.Value, name string) (starlark.Value, bool) {
	switch v := x.(type) {
	case starlark.Bool:
		return numberAttr(starlark.MakeInt(B2i(bool(v))), name)
	case starlark.Int:
		switch name {
		case "real", "numerator":
			return v, true
		case "imag":
			return starlark.MakeInt(0), true
		case "denominator":
			return starlark.MakeInt(1), true
		}
	case starlark.Float:
		switch name {
		case "real":
			return v, true
		case "imag":
			return starlark.Float(0), true
		}
	}
	return nil, false
}

// pyGetattr is getattr(x, name[, default]) over every attribute the REPL
// gives values, the default answering an AttributeError.
func (r *Interp) pyGetattr(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x, dflt starlark.Value
	var name string
	if err := starlark.UnpackPositionalArgs("getattr", args, kw, 2, &x, &name, &dflt); err != nil {
		return nil, err
	}
	v, err := r.DunderAttr(x, name)
	if err != nil && dflt != nil && r.Catchable(err) && r.ExceptionOf(err).Typ.IsSubclass(ExcAttribute) {
		return dflt, nil
	}
	return v, err
}

// pyHasattr is hasattr(x, name): whether getattr raises AttributeError.
func (r *Interp) pyHasattr(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	var name string
	if err := starlark.UnpackPositionalArgs("hasattr", args, kw, 2, &x, &name); err != nil {
		return nil, err
	}
	_, err := r.DunderAttr(x, name)
	if err != nil && r.Catchable(err) && r.ExceptionOf(err).Typ.IsSubclass(ExcAttribute) {
		return starlark.False, nil
	}
	return starlark.Bool(err == nil), err
}
