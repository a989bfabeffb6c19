// An element's error met while Starlark iterates a lazy iterator: the
// loop is stopped, then the error takes the stop's place.

package pyrt

import (
	"errors"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// A Starlark for loop (and any builtin iterating with Iterate) cannot
// fail from inside an iterator, so pyIter.fail cancels the thread with
// iterCancel and keeps the error in the interpreter. Where errors are
// looked at (try and except, try_call, the call's result), iterError
// lifts the cancel and gives the element's error, with the frames of the
// loop: except ValueError catches a generator's ValueError raised
// during for x in gen().

const iterCancel = "an iterated element failed"

// iterFailure is the error of an element, stack the frames down to the
// loop that iterated it.
type IterFailure struct {
	stack starlark.CallStack
	err   error
}

func (f *IterFailure) Error() string { return ErrorMessage(f.err) }
func (f *IterFailure) Unwrap() error { return f.err }

// text is the traceback: the loop's frames, then the element's own (a
// generator's body) when it has them.
func (f *IterFailure) Text(pos func(syntax.Position) syntax.Position) string {
	frames := f.stack
	msg := ErrorMessage(f.err)
	var ee *starlark.EvalError
	if errors.As(f.err, &ee) {
		frames = ee.CallStack // on the loop's thread (a lazy map's function), it holds the loop's frames
		if !hasPrefix(ee.CallStack, f.stack) {
			frames = append(append(starlark.CallStack(nil), f.stack...), ee.CallStack...) // a generator's body
		}
		msg = ee.Msg
	}
	return BacktraceOf(frames, msg, f.err, pos)
}

// iterError returns err, or the element's error when err is the stop
// pyIter.fail caused; the thread it stopped runs again, unless the call
// was stopped meanwhile.
func (r *Interp) IterError(err error) error {
	if r.IterErr == nil || err == nil {
		return err
	}
	var ee *starlark.EvalError
	if !errors.As(err, &ee) || ee.Msg != "Starlark computation cancelled: "+iterCancel {
		return err
	}
	cause, thread := r.IterErr, r.IterThread
	r.IterErr, r.IterThread = nil, nil
	thread.Uncancel()
	if c := r.Host.CurrentCall(); c != nil && c.Stopped() {
		thread.Cancel(c.Reason().String()) // the stop's own cancel found the thread cancelled
		return err
	}
	stack := ee.CallStack
	if n := len(stack); n > 0 && stack[n-1].Pos.Filename() == "<builtin>" {
		stack = stack[:n-1]
	}
	return &IterFailure{stack: stack, err: cause}
}

func hasPrefix(stack, prefix starlark.CallStack) bool {
	if len(prefix) > len(stack) {
		return false
	}
	for i, fr := range prefix {
		if stack[i] != fr {
			return false
		}
	}
	return true
}
