// Fraction's arithmetic and comparisons, and its numberObject hooks
// (pynumbers.go), which the builtins call as Python calls __int__,
// __float__, __round__, __floor__, ...

package pynum

import (
	"math"
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

func (f *pyFraction) HashPy() (starlark.Int, error)  { return pyrt.PyHashNumber(f.q), nil }
func (f *pyFraction) AbsPy() (starlark.Value, error) { return f.make(new(big.Rat).Abs(f.q)), nil }

func (f *pyFraction) FloatPy() (float64, error) {
	x, _ := f.q.Float64()
	if math.IsInf(x, 0) {
		return 0, pyrt.PyErrorf(pyrt.ExcOverflow, "integer division result too large for a float")
	}
	return x, nil
}

func (f *pyFraction) IntPy() (starlark.Value, error) {
	return starlark.MakeBigInt(new(big.Int).Quo(f.q.Num(), f.q.Denom())), nil
}

func (f *pyFraction) FloorPy(ceil bool) (starlark.Value, error) {
	n := f.q.Num()
	if ceil {
		return starlark.MakeBigInt(new(big.Int).Neg(floorDivBig(new(big.Int).Neg(n), f.q.Denom()))), nil
	}
	return starlark.MakeBigInt(floorDivBig(n, f.q.Denom())), nil
}

// roundHalfEven is round(q): the nearest int, halves to even.
func roundHalfEven(q *big.Rat) *big.Int {
	d := q.Denom()
	fl := floorDivBig(q.Num(), d)
	twice := new(big.Int).Lsh(floorModBig(q.Num(), d), 1)
	if c := twice.Cmp(d); c > 0 || c == 0 && fl.Bit(0) == 1 {
		fl.Add(fl, big.NewInt(1))
	}
	return fl
}

// roundPy is round(f, nd): an int without nd, else a Fraction.
func (f *pyFraction) RoundPy(nd starlark.Value) (starlark.Value, error) {
	if nd == starlark.None {
		return starlark.MakeBigInt(roundHalfEven(f.q)), nil
	}
	nq, ok := rationalOf(nd)
	if _, isFloat := nd.(starlark.Float); isFloat || ok && !nq.IsInt() {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "both arguments should be Rational instances")
	}
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "bad operand type for abs(): '%s'", pyrt.PyTypeName(nd))
	}
	n := nq.Num()
	if !n.IsInt64() || n.Int64() > 100000 || n.Int64() < -100000 {
		return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "round(Fraction, ndigits): ndigits %s is too large for the REPL", n.String())
	}
	shift := new(big.Int).Exp(big.NewInt(10), new(big.Int).Abs(n), nil)
	s := new(big.Rat).SetInt(shift)
	if n.Sign() > 0 {
		return f.make(new(big.Rat).SetFrac(roundHalfEven(new(big.Rat).Mul(f.q, s)), shift)), nil
	}
	r := roundHalfEven(new(big.Rat).Quo(f.q, s))
	return f.make(new(big.Rat).SetInt(r.Mul(r, shift))), nil
}

func (f *pyFraction) ComparePy(op syntax.Token, y starlark.Value, reversed bool) (bool, bool, error) {
	if reversed {
		op = pyrt.FlipCompare[op]
	}
	if q, ok := rationalOf(y); ok {
		return pyrt.CompareInts(op, int64(f.q.Cmp(q)), 0), true, nil
	}
	if fy, ok := y.(starlark.Float); ok {
		if g := float64(fy); math.IsNaN(g) || math.IsInf(g, 0) {
			return compareFloats(op, 0, g), true, nil // as Python does, f counts as 0
		}
		return pyrt.CompareInts(op, int64(f.q.Cmp(new(big.Rat).SetFloat64(float64(fy)))), 0), true, nil
	}
	return false, false, nil
}

// compareFloats is x op y with IEEE's NaN: unordered, unequal to all.
func compareFloats(op syntax.Token, x, y float64) bool {
	switch op {
	case syntax.LT:
		return x < y
	case syntax.LE:
		return x <= y
	case syntax.GT:
		return x > y
	case syntax.GE:
		return x >= y
	case syntax.EQL:
		return x == y
	}
	return x != y
}

func (f *pyFraction) Unary(op syntax.Token) (starlark.Value, error) {
	switch op {
	case syntax.TILDE:
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "bad operand type for unary ~: 'Fraction'")
	case syntax.MINUS:
		return f.make(new(big.Rat).Neg(f.q)), nil
	case syntax.PLUS:
		return f, nil
	}
	return nil, nil
}

// Binary is f op y (side Left) or y op f: exact with ints and Fractions,
// a float with floats.
func (f *pyFraction) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	switch op {
	case syntax.PLUS, syntax.MINUS, syntax.STAR, syntax.SLASH, syntax.SLASHSLASH, syntax.PERCENT:
	default:
		return nil, nil
	}
	if q, ok := rationalOf(y); ok {
		a, b := f.q, q
		if side == starlark.Right {
			a, b = b, a
		}
		return f.rationalOp(op, a, b)
	}
	if fy, ok := y.(starlark.Float); ok {
		a, b, err := f.floatOperands(fy, side)
		if err != nil {
			return nil, err
		}
		if op == syntax.PERCENT {
			return pyrt.PercentOp(nil, a, b)
		}
		return pyrt.Arith(op, a, b)
	}
	switch y.(type) {
	case starlark.String, starlark.Bytes, *starlark.List, starlark.Tuple:
		if op == syntax.STAR {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "can't multiply sequence by non-int of type 'Fraction'")
		}
	}
	return nil, nil
}

// floatOperands are float(f) and y in the order of side.
func (f *pyFraction) floatOperands(y starlark.Float, side starlark.Side) (starlark.Value, starlark.Value, error) {
	x, err := f.FloatPy()
	if err != nil {
		return nil, nil, err
	}
	if side == starlark.Right {
		return y, starlark.Float(x), nil
	}
	return starlark.Float(x), y, nil
}

func (f *pyFraction) rationalOp(op syntax.Token, a, b *big.Rat) (starlark.Value, error) {
	switch op {
	case syntax.PLUS:
		return f.make(new(big.Rat).Add(a, b)), nil
	case syntax.MINUS:
		return f.make(new(big.Rat).Sub(a, b)), nil
	case syntax.STAR:
		return f.make(new(big.Rat).Mul(a, b)), nil
	case syntax.SLASH:
		if b.Sign() == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcZeroDivision, "Fraction(%d, 0)", a.Sign())
		}
		return f.make(new(big.Rat).Quo(a, b)), nil
	}
	n, d := new(big.Int).Mul(a.Num(), b.Denom()), new(big.Int).Mul(a.Denom(), b.Num())
	if op == syntax.SLASHSLASH {
		if b.Sign() == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcZeroDivision, "integer division or modulo by zero")
		}
		return starlark.MakeBigInt(floorDivBig(n, d)), nil
	}
	if b.Sign() == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcZeroDivision, "integer modulo by zero")
	}
	m := floorModBig(n, new(big.Int).Mul(b.Num(), a.Denom()))
	return f.make(new(big.Rat).SetFrac(m, new(big.Int).Mul(a.Denom(), b.Denom()))), nil
}

// divmodPy is divmod(f, y) (side Left) or divmod(y, f).
func (f *pyFraction) DivmodPy(y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if q, ok := rationalOf(y); ok {
		a, b := f.q, q
		if side == starlark.Right {
			a, b = b, a
		}
		if b.Sign() == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcZeroDivision, "integer division or modulo by zero")
		}
		div, err := f.rationalOp(syntax.SLASHSLASH, a, b)
		if err != nil {
			return nil, err
		}
		mod, err := f.rationalOp(syntax.PERCENT, a, b)
		return starlark.Tuple{div, mod}, err
	}
	if fy, ok := y.(starlark.Float); ok {
		a, b, err := f.floatOperands(fy, side)
		if err != nil {
			return nil, err
		}
		return pyrt.PyDivmod(nil, nil, starlark.Tuple{a, b}, nil)
	}
	a, b := starlark.Value(f), y
	if side == starlark.Right {
		a, b = b, a
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "unsupported operand type(s) for divmod(): '%s' and '%s'", pyrt.PyTypeName(a), pyrt.PyTypeName(b))
}

// powPy is f ** y (side Left) or y ** f, as CPython's Fraction.__pow__
// and __rpow__: exact for an int exponent, else a float.
func (f *pyFraction) PowPy(r *pyrt.Interp, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if side == starlark.Right {
		return f.rpow(r, y)
	}
	if q, ok := rationalOf(y); ok {
		if q.IsInt() {
			return f.intPow(r, q.Num())
		}
		y = starlark.Float(mustFloat(q)) // float(f) ** float(y)
	}
	x, err := f.FloatPy()
	if err != nil {
		return nil, err
	}
	return r.PyPow(starlark.Float(x), y) // float(f) ** y, as CPython
}

// rpow is x ** f for x not a Fraction.
func (f *pyFraction) rpow(r *pyrt.Interp, x starlark.Value) (starlark.Value, error) {
	num := starlark.MakeBigInt(f.q.Num())
	if f.q.IsInt() && f.q.Sign() >= 0 {
		return r.PyPow(pyrt.BoolToInt(x), num)
	}
	if q, ok := rationalOf(x); ok {
		return f.make(q).PowPy(r, f, starlark.Left)
	}
	if f.q.IsInt() {
		return r.PyPow(x, num)
	}
	y, err := f.FloatPy()
	if err != nil {
		return nil, err
	}
	return r.PyPow(x, starlark.Float(y)) // x ** float(f), as CPython
}

// intPow is f ** p, exact, through pyPow's memory checks.
func (f *pyFraction) intPow(r *pyrt.Interp, p *big.Int) (starlark.Value, error) {
	n, d := f.q.Num(), f.q.Denom()
	if p.Sign() < 0 {
		if n.Sign() == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcZeroDivision, "Fraction(1, 0)")
		}
		n, d = d, n
		p = new(big.Int).Neg(p)
	}
	pn, err := r.PyPow(starlark.MakeBigInt(n), starlark.MakeBigInt(p))
	if err != nil {
		return nil, err
	}
	pd, err := r.PyPow(starlark.MakeBigInt(d), starlark.MakeBigInt(p))
	if err != nil {
		return nil, err
	}
	return f.make(new(big.Rat).SetFrac(pn.(starlark.Int).BigInt(), pd.(starlark.Int).BigInt())), nil
}

func mustFloat(q *big.Rat) float64 {
	x, _ := q.Float64()
	return x
}
