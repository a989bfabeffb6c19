// Correctly rounded trigonometry and hypot, as crmath.go does exp and
// log: Go's math.Sin, Cos, Tan, Atan, Atan2, Tanh and Hypot differ from
// the C library's that CPython calls in a quarter to a third of cases.

package pyrt

import (
	"math"
	"math/big"
	"sync"
)

const piPrec = 2 * crPrec // π's bits, for reducing arguments up to 2^20

var (
	piOnce   sync.Once
	crHalfPi *big.Float // π/2 at piPrec
)

func piConsts() {
	piOnce.Do(func() {
		// Machin: π = 16 atan(1/5) - 4 atan(1/239)
		at := func(n int64) *big.Float {
			t := new(big.Float).SetPrec(piPrec).Quo(new(big.Float).SetPrec(piPrec).SetInt64(1), new(big.Float).SetInt64(n))
			return atanSeries(t, piPrec)
		}
		pi := at(5)
		pi.Mul(pi, new(big.Float).SetInt64(16))
		pi.Sub(pi, at(239).Mul(at(239), new(big.Float).SetInt64(4)))
		crHalfPi = pi.SetMantExp(pi, -1)
	})
}

// atanSeries is atan t = t - t³/3 + t⁵/5 - ... for a small t.
func atanSeries(t *big.Float, prec uint) *big.Float {
	t2 := new(big.Float).SetPrec(prec).Mul(t, t)
	sum := new(big.Float).SetPrec(prec).Set(t)
	term := new(big.Float).SetPrec(prec).Set(t)
	d := new(big.Float).SetPrec(prec)
	for k := int64(3); ; k += 2 {
		term.Mul(term, t2)
		term.Neg(term)
		d.Quo(term, new(big.Float).SetInt64(k))
		if d.Sign() == 0 || d.MantExp(nil)-sum.MantExp(nil) < -int(prec)-8 {
			return sum
		}
		sum.Add(sum, d)
	}
}

// sinCosSeries is sin r and cos r for |r| <= π/4.
func sinCosSeries(r *big.Float) (sin, cos *big.Float) {
	r2 := new(big.Float).SetPrec(crPrec).Mul(r, r)
	sin, cos = new(big.Float).SetPrec(crPrec).Set(r), crFloat(1)
	ts, tc := new(big.Float).SetPrec(crPrec).Set(r), crFloat(1)
	for n := int64(1); ; n++ {
		ts.Mul(ts, r2)
		ts.Quo(ts, new(big.Float).SetInt64(-(2*n)*(2*n+1)))
		tc.Mul(tc, r2)
		tc.Quo(tc, new(big.Float).SetInt64(-(2*n-1)*(2*n)))
		sin.Add(sin, ts)
		cos.Add(cos, tc)
		if tc.Sign() == 0 || tc.MantExp(nil) < crEpsilonE {
			return sin, cos
		}
	}
}

// bigSinCos is sin x and cos x for a finite |x| < 2^20.
func bigSinCos(x float64) (sin, cos *big.Float) {
	piConsts()
	k := math.Round(x / (math.Pi / 2))
	r := new(big.Float).SetPrec(piPrec).Mul(crHalfPi, new(big.Float).SetFloat64(k))
	r.Sub(new(big.Float).SetPrec(piPrec).SetFloat64(x), r)
	s, c := sinCosSeries(new(big.Float).SetPrec(crPrec).Set(r))
	switch int64(k) & 3 {
	case 1:
		return c, s.Neg(s)
	case 2:
		return s.Neg(s), c.Neg(c)
	case 3:
		return c.Neg(c), s
	}
	return s, c
}

func trigArg(x float64) bool { return finite(x) && x != 0 && math.Abs(x) < 1<<20 }

func round64(x *big.Float) float64 { f, _ := x.Float64(); return f }

// Sin, Cos and Tan are rounded to the nearest float.
func Sin(x float64) float64 {
	if !trigArg(x) {
		return math.Sin(x)
	}
	s, _ := bigSinCos(x)
	return round64(s)
}

func Cos(x float64) float64 {
	if !trigArg(x) {
		return math.Cos(x)
	}
	_, c := bigSinCos(x)
	return round64(c)
}

func Tan(x float64) float64 {
	if !trigArg(x) {
		return math.Tan(x)
	}
	s, c := bigSinCos(x)
	return round64(s.Quo(s, c))
}

// bigAtan is atan t: t folded into [0, 1], its angle halved three times
// (t / (1 + √(1+t²))), then the series.
func bigAtan(t *big.Float) *big.Float {
	piConsts()
	neg := t.Sign() < 0
	t = new(big.Float).SetPrec(crPrec).Abs(t)
	inv := t.Cmp(crFloat(1)) > 0
	if inv {
		t.Quo(crFloat(1), t)
	}
	for i := 0; i < 3; i++ {
		h := new(big.Float).SetPrec(crPrec).Mul(t, t)
		h.Add(h, crFloat(1))
		h.Sqrt(h)
		t.Quo(t, h.Add(h, crFloat(1)))
	}
	a := atanSeries(t, crPrec)
	a.SetMantExp(a, 3)
	if inv {
		a.Sub(new(big.Float).SetPrec(crPrec).Set(crHalfPi), a)
	}
	if neg {
		a.Neg(a)
	}
	return a
}

// Atan is rounded to the nearest float.
func Atan(x float64) float64 {
	if !finite(x) || x == 0 {
		return math.Atan(x)
	}
	return round64(bigAtan(crFloat(x)))
}

// Atan2 is atan2(y, x) rounded to the nearest float; zeros and
// infinities are C99's, as math.Atan2 has them.
func Atan2(y, x float64) float64 {
	if !finite(x) || !finite(y) || x == 0 || y == 0 {
		return math.Atan2(y, x)
	}
	return round64(bigAtan2(crFloat(y), crFloat(x)))
}

// bigAtan2 is the angle of (x, y) for non-zero x.
func bigAtan2(y, x *big.Float) *big.Float {
	q := new(big.Float).SetPrec(crPrec).Quo(new(big.Float).SetPrec(crPrec).Abs(y), new(big.Float).SetPrec(crPrec).Abs(x))
	a := bigAtan(q)
	if x.Sign() < 0 {
		pi := new(big.Float).SetPrec(crPrec).SetMantExp(crHalfPi, 1)
		a = pi.Sub(pi, a)
	}
	if y.Sign() < 0 {
		a.Neg(a)
	}
	return a
}

// Asin and Acos are rounded to the nearest float, for |x| <= 1.
func Asin(x float64) float64 {
	if !finite(x) || x == 0 || math.Abs(x) >= 1 {
		return math.Asin(x)
	}
	return round64(bigAtan(new(big.Float).SetPrec(crPrec).Quo(crFloat(x), sqrtOneMinusSq(x))))
}

func Acos(x float64) float64 {
	if !finite(x) || math.Abs(x) >= 1 {
		return math.Acos(x)
	}
	if x == 0 {
		return math.Pi / 2
	}
	return round64(bigAtan2(sqrtOneMinusSq(x), crFloat(x)))
}

func sqrtOneMinusSq(x float64) *big.Float {
	s := new(big.Float).SetPrec(crPrec).Sub(crFloat(1), crFloat(x))
	s.Mul(s, new(big.Float).SetPrec(crPrec).Add(crFloat(1), crFloat(x)))
	return s.Sqrt(s)
}

// Norm is √(Σ x²) rounded to the nearest float, as math.hypot and
// math.dist give it.
func Norm(xs []float64) float64 {
	sum := crFloat(0)
	for _, x := range xs {
		if !finite(x) {
			out := 0.0
			for _, y := range xs {
				out = math.Hypot(out, y)
			}
			return out
		}
		sq := crFloat(x)
		sum.Add(sum, sq.Mul(sq, sq))
	}
	return round64(sum.Sqrt(sum))
}
