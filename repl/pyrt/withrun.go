// __py_withrun: a with statement inside a function, run with Python's
// rules over the block function the pre-pass made of it
// (rewrite/prepass_withdef.go).

package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"
)

// withRun is __py_withrun(with, body): with is __py_with's value, the
// managers entered; body is the block's function, called with their
// values (one, or a tuple of them). The managers then exit as at the top
// level (driver.go's with): innermost first, the block's exception
// reaching each that takes it (a class's __exit__, a @contextmanager
// generator, suppress), and one that swallows it ends it. It returns the
// block's signal (a return, break or continue), or no signal when the
// exception was swallowed. A stop (Esc, the memory limit) still exits
// the managers, as after a clean block, and goes on.
func (r *Interp) withRun(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("internal error: __py_withrun takes 2 arguments")
	}
	w, ok := args[0].(*withValue)
	if !ok {
		return nil, fmt.Errorf("internal error: with over %s", args[0].Type())
	}
	var v starlark.Value = starlark.Tuple(w.values)
	if len(w.values) == 1 {
		v = w.values[0]
	}
	res, err := starlark.Call(thread, args[1], starlark.Tuple{v}, nil)
	switch err = r.IterError(err); {
	case err == nil || r.Catchable(err):
		err = r.exitWithError(w, err)
	default:
		for i := len(w.managers) - 1; i >= 0; i-- {
			_ = w.managers[i].Exit()
		}
		w.managers = nil
	}
	if err != nil {
		return nil, err
	}
	return signalOf(res), nil
}
