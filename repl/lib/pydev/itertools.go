// itertools: one-pass iterators, lazy where an input may be endless.

package pydev

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func itertoolsModule(r *pyrt.Interp) starlark.Value {
	chain := &pyrt.PyType{TypeName: "chain", Module: "itertools", Call: func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return chainOf(thread, args)
	}}
	chain.Attrs = starlark.StringDict{"from_iterable": pyrt.Builtin("chain.from_iterable", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var it starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &it); err != nil {
			return nil, err
		}
		outer, err := pyrt.Stepper(it)
		if err != nil {
			return nil, err
		}
		var inner func() (starlark.Value, bool, error)
		return pyrt.NewLazyIter(thread, "itertools.chain", func() (starlark.Value, bool, error) {
			for {
				if inner != nil {
					v, ok, err := inner()
					if err != nil || ok {
						return v, ok, err
					}
				}
				next, ok, err := outer()
				if err != nil || !ok {
					return nil, false, err
				}
				if inner, err = pyrt.Stepper(next); err != nil {
					return nil, false, err
				}
			}
		}), nil
	})}
	m := starlark.StringDict{
		"chain": chain, "count": pyrt.Builtin("itertools.count", itCount), "cycle": pyrt.Builtin("itertools.cycle", itCycle),
		"repeat": pyrt.Builtin("itertools.repeat", itRepeat), "islice": pyrt.Builtin("itertools.islice", itIslice),
		"groupby": pyrt.Builtin("itertools.groupby", itGroupby), "accumulate": pyrt.Builtin("itertools.accumulate", itAccumulate),
		"product": pyrt.Builtin("itertools.product", itProduct), "permutations": pyrt.Builtin("itertools.permutations", itPermutations),
		"combinations":                  pyrt.Builtin("itertools.combinations", itCombinations(false)),
		"combinations_with_replacement": pyrt.Builtin("itertools.combinations_with_replacement", itCombinations(true)),
		"zip_longest":                   pyrt.Builtin("itertools.zip_longest", itZipLongest), "starmap": pyrt.Builtin("itertools.starmap", itStarmap),
		"takewhile": pyrt.Builtin("itertools.takewhile", itWhile(true)), "dropwhile": pyrt.Builtin("itertools.dropwhile", itWhile(false)),
		"filterfalse": pyrt.Builtin("itertools.filterfalse", itFilterfalse), "compress": pyrt.Builtin("itertools.compress", itCompress),
		"pairwise": pyrt.Builtin("itertools.pairwise", itPairwise), "tee": pyrt.Builtin("itertools.tee", itTee),
	}
	return pyrt.NewModule("itertools", m)
}

func chainOf(thread *starlark.Thread, its starlark.Tuple) (starlark.Value, error) {
	steps := make([]func() (starlark.Value, bool, error), len(its))
	for i, it := range its {
		s, err := pyrt.Stepper(it)
		if err != nil {
			return nil, err
		}
		steps[i] = s
	}
	return pyrt.NewLazyIter(thread, "itertools.chain", func() (starlark.Value, bool, error) {
		for len(steps) > 0 {
			v, ok, err := steps[0]()
			if err != nil || ok {
				return v, ok, err
			}
			steps = steps[1:]
		}
		return nil, false, nil
	}), nil
}

func itCount(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var start, step starlark.Value = starlark.MakeInt(0), starlark.MakeInt(1)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "start?", &start, "step?", &step); err != nil {
		return nil, err
	}
	cur := start
	return pyrt.NewLazyIter(thread, "itertools.count", func() (starlark.Value, bool, error) {
		v := cur
		next, err := pyrt.PyAdd(cur, step)
		cur = next
		return v, err == nil, err
	}), nil
}

func itCycle(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &it); err != nil {
		return nil, err
	}
	step, err := pyrt.Stepper(it)
	if err != nil {
		return nil, err
	}
	var saved []starlark.Value
	i, exhausted := 0, false
	return pyrt.NewLazyIter(thread, "itertools.cycle", func() (starlark.Value, bool, error) {
		if !exhausted {
			v, ok, err := step()
			if err != nil {
				return nil, false, err
			}
			if ok {
				saved = append(saved, v)
				return v, true, nil
			}
			exhausted = true
		}
		if len(saved) == 0 {
			return nil, false, nil
		}
		v := saved[i%len(saved)]
		i++
		return v, true, nil
	}), nil
}

func itRepeat(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	times := -1
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "object", &x, "times?", &times); err != nil {
		return nil, err
	}
	return pyrt.NewLazyIter(thread, "itertools.repeat", func() (starlark.Value, bool, error) {
		if times == 0 {
			return nil, false, nil
		}
		if times > 0 {
			times--
		}
		return x, true, nil
	}), nil
}

func optInt(v starlark.Value, def int) (int, error) {
	if v == starlark.None {
		return def, nil
	}
	n, err := starlark.AsInt32(v)
	if err != nil || n < 0 {
		return 0, pyrt.PyErrorf(pyrt.ExcValueError, "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
	}
	return n, nil
}

func itIslice(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 2 || len(args) > 4 || len(kw) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "islice expected 2 to 4 arguments")
	}
	start, stop, step := 0, -1, 1
	var err error
	if len(args) == 2 {
		stop, err = optInt(args[1], -1)
	} else {
		if start, err = optInt(args[1], 0); err == nil {
			if stop, err = optInt(args[2], -1); err == nil && len(args) == 4 {
				step, err = optInt(args[3], 1)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if step == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Step for islice() must be a positive integer or None.")
	}
	src, err := pyrt.Stepper(args[0])
	if err != nil {
		return nil, err
	}
	i, next := 0, start
	return pyrt.NewLazyIter(thread, "itertools.islice", func() (starlark.Value, bool, error) {
		for stop < 0 || next < stop {
			v, ok, err := src()
			if err != nil || !ok {
				return nil, false, err
			}
			i++
			if i-1 == next {
				next += step
				return v, true, nil
			}
		}
		return nil, false, nil
	}), nil
}

// itGroupby is lazy: each group is read when the groupby is stepped,
// up to the first element of the next group (kept for the next step), so
// a generator that feeds it is drained no further than the groups taken.
func itGroupby(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it, key starlark.Value = nil, starlark.None
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "iterable", &it, "key?", &key); err != nil {
		return nil, err
	}
	step, err := pyrt.Stepper(it)
	if err != nil {
		return nil, err
	}
	keyOf := func(v starlark.Value) (starlark.Value, error) {
		if key == starlark.None {
			return v, nil
		}
		return starlark.Call(thread, key, starlark.Tuple{v}, nil)
	}
	var head, headKey starlark.Value // the first element of the next group
	ended := false
	gen := 0 // outer steps taken: a group yields only until the groupby is stepped again, as in CPython
	return pyrt.NewLazyIter(thread, "itertools.groupby", func() (starlark.Value, bool, error) {
		gen++
		if head == nil {
			if ended {
				return nil, false, nil
			}
			v, ok, err := step()
			if err != nil || !ok {
				ended = true
				return nil, false, err
			}
			if headKey, err = keyOf(v); err != nil {
				return nil, false, err
			}
			head = v
		}
		k, cur := headKey, []starlark.Value{head}
		head = nil
		for {
			v, ok, err := step()
			if err != nil {
				return nil, false, err
			}
			if !ok {
				ended = true
				break
			}
			vk, err := keyOf(v)
			if err != nil {
				return nil, false, err
			}
			if eq, err := starlark.Equal(vk, k); err != nil || !eq {
				head, headKey = v, vk
				break
			}
			cur = append(cur, v)
		}
		mine, i := gen, 0
		group := pyrt.NewLazyIter(thread, "itertools._grouper", func() (starlark.Value, bool, error) {
			if gen != mine || i >= len(cur) {
				return nil, false, nil
			}
			i++
			return cur[i-1], true, nil
		})
		return starlark.Tuple{k, group}, true, nil
	}), nil
}

func itAccumulate(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it, fn, initial starlark.Value = nil, starlark.None, starlark.None
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "iterable", &it, "func?", &fn, "initial?", &initial); err != nil {
		return nil, err
	}
	src, err := pyrt.Stepper(it)
	if err != nil {
		return nil, err
	}
	var acc starlark.Value
	if initial != starlark.None {
		acc = initial
	}
	first := true
	return pyrt.NewLazyIter(thread, "itertools.accumulate", func() (starlark.Value, bool, error) {
		if first && acc != nil {
			first = false
			return acc, true, nil
		}
		first = false
		v, ok, err := src()
		if err != nil || !ok {
			return nil, false, err
		}
		if acc == nil {
			acc = v
			return v, true, nil
		}
		if fn == starlark.None {
			acc, err = pyrt.PyAdd(acc, v)
		} else {
			acc, err = starlark.Call(thread, fn, starlark.Tuple{acc, v}, nil)
		}
		return acc, err == nil, err
	}), nil
}

func itZipLongest(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fill starlark.Value = starlark.None
	for _, kv := range kw {
		if string(kv[0].(starlark.String)) != "fillvalue" {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "zip_longest() got an unexpected keyword argument")
		}
		fill = kv[1]
	}
	steps := make([]func() (starlark.Value, bool, error), len(args))
	for i, a := range args {
		s, err := pyrt.Stepper(a)
		if err != nil {
			return nil, err
		}
		steps[i] = s
	}
	live := make([]bool, len(steps))
	for i := range live {
		live[i] = true
	}
	return pyrt.NewLazyIter(thread, "itertools.zip_longest", func() (starlark.Value, bool, error) {
		t := make(starlark.Tuple, len(steps))
		any := false
		for i, s := range steps {
			t[i] = fill
			if !live[i] {
				continue
			}
			v, ok, err := s()
			if err != nil {
				return nil, false, err
			}
			if ok {
				t[i], any = v, true
			} else {
				live[i] = false
			}
		}
		return t, any, nil
	}), nil
}

func itStarmap(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fn, it starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &fn, &it); err != nil {
		return nil, err
	}
	vals, err := pyrt.ListOf(it)
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(vals))
	for i, v := range vals {
		a, err := pyrt.ListOf(v)
		if err != nil {
			return nil, err
		}
		if out[i], err = starlark.Call(thread, fn, a, nil); err != nil {
			return nil, err
		}
	}
	return pyrt.NewListIter("itertools.starmap", out), nil
}

func itWhile(take bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var pred, it starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &pred, &it); err != nil {
			return nil, err
		}
		src, err := pyrt.Stepper(it)
		if err != nil {
			return nil, err
		}
		stopped, dropping := false, !take
		return pyrt.NewLazyIter(thread, b.Name(), func() (starlark.Value, bool, error) {
			for !stopped {
				v, ok, err := src()
				if err != nil || !ok {
					return nil, false, err
				}
				if !take && !dropping {
					return v, true, nil
				}
				tv, err := starlark.Call(thread, pred, starlark.Tuple{v}, nil)
				if err != nil {
					return nil, false, err
				}
				t := bool(tv.Truth())
				switch {
				case take && t:
					return v, true, nil
				case take:
					stopped = true
				case !t:
					dropping = false
					return v, true, nil
				}
			}
			return nil, false, nil
		}), nil
	}
}

func itFilterfalse(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pred, it starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &pred, &it); err != nil {
		return nil, err
	}
	vals, err := pyrt.ListOf(it)
	if err != nil {
		return nil, err
	}
	var out []starlark.Value
	for _, v := range vals {
		keep := !v.Truth()
		if pred != starlark.None {
			t, err := starlark.Call(thread, pred, starlark.Tuple{v}, nil)
			if err != nil {
				return nil, err
			}
			keep = !t.Truth()
		}
		if keep {
			out = append(out, v)
		}
	}
	return pyrt.NewListIter("itertools.filterfalse", out), nil
}

func itCompress(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var data, sel starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &data, &sel); err != nil {
		return nil, err
	}
	d, err := pyrt.Stepper(data)
	if err != nil {
		return nil, err
	}
	s, err := pyrt.Stepper(sel)
	if err != nil {
		return nil, err
	}
	return pyrt.NewLazyIter(thread, "itertools.compress", func() (starlark.Value, bool, error) {
		for {
			v, ok, err := d()
			if err != nil || !ok {
				return nil, false, err
			}
			t, ok, err := s()
			if err != nil || !ok {
				return nil, false, err
			}
			if t.Truth() {
				return v, true, nil
			}
		}
	}), nil
}

func itPairwise(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &it); err != nil {
		return nil, err
	}
	src, err := pyrt.Stepper(it)
	if err != nil {
		return nil, err
	}
	var prev starlark.Value
	return pyrt.NewLazyIter(thread, "itertools.pairwise", func() (starlark.Value, bool, error) {
		for {
			v, ok, err := src()
			if err != nil || !ok {
				return nil, false, err
			}
			if prev == nil {
				prev = v
				continue
			}
			t := starlark.Tuple{prev, v}
			prev = v
			return t, true, nil
		}
	}), nil
}

func itTee(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	n := 2
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &it, &n); err != nil {
		return nil, err
	}
	vals, err := pyrt.ListOf(it)
	if err != nil {
		return nil, err
	}
	out := make(starlark.Tuple, n)
	for i := range out {
		out[i] = pyrt.NewListIter("itertools._tee", append([]starlark.Value(nil), vals...))
	}
	return out, nil
}
