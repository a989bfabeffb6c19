// __py_withrun: a with statement inside a function, run with Python's
// rules over the functions the pre-pass made of it
// (rewrite/prepass_withdef.go).

package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"
)

// withRun is __py_withrun(body, manager1, binder1, manager2, binder2,
// ...): each manager is a function returning the item's context manager,
// called once the items before it are entered, and its binder (None
// without as) binds the target to what __enter__ returned. Then body, the
// block's function, runs, and the managers entered exit as at the top
// level (driver.go's with): innermost first, the exception that ended the
// block (or an item's evaluation, entry or binding) reaching each that
// takes it (a class's __exit__, a @contextmanager generator, suppress),
// and one that swallows it ends it. It returns the block's signal (a
// return, break or continue), or no signal when the block did not end
// normally and the exception was swallowed. A stop (Esc, the memory
// limit) still exits the managers, as after a clean block, and goes on.
func (r *Interp) withRun(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args)%2 != 1 {
		return nil, fmt.Errorf("internal error: __py_withrun takes a body and (manager, binder) pairs")
	}
	w := &WithValue{thread: thread}
	var res starlark.Value
	err := r.enterItems(thread, w, args[1:])
	if err == nil {
		res, err = starlark.Call(thread, args[0], nil, nil)
	}
	switch err = r.IterError(err); {
	case err == nil || r.Catchable(err):
		err = r.ExitWithError(w, err)
	default:
		for i := len(w.Managers) - 1; i >= 0; i-- {
			_ = w.Managers[i].Exit()
		}
		w.Managers = nil
	}
	if err != nil {
		return nil, err
	}
	return signalOf(res), nil
}

// enterItems evaluates and enters the managers of a with statement's
// items (manager, binder pairs) in turn, adding each to w once entered,
// and binds their targets; it stops at the first error.
func (r *Interp) enterItems(thread *starlark.Thread, w *WithValue, items starlark.Tuple) error {
	for i := 0; i+1 < len(items); i += 2 {
		x, err := starlark.Call(thread, items[i], nil, nil)
		if err != nil {
			return err
		}
		cm, err := ManagerOf(x)
		if err != nil {
			return err
		}
		v, err := cm.Enter()
		if err != nil {
			return err
		}
		w.Managers = append(w.Managers, cm)
		if bind := items[i+1]; bind != starlark.None {
			if _, err := starlark.Call(thread, bind, starlark.Tuple{v}, nil); err != nil {
				return err
			}
		}
	}
	return nil
}
