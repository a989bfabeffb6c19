// decimal arithmetic: rounding to the context (the specification's
// fix), + - * / // % divmod, and the operators on Decimal and int.

package pynum

import (
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

// roundDrop drops the low n >= 0 digits of c by mode: the kept digits,
// and 1 when they were incremented, 0 when the dropped digits were zeros,
// -1 when they were not (as _pydecimal's rounding functions).
func roundDrop(neg bool, c *big.Int, n int, mode string) (*big.Int, int) {
	if n <= 0 {
		return new(big.Int).Set(c), 0
	}
	p := pow10(n)
	q, r := new(big.Int).QuoRem(c, p, new(big.Int))
	if r.Sign() == 0 {
		return q, 0
	}
	half := new(big.Int).Lsh(r, 1).Cmp(p)
	up := false
	switch mode {
	case "ROUND_UP":
		up = true
	case "ROUND_HALF_UP":
		up = half >= 0
	case "ROUND_HALF_DOWN":
		up = half > 0
	case "ROUND_HALF_EVEN":
		up = half > 0 || half == 0 && q.Bit(0) == 1
	case "ROUND_CEILING":
		up = !neg
	case "ROUND_FLOOR":
		up = neg
	case "ROUND_05UP":
		last := new(big.Int).Rem(q, bigTen).Int64()
		up = last == 0 || last == 5
	}
	if up {
		return q.Add(q, big.NewInt(1)), 1
	}
	return q, -1
}

// rescale gives d exponent exp, padding with zeros or rounding by mode;
// quiet, as the specification's rescale.
func (d *pyDecimal) rescale(exp int, mode string) *pyDecimal {
	if d.special() {
		return d
	}
	if d.coef.Sign() == 0 {
		return d.m.dec(d.neg, new(big.Int), exp)
	}
	if d.exp >= exp {
		return d.m.dec(d.neg, new(big.Int).Mul(d.coef, pow10(d.exp-exp)), exp)
	}
	c, n := d.coef, exp-d.exp
	if n > d.digits() {
		c, n = big.NewInt(1), 1 // smaller than half a unit of exp: only its sign matters
	}
	q, _ := roundDrop(d.neg, c, n, mode)
	return d.m.dec(d.neg, q, exp)
}

// fix rounds d to the context's precision and exponent limits, signalling
// as the specification's fix does.
func (d *pyDecimal) fix(ctx *decContext) (*pyDecimal, error) {
	if d.special() {
		if d.isNaN() && d.digits() > ctx.prec-ctx.clamp && d.coef.Sign() != 0 {
			keep := new(big.Int).Rem(d.coef, pow10(ctx.prec-ctx.clamp))
			return &pyDecimal{neg: d.neg, kind: d.kind, coef: keep, m: d.m}, nil
		}
		return d, nil
	}
	etiny, etop := ctx.etiny(), ctx.etop()
	if d.coef.Sign() == 0 {
		expMax := ctx.emax
		if ctx.clamp == 1 {
			expMax = etop
		}
		e := min(max(d.exp, etiny), expMax)
		if e != d.exp {
			return d.m.dec(d.neg, new(big.Int), e), ctx.signal(excDecClamped)
		}
		return d, nil
	}
	expMin := d.digits() + d.exp - ctx.prec
	if expMin > etop {
		return d.overflow(ctx)
	}
	subnormal := expMin < etiny
	if subnormal {
		expMin = etiny
	}
	if d.exp < expMin {
		return d.fixRound(ctx, expMin, subnormal)
	}
	if subnormal {
		if err := ctx.signal(excDecSubnormal); err != nil {
			return nil, err
		}
	}
	if ctx.clamp == 1 && d.exp > etop {
		padded := d.m.dec(d.neg, new(big.Int).Mul(d.coef, pow10(d.exp-etop)), etop)
		return padded, ctx.signal(excDecClamped)
	}
	return d, nil
}

// fixRound is fix's rounding to exponent expMin, with its signals in the
// specification's order.
func (d *pyDecimal) fixRound(ctx *decContext, expMin int, subnormal bool) (*pyDecimal, error) {
	c, n := d.coef, expMin-d.exp
	if n > d.digits() {
		c, n = big.NewInt(1), 1
	}
	q, changed := roundDrop(d.neg, c, n, ctx.rounding)
	if changed > 0 && numDigits(q) > ctx.prec {
		q.Quo(q, bigTen)
		expMin++
	}
	var ans *pyDecimal
	if expMin > ctx.etop() {
		var err error
		if ans, err = d.overflow(ctx); err != nil {
			return nil, err
		}
	} else {
		ans = d.m.dec(d.neg, q, expMin)
	}
	var sigs []*pyrt.ExcType
	if changed != 0 && subnormal {
		sigs = append(sigs, excDecUnderflow)
	}
	if subnormal {
		sigs = append(sigs, excDecSubnormal)
	}
	if changed != 0 {
		sigs = append(sigs, excDecInexact)
	}
	sigs = append(sigs, excDecRounded)
	if ans.isZero() {
		sigs = append(sigs, excDecClamped)
	}
	for _, s := range sigs {
		if err := ctx.signal(s); err != nil {
			return nil, err
		}
	}
	return ans, nil
}

// overflow signals Overflow (then Inexact and Rounded) and is the
// rounding's result when it is not trapped.
func (d *pyDecimal) overflow(ctx *decContext) (*pyDecimal, error) {
	for _, s := range []*pyrt.ExcType{excDecOverflow, excDecInexact, excDecRounded} {
		if err := ctx.signal(s); err != nil {
			return nil, err
		}
	}
	switch ctx.rounding {
	case "ROUND_HALF_UP", "ROUND_HALF_EVEN", "ROUND_HALF_DOWN", "ROUND_UP":
		return d.m.inf(d.neg), nil
	case "ROUND_CEILING":
		if !d.neg {
			return d.m.inf(false), nil
		}
	case "ROUND_FLOOR":
		if d.neg {
			return d.m.inf(true), nil
		}
	}
	nines := new(big.Int).Sub(pow10(ctx.prec), big.NewInt(1))
	return d.m.dec(d.neg, nines, ctx.etop()), nil
}

// checkNaNs is the NaN a NaN operand makes the result (a signalling NaN
// signals InvalidOperation first), or nil.
func checkNaNs(ctx *decContext, a, b *pyDecimal) (*pyDecimal, error) {
	for _, x := range []*pyDecimal{a, b} {
		if x != nil && x.kind == decSNaN {
			if err := ctx.signal(excDecInvalid); err != nil {
				return nil, err
			}
			return (&pyDecimal{neg: x.neg, kind: decNaN, coef: x.coef, m: x.m}).fix(ctx)
		}
	}
	for _, x := range []*pyDecimal{a, b} {
		if x != nil && x.kind == decNaN {
			return x.fix(ctx)
		}
	}
	return nil, nil
}

func (d *pyDecimal) negate() *pyDecimal {
	n := *d
	n.neg = !d.neg
	return &n
}

func (d *pyDecimal) add(o *pyDecimal, ctx *decContext) (*pyDecimal, error) {
	if d.special() || o.special() {
		if ans, err := checkNaNs(ctx, d, o); ans != nil || err != nil {
			return ans, err
		}
		if d.kind == decInf {
			if o.kind == decInf && d.neg != o.neg {
				return ctx.invalid(excDecInvalid)
			}
			return d, nil
		}
		return o, nil
	}
	exp := min(d.exp, o.exp)
	negZero := ctx.rounding == "ROUND_FLOOR" && d.neg != o.neg
	switch {
	case d.isZero() && o.isZero():
		return d.m.dec(d.neg && o.neg || negZero, new(big.Int), exp).fix(ctx)
	case d.isZero():
		return o.rescale(max(exp, o.exp-ctx.prec-1), ctx.rounding).fix(ctx)
	case o.isZero():
		return d.rescale(max(exp, d.exp-ctx.prec-1), ctx.rounding).fix(ctx)
	}
	a, b := alignForAdd(d, o, ctx.prec)
	sa, sb := signed(d.neg, a.coef), signed(o.neg, b.coef)
	sum := new(big.Int).Add(sa, sb)
	if sum.Sign() == 0 {
		return d.m.dec(negZero, sum, exp).fix(ctx)
	}
	return d.m.dec(sum.Sign() < 0, sum.Abs(sum), a.exp).fix(ctx)
}

func signed(neg bool, c *big.Int) *big.Int {
	if neg {
		return new(big.Int).Neg(c)
	}
	return c
}

// alignForAdd brings two nonzero operands to one exponent; an operand far
// below the other's precision is replaced by a unit that rounds the same
// (_pydecimal's _normalize).
func alignForAdd(x, y *pyDecimal, prec int) (*pyDecimal, *pyDecimal) {
	swapped := false
	if x.exp < y.exp {
		x, y, swapped = y, x, true
	}
	// x has the larger exponent
	e := x.exp + min(-1, x.digits()-prec-2)
	if y.digits()+y.exp-1 < e {
		y = y.m.dec(y.neg, big.NewInt(1), e)
	}
	x = x.m.dec(x.neg, new(big.Int).Mul(x.coef, pow10(x.exp-y.exp)), y.exp)
	if swapped {
		return y, x
	}
	return x, y
}

func (d *pyDecimal) mul(o *pyDecimal, ctx *decContext) (*pyDecimal, error) {
	neg := d.neg != o.neg
	if d.special() || o.special() {
		if ans, err := checkNaNs(ctx, d, o); ans != nil || err != nil {
			return ans, err
		}
		if d.kind == decInf && o.isZero() || o.kind == decInf && d.isZero() {
			return ctx.invalid(excDecInvalid)
		}
		return d.m.inf(neg), nil
	}
	return d.m.dec(neg, new(big.Int).Mul(d.coef, o.coef), d.exp+o.exp).fix(ctx)
}

func (d *pyDecimal) divByZero(ctx *decContext, neg bool) (*pyDecimal, error) {
	if err := ctx.signal(excDecDivByZero); err != nil {
		return nil, err
	}
	return d.m.inf(neg), nil
}

func (d *pyDecimal) truediv(o *pyDecimal, ctx *decContext) (*pyDecimal, error) {
	neg := d.neg != o.neg
	if d.special() || o.special() {
		if ans, err := checkNaNs(ctx, d, o); ans != nil || err != nil {
			return ans, err
		}
		switch {
		case d.kind == decInf && o.kind == decInf:
			return ctx.invalid(excDecInvalid)
		case d.kind == decInf:
			return d.m.inf(neg), nil
		}
		return d.m.dec(neg, new(big.Int), ctx.etiny()), ctx.signal(excDecClamped)
	}
	if o.isZero() {
		if d.isZero() {
			return ctx.invalid(excDecUndefined)
		}
		return d.divByZero(ctx, neg)
	}
	if d.isZero() {
		return d.m.dec(neg, new(big.Int), d.exp-o.exp).fix(ctx)
	}
	shift := o.digits() - d.digits() + ctx.prec + 1
	exp := d.exp - o.exp - shift
	var q, r *big.Int
	if shift >= 0 {
		q, r = new(big.Int).QuoRem(new(big.Int).Mul(d.coef, pow10(shift)), o.coef, new(big.Int))
	} else {
		q, r = new(big.Int).QuoRem(d.coef, new(big.Int).Mul(o.coef, pow10(-shift)), new(big.Int))
	}
	if r.Sign() != 0 {
		if new(big.Int).Rem(q, big.NewInt(5)).Sign() == 0 {
			q.Add(q, big.NewInt(1)) // inexact: a last digit that rounds as the rest would
		}
	} else {
		q, exp = stripZeros(q, exp, d.exp-o.exp)
	}
	return d.m.dec(neg, q, exp).fix(ctx)
}

// stripZeros drops trailing zeros of c while exp stays at most ideal.
func stripZeros(c *big.Int, exp, ideal int) (*big.Int, int) {
	r := new(big.Int)
	for exp < ideal && c.Sign() != 0 {
		q, _ := new(big.Int).QuoRem(c, bigTen, r)
		if r.Sign() != 0 {
			break
		}
		c, exp = q, exp+1
	}
	return c, exp
}

// divide is the integer part and remainder of d / o, both finite, o
// nonzero and d not infinite (_pydecimal's _divide).
func (d *pyDecimal) divide(o *pyDecimal, ctx *decContext) (*pyDecimal, *pyDecimal, error) {
	neg := d.neg != o.neg
	ideal := min(d.exp, o.exp)
	if o.kind == decInf {
		ideal = d.exp
	}
	expdiff := d.adjusted() - o.adjusted()
	if d.isZero() || o.kind == decInf || expdiff <= -2 {
		return d.m.dec(neg, new(big.Int), 0), d.rescale(ideal, ctx.rounding), nil
	}
	if expdiff <= ctx.prec {
		a, b := d.coef, o.coef
		if d.exp >= o.exp {
			a = new(big.Int).Mul(a, pow10(d.exp-o.exp))
		} else {
			b = new(big.Int).Mul(b, pow10(o.exp-d.exp))
		}
		q, r := new(big.Int).QuoRem(a, b, new(big.Int))
		if q.Cmp(pow10(ctx.prec)) < 0 {
			return d.m.dec(neg, q, 0), d.m.dec(d.neg, r, ideal), nil
		}
	}
	ans, err := ctx.invalid(excDecImpossible)
	return ans, ans, err
}

func (d *pyDecimal) floordiv(o *pyDecimal, ctx *decContext) (*pyDecimal, error) {
	if ans, err := checkNaNs(ctx, d, o); ans != nil || err != nil {
		return ans, err
	}
	if d.kind == decInf {
		if o.kind == decInf {
			return ctx.invalid(excDecInvalid)
		}
		return d.m.inf(d.neg != o.neg), nil
	}
	if o.isZero() {
		if d.isZero() {
			return ctx.invalid(excDecUndefined)
		}
		return d.divByZero(ctx, d.neg != o.neg)
	}
	q, _, err := d.divide(o, ctx)
	return q, err
}

func (d *pyDecimal) mod(o *pyDecimal, ctx *decContext) (*pyDecimal, error) {
	if ans, err := checkNaNs(ctx, d, o); ans != nil || err != nil {
		return ans, err
	}
	switch {
	case d.kind == decInf:
		return ctx.invalid(excDecInvalid)
	case o.isZero() && d.isZero():
		return ctx.invalid(excDecUndefined)
	case o.isZero():
		return ctx.invalid(excDecInvalid)
	}
	_, r, err := d.divide(o, ctx)
	if err != nil {
		return nil, err
	}
	return r.fix(ctx)
}

func (d *pyDecimal) Unary(op syntax.Token) (starlark.Value, error) {
	ctx := d.m.cur
	switch op {
	case syntax.MINUS, syntax.PLUS:
		if ans, err := checkNaNs(ctx, d, nil); ans != nil || err != nil {
			return ans, err
		}
		x := d
		if op == syntax.MINUS {
			x = d.negate()
		}
		if d.isZero() && ctx.rounding != "ROUND_FLOOR" {
			x = d.m.dec(false, d.coef, d.exp)
		}
		return x.fix(ctx)
	}
	return nil, nil
}

func (d *pyDecimal) AbsPy() (starlark.Value, error) {
	if d.neg {
		return d.Unary(syntax.MINUS)
	}
	return d.Unary(syntax.PLUS)
}

var decOpText = map[syntax.Token]string{syntax.PLUS: "+", syntax.MINUS: "-", syntax.STAR: "*", syntax.SLASH: "/", syntax.SLASHSLASH: "//", syntax.PERCENT: "%", syntax.STARSTAR: "** or pow()"}

// operand is y as a Decimal for an operator: a Decimal, int or bool.
func (d *pyDecimal) operand(y starlark.Value) (*pyDecimal, bool) {
	switch y.(type) {
	case *pyDecimal, starlark.Int, starlark.Bool:
		o, _ := d.m.convert(y, d.m.cur, false)
		return o, true
	}
	return nil, false
}

// operands are d and y as Decimals in the order of side, when y is a
// Decimal, an int or a bool.
func (d *pyDecimal) operands(y starlark.Value, side starlark.Side) (x, o *pyDecimal, ok bool) {
	if o, ok = d.operand(y); !ok {
		return nil, nil, false
	}
	if side == starlark.Right {
		return o, d, true
	}
	return d, o, true
}

func (d *pyDecimal) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	o, ok := d.operand(y)
	if !ok {
		switch y.(type) {
		case starlark.Float, starlark.String, starlark.NoneType, *starlark.List, starlark.Tuple, *starlark.Dict:
			if text, known := decOpText[op]; known {
				a, b := d.Type(), pyrt.PyTypeName(y)
				if side == starlark.Right {
					a, b = b, a
				}
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "unsupported operand type(s) for %s: '%s' and '%s'", text, a, b)
			}
		}
		return nil, nil
	}
	x := d
	if side == starlark.Right {
		x, o = o, d
	}
	ctx := d.m.cur
	switch op {
	case syntax.PLUS:
		return x.add(o, ctx)
	case syntax.MINUS:
		if ans, err := checkNaNs(ctx, x, o); ans != nil || err != nil {
			return ans, err
		}
		return x.add(o.negate(), ctx)
	case syntax.STAR:
		return x.mul(o, ctx)
	case syntax.SLASH:
		return x.truediv(o, ctx)
	case syntax.SLASHSLASH:
		return x.floordiv(o, ctx)
	case syntax.PERCENT:
		return x.mod(o, ctx)
	case syntax.STARSTAR:
		return x.power(o, ctx)
	}
	return nil, nil
}

func (d *pyDecimal) PowPy(_ *pyrt.Interp, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	return d.Binary(syntax.STARSTAR, y, side)
}

// divmodPy is divmod(d, y), or divmod(y, d) on the right: the integer
// quotient and the remainder, each as // and % give it, but for a finite
// number by zero, which signals both of them at once, as CPython's
// decimal does: the first of them trapped, naming those trapped
// (InvalidOperation([InvalidOperation, DivisionByZero]) by default), or
// (Infinity, NaN) when neither is.
func (d *pyDecimal) DivmodPy(y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if x, o, ok := d.operands(y, side); ok && o.isZero() && x.kind == decFinite && !x.isZero() {
		ctx := d.m.cur
		var trapped []starlark.Value
		for _, sig := range []*pyrt.ExcType{excDecInvalid, excDecDivByZero} {
			_ = ctx.flags.SetKey(sig, starlark.True)
			if ctx.on(ctx.traps, sig) {
				trapped = append(trapped, sig)
			}
		}
		if len(trapped) > 0 {
			return nil, &pyrt.PyError{Exc: &pyrt.PyException{Typ: trapped[0].(*pyrt.ExcType), Args: starlark.Tuple{starlark.NewList(trapped)}}}
		}
		return starlark.Tuple{d.m.inf(x.neg != o.neg), d.m.nan()}, nil
	}
	q, err := d.Binary(syntax.SLASHSLASH, y, side)
	if q == nil || err != nil {
		return q, err
	}
	m, err := d.Binary(syntax.PERCENT, y, side)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{q, m}, nil
}
