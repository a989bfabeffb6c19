// itertools' combinatorics: product, permutations, combinations.

package pydev

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// pools returns the elements of each argument.
func pools(args starlark.Tuple) ([][]starlark.Value, error) {
	out := make([][]starlark.Value, len(args))
	for i, a := range args {
		vals, err := pyrt.ListOf(a)
		if err != nil {
			return nil, err
		}
		out[i] = vals
	}
	return out, nil
}

func itProduct(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	repeat := 1
	for _, kv := range kw {
		if string(kv[0].(starlark.String)) != "repeat" {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "product() got an unexpected keyword argument")
		}
		n, err := starlark.AsInt32(kv[1])
		if err != nil || n < 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "repeat argument cannot be negative")
		}
		repeat = n
	}
	ps, err := pools(args)
	if err != nil {
		return nil, err
	}
	var all [][]starlark.Value
	for i := 0; i < repeat; i++ {
		all = append(all, ps...)
	}
	idx := make([]int, len(all))
	done := false
	for _, p := range all {
		if len(p) == 0 {
			done = true
		}
	}
	return pyrt.NewLazyIter(thread, "itertools.product", func() (starlark.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		t := make(starlark.Tuple, len(all))
		for i, p := range all {
			t[i] = p[idx[i]]
		}
		k := len(idx) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < len(all[k]) {
				break
			}
			idx[k] = 0
		}
		done = k < 0
		return t, true, nil
	}), nil
}

func itPermutations(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it, rv starlark.Value = nil, starlark.None
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "iterable", &it, "r?", &rv); err != nil {
		return nil, err
	}
	pool, err := pyrt.ListOf(it)
	if err != nil {
		return nil, err
	}
	n := len(pool)
	k, err := optInt(rv, n)
	if err != nil {
		return nil, err
	}
	// Python's algorithm: indices and cycles.
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	cycles := make([]int, k)
	for i := range cycles {
		cycles[i] = n - i
	}
	first, done := true, k > n
	pick := func() starlark.Tuple {
		t := make(starlark.Tuple, k)
		for i := 0; i < k; i++ {
			t[i] = pool[idx[i]]
		}
		return t
	}
	return pyrt.NewLazyIter(thread, "itertools.permutations", func() (starlark.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		if first {
			first = false
			return pick(), true, nil
		}
		for i := k - 1; i >= 0; i-- {
			cycles[i]--
			if cycles[i] == 0 {
				moved := idx[i]
				copy(idx[i:], idx[i+1:])
				idx[n-1] = moved
				cycles[i] = n - i
				continue
			}
			j := cycles[i]
			idx[i], idx[n-j] = idx[n-j], idx[i]
			return pick(), true, nil
		}
		done = true
		return nil, false, nil
	}), nil
}

func itCombinations(replace bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var it starlark.Value
		var k int
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "iterable", &it, "r", &k); err != nil {
			return nil, err
		}
		pool, err := pyrt.ListOf(it)
		if err != nil {
			return nil, err
		}
		n := len(pool)
		if k < 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "r must be non-negative")
		}
		idx := make([]int, k)
		if !replace {
			for i := range idx {
				idx[i] = i
			}
		}
		done := (!replace && k > n) || (replace && n == 0 && k > 0)
		first := true
		return pyrt.NewLazyIter(thread, "itertools.combinations", func() (starlark.Value, bool, error) {
			if done {
				return nil, false, nil
			}
			if !first {
				i := k - 1
				if replace {
					for i >= 0 && idx[i] == n-1 {
						i--
					}
					if i < 0 {
						done = true
						return nil, false, nil
					}
					v := idx[i] + 1
					for j := i; j < k; j++ {
						idx[j] = v
					}
				} else {
					for i >= 0 && idx[i] == i+n-k {
						i--
					}
					if i < 0 {
						done = true
						return nil, false, nil
					}
					idx[i]++
					for j := i + 1; j < k; j++ {
						idx[j] = idx[j-1] + 1
					}
				}
			}
			first = false
			t := make(starlark.Tuple, k)
			for i, x := range idx {
				t[i] = pool[x]
			}
			return t, true, nil
		}), nil
	}
}
