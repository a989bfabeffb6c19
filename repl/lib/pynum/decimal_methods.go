// decimal.Decimal's methods: quantize, normalize, sqrt, **, the
// predicates, and int(), float() and round().

package pynum

import (
	"math"
	"math/big"
	"strconv"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// decMethod is a method: the receiver, the context it runs in, and the
// arguments after the receiver.
type decMethod func(d *pyDecimal, ctx *decContext, args starlark.Tuple) (starlark.Value, error)

// decMethodArgs is how many positional arguments each method takes after
// the receiver (besides rounding= and context=).
var decMethodArgs = map[string]int{
	"quantize": 1, "compare": 1, "max": 1, "min": 1, "copy_sign": 1, "same_quantum": 1, "compare_total": 1,
	"to_integral_value": 0, "to_integral": 0, "to_integral_exact": 0, "normalize": 0, "sqrt": 0, "adjusted": 0,
	"as_tuple": 0, "as_integer_ratio": 0, "is_nan": 0, "is_zero": 0, "is_signed": 0, "is_finite": 0, "is_infinite": 0,
	"is_qnan": 0, "is_snan": 0, "copy_abs": 0, "copy_negate": 0, "to_eng_string": 0, "conjugate": 0,
}

var decMethods map[string]decMethod

func init() {
	pred := func(f func(d *pyDecimal) bool) decMethod {
		return func(d *pyDecimal, _ *decContext, _ starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(f(d)), nil
		}
	}
	decMethods = map[string]decMethod{
		"quantize": func(d *pyDecimal, ctx *decContext, a starlark.Tuple) (starlark.Value, error) {
			return d.quantize(a[0], ctx)
		},
		"to_integral_value": (*pyDecimal).toIntegral, "to_integral": (*pyDecimal).toIntegral, "to_integral_exact": (*pyDecimal).toIntegral,
		"normalize": func(d *pyDecimal, ctx *decContext, _ starlark.Tuple) (starlark.Value, error) { return d.normalize(ctx) },
		"sqrt":      func(d *pyDecimal, ctx *decContext, _ starlark.Tuple) (starlark.Value, error) { return d.sqrt(ctx) },
		"adjusted": func(d *pyDecimal, _ *decContext, _ starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(d.adjusted()), nil
		},
		"as_tuple":         func(d *pyDecimal, _ *decContext, _ starlark.Tuple) (starlark.Value, error) { return d.asTuple(), nil },
		"as_integer_ratio": (*pyDecimal).integerRatio,
		"compare":          (*pyDecimal).compareMethod, "max": decMaxMin(false), "min": decMaxMin(true),
		"is_nan": pred((*pyDecimal).isNaN), "is_zero": pred((*pyDecimal).isZero),
		"is_signed":   pred(func(d *pyDecimal) bool { return d.neg }),
		"is_finite":   pred(func(d *pyDecimal) bool { return d.kind == decFinite }),
		"is_infinite": pred(func(d *pyDecimal) bool { return d.kind == decInf }),
		"is_qnan":     pred(func(d *pyDecimal) bool { return d.kind == decNaN }),
		"is_snan":     pred(func(d *pyDecimal) bool { return d.kind == decSNaN }),
		"copy_abs": func(d *pyDecimal, _ *decContext, _ starlark.Tuple) (starlark.Value, error) {
			n := *d
			n.neg = false
			return &n, nil
		},
		"copy_negate": func(d *pyDecimal, _ *decContext, _ starlark.Tuple) (starlark.Value, error) { return d.negate(), nil },
		"conjugate":   func(d *pyDecimal, _ *decContext, _ starlark.Tuple) (starlark.Value, error) { return d, nil },
		"copy_sign": func(d *pyDecimal, ctx *decContext, a starlark.Tuple) (starlark.Value, error) {
			o, err := d.m.convertArg(a[0])
			if err != nil {
				return nil, err
			}
			n := *d
			n.neg = o.neg
			return &n, nil
		},
		"same_quantum": func(d *pyDecimal, _ *decContext, a starlark.Tuple) (starlark.Value, error) {
			o, err := d.m.convertArg(a[0])
			if err != nil {
				return nil, err
			}
			if d.special() || o.special() {
				return starlark.Bool(d.isNaN() && o.isNaN() || d.kind == decInf && o.kind == decInf), nil
			}
			return starlark.Bool(d.exp == o.exp), nil
		},
		"to_eng_string": func(d *pyDecimal, _ *decContext, _ starlark.Tuple) (starlark.Value, error) {
			return starlark.String(d.sci(true)), nil
		},
	}
}

func (d *pyDecimal) AttrNames() []string {
	names := []string{"imag", "real"}
	for n := range decMethods {
		names = append(names, n)
	}
	return names
}

func (d *pyDecimal) Attr(name string) (starlark.Value, error) {
	switch name {
	case "real":
		return d, nil
	case "imag":
		return d.m.dec(false, new(big.Int), 0), nil
	}
	f, ok := decMethods[name]
	if !ok {
		return nil, nil
	}
	n := decMethodArgs[name]
	return pyrt.Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		ctx := d.m.cur
		rest := make(starlark.Tuple, n)
		var ctxV, rounding starlark.Value = starlark.None, starlark.None
		pairs := []any{}
		for i := range rest {
			pairs = append(pairs, []string{"exp", "other"}[min(i, 1)], &rest[i])
		}
		if name == "quantize" || name == "to_integral_value" || name == "to_integral" || name == "to_integral_exact" {
			pairs = append(pairs, "rounding?", &rounding)
		}
		pairs = append(pairs, "context?", &ctxV)
		if name == "compare" || name == "max" || name == "min" || name == "copy_sign" || name == "same_quantum" || name == "compare_total" {
			pairs[0] = "other"
		}
		if err := pyrt.UnpackArgs(b.Name(), args, kw, pairs...); err != nil {
			return nil, err
		}
		if c, ok := ctxV.(*decContext); ok {
			ctx = c
		} else if ctxV != starlark.None {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "optional argument must be a context")
		}
		if rounding != starlark.None {
			s, ok := rounding.(starlark.String)
			if !ok || !validRounding(string(s)) {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "valid values for rounding are:\n  [ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_DOWN,\n   ROUND_HALF_UP, ROUND_HALF_DOWN, ROUND_HALF_EVEN,\n   ROUND_05UP]")
			}
			ctx = ctx.copy()
			ctx.rounding = string(s)
			ctx.flags = d.m.cur.flags
		}
		return f(d, ctx, rest)
	}), nil
}

// convertArg is a method's Decimal argument: a Decimal or an int.
func (m *decModule) convertArg(v starlark.Value) (*pyDecimal, error) {
	switch v.(type) {
	case *pyDecimal, starlark.Int, starlark.Bool:
		return m.convert(v, m.cur, false)
	case starlark.Float:
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "conversion from float to Decimal is not supported")
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "conversion from %s to Decimal is not supported", pyrt.PyTypeName(v))
}

func (d *pyDecimal) quantize(expV starlark.Value, ctx *decContext) (starlark.Value, error) {
	e, err := d.m.convertArg(expV)
	if err != nil {
		return nil, err
	}
	if d.special() || e.special() {
		if ans, err := checkNaNs(ctx, d, e); ans != nil || err != nil {
			return ans, err
		}
		if d.kind == decInf && e.kind == decInf {
			return d, nil
		}
		return ctx.invalid(excDecInvalid)
	}
	if e.exp < ctx.etiny() || e.exp > ctx.emax {
		return ctx.invalid(excDecInvalid)
	}
	if d.isZero() {
		return d.m.dec(d.neg, new(big.Int), e.exp).fix(ctx)
	}
	if d.adjusted() > ctx.emax || d.adjusted()-e.exp+1 > ctx.prec {
		return ctx.invalid(excDecInvalid)
	}
	ans := d.rescale(e.exp, ctx.rounding)
	if ans.adjusted() > ctx.emax || ans.digits() > ctx.prec {
		return ctx.invalid(excDecInvalid)
	}
	if !ans.isZero() && ans.adjusted() < ctx.emin {
		if err := ctx.signal(excDecSubnormal); err != nil {
			return nil, err
		}
	}
	if ans.exp > d.exp {
		if ans.cmp(d) != 0 {
			if err := ctx.signal(excDecInexact); err != nil {
				return nil, err
			}
		}
		if err := ctx.signal(excDecRounded); err != nil {
			return nil, err
		}
	}
	return ans.fix(ctx)
}

func (d *pyDecimal) toIntegral(ctx *decContext, _ starlark.Tuple) (starlark.Value, error) {
	if d.special() {
		if ans, err := checkNaNs(ctx, d, nil); ans != nil || err != nil {
			return ans, err
		}
		return d, nil
	}
	if d.exp >= 0 {
		return d, nil
	}
	return d.rescale(0, ctx.rounding), nil
}

func (d *pyDecimal) normalize(ctx *decContext) (*pyDecimal, error) {
	if ans, err := checkNaNs(ctx, d, nil); ans != nil || err != nil {
		return ans, err
	}
	x, err := d.fix(ctx)
	if err != nil || x.kind == decInf {
		return x, err
	}
	if x.isZero() {
		return d.m.dec(x.neg, new(big.Int), 0), nil
	}
	expMax := ctx.emax
	if ctx.clamp == 1 {
		expMax = ctx.etop()
	}
	c, e := stripZeros(x.coef, x.exp, expMax)
	return d.m.dec(x.neg, c, e), nil
}

func (d *pyDecimal) sqrt(ctx *decContext) (*pyDecimal, error) {
	if d.special() {
		if ans, err := checkNaNs(ctx, d, nil); ans != nil || err != nil {
			return ans, err
		}
		if d.kind == decInf && !d.neg {
			return d, nil
		}
	}
	if d.isZero() {
		return d.m.dec(d.neg, new(big.Int), floorDivInt(d.exp, 2)).fix(ctx)
	}
	if d.neg {
		return ctx.invalid(excDecInvalid)
	}
	prec := ctx.prec + 1
	e := floorDivInt(d.exp, 2)
	c, l := new(big.Int).Set(d.coef), (d.digits()+1)/2
	if d.exp&1 != 0 {
		c.Mul(c, bigTen)
		l = d.digits()/2 + 1
	}
	shift := prec - l
	exact := true
	hundred := big.NewInt(100)
	if shift >= 0 {
		c.Mul(c, new(big.Int).Exp(hundred, big.NewInt(int64(shift)), nil))
	} else {
		r := new(big.Int)
		c.QuoRem(c, new(big.Int).Exp(hundred, big.NewInt(int64(-shift)), nil), r)
		exact = r.Sign() == 0
	}
	e -= shift
	n := new(big.Int).Sqrt(c)
	exact = exact && new(big.Int).Mul(n, n).Cmp(c) == 0
	if exact {
		if shift >= 0 {
			n.Quo(n, pow10(shift))
		} else {
			n.Mul(n, pow10(-shift))
		}
		e += shift
	} else if new(big.Int).Rem(n, big.NewInt(5)).Sign() == 0 {
		n.Add(n, big.NewInt(1))
	}
	half := ctx.copy()
	half.rounding, half.flags, half.traps = "ROUND_HALF_EVEN", ctx.flags, ctx.traps
	return d.m.dec(false, n, e).fix(half)
}

func floorDivInt(a, b int) int { return int(pyrt.FloorDiv(int64(a), int64(b))) }

// power is d ** o for an integral o: the exact power rounded once to the
// context (a negative o divides 1 by it); other exponents are refused.
func (d *pyDecimal) power(o *pyDecimal, ctx *decContext) (*pyDecimal, error) {
	if ans, err := checkNaNs(ctx, d, o); ans != nil || err != nil {
		return ans, err
	}
	integral := o.kind == decFinite && (o.exp >= 0 || new(big.Int).Rem(o.coef, pow10(-o.exp)).Sign() == 0)
	if o.isZero() {
		if d.isZero() {
			return ctx.invalid(excDecInvalid)
		}
		return d.m.dec(false, big.NewInt(1), 0), nil
	}
	if d.neg && !d.isZero() && !integral && o.kind != decInf {
		return ctx.invalid(excDecInvalid)
	}
	if !integral && o.kind != decInf || o.kind == decFinite && o.adjusted() > 9 {
		return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "Decimal ** %s: the REPL's decimal raises only to integral powers below 10**9; use .sqrt(), or float's math.pow for an approximation", o.sci(false))
	}
	var y *big.Int
	if o.kind == decFinite {
		y = o.rescale(0, "ROUND_DOWN").coef
	}
	neg := d.neg && y != nil && y.Bit(0) == 1
	if d.isZero() || d.kind == decInf || o.kind == decInf {
		return d.powerSpecial(o, neg)
	}
	n := int(y.Int64())
	if int64(d.digits())*int64(n) > 100000 {
		return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "Decimal ** %d: the exact power would have more than 100000 digits, which the REPL's decimal does not compute", n)
	}
	p := d.m.dec(neg, new(big.Int).Exp(d.coef, big.NewInt(int64(n)), nil), d.exp*n)
	if !o.neg {
		return p.fix(ctx)
	}
	return d.m.dec(false, big.NewInt(1), 0).truediv(p, ctx)
}

// powerSpecial is ** with a zero or infinite base or an infinite exponent.
func (d *pyDecimal) powerSpecial(o *pyDecimal, neg bool) (*pyDecimal, error) {
	zero, inf := d.m.dec(neg, new(big.Int), 0), d.m.inf(neg)
	switch {
	case o.kind == decInf:
		one := d.m.dec(false, big.NewInt(1), 0)
		bigger := (&pyDecimal{coef: d.coef, exp: d.exp, kind: d.kind, m: d.m}).cmp(one) > 0
		if bigger != o.neg {
			return d.m.inf(false), nil
		}
		return d.m.dec(false, new(big.Int), 0), nil
	case d.isZero() != o.neg:
		return zero, nil
	}
	return inf, nil
}

func (d *pyDecimal) compareMethod(ctx *decContext, a starlark.Tuple) (starlark.Value, error) {
	o, err := d.m.convertArg(a[0])
	if err != nil {
		return nil, err
	}
	if ans, err := checkNaNs(ctx, d, o); ans != nil || err != nil {
		return ans, err
	}
	c := d.cmp(o)
	return d.m.dec(c < 0, big.NewInt(int64(c*c)), 0), nil
}

// maxMin is max(other) or min(other): a quiet NaN loses to a number, and
// equal values are told apart by sign and exponent.
func decMaxMin(isMin bool) decMethod {
	return func(d *pyDecimal, ctx *decContext, a starlark.Tuple) (starlark.Value, error) {
		o, err := d.m.convertArg(a[0])
		if err != nil {
			return nil, err
		}
		if d.isNaN() || o.isNaN() {
			switch {
			case d.kind == decNaN && !o.isNaN():
				return o.fix(ctx)
			case o.kind == decNaN && !d.isNaN():
				return d.fix(ctx)
			}
			return checkNaNs(ctx, d, o)
		}
		c := d.cmp(o)
		if c == 0 {
			c = d.totalTie(o)
		}
		if isMin {
			c = -c
		}
		if c < 0 {
			return o.fix(ctx)
		}
		return d.fix(ctx)
	}
}

// totalTie orders two numerically equal values as compare_total does.
func (d *pyDecimal) totalTie(o *pyDecimal) int {
	if d.neg != o.neg {
		if d.neg {
			return -1
		}
		return 1
	}
	c := compareInt(d.exp, o.exp)
	if d.neg {
		c = -c
	}
	return c
}

func (d *pyDecimal) asTuple() starlark.Value {
	digits := starlark.Tuple{}
	s := d.coef.String()
	if d.special() && d.coef.Sign() == 0 {
		s = ""
		if d.kind == decInf {
			s = "0"
		}
	}
	for i := 0; i < len(s); i++ {
		digits = append(digits, starlark.MakeInt(int(s[i]-'0')))
	}
	var exp starlark.Value = starlark.MakeInt(d.exp)
	switch d.kind {
	case decInf:
		exp = starlark.String("F")
	case decNaN:
		exp = starlark.String("n")
	case decSNaN:
		exp = starlark.String("N")
	}
	return &pyrt.Record{Cls: d.m.tupleCls, Fields: []string{"sign", "digits", "exponent"},
		Vals: starlark.Tuple{starlark.MakeInt(pyrt.B2i(d.neg)), digits, exp}}
}

func (d *pyDecimal) integerRatio(_ *decContext, _ starlark.Tuple) (starlark.Value, error) {
	if err := d.finiteOr("integer ratio"); err != nil {
		return nil, err
	}
	n, den := new(big.Int).Set(d.coef), big.NewInt(1)
	if d.exp >= 0 {
		n.Mul(n, pow10(d.exp))
	} else {
		den = pow10(-d.exp)
		g := new(big.Int).GCD(nil, nil, n, den)
		if g.Sign() != 0 {
			n.Quo(n, g)
			den.Quo(den, g)
		}
	}
	return starlark.Tuple{starlark.MakeBigInt(signed(d.neg, n)), starlark.MakeBigInt(den)}, nil
}

// finiteOr is the error of an int conversion of a NaN or an infinity.
func (d *pyDecimal) finiteOr(what string) error {
	switch d.kind {
	case decNaN, decSNaN:
		return pyrt.PyErrorf(pyrt.ExcValueError, "cannot convert NaN to %s", what)
	case decInf:
		return pyrt.PyErrorf(pyrt.ExcOverflow, "cannot convert Infinity to %s", what)
	}
	return nil
}

func (d *pyDecimal) IntPy() (starlark.Value, error) {
	if err := d.finiteOr("integer"); err != nil {
		return nil, err
	}
	t := d.rescale(0, "ROUND_DOWN")
	return starlark.MakeBigInt(signed(d.neg, t.coef)), nil
}

func (d *pyDecimal) FloatPy() (float64, error) {
	if d.isNaN() {
		if d.kind == decSNaN {
			return 0, pyrt.PyErrorf(pyrt.ExcValueError, "cannot convert signaling NaN to float")
		}
		return math.Copysign(math.NaN(), float64(1-2*pyrt.B2i(d.neg))), nil
	}
	f, err := strconv.ParseFloat(d.sci(false), 64)
	if err != nil && d.kind == decFinite {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, pyrt.PyErrorf(pyrt.ExcValueError, "could not convert %s to float", d.sci(false))
		}
	}
	return f, nil
}

// floorPy is math.floor(d), or math.ceil(d): an int.
func (d *pyDecimal) FloorPy(ceil bool) (starlark.Value, error) {
	if err := d.finiteOr("integer"); err != nil {
		return nil, err
	}
	mode := "ROUND_FLOOR"
	if ceil {
		mode = "ROUND_CEILING"
	}
	t := d.rescale(0, mode)
	return starlark.MakeBigInt(signed(d.neg, t.coef)), nil
}

// roundPy is round(d) (an int, halves to even) or round(d, n) (a Decimal
// quantized to n places in the context's rounding).
func (d *pyDecimal) RoundPy(nd starlark.Value) (starlark.Value, error) {
	if nd == starlark.None {
		if err := d.finiteOr("integer"); err != nil {
			return nil, err
		}
		t := d.rescale(0, "ROUND_HALF_EVEN")
		return starlark.MakeBigInt(signed(d.neg, t.coef)), nil
	}
	n, ok := nd.(starlark.Int)
	k, fits := n.Int64()
	if !ok || !fits {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Second argument to round should be integral")
	}
	return d.quantize(d.m.dec(false, big.NewInt(1), int(-k)), d.m.cur)
}
