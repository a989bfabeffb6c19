// A generator's send(), throw() and close(), and the attributes of the
// one-pass iterators.

package pyrt

import (
	"go.starlark.net/starlark"
)

var _ starlark.HasAttrs = (*PyIter)(nil)

func (it *PyIter) AttrNames() []string {
	if it.Extra != nil {
		names := []string{"__next__"}
		for k := range it.Extra {
			names = append(names, k)
		}
		return names
	}
	if it.Gen != nil {
		return []string{"__next__", "close", "send", "throw"}
	}
	return []string{"__next__"}
}

func (it *PyIter) Attr(name string) (starlark.Value, error) {
	if v, ok := it.Extra[name]; ok {
		return v, nil
	}
	switch name {
	case "__next__":
		return Builtin("__next__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return it.stepOrStop(it.Step())
		}), nil
	case "__iter__":
		return Builtin("__iter__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return it, nil
		}), nil
	}
	g := it.Gen
	if g == nil {
		return nil, nil
	}
	switch name {
	case "send":
		return Builtin("send", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("send", args, kw, 1, &v); err != nil {
				return nil, err
			}
			if g.state == genNew && v != starlark.None {
				return nil, PyErrorf(ExcTypeError, "can't send non-None value to a just-started generator")
			}
			return it.stepOrStop(g.Step(GenResume{v: v}))
		}), nil
	case "throw":
		return Builtin("throw", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 || len(args) > 3 || len(kw) > 0 {
				return nil, PyErrorf(ExcTypeError, "throw expected at least 1 argument, got 0")
			}
			exc, err := thrownException(thread, args)
			if err != nil {
				return nil, err
			}
			if g.state == genNew || g.state == genDone {
				g.state = genDone
				it.done = true
				return nil, exc
			}
			return it.stepOrStop(g.Step(GenResume{Exc: exc}))
		}), nil
	case "close":
		return Builtin("close", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, it.closeGen()
		}), nil
	case "gi_running":
		return starlark.Bool(g.state == genRunning), nil
	}
	return nil, nil
}

// stepOrStop is a step's result as __next__ and send return it: the value,
// or StopIteration at the end.
func (it *PyIter) stepOrStop(v starlark.Value, ok bool, err error) (starlark.Value, error) {
	if err != nil || !ok {
		it.done = true
		if err == nil {
			exc := &PyException{Typ: excStopIteration}
			if it.Gen != nil && it.Gen.ret != nil && it.Gen.ret != starlark.None {
				exc.Args = starlark.Tuple{it.Gen.ret}
			}
			err = &PyError{exc}
		}
		return nil, err
	}
	return v, nil
}

// closeGen is generator.close(): GeneratorExit thrown in at the yield
// where the body waits; the body must end, not yield again.
func (it *PyIter) closeGen() error {
	g := it.Gen
	switch g.state {
	case genNew, genDone, genClosed:
		if g.state == genNew {
			g.state = genDone
		}
		it.done = true
		return nil
	}
	exit := &PyError{&PyException{Typ: excGeneratorExit}}
	_, ok, err := g.Step(GenResume{Exc: exit})
	if ok {
		return PyErrorf(ExcRuntime, "generator ignored GeneratorExit")
	}
	it.done = true
	if err == nil {
		return nil
	}
	if t := g.r.ExceptionOf(err).Typ; t.IsSubclass(excGeneratorExit) || t.IsSubclass(excStopIteration) {
		return nil
	}
	return err
}

// thrownException is the exception gen.throw(typ[, value]) throws.
func thrownException(thread *starlark.Thread, args starlark.Tuple) (error, error) {
	switch x := args[0].(type) {
	case *PyException:
		return &PyError{x}, nil
	case *ExcType:
		var cargs starlark.Tuple
		if len(args) > 1 && args[1] != starlark.None {
			if e, ok := args[1].(*PyException); ok {
				return &PyError{e}, nil
			}
			cargs = starlark.Tuple{args[1]}
		}
		v, err := x.CallInternal(thread, cargs, nil)
		if err != nil {
			return nil, err
		}
		return &PyError{v.(*PyException)}, nil
	}
	return nil, PyErrorf(ExcTypeError, "exceptions must be classes or instances deriving from BaseException, not %s", PyTypeName(args[0]))
}
