// statistics.quantiles, with CPython's arithmetic (its interpolation in
// the data's own type, then a true division).

package pynum

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

func statQuantiles(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var data starlark.Value
	n, method := 4, "exclusive"
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "data", &data, "n?", &n, "method?", &method); err != nil {
		return nil, err
	}
	if len(args) > 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "quantiles() takes 1 positional argument but %d were given", len(args))
	}
	if n < 1 {
		return nil, statisticsError("n must be at least 1")
	}
	vals, err := pyrt.ListOf(data)
	if err != nil {
		return nil, err
	}
	sorted, err := pyrt.SortValues(thread, vals, starlark.None, false)
	if err != nil {
		return nil, err
	}
	ld := len(sorted)
	if ld < 2 {
		return nil, statisticsError("must have at least two data points")
	}
	var out []starlark.Value
	for i := 1; i < n; i++ {
		var lo, delta int
		switch method {
		case "inclusive":
			lo, delta = i*(ld-1)/n, i*(ld-1)%n
		case "exclusive":
			m := ld + 1
			j := min(max(i*m/n, 1), ld-1)
			lo, delta = j-1, i*m-j*n
		default:
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Unknown method: %s", pyrt.PyRepr(starlark.String(method)))
		}
		v, err := interpolate(sorted[lo], sorted[lo+1], n, delta)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return starlark.NewList(out), nil
}

// interpolate is (a * (n - delta) + b * delta) / n.
func interpolate(a, b starlark.Value, n, delta int) (starlark.Value, error) {
	x, err := pyrt.Arith(syntax.STAR, a, starlark.MakeInt(n-delta))
	if err != nil {
		return nil, err
	}
	y, err := pyrt.Arith(syntax.STAR, b, starlark.MakeInt(delta))
	if err != nil {
		return nil, err
	}
	s, err := pyrt.Arith(syntax.PLUS, x, y)
	if err != nil {
		return nil, err
	}
	return pyrt.Arith(syntax.SLASH, s, starlark.MakeInt(n))
}
