// The math module with Python's functions and errors.

package pynum

import (
	"math"
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

func MathModule(r *pyrt.Interp) starlark.Value {
	unary := func(name string, f func(float64) float64, domain func(float64) bool) *starlark.Builtin {
		return pyrt.Builtin("math."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			x, err := floatArg(b.Name(), args, kw)
			if err != nil {
				return nil, err
			}
			if domain != nil && !domain(x) {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "math domain error")
			}
			out := f(x)
			if math.IsInf(out, 0) && !math.IsInf(x, 0) {
				return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "math range error") // exp(1000)
			}
			return starlark.Float(out), nil
		})
	}
	toInt := func(name string, f func(float64) float64) *starlark.Builtin {
		return pyrt.Builtin("math."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 1 {
				if i, ok := args[0].(starlark.Int); ok {
					return i, nil
				}
				if n, ok := args[0].(pyrt.NumberObject); ok && len(kw) == 0 { // __floor__, __ceil__, __trunc__
					if name == "trunc" {
						return n.IntPy()
					}
					return n.FloorPy(name == "ceil")
				}
			}
			x, err := floatArg(b.Name(), args, kw)
			if err != nil {
				return nil, err
			}
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "cannot convert float infinity to integer")
			}
			i, _ := big.NewFloat(f(x)).Int(nil)
			return starlark.MakeBigInt(i), nil
		})
	}
	positive := func(x float64) bool { return x > 0 }
	m := starlark.StringDict{
		"pi": starlark.Float(math.Pi), "e": starlark.Float(math.E), "tau": starlark.Float(2 * math.Pi),
		"inf": starlark.Float(math.Inf(1)), "nan": starlark.Float(math.NaN()),
		"sqrt":  unary("sqrt", math.Sqrt, func(x float64) bool { return x >= 0 }),
		"exp":   unary("exp", pyrt.Exp, nil), // correctly rounded, as C's (pyrt/crmath.go)
		"expm1": unary("expm1", math.Expm1, nil),
		"log2":  unary("log2", pyrt.Log2, positive),
		"log10": unary("log10", pyrt.Log10, positive),
		"log1p": unary("log1p", math.Log1p, func(x float64) bool { return x > -1 }),
		"fabs":  unary("fabs", math.Abs, nil),
		"sin":   unary("sin", pyrt.Sin, nil), "cos": unary("cos", pyrt.Cos, nil), "tan": unary("tan", pyrt.Tan, nil),
		"asin": unary("asin", pyrt.Asin, func(x float64) bool { return x >= -1 && x <= 1 }),
		"acos": unary("acos", pyrt.Acos, func(x float64) bool { return x >= -1 && x <= 1 }),
		"atan": unary("atan", pyrt.Atan, nil), "sinh": unary("sinh", math.Sinh, nil), "cosh": unary("cosh", math.Cosh, nil),
		"tanh": unary("tanh", math.Tanh, nil), "asinh": unary("asinh", math.Asinh, nil),
		"acosh":   unary("acosh", math.Acosh, func(x float64) bool { return x >= 1 }),
		"atanh":   unary("atanh", math.Atanh, func(x float64) bool { return x > -1 && x < 1 }),
		"degrees": unary("degrees", func(x float64) float64 { return x * radToDeg }, nil),
		"radians": unary("radians", func(x float64) float64 { return x * degToRad }, nil),
		"gamma":   unary("gamma", math.Gamma, nil),
		"lgamma": unary("lgamma", func(x float64) float64 {
			v, _ := math.Lgamma(x)
			return v
		}, nil),
		"floor": toInt("floor", math.Floor), "ceil": toInt("ceil", math.Ceil), "trunc": toInt("trunc", math.Trunc),
		"round": unary("round", math.Round, nil),
		"isnan": pyrt.Builtin("math.isnan", floatPred(math.IsNaN)),
		"isinf": pyrt.Builtin("math.isinf", floatPred(func(x float64) bool { return math.IsInf(x, 0) })),
		"isfinite": pyrt.Builtin("math.isfinite", floatPred(func(x float64) bool {
			return !math.IsInf(x, 0) && !math.IsNaN(x)
		})),
		"pow":       binaryFloat("pow", pyrt.Pow),
		"atan2":     binaryFloat("atan2", pyrt.Atan2),
		"copysign":  binaryFloat("copysign", math.Copysign),
		"fmod":      binaryFloat("fmod", math.Mod),
		"mod":       binaryFloat("mod", math.Mod),
		"remainder": binaryFloat("remainder", math.Remainder),
		"ldexp": pyrt.Builtin("math.ldexp", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x pyrt.PyFloat
			var e int
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &x, &e); err != nil {
				return nil, err
			}
			return starlark.Float(math.Ldexp(float64(x), e)), nil
		}),
		"log":     pyrt.Builtin("math.log", mathLog),
		"hypot":   pyrt.Builtin("math.hypot", mathHypot),
		"dist":    pyrt.Builtin("math.dist", mathDist),
		"isclose": pyrt.Builtin("math.isclose", mathIsclose),
		"gcd": pyrt.Builtin("math.gcd", intFold(func(a, b *big.Int) *big.Int {
			return new(big.Int).GCD(nil, nil, new(big.Int).Abs(a), new(big.Int).Abs(b))
		}, 0)),
		"lcm":       pyrt.Builtin("math.lcm", intFold(lcm, 1)),
		"factorial": pyrt.Builtin("math.factorial", mathFactorial),
		"comb":      pyrt.Builtin("math.comb", mathComb(false)),
		"perm":      pyrt.Builtin("math.perm", mathComb(true)),
		"isqrt":     pyrt.Builtin("math.isqrt", mathIsqrt),
		"prod":      pyrt.Builtin("math.prod", mathProd),
		"fsum":      pyrt.Builtin("math.fsum", mathFsum),
		"modf": pyrt.Builtin("math.modf", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			x, err := floatArg(b.Name(), args, kw)
			if err != nil {
				return nil, err
			}
			i, f := math.Modf(x)
			return starlark.Tuple{starlark.Float(f), starlark.Float(i)}, nil
		}),
	}
	return pyrt.NewModule("math", m)
}

func floatOf(fn string, v starlark.Value) (float64, error) {
	if b, ok := v.(starlark.Bool); ok {
		return float64(pyrt.B2i(bool(b))), nil
	}
	if n, ok := v.(pyrt.NumberObject); ok {
		return n.FloatPy()
	}
	f, ok := pyrt.ToFloat(v)
	if !ok {
		return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "must be real number, not %s", pyrt.PyTypeName(v))
	}
	return f, nil
}

func floatArg(fn string, args starlark.Tuple, kw []starlark.Tuple) (float64, error) {
	if len(args) != 1 || len(kw) > 0 {
		return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() takes exactly one argument (%d given)", fn, len(args))
	}
	return floatOf(fn, args[0])
}

func floatPred(f func(float64) bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		x, err := floatArg(b.Name(), args, kw)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(f(x)), nil
	}
}

func binaryFloat(name string, f func(x, y float64) float64) *starlark.Builtin {
	return pyrt.Builtin("math."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 || len(kw) > 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s expected 2 arguments, got %d", b.Name(), len(args))
		}
		x, err := floatOf(b.Name(), args[0])
		if err != nil {
			return nil, err
		}
		y, err := floatOf(b.Name(), args[1])
		if err != nil {
			return nil, err
		}
		out := f(x, y)
		if math.IsNaN(out) && !math.IsNaN(x) && !math.IsNaN(y) {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "math domain error")
		}
		return starlark.Float(out), nil
	})
}

func mathLog(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "log expected 1 or 2 arguments, got %d", len(args))
	}
	logOf := func(v starlark.Value) (float64, error) {
		if i, ok := v.(starlark.Int); ok && i.Sign() > 0 {
			bi := i.BigInt()
			if bits := bi.BitLen(); bits > 1000 { // too large for a float: log of the mantissa plus the exponent
				f, _ := new(big.Float).SetInt(new(big.Int).Rsh(bi, uint(bits-64))).Float64()
				return math.Log(f) + float64(bits-64)*math.Ln2, nil
			}
		}
		x, err := floatOf("log", v)
		if err != nil {
			return 0, err
		}
		if x <= 0 {
			return 0, pyrt.PyErrorf(pyrt.ExcValueError, "math domain error")
		}
		return pyrt.Log(x), nil
	}
	x, err := logOf(args[0])
	if err != nil {
		return nil, err
	}
	if len(args) == 2 {
		base, err := logOf(args[1])
		if err != nil {
			return nil, err
		}
		if base == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcZeroDivision, "float division by zero")
		}
		return starlark.Float(x / base), nil
	}
	return starlark.Float(x), nil
}

func floats(fn string, args starlark.Tuple) ([]float64, error) {
	out := make([]float64, len(args))
	for i, a := range args {
		f, err := floatOf(fn, a)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// degToRad and radToDeg are CPython's, worked out in floats from the
// float π (a Go constant expression would round the exact quotient).
var (
	floatPi  = math.Pi
	degToRad = floatPi / 180
	radToDeg = 180 / floatPi
)

func mathHypot(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	xs, err := floats(b.Name(), args)
	if err != nil {
		return nil, err
	}
	return starlark.Float(pyrt.Norm(xs)), nil
}

func mathDist(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var p, q starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &p, &q); err != nil {
		return nil, err
	}
	ps, err := floats(b.Name(), pyrt.ElemsOf(p))
	if err != nil {
		return nil, err
	}
	qs, err := floats(b.Name(), pyrt.ElemsOf(q))
	if err != nil {
		return nil, err
	}
	if len(ps) != len(qs) {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "both points must have the same number of dimensions")
	}
	diffs := make([]float64, len(ps))
	for i := range ps {
		diffs[i] = ps[i] - qs[i]
	}
	return starlark.Float(pyrt.Norm(diffs)), nil
}

func mathIsclose(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var av, bv starlark.Value
	relF, absF := pyrt.PyFloat(1e-9), pyrt.PyFloat(0)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "a", &av, "b", &bv, "rel_tol?", &relF, "abs_tol?", &absF); err != nil {
		return nil, err
	}
	rel, abs := float64(relF), float64(absF)
	x, err := floatOf(b.Name(), av)
	if err != nil {
		return nil, err
	}
	y, err := floatOf(b.Name(), bv)
	if err != nil {
		return nil, err
	}
	if x == y {
		return starlark.True, nil
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return starlark.False, nil
	}
	d := math.Abs(x - y)
	return starlark.Bool(d <= math.Abs(rel*y) || d <= math.Abs(rel*x) || d <= abs), nil
}

func bigInts(fn string, args starlark.Tuple) ([]*big.Int, error) {
	out := make([]*big.Int, len(args))
	for i, a := range args {
		if b, ok := a.(starlark.Bool); ok {
			a = starlark.MakeInt(pyrt.B2i(bool(b)))
		}
		v, ok := a.(starlark.Int)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object cannot be interpreted as an integer", pyrt.PyTypeName(a))
		}
		out[i] = v.BigInt()
	}
	return out, nil
}

func intFold(f func(a, b *big.Int) *big.Int, empty int64) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		xs, err := bigInts(b.Name(), args)
		if err != nil {
			return nil, err
		}
		acc := big.NewInt(empty)
		for i, x := range xs {
			if i == 0 {
				acc = new(big.Int).Abs(x)
				continue
			}
			acc = f(acc, x)
		}
		return starlark.MakeBigInt(acc), nil
	}
}

func lcm(a, b *big.Int) *big.Int {
	if a.Sign() == 0 || b.Sign() == 0 {
		return new(big.Int)
	}
	g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(a), new(big.Int).Abs(b))
	return new(big.Int).Abs(new(big.Int).Mul(new(big.Int).Quo(a, g), b))
}

func mathFactorial(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	xs, err := bigInts(b.Name(), args)
	if err != nil || len(xs) != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "factorial() takes exactly one integer argument")
	}
	if xs[0].Sign() < 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "factorial() not defined for negative values")
	}
	if !xs[0].IsInt64() || xs[0].Int64() > 100000 {
		return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "factorial() argument should not exceed 100000 in this REPL")
	}
	return starlark.MakeBigInt(new(big.Int).MulRange(1, xs[0].Int64())), nil
}

func mathComb(perm bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		xs, err := bigInts(b.Name(), args)
		if err != nil || len(xs) < 1 || len(xs) > 2 || !perm && len(xs) != 2 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() takes integer arguments", b.Name())
		}
		n := xs[0]
		k := n
		if len(xs) == 2 {
			k = xs[1]
		}
		if n.Sign() < 0 || k.Sign() < 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "n and k must be non-negative integers")
		}
		if k.Cmp(n) > 0 {
			return starlark.MakeInt(0), nil
		}
		if !n.IsInt64() || n.Int64() > 1000000 {
			return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "arguments too large")
		}
		ni, ki := n.Int64(), k.Int64()
		if perm {
			return starlark.MakeBigInt(new(big.Int).MulRange(ni-ki+1, ni)), nil
		}
		return starlark.MakeBigInt(new(big.Int).Binomial(ni, ki)), nil
	}
}

func mathIsqrt(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	xs, err := bigInts(b.Name(), args)
	if err != nil || len(xs) != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "isqrt() takes exactly one integer argument")
	}
	if xs[0].Sign() < 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "isqrt() argument must be nonnegative")
	}
	return starlark.MakeBigInt(new(big.Int).Sqrt(xs[0])), nil
}

func mathProd(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var acc starlark.Value = starlark.MakeInt(1)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "iterable", &it, "start?", &acc); err != nil {
		return nil, err
	}
	err := pyrt.Iterate(it, func(x starlark.Value) (bool, error) {
		v, err := starlark.Binary(syntax.STAR, acc, x)
		if err != nil {
			return false, pyrt.PyErrorf(pyrt.ExcTypeError, "unsupported operand type(s) for *: '%s' and '%s'", pyrt.PyTypeName(acc), pyrt.PyTypeName(x))
		}
		acc = v
		return true, nil
	})
	return acc, err
}

func mathFsum(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &it); err != nil {
		return nil, err
	}
	var partials []float64 // Shewchuk's algorithm, as Python's fsum
	err := pyrt.Iterate(it, func(v starlark.Value) (bool, error) {
		x, err := floatOf("fsum", v)
		if err != nil {
			return false, err
		}
		i := 0
		for _, y := range partials {
			if math.Abs(x) < math.Abs(y) {
				x, y = y, x
			}
			hi := x + y
			lo := y - (hi - x)
			if lo != 0 {
				partials[i] = lo
				i++
			}
			x = hi
		}
		partials = append(partials[:i], x)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	s := 0.0
	for _, p := range partials {
		s += p
	}
	return starlark.Float(s), nil
}
