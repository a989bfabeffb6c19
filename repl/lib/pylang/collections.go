// collections: Counter, defaultdict, OrderedDict, namedtuple, deque.

package pylang

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func collectionsModule(r *pyrt.Interp) starlark.Value {
	dict := r.Types["dict"]
	counter := &pyrt.PyType{TypeName: "Counter", Module: "collections", Base: dict}
	counter.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		c := &pyrt.DictLike{D: starlark.NewDict(0), Cls: counter, Kind: pyrt.KindCounter}
		if len(args) > 1 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Counter expected at most 1 argument, got %d", len(args))
		}
		return c, c.Count(args, kw, 1)
	}
	defaultdict := &pyrt.PyType{TypeName: "defaultdict", Module: "collections", Base: dict}
	defaultdict.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		d := &pyrt.DictLike{D: starlark.NewDict(0), Cls: defaultdict, Kind: pyrt.KindDefault, Factory: starlark.None, Thread: thread}
		if len(args) > 0 {
			if _, ok := args[0].(starlark.Callable); !ok && args[0] != starlark.None {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "first argument must be callable or None")
			}
			d.Factory, args = args[0], args[1:]
		}
		return d, d.Update(args, kw)
	}
	ordered := &pyrt.PyType{TypeName: "OrderedDict", Module: "collections", Base: dict}
	ordered.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		d := &pyrt.DictLike{D: starlark.NewDict(0), Cls: ordered, Kind: pyrt.KindOrdered}
		return d, d.Update(args, kw)
	}
	fromkeys := func(t *pyrt.PyType, kind int) *starlark.Builtin {
		return pyrt.Builtin(t.TypeName+".fromkeys", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			d, err := pyrt.DictFromkeys(thread, b, args, kw)
			if err != nil {
				return nil, err
			}
			return &pyrt.DictLike{D: d.(*starlark.Dict), Cls: t, Kind: kind, Factory: starlark.None, Thread: thread}, nil
		})
	}
	ordered.Attrs = starlark.StringDict{"fromkeys": fromkeys(ordered, pyrt.KindOrdered)}
	defaultdict.Attrs = starlark.StringDict{"fromkeys": fromkeys(defaultdict, pyrt.KindDefault)}
	for _, t := range []*pyrt.PyType{counter, defaultdict, ordered} {
		r.Types[t.TypeName] = t
	}
	return pyrt.NewModule("collections", starlark.StringDict{
		"Counter": counter, "defaultdict": defaultdict, "OrderedDict": ordered,
		"namedtuple": pyrt.Builtin("collections.namedtuple", r.Namedtuple),
		"deque":      dequeType(r),
		"ChainMap":   chainMapType(r),
	})
}

var (
	_ starlark.IterableMapping = (*pyrt.DictLike)(nil)
	_ starlark.HasSetKey       = (*pyrt.DictLike)(nil)
	_ starlark.Container       = (*pyrt.DictLike)(nil)
	_ starlark.HasBinary       = (*pyrt.DictLike)(nil)
	_ starlark.HasUnary        = (*pyrt.DictLike)(nil)
	_ starlark.Comparable      = (*pyrt.DictLike)(nil)
)
