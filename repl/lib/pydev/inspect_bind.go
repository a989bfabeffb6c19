// inspect: Signature.bind and bind_partial, and BoundArguments.

package pydev

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// bind is Signature.bind(*args, **kwargs) (bind_partial when partial),
// CPython's Signature._bind step by step, with its messages.
func (s *inspectSig) bind(args starlark.Tuple, kw []starlark.Tuple, partial bool) (starlark.Value, error) {
	kwargs := starlark.NewDict(len(kw))
	for _, kv := range kw {
		_ = kwargs.SetKey(kv[0], kv[1])
	}
	has := func(name string) bool {
		_, found, _ := kwargs.Get(starlark.String(name))
		return found
	}
	b := &boundArgs{sig: s, arguments: starlark.NewDict(0)}
	set := func(name string, v starlark.Value) { _ = b.arguments.SetKey(starlark.String(name), v) }
	params := s.params
	i, rest := 0, 0 // the next parameter; where the keyword phase starts
	for ai := 0; ; ai++ {
		if ai >= len(args) {
			if i >= len(params) {
				break
			}
			p := params[i]
			if p.kind == pyrt.ParamVarPos {
				i++
				break
			}
			if !has(p.name) && p.kind != pyrt.ParamVarKw && p.dflt == s.ic.empty && !partial {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "missing a required argument: '%s'", p.name)
			}
			break
		}
		if i >= len(params) || params[i].kind == pyrt.ParamVarKw || params[i].kind == pyrt.ParamKwOnly {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "too many positional arguments")
		}
		p := params[i]
		i++
		if p.kind == pyrt.ParamVarPos {
			set(p.name, append(starlark.Tuple(nil), args[ai:]...))
			break
		}
		if has(p.name) {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "multiple values for argument '%s'", p.name)
		}
		set(p.name, args[ai])
	}
	rest = i
	var kwParam *inspectParam
	for _, p := range params[rest:] {
		switch p.kind {
		case pyrt.ParamVarKw:
			kwParam = p
			continue
		case pyrt.ParamVarPos:
			continue
		}
		v, found, _ := kwargs.Get(starlark.String(p.name))
		if !found {
			if !partial && p.dflt == s.ic.empty {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "missing a required argument: '%s'", p.name)
			}
			continue
		}
		_, _, _ = kwargs.Delete(starlark.String(p.name))
		set(p.name, v)
	}
	if kwargs.Len() > 0 {
		if kwParam == nil {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "got an unexpected keyword argument %s", pyrt.PyRepr(kwargs.Keys()[0]))
		}
		set(kwParam.name, kwargs)
	}
	return b, nil
}

// boundArgs is an inspect.BoundArguments.
type boundArgs struct {
	sig       *inspectSig
	arguments *starlark.Dict
}

var _ starlark.HasSetField = (*boundArgs)(nil)

func (b *boundArgs) PyClass() *pyrt.PyType { return b.sig.ic.bound }
func (b *boundArgs) String() string        { return b.ReprPy() }
func (b *boundArgs) ReprPy() string {
	var parts []string
	for _, kv := range b.arguments.Items() {
		parts = append(parts, pyrt.PyStr(kv[0])+"="+pyrt.PyRepr(kv[1]))
	}
	return "<BoundArguments (" + strings.Join(parts, ", ") + ")>"
}
func (b *boundArgs) Type() string         { return "BoundArguments" }
func (b *boundArgs) Freeze()              {}
func (b *boundArgs) Truth() starlark.Bool { return true }
func (b *boundArgs) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'BoundArguments'")
}
func (b *boundArgs) AttrNames() []string {
	return []string{"apply_defaults", "args", "arguments", "kwargs", "signature"}
}
func (b *boundArgs) SetField(name string, v starlark.Value) error {
	d, ok := v.(*starlark.Dict)
	if name != "arguments" || !ok {
		return pyrt.PyErrorf(pyrt.ExcAttribute, "'BoundArguments' object attribute '%s' cannot be set here", name)
	}
	b.arguments = d
	return nil
}
func (b *boundArgs) Attr(name string) (starlark.Value, error) {
	switch name {
	case "arguments":
		return b.arguments, nil
	case "signature":
		return b.sig, nil
	case "args":
		return b.args(), nil
	case "kwargs":
		return b.kwargs(), nil
	case "apply_defaults":
		return pyrt.Builtin("BoundArguments.apply_defaults", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			b.applyDefaults()
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}

func (b *boundArgs) get(name string) (starlark.Value, bool) {
	v, found, _ := b.arguments.Get(starlark.String(name))
	return v, found
}

func (b *boundArgs) args() starlark.Tuple {
	out := starlark.Tuple{}
	for _, p := range b.sig.params {
		if p.kind == pyrt.ParamVarKw || p.kind == pyrt.ParamKwOnly {
			break
		}
		v, ok := b.get(p.name)
		if !ok {
			break
		}
		if p.kind == pyrt.ParamVarPos {
			vals, _ := pyrt.ListOf(v)
			out = append(out, vals...)
		} else {
			out = append(out, v)
		}
	}
	return out
}

func (b *boundArgs) kwargs() *starlark.Dict {
	out := starlark.NewDict(0)
	started := false
	for _, p := range b.sig.params {
		if !started {
			if p.kind == pyrt.ParamVarKw || p.kind == pyrt.ParamKwOnly {
				started = true
			} else if _, ok := b.get(p.name); !ok {
				started = true
				continue
			}
		}
		if !started {
			continue
		}
		v, ok := b.get(p.name)
		if !ok {
			continue
		}
		if d, isDict := v.(starlark.IterableMapping); isDict && p.kind == pyrt.ParamVarKw {
			for _, kv := range d.Items() {
				_ = out.SetKey(kv[0], kv[1])
			}
		} else {
			_ = out.SetKey(starlark.String(p.name), v)
		}
	}
	return out
}

func (b *boundArgs) applyDefaults() {
	out := starlark.NewDict(0)
	for _, p := range b.sig.params {
		v, ok := b.get(p.name)
		switch {
		case ok:
		case p.dflt != b.sig.ic.empty:
			v = p.dflt
		case p.kind == pyrt.ParamVarPos:
			v = starlark.Tuple{}
		case p.kind == pyrt.ParamVarKw:
			v = starlark.NewDict(0)
		default:
			continue
		}
		_ = out.SetKey(starlark.String(p.name), v)
	}
	b.arguments = out
}
