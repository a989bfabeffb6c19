// Python builtins over iterables: map, filter, min and max, sorted, reversed.

package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// pyMap is map(f, *iterables): eager over sequences, lazy when an
// argument is a one-pass iterator (which may be infinite).
func (r *Interp) pyMap(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(kw) > 0 || len(args) < 2 {
		return nil, PyErrorf(ExcTypeError, "map() must have at least two arguments")
	}
	f := args[0]
	steps := make([]func() (starlark.Value, bool, error), len(args)-1)
	lazy := false
	for i, a := range args[1:] {
		step, err := Stepper(a)
		if err != nil {
			return nil, err
		}
		steps[i] = step
		lazy = lazy || oneShot(a)
	}
	next := func() (starlark.Value, bool, error) {
		call := make(starlark.Tuple, len(steps))
		for i, step := range steps {
			v, ok, err := step()
			if err != nil || !ok {
				return nil, false, err
			}
			call[i] = v
		}
		v, err := starlark.Call(thread, f, call, nil)
		return v, err == nil, err
	}
	return stepIter(thread, "map", lazy, next)
}

// pyFilter is filter(f, iterable); f None keeps the true elements.
func (r *Interp) pyFilter(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var f, it starlark.Value
	if err := starlark.UnpackPositionalArgs("filter", args, kw, 2, &f, &it); err != nil {
		return nil, err
	}
	step, err := Stepper(it)
	if err != nil {
		return nil, err
	}
	next := func() (starlark.Value, bool, error) {
		for {
			v, ok, err := step()
			if err != nil || !ok {
				return nil, false, err
			}
			keep := v.Truth()
			if f != starlark.None {
				k, err := starlark.Call(thread, f, starlark.Tuple{v}, nil)
				if err != nil {
					return nil, false, err
				}
				keep = k.Truth()
			}
			if keep {
				return v, true, nil
			}
		}
	}
	return stepIter(thread, "filter", oneShot(it), next)
}

// pyMinMax is min/max(iterable, *, key=None, default=...) and
// min/max(a, b, *rest, key=None).
func (r *Interp) pyMinMax(isMin bool) BuiltinFunc {
	name := "max"
	if isMin {
		name = "min"
	}
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var key, def starlark.Value = starlark.None, nil
		for _, kv := range kw {
			switch string(kv[0].(starlark.String)) {
			case "key":
				key = kv[1]
			case "default":
				def = kv[1]
			default:
				return nil, PyErrorf(ExcTypeError, "'%s' is an invalid keyword argument for %s()", kv[0].(starlark.String), name)
			}
		}
		var vals []starlark.Value
		switch len(args) {
		case 0:
			return nil, PyErrorf(ExcTypeError, "%s expected at least 1 argument, got 0", name)
		case 1:
			if err := r.checkSize("list", args); err != nil {
				return nil, err
			}
			v, err := ListOf(args[0])
			if err != nil {
				return nil, err
			}
			vals = v
		default:
			if def != nil {
				return nil, PyErrorf(ExcTypeError, "Cannot specify a default for %s() with multiple positional arguments", name)
			}
			vals = args
		}
		if len(vals) == 0 {
			if def != nil {
				return def, nil
			}
			return nil, PyErrorf(ExcValueError, "%s() arg is an empty sequence", name)
		}
		best, bestKey := vals[0], vals[0]
		if key != starlark.None {
			k, err := starlark.Call(thread, key, starlark.Tuple{best}, nil)
			if err != nil {
				return nil, err
			}
			bestKey = k
		}
		for _, v := range vals[1:] {
			k := v
			if key != starlark.None {
				kv, err := starlark.Call(thread, key, starlark.Tuple{v}, nil)
				if err != nil {
					return nil, err
				}
				k = kv
			}
			op := syntax.GT
			if isMin {
				op = syntax.LT
			}
			better, err := PyCompare(op, k, bestKey)
			if err != nil {
				return nil, ComparisonError(err, op.String(), k, bestKey)
			}
			if better {
				best, bestKey = v, k
			}
		}
		return best, nil
	}
}

func (r *Interp) pySorted(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var key starlark.Value = starlark.None
	var reverse bool
	if err := UnpackArgs("sorted", args, kw, "iterable", &it, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	if err := r.checkSize("sorted", args[:1]); err != nil {
		return nil, err
	}
	vals, err := ListOf(it)
	if err != nil {
		return nil, err
	}
	out, err := SortValues(thread, vals, key, reverse)
	if err != nil {
		return nil, err
	}
	return starlark.NewList(out), nil
}

func (r *Interp) pyReversed(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("reversed", args, kw, 1, &x); err != nil {
		return nil, err
	}
	if err := r.checkSize("reversed", args); err != nil {
		return nil, err
	}
	if s, ok := x.(starlark.String); ok {
		x = starlark.Tuple(chars(string(s)))
	}
	seq, ok := x.(starlark.Indexable)
	if !ok {
		if m, isMap := x.(starlark.IterableMapping); isMap {
			keys, _ := ListOf(m)
			seq = starlark.Tuple(keys)
		} else {
			return nil, PyErrorf(ExcTypeError, "'%s' object is not reversible", PyTypeName(x))
		}
	}
	out := make([]starlark.Value, seq.Len())
	for i := range out {
		out[i] = seq.Index(seq.Len() - 1 - i)
	}
	return NewListIter("reversed", out), nil
}

// pyZip is zip(*iterables, strict=False): one-pass, lazy over one-pass
// arguments, and with strict=True a ValueError naming the argument that
// ended early or late, as Python's.
func (r *Interp) pyZip(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	strict := false
	for _, kv := range kw {
		if k := string(kv[0].(starlark.String)); k != "strict" {
			return nil, PyErrorf(ExcTypeError, "zip() got an unexpected keyword argument '%s'", k)
		}
		strict = bool(kv[1].Truth())
	}
	if err := r.checkSize("zip", args); err != nil { // before stepper copies the arguments
		return nil, err
	}
	lazy := false
	steps := make([]func() (starlark.Value, bool, error), len(args))
	for i, a := range args {
		lazy = lazy || oneShot(a)
		step, err := Stepper(a)
		if err != nil {
			return nil, err
		}
		steps[i] = step
	}
	done := len(steps) == 0
	next := func() (starlark.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		row := make(starlark.Tuple, len(steps))
		for i, step := range steps {
			v, ok, err := step()
			if err != nil {
				return nil, false, err
			}
			if !ok {
				done = true
				if strict {
					return nil, false, zipStrictError(steps, i)
				}
				return nil, false, nil
			}
			row[i] = v
		}
		return row, true, nil
	}
	return stepIter(thread, "zip", lazy, next)
}

// zipStrictError is strict zip's error when argument i (0-based) ended:
// it is shorter than those before it, or (i == 0) a later one is longer.
func zipStrictError(steps []func() (starlark.Value, bool, error), i int) error {
	plural := func(k int) string {
		if k == 1 {
			return "argument 1"
		}
		return fmt.Sprintf("arguments 1-%d", k)
	}
	if i > 0 {
		return PyErrorf(ExcValueError, "zip() argument %d is shorter than %s", i+1, plural(i))
	}
	for j := 1; j < len(steps); j++ {
		_, ok, err := steps[j]()
		if err != nil {
			return err
		}
		if ok {
			return PyErrorf(ExcValueError, "zip() argument %d is longer than %s", j+1, plural(j))
		}
	}
	return nil
}
