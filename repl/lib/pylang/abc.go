// abc: ABC and abstractmethod for class hierarchies defined in the REPL.

package pylang

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var _ starlark.Callable = (*pyrt.AbstractMethod)(nil)

func abcModule(r *pyrt.Interp) starlark.Value {
	abc := abcClass(r)
	return pyrt.NewModule("abc", starlark.StringDict{
		"ABC": abc,
		"abstractmethod": pyrt.Builtin("abstractmethod", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			if err := starlark.UnpackPositionalArgs("abstractmethod", args, kw, 1, &f); err != nil {
				return nil, err
			}
			return &pyrt.AbstractMethod{Fn: f}, nil
		}),
	})
}

// abcClass is abc.ABC, made once per interpreter.
func abcClass(r *pyrt.Interp) *pyrt.PyType {
	if t, ok := r.Types["abc.ABC"]; ok {
		return t
	}
	t := &pyrt.PyType{TypeName: "ABC", Module: "abc", Base: r.Types["object"], User: &pyrt.UserClass{R: r, Dict: map[string]starlark.Value{}}}
	t.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return t.Construct(thread, args, kw)
	}
	r.Types["abc.ABC"] = t
	return t
}
