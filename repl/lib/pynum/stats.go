// statistics, heapq and bisect.

package pynum

import (
	"math"
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

var excStatistics = &pyrt.ExcType{TypeName: "StatisticsError", Module: "statistics", Base: pyrt.ExcValueError}

func statisticsModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("statistics", starlark.StringDict{
		"mean": pyrt.Builtin("statistics.mean", statMean(false)), "fmean": pyrt.Builtin("statistics.fmean", statMean(true)),
		"median": pyrt.Builtin("statistics.median", statMedian(0)), "median_low": pyrt.Builtin("statistics.median_low", statMedian(-1)),
		"median_high": pyrt.Builtin("statistics.median_high", statMedian(1)),
		"mode":        pyrt.Builtin("statistics.mode", statMode(false)), "multimode": pyrt.Builtin("statistics.multimode", statMode(true)),
		"variance": pyrt.Builtin("statistics.variance", statVariance(true, false)), "pvariance": pyrt.Builtin("statistics.pvariance", statVariance(false, false)),
		"stdev": pyrt.Builtin("statistics.stdev", statVariance(true, true)), "pstdev": pyrt.Builtin("statistics.pstdev", statVariance(false, true)),
		"quantiles":      pyrt.Builtin("statistics.quantiles", statQuantiles),
		"geometric_mean": pyrt.Builtin("geometric_mean", statGeometricMean), "harmonic_mean": pyrt.Builtin("harmonic_mean", statHarmonicMean),
		"median_grouped":  pyrt.Builtin("median_grouped", statMedianGrouped),
		"StatisticsError": excStatistics,
	})
}

// numbers returns the data as exact rationals, and whether all were ints.
func numbers(fn string, v starlark.Value) ([]*big.Rat, []starlark.Value, bool, error) {
	vals, err := pyrt.ListOf(v)
	if err != nil {
		return nil, nil, false, err
	}
	rats := make([]*big.Rat, len(vals))
	ints := true
	for i, x := range vals {
		switch x := x.(type) {
		case starlark.Int:
			rats[i] = new(big.Rat).SetInt(x.BigInt())
		case starlark.Bool:
			rats[i] = big.NewRat(int64(pyrt.B2i(bool(x))), 1)
		case starlark.Float:
			ints = false
			r := new(big.Rat).SetFloat64(float64(x)) // exact, as Fraction(x)
			if r == nil {
				return nil, nil, false, pyrt.PyErrorf(pyrt.ExcValueError, "%s: cannot use %s", fn, pystr.FloatRepr(float64(x)))
			}
			rats[i] = r
		default:
			return nil, nil, false, pyrt.PyErrorf(pyrt.ExcTypeError, "can't convert type '%s' to numerator/denominator", pyrt.PyTypeName(x))
		}
	}
	return rats, vals, ints, nil
}

// ratValue converts a result to the data's type: an int when the data
// were ints and the result is whole, a float otherwise.
func ratValue(x *big.Rat, ints bool) starlark.Value {
	if ints && x.IsInt() {
		return starlark.MakeBigInt(x.Num())
	}
	f, _ := x.Float64()
	return starlark.Float(f)
}

// statisticsError is a StatisticsError saying text.
func statisticsError(text string) error {
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: excStatistics, Text: text}}
}

// dataArg unpacks the one argument of median and mode: the data, as a list.
func dataArg(b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) ([]starlark.Value, error) {
	var data starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &data); err != nil {
		return nil, err
	}
	return pyrt.ListOf(data)
}

// ratMean is the exact mean of xs, which are not empty.
func ratMean(xs []*big.Rat) *big.Rat {
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, x)
	}
	return sum.Quo(sum, big.NewRat(int64(len(xs)), 1))
}

func statMean(float bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var data starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &data); err != nil {
			return nil, err
		}
		rats, _, ints, err := numbers(b.Name(), data)
		if err != nil {
			return nil, err
		}
		if len(rats) == 0 {
			return nil, statisticsError("mean requires at least one data point")
		}
		mean := ratMean(rats)
		if float {
			f, _ := mean.Float64()
			return starlark.Float(f), nil
		}
		return ratValue(mean, ints), nil
	}
}

func statMedian(which int) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		vals, err := dataArg(b, args, kw)
		if err != nil {
			return nil, err
		}
		n := len(vals)
		if n == 0 {
			return nil, statisticsError("no median for empty data")
		}
		sorted, err := pyrt.SortValues(thread, vals, starlark.None, false)
		if err != nil {
			return nil, err
		}
		switch {
		case n%2 == 1:
			return sorted[n/2], nil
		case which < 0:
			return sorted[n/2-1], nil
		case which > 0:
			return sorted[n/2], nil
		}
		s, err := pyrt.PyAdd(sorted[n/2-1], sorted[n/2])
		if err != nil {
			return nil, err
		}
		return starlark.Binary(syntax.SLASH, s, starlark.MakeInt(2))
	}
}

func statMode(multi bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		vals, err := dataArg(b, args, kw)
		if err != nil {
			return nil, err
		}
		counts := starlark.NewDict(0)
		best := 0
		for _, v := range vals {
			c, _, err := counts.Get(v)
			if err != nil {
				return nil, err
			}
			n := 1
			if c != nil {
				k, _ := starlark.AsInt32(c)
				n = k + 1
			}
			_ = counts.SetKey(v, starlark.MakeInt(n))
			best = max(best, n)
		}
		var modes []starlark.Value
		for _, kv := range counts.Items() {
			if k, _ := starlark.AsInt32(kv[1]); k == best {
				modes = append(modes, kv[0])
			}
		}
		if multi {
			return starlark.NewList(modes), nil
		}
		if len(modes) == 0 {
			return nil, statisticsError("no mode for empty data")
		}
		return modes[0], nil
	}
}

func statVariance(sample, sqrt bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var data starlark.Value
		var mu starlark.Value = starlark.None
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &data, &mu); err != nil {
			return nil, err
		}
		rats, _, ints, err := numbers(b.Name(), data)
		if err != nil {
			return nil, err
		}
		n := len(rats)
		if n < 1 || sample && n < 2 {
			what := "variance requires at least two data points"
			if !sample {
				what = "pvariance requires at least one data point"
			}
			return nil, statisticsError(what)
		}
		mean := ratMean(rats)
		if mu != starlark.None {
			m, _, _, err := numbers(b.Name(), starlark.Tuple{mu})
			if err != nil {
				return nil, err
			}
			mean = m[0]
		}
		ss := new(big.Rat)
		for _, x := range rats {
			d := new(big.Rat).Sub(x, mean)
			ss.Add(ss, d.Mul(d, d))
		}
		div := int64(n)
		if sample {
			div--
		}
		v := ss.Quo(ss, big.NewRat(div, 1))
		if sqrt {
			f, _ := v.Float64()
			return starlark.Float(math.Sqrt(f)), nil
		}
		return ratValue(v, ints), nil
	}
}

func heapqModule(r *pyrt.Interp) starlark.Value {
	list := func(fn string, v starlark.Value) (*starlark.List, error) {
		l, ok := v.(*starlark.List)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s: heap argument must be a list", fn)
		}
		return l, nil
	}
	return pyrt.NewModule("heapq", starlark.StringDict{
		"heapify": pyrt.Builtin("heapq.heapify", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			l, err := list(b.Name(), v)
			if err != nil {
				return nil, err
			}
			for i := l.Len()/2 - 1; i >= 0; i-- {
				if err := siftup(l, i); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		}),
		"heappush": pyrt.Builtin("heapq.heappush", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v, x starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &v, &x); err != nil {
				return nil, err
			}
			l, err := list(b.Name(), v)
			if err != nil {
				return nil, err
			}
			if err := l.Append(x); err != nil {
				return nil, err
			}
			return starlark.None, siftdown(l, 0, l.Len()-1)
		}),
		"heappop": pyrt.Builtin("heapq.heappop", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			l, err := list(b.Name(), v)
			if err != nil {
				return nil, err
			}
			return heappop(l)
		}),
		"heappushpop": pyrt.Builtin("heapq.heappushpop", heapReplace(true)),
		"heapreplace": pyrt.Builtin("heapq.heapreplace", heapReplace(false)),
		"nlargest":    pyrt.Builtin("heapq.nlargest", nBest(true)),
		"nsmallest":   pyrt.Builtin("heapq.nsmallest", nBest(false)),
		"merge":       pyrt.Builtin("heapq.merge", heapMerge),
	})
}

func less(a, b starlark.Value) (bool, error) {
	lt, err := starlark.Compare(syntax.LT, a, b)
	if err != nil {
		return false, pyrt.ComparisonError(err, "<", a, b)
	}
	return lt, nil
}

// siftdown and siftup are CPython's heapq._siftdown and _siftup, so that
// heaps have the same layout as in Python.
func siftdown(l *starlark.List, start, pos int) error {
	item := l.Index(pos)
	for pos > start {
		parentPos := (pos - 1) >> 1
		parent := l.Index(parentPos)
		lt, err := less(item, parent)
		if err != nil {
			return err
		}
		if !lt {
			break
		}
		if err := l.SetIndex(pos, parent); err != nil {
			return err
		}
		pos = parentPos
	}
	return l.SetIndex(pos, item)
}

func siftup(l *starlark.List, pos int) error {
	end, start := l.Len(), pos
	item := l.Index(pos)
	child := 2*pos + 1
	for child < end {
		if right := child + 1; right < end {
			lt, err := less(l.Index(child), l.Index(right))
			if err != nil {
				return err
			}
			if !lt {
				child = right
			}
		}
		if err := l.SetIndex(pos, l.Index(child)); err != nil {
			return err
		}
		pos = child
		child = 2*pos + 1
	}
	if err := l.SetIndex(pos, item); err != nil {
		return err
	}
	return siftdown(l, start, pos)
}

func heappop(l *starlark.List) (starlark.Value, error) {
	n := l.Len()
	if n == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcIndexError, "index out of range")
	}
	last := l.Index(n - 1)
	if err := pyrt.PyDelSlice(l, starlark.MakeInt(n-1), starlark.None, starlark.None); err != nil {
		return nil, err
	}
	if n == 1 {
		return last, nil
	}
	return replaceTop(l, last)
}

// replaceTop puts x in place of the top of heap l, which is not empty,
// restores the heap and returns the old top.
func replaceTop(l *starlark.List, x starlark.Value) (starlark.Value, error) {
	top := l.Index(0)
	if err := l.SetIndex(0, x); err != nil {
		return nil, err
	}
	return top, siftup(l, 0)
}

func heapReplace(pushFirst bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var v, x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &v, &x); err != nil {
			return nil, err
		}
		l, ok := v.(*starlark.List)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "heap argument must be a list")
		}
		if pushFirst {
			if l.Len() == 0 {
				return x, nil
			}
			if lt, err := less(l.Index(0), x); err != nil || !lt {
				return x, err
			}
		} else if l.Len() == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcIndexError, "index out of range")
		}
		return replaceTop(l, x)
	}
}

func nBest(largest bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var n int
		var it, key starlark.Value = nil, starlark.None
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "n", &n, "iterable", &it, "key?", &key); err != nil {
			return nil, err
		}
		vals, err := pyrt.ListOf(it)
		if err != nil {
			return nil, err
		}
		sorted, err := pyrt.SortValues(thread, vals, key, largest)
		if err != nil {
			return nil, err
		}
		if n < len(sorted) {
			sorted = sorted[:max(n, 0)]
		}
		return starlark.NewList(sorted), nil
	}
}

func bisectModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("bisect", starlark.StringDict{
		"bisect_left": pyrt.Builtin("bisect.bisect_left", bisectFn(false, false)), "bisect_right": pyrt.Builtin("bisect.bisect_right", bisectFn(true, false)),
		"bisect": pyrt.Builtin("bisect.bisect", bisectFn(true, false)), "insort_left": pyrt.Builtin("bisect.insort_left", bisectFn(false, true)),
		"insort_right": pyrt.Builtin("bisect.insort_right", bisectFn(true, true)), "insort": pyrt.Builtin("bisect.insort", bisectFn(true, true)),
	})
}

func bisectFn(right, insert bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var a, x, key starlark.Value = nil, nil, starlark.None
		lo := 0
		hi := -1
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "a", &a, "x", &x, "lo?", &lo, "hi?", &hi, "key?", &key); err != nil {
			return nil, err
		}
		vals := pyrt.Elems(a)
		if vals == nil && starlark.Len(a) != 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s needs a list or tuple", b.Name())
		}
		if hi < 0 {
			hi = len(vals)
		}
		kx := x
		if key != starlark.None && !insert {
			kx = x
		} else if key != starlark.None {
			k, err := starlark.Call(thread, key, starlark.Tuple{x}, nil)
			if err != nil {
				return nil, err
			}
			kx = k
		}
		for lo < hi {
			mid := (lo + hi) / 2
			v := vals[mid]
			if key != starlark.None {
				k, err := starlark.Call(thread, key, starlark.Tuple{v}, nil)
				if err != nil {
					return nil, err
				}
				v = k
			}
			var goRight bool
			var err error
			if right {
				var lt bool
				lt, err = less(kx, v)
				goRight = !lt
			} else {
				goRight, err = less(v, kx)
			}
			if err != nil {
				return nil, err
			}
			if goRight {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if !insert {
			return starlark.MakeInt(lo), nil
		}
		l, ok := a.(*starlark.List)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "insort needs a list")
		}
		return starlark.None, pyrt.PySetSlice(l, starlark.MakeInt(lo), starlark.MakeInt(lo), starlark.None, starlark.Tuple{x})
	}
}
