// statistics: geometric_mean, harmonic_mean and median_grouped.

package pynum

import (
	"math/big"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// statGeometricMean is statistics.geometric_mean: exp of the fmean of
// the logs (the logs summed exactly, as math.fsum sums them).
func statGeometricMean(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	rats, _, _, err := numbers(b.Name(), dataOf(args))
	if err := oneArg(b, args, kw, err); err != nil {
		return nil, err
	}
	sum := new(big.Rat)
	for _, x := range rats {
		f, _ := x.Float64()
		if f <= 0 {
			return nil, statisticsError("geometric mean requires a non-empty dataset containing positive numbers")
		}
		sum.Add(sum, new(big.Rat).SetFloat64(pyrt.Log(f)))
	}
	if len(rats) == 0 {
		return nil, statisticsError("geometric mean requires a non-empty dataset containing positive numbers")
	}
	s, _ := sum.Float64()
	return starlark.Float(pyrt.Exp(s / float64(len(rats)))), nil
}

// statHarmonicMean is statistics.harmonic_mean(data): n over the sum of
// the reciprocals, exactly; 0 when a value is 0, a negative value
// refused.
func statHarmonicMean(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	rats, vals, _, err := numbers(b.Name(), dataOf(args))
	if err := oneArg(b, args, kw, err); err != nil {
		return nil, err
	}
	if len(rats) == 0 {
		return nil, statisticsError("harmonic_mean requires at least one data point")
	}
	sum := new(big.Rat)
	for _, x := range rats {
		switch x.Sign() {
		case -1:
			return nil, statisticsError("harmonic mean does not support negative values")
		case 0:
			return starlark.MakeInt(0), nil
		}
		sum.Add(sum, new(big.Rat).Inv(x))
	}
	if len(vals) == 1 {
		return vals[0], nil
	}
	return ratValue(new(big.Rat).Quo(big.NewRat(int64(len(rats)), 1), sum), false), nil // 1/x is a float
}

// statMedianGrouped is statistics.median_grouped(data, interval=1): the
// median of continuous data grouped in intervals, in floats as 3.11
// works it out.
func statMedianGrouped(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var data, interval starlark.Value = nil, starlark.MakeInt(1)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "data", &data, "interval?", &interval); err != nil {
		return nil, err
	}
	vals, err := pyrt.ListOf(data)
	if err != nil {
		return nil, err
	}
	sorted, err := pyrt.SortValues(thread, vals, starlark.None, false)
	if err != nil {
		return nil, err
	}
	n := len(sorted)
	switch n {
	case 0:
		return nil, statisticsError("no median for empty data")
	case 1:
		return sorted[0], nil
	}
	x := sorted[n/2]
	xf, ok1 := starlark.AsFloat(x)
	width, ok2 := starlark.AsFloat(interval)
	if !ok1 || !ok2 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "expected number or numeric type, got %s", pyrt.PyTypeName(x))
	}
	lo, hi := n/2, n/2
	for lo > 0 && equalValues(sorted[lo-1], x) {
		lo--
	}
	for hi+1 < n && equalValues(sorted[hi+1], x) {
		hi++
	}
	l := xf - width/2
	return starlark.Float(l + width*(float64(n)/2-float64(lo))/float64(hi-lo+1)), nil
}

func equalValues(a, b starlark.Value) bool {
	eq, err := starlark.Equal(a, b)
	return err == nil && eq
}

// dataOf is the first argument, nil without one.
func dataOf(args starlark.Tuple) starlark.Value {
	if len(args) == 0 {
		return starlark.None
	}
	return args[0]
}

// oneArg checks that a function of one data argument got just that, then
// passes on err, the error of reading it.
func oneArg(b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple, err error) error {
	if len(args) != 1 || len(kw) > 0 {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "%s() takes exactly one argument (%d given)", b.Name(), len(args)+len(kw))
	}
	return err
}
