// Correctly rounded exp, log and pow. CPython's float ** and math.exp,
// math.log, math.pow are the C library's, which rounds them to the
// nearest float; Go's math package is off by an ulp often (math.Pow for
// 1.05 ** 30 among 7 in 10 random cases, math.Log(3)), so the runtime
// works them out with big.Float at a precision that leaves only the
// final rounding.

package pyrt

import (
	"math"
	"math/big"
	"sync"
)

const crPrec = 128 // bits of the big.Float work

var (
	crOnce     sync.Once
	crLn2      *big.Float
	crLn10     *big.Float
	crEpsilonE = -crPrec - 8 // a series stops at a term below 2^crEpsilonE
)

func crConsts() {
	crOnce.Do(func() {
		third := new(big.Float).SetPrec(crPrec).Quo(crFloat(1), crFloat(3))
		crLn2 = atanh2(third) // ln 2 = 2 atanh(1/3)
		crLn10 = bigLog(crFloat(10))
	})
}

func crFloat(x float64) *big.Float { return new(big.Float).SetPrec(crPrec).SetFloat64(x) }

// atanh2 is 2 atanh(t) for a small t: 2 (t + t³/3 + t⁵/5 + ...).
func atanh2(t *big.Float) *big.Float {
	t2 := new(big.Float).SetPrec(crPrec).Mul(t, t)
	sum := new(big.Float).SetPrec(crPrec).Set(t)
	term := new(big.Float).SetPrec(crPrec).Set(t)
	d := new(big.Float).SetPrec(crPrec)
	for k := int64(3); ; k += 2 {
		term.Mul(term, t2)
		d.Quo(term, new(big.Float).SetInt64(k))
		if d.Sign() == 0 || d.MantExp(nil)-sum.MantExp(nil) < crEpsilonE {
			break
		}
		sum.Add(sum, d)
	}
	return sum.Mul(sum, crFloat(2))
}

// bigLog is ln x for x > 0: x = m·2^e with m near 1, ln m by atanh2.
func bigLog(x *big.Float) *big.Float {
	m := new(big.Float).SetPrec(crPrec)
	e := x.MantExp(m) // m in [0.5, 1)
	if m.Cmp(crFloat(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	num := new(big.Float).SetPrec(crPrec).Sub(m, crFloat(1))
	den := new(big.Float).SetPrec(crPrec).Add(m, crFloat(1))
	out := atanh2(num.Quo(num, den))
	if e != 0 {
		out.Add(out, new(big.Float).SetPrec(crPrec).Mul(crLn2, new(big.Float).SetInt64(int64(e))))
	}
	return out
}

// bigExp is e^y for |y| well inside the float range: y = k ln 2 + r, the
// Taylor series of r/1024 squared ten times.
func bigExp(y *big.Float) *big.Float {
	yf, _ := y.Float64()
	k := int64(math.Round(yf / math.Ln2))
	r := new(big.Float).SetPrec(crPrec).Sub(y, new(big.Float).SetPrec(crPrec).Mul(crLn2, new(big.Float).SetInt64(k)))
	r.SetMantExp(r, -10)
	sum := crFloat(1)
	term := crFloat(1)
	for n := int64(1); ; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil) < crEpsilonE {
			break
		}
		sum.Add(sum, term)
	}
	for i := 0; i < 10; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// Exp is e^x rounded to the nearest float.
func Exp(x float64) float64 {
	if !finite(x) || x > 710 || x < -746 || x == 0 {
		return math.Exp(x)
	}
	crConsts()
	f, _ := bigExp(crFloat(x)).Float64()
	return f
}

// Log is ln x rounded to the nearest float.
func Log(x float64) float64 {
	if !finite(x) || x <= 0 || x == 1 {
		return math.Log(x)
	}
	crConsts()
	f, _ := bigLog(crFloat(x)).Float64()
	return f
}

// Log10 is log₁₀ x rounded to the nearest float (3.0 for 1000).
func Log10(x float64) float64 {
	if !finite(x) || x <= 0 || x == 1 {
		return math.Log10(x)
	}
	crConsts()
	f, _ := bigLog(crFloat(x)).Quo(bigLog(crFloat(x)), crLn10).Float64()
	return f
}

// Log2 is log₂ x rounded to the nearest float.
func Log2(x float64) float64 {
	if !finite(x) || x <= 0 || x == 1 {
		return math.Log2(x)
	}
	crConsts()
	l := bigLog(crFloat(x))
	f, _ := l.Quo(l, crLn2).Float64()
	return f
}

// Pow is x**y rounded to the nearest float, C's pow: its special cases
// (zeros, infinities, NaNs, x = 1, y = 0) are math.Pow's, which follow
// C99.
func Pow(x, y float64) float64 {
	if !finite(x) || !finite(y) || x == 0 || y == 0 || x == 1 || y == 1 {
		return math.Pow(x, y)
	}
	neg := false
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN()
		}
		neg = math.Mod(y, 2) != 0
		x = -x
	}
	var out float64
	switch {
	case y == 2:
		out = x * x
	case y == -1:
		out = 1 / x
	case y == 0.5:
		out = math.Sqrt(x)
	case y == math.Trunc(y) && math.Abs(y) <= 64:
		out = bigPowInt(x, int(y))
	default:
		crConsts()
		l := bigLog(crFloat(x))
		l.Mul(l, crFloat(y))
		if lf, _ := l.Float64(); lf > 710 {
			out = math.Inf(1)
		} else if lf < -746 {
			out = 0
		} else {
			out, _ = bigExp(l).Float64()
		}
	}
	if neg {
		return -out
	}
	return out
}

// bigPowInt is x**n for a small integer n by squaring.
func bigPowInt(x float64, n int) float64 {
	inv := n < 0
	if inv {
		n = -n
	}
	base := crFloat(x)
	acc := crFloat(1)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			acc.Mul(acc, base)
		}
		base.Mul(base, base)
	}
	if inv {
		acc.Quo(crFloat(1), acc)
	}
	f, _ := acc.Float64()
	return f
}
