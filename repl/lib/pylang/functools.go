// functools and operator.

package pylang

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

func functoolsModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("functools", starlark.StringDict{
		"reduce":          pyrt.Builtin("functools.reduce", ftReduce),
		"partial":         pyrt.Builtin("functools.partial", ftPartial),
		"lru_cache":       pyrt.Builtin("functools.lru_cache", ftCache(true)),
		"cache":           pyrt.Builtin("functools.cache", ftCache(false)),
		"cmp_to_key":      pyrt.Builtin("functools.cmp_to_key", ftCmpToKey),
		"wraps":           pyrt.Builtin("functools.wraps", ftWraps),
		"update_wrapper":  pyrt.Builtin("functools.update_wrapper", ftUpdateWrapper),
		"total_ordering":  pyrt.Builtin("functools.total_ordering", ftTotalOrdering),
		"cached_property": pyrt.Builtin("functools.cached_property", ftCachedProperty),
		"singledispatch": pyrt.Builtin("functools.singledispatch", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return ftSingledispatch(r, p0, p1, p2, p3)
		}),
	})
}

func ftReduce(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fn, it, acc starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &fn, &it, &acc); err != nil {
		return nil, err
	}
	err := pyrt.Iterate(it, func(v starlark.Value) (bool, error) {
		if acc == nil {
			acc = v
			return true, nil
		}
		x, err := starlark.Call(thread, fn, starlark.Tuple{acc, v}, nil)
		acc = x
		return err == nil, err
	})
	if err != nil {
		return nil, err
	}
	if acc == nil {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "reduce() of empty iterable with no initial value")
	}
	return acc, nil
}

// partial is functools.partial: a callable with arguments bound.
type partial struct {
	fn   starlark.Value
	args starlark.Tuple
	kw   []starlark.Tuple
}

func ftPartial(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "partial() missing the function")
	}
	if _, ok := args[0].(starlark.Callable); !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "the first argument must be callable")
	}
	return &partial{fn: args[0], args: append(starlark.Tuple(nil), args[1:]...), kw: kw}, nil
}

func (p *partial) String() string { return p.ReprPy() }
func (p *partial) ReprPy() string {
	parts := []string{pyrt.PyRepr(p.fn)}
	for _, a := range p.args {
		parts = append(parts, pyrt.PyRepr(a))
	}
	for _, kv := range p.kw {
		parts = append(parts, pyrt.PyStr(kv[0])+"="+pyrt.PyRepr(kv[1]))
	}
	return "functools.partial(" + strings.Join(parts, ", ") + ")"
}
func (p *partial) Type() string          { return "functools.partial" }
func (p *partial) Freeze()               {}
func (p *partial) Truth() starlark.Bool  { return true }
func (p *partial) Hash() (uint32, error) { return 0, nil }
func (p *partial) Name() string          { return "partial" }
func (p *partial) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	all := append(append(starlark.Tuple(nil), p.args...), args...)
	kws := append([]starlark.Tuple(nil), p.kw...)
	for _, kv := range kw {
		replaced := false
		for i, old := range kws {
			if old[0] == kv[0] {
				kws[i], replaced = kv, true
			}
		}
		if !replaced {
			kws = append(kws, kv)
		}
	}
	return starlark.Call(thread, p.fn, all, kws)
}
func (p *partial) AttrNames() []string { return []string{"args", "func", "keywords"} }
func (p *partial) Attr(name string) (starlark.Value, error) {
	switch name {
	case "func":
		return p.fn, nil
	case "args":
		return p.args, nil
	case "keywords":
		d := starlark.NewDict(len(p.kw))
		for _, kv := range p.kw {
			_ = d.SetKey(kv[0], kv[1])
		}
		return d, nil
	}
	return nil, nil
}

// cmpKey wraps a value so that sorting compares it with a cmp function.
type cmpKey struct {
	v      starlark.Value
	cmp    starlark.Value
	thread *starlark.Thread
}

func ftCmpToKey(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var cmp starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &cmp); err != nil {
		return nil, err
	}
	return pyrt.Builtin("cmp_to_key", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "the key function takes one argument")
		}
		return &cmpKey{v: args[0], cmp: cmp, thread: thread}, nil
	}), nil
}

func (k *cmpKey) String() string       { return "<functools.KeyWrapper>" }
func (k *cmpKey) Type() string         { return "functools.KeyWrapper" }
func (k *cmpKey) Freeze()              {}
func (k *cmpKey) Truth() starlark.Bool { return true }
func (k *cmpKey) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'functools.KeyWrapper'")
}
func (k *cmpKey) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	res, err := starlark.Call(k.thread, k.cmp, starlark.Tuple{k.v, y.(*cmpKey).v}, nil)
	if err != nil {
		return false, err
	}
	return starlark.Compare(op, res, starlark.MakeInt(0))
}

func operatorModule(r *pyrt.Interp) starlark.Value {
	bin := func(name string, op syntax.Token) *starlark.Builtin {
		return pyrt.Builtin("operator."+name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &x, &y); err != nil {
				return nil, err
			}
			switch op {
			case syntax.STARSTAR:
				return r.PyPow(x, y)
			case syntax.PERCENT:
				return pyrt.PercentOp(thread, x, y)
			case syntax.EQL, syntax.NEQ, syntax.LT, syntax.LE, syntax.GT, syntax.GE:
				ok, err := starlark.Compare(op, x, y)
				return starlark.Bool(ok), err
			}
			return starlark.Binary(op, x, y)
		})
	}
	m := starlark.StringDict{
		"add": bin("add", syntax.PLUS), "sub": bin("sub", syntax.MINUS), "mul": bin("mul", syntax.STAR),
		"truediv": bin("truediv", syntax.SLASH), "floordiv": bin("floordiv", syntax.SLASHSLASH), "mod": bin("mod", syntax.PERCENT),
		"pow": bin("pow", syntax.STARSTAR), "and_": bin("and_", syntax.AMP), "or_": bin("or_", syntax.PIPE), "xor": bin("xor", syntax.CIRCUMFLEX),
		"lshift": bin("lshift", syntax.LTLT), "rshift": bin("rshift", syntax.GTGT), "concat": bin("concat", syntax.PLUS),
		"eq": bin("eq", syntax.EQL), "ne": bin("ne", syntax.NEQ), "lt": bin("lt", syntax.LT), "le": bin("le", syntax.LE),
		"gt": bin("gt", syntax.GT), "ge": bin("ge", syntax.GE),
		"contains": pyrt.Builtin("operator.contains", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &x, &y); err != nil {
				return nil, err
			}
			return starlark.Binary(syntax.IN, y, x)
		}),
		"getitem": pyrt.Builtin("operator.getitem", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &x, &y); err != nil {
				return nil, err
			}
			return pyrt.PyIndex(x, y)
		}),
		"not_":  pyrt.Builtin("operator.not_", pyrt.Unary(func(v starlark.Value) (starlark.Value, error) { return !v.Truth(), nil })),
		"truth": pyrt.Builtin("operator.truth", pyrt.Unary(func(v starlark.Value) (starlark.Value, error) { return v.Truth(), nil })),
		"neg":   pyrt.Builtin("operator.neg", pyrt.Unary(func(v starlark.Value) (starlark.Value, error) { return starlark.Unary(syntax.MINUS, v) })),
		"is_": pyrt.Builtin("operator.is_", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(len(args) == 2 && pyrt.Identical(args[0], args[1])), nil
		}),
		"itemgetter":   pyrt.Builtin("operator.itemgetter", getter(false)),
		"attrgetter":   pyrt.Builtin("operator.attrgetter", getter(true)),
		"methodcaller": pyrt.Builtin("operator.methodcaller", methodcaller),
	}
	operatorMore(r, m)
	return pyrt.NewModule("operator", m)
}

// getter returns itemgetter or attrgetter: one key gives the value, more
// give a tuple.
func getter(attr bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, keys starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(keys) == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "expected at least 1 argument")
		}
		get := func(v, k starlark.Value) (starlark.Value, error) {
			if !attr {
				return pyrt.PyIndex(v, k)
			}
			for _, part := range strings.Split(pyrt.PyStr(k), ".") {
				x, err := pyrt.GetAttr(v, part)
				if err != nil {
					return nil, err
				}
				v = x
			}
			return v, nil
		}
		return pyrt.Builtin("getter", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "the getter takes one argument")
			}
			if len(keys) == 1 {
				return get(args[0], keys[0])
			}
			out := make(starlark.Tuple, len(keys))
			for i, k := range keys {
				v, err := get(args[0], k)
				if err != nil {
					return nil, err
				}
				out[i] = v
			}
			return out, nil
		}), nil
	}
}

func methodcaller(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "methodcaller needs a method name")
	}
	name := pyrt.PyStr(args[0])
	bound := args[1:]
	return pyrt.Builtin("methodcaller", func(thread *starlark.Thread, _ *starlark.Builtin, a starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(a) != 1 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "methodcaller takes one argument")
		}
		return pyrt.CallMethod(thread, a[0], name, bound, kw)
	}), nil
}
