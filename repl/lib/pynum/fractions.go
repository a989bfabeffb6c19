// The fractions module: Fraction, CPython 3.11's exact rationals over
// math/big.Rat (always in lowest terms, with a positive denominator).

package pynum

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

// pyFraction is a fractions.Fraction; q is never changed once made.
type pyFraction struct {
	q   *big.Rat
	cls *pyrt.PyType
}

var (
	_ starlark.HasBinary   = (*pyFraction)(nil)
	_ starlark.HasUnary    = (*pyFraction)(nil)
	_ starlark.Comparable  = (*pyFraction)(nil)
	_ starlark.HasAttrs    = (*pyFraction)(nil)
	_ starlark.HasSetField = (*pyFraction)(nil)
	_ pyrt.NumberObject    = (*pyFraction)(nil)
)

func fractionsModule(r *pyrt.Interp) starlark.Value {
	cls := &pyrt.PyType{TypeName: "Fraction", Module: "fractions"}
	cls.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return newFraction(r, thread, cls, args, kw)
	}
	cls.Attrs = starlark.StringDict{
		"from_float":   pyrt.Builtin("Fraction.from_float", fractionFromFloat(cls)),
		"from_decimal": pyrt.Builtin("Fraction.from_decimal", fractionFromDecimal(cls)),
	}
	return pyrt.NewModule("fractions", starlark.StringDict{"Fraction": cls})
}

func (f *pyFraction) make(q *big.Rat) *pyFraction { return &pyFraction{q: q, cls: f.cls} }

// newFraction is Fraction(numerator=0, denominator=None).
func newFraction(r *pyrt.Interp, thread *starlark.Thread, cls *pyrt.PyType, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 2 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Fraction.__new__() takes from 1 to 3 positional arguments but %d were given", len(args)+1)
	}
	var num, den starlark.Value = starlark.MakeInt(0), starlark.None
	if err := pyrt.UnpackArgs("Fraction", args, kw, "numerator?", &num, "denominator?", &den); err != nil {
		return nil, err
	}
	if den == starlark.None {
		q, err := fractionOf(r, thread, num)
		if err != nil {
			return nil, err
		}
		return &pyFraction{q: q, cls: cls}, nil
	}
	a, okA := rationalOf(num)
	b, okB := rationalOf(den)
	if !okA || !okB {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "both arguments should be Rational instances")
	}
	n := new(big.Int).Mul(a.Num(), b.Denom())
	d := new(big.Int).Mul(b.Num(), a.Denom())
	return fractionND(cls, n, d)
}

// fractionND is Fraction(n, d) for ints, raising Python's error for d == 0.
func fractionND(cls *pyrt.PyType, n, d *big.Int) (*pyFraction, error) {
	if d.Sign() == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcZeroDivision, "Fraction(%s, 0)", n.String())
	}
	return &pyFraction{q: new(big.Rat).SetFrac(n, d), cls: cls}, nil
}

// rationalOf reads an int, a bool or a Fraction (Python's
// numbers.Rational) as a rational.
func rationalOf(v starlark.Value) (*big.Rat, bool) {
	switch v := v.(type) {
	case starlark.Int:
		return new(big.Rat).SetInt(v.BigInt()), true
	case starlark.Bool:
		return big.NewRat(int64(pyrt.B2i(bool(v))), 1), true
	case *pyFraction:
		return v.q, true
	}
	return nil, false
}

// fractionOf is the one-argument Fraction(x): a rational, a float's
// exact value, a numeric string, or a Decimal through its
// as_integer_ratio().
func fractionOf(r *pyrt.Interp, thread *starlark.Thread, v starlark.Value) (*big.Rat, error) {
	if q, ok := rationalOf(v); ok {
		return q, nil
	}
	switch v := v.(type) {
	case starlark.Float:
		return floatRatio(float64(v))
	case starlark.String:
		return parseFraction(r, string(v))
	}
	if pyrt.PyTypeName(v) == "Decimal" {
		return ratioMethod(thread, v)
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "argument should be a string or a Rational instance")
}

// floatRatio is a finite float's exact value, as float.as_integer_ratio.
func floatRatio(f float64) (*big.Rat, error) {
	switch {
	case math.IsNaN(f):
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "cannot convert NaN to integer ratio")
	case math.IsInf(f, 0):
		return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "cannot convert Infinity to integer ratio")
	}
	return new(big.Rat).SetFloat64(f), nil
}

// ratioMethod is the rational of v.as_integer_ratio() (a Decimal's).
func ratioMethod(thread *starlark.Thread, v starlark.Value) (*big.Rat, error) {
	t, err := pyrt.CallMethod(thread, v, "as_integer_ratio", nil, nil)
	if err != nil {
		return nil, err
	}
	pair, ok := t.(starlark.Tuple)
	if !ok || len(pair) != 2 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s.as_integer_ratio() did not return a pair of ints", pyrt.PyTypeName(v))
	}
	n, ok1 := pair[0].(starlark.Int)
	d, ok2 := pair[1].(starlark.Int)
	if !ok1 || !ok2 || d.Sign() == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s.as_integer_ratio() did not return a pair of ints", pyrt.PyTypeName(v))
	}
	return new(big.Rat).SetFrac(n.BigInt(), d.BigInt()), nil
}

func fractionFromFloat(cls *pyrt.PyType) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &x); err != nil {
			return nil, err
		}
		switch v := x.(type) {
		case starlark.Int, starlark.Bool:
			q, _ := rationalOf(v)
			return &pyFraction{q: q, cls: cls}, nil
		case starlark.Float:
			q, err := floatRatio(float64(v))
			if err != nil {
				return nil, err
			}
			return &pyFraction{q: q, cls: cls}, nil
		}
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Fraction.from_float() only takes floats, not %s (%s)", pyrt.PyRepr(x), pyrt.PyTypeName(x))
	}
}

func fractionFromDecimal(cls *pyrt.PyType) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &x); err != nil {
			return nil, err
		}
		switch v := x.(type) {
		case starlark.Int, starlark.Bool:
			q, _ := rationalOf(v)
			return &pyFraction{q: q, cls: cls}, nil
		}
		if pyrt.PyTypeName(x) != "Decimal" {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Fraction.from_decimal() only takes Decimals, not %s (%s)", pyrt.PyRepr(x), pyrt.PyTypeName(x))
		}
		q, err := ratioMethod(thread, x)
		if err != nil {
			return nil, err
		}
		return &pyFraction{q: q, cls: cls}, nil
	}
}

// parseFraction reads a string as Fraction(s) does: '3/4', '-1.25',
// '.5e-3', '1_000', surrounded by whitespace.
func parseFraction(r *pyrt.Interp, orig string) (*big.Rat, error) {
	bad := pyrt.PyErrorf(pyrt.ExcValueError, "Invalid literal for Fraction: %s", pyrt.PyRepr(starlark.String(orig)))
	s := strings.TrimSpace(orig)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	num, s := digitRun(s)
	if num == "" && !(len(s) > 1 && s[0] == '.' && isDigit(s[1])) {
		return nil, bad
	}
	n, _ := new(big.Int).SetString("0"+strings.ReplaceAll(num, "_", ""), 10)
	d := big.NewInt(1)
	switch {
	case strings.HasPrefix(s, "/"):
		den, rest := digitRun(s[1:])
		if den == "" || rest != "" || !validDigits(den) || !validDigits(num) {
			return nil, bad
		}
		d.SetString(strings.ReplaceAll(den, "_", ""), 10)
	default:
		var err error
		if n, d, err = decimalPart(r, n, num, s, bad); err != nil {
			return nil, err
		}
	}
	if neg {
		n.Neg(n)
	}
	if d.Sign() == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcZeroDivision, "Fraction(%s, 0)", n.String())
	}
	return new(big.Rat).SetFrac(n, d), nil
}

// decimalPart reads the rest of a decimal literal after its integer
// digits: an optional .digits and an optional exponent.
func decimalPart(r *pyrt.Interp, n *big.Int, num, s string, bad error) (*big.Int, *big.Int, error) {
	if !validDigits(num) && num != "" {
		return nil, nil, bad
	}
	d := big.NewInt(1)
	if strings.HasPrefix(s, ".") {
		frac, rest := digitRun(s[1:])
		if frac != "" && !validDigits(frac) {
			return nil, nil, bad
		}
		frac = strings.ReplaceAll(frac, "_", "")
		if frac != "" {
			scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac))), nil)
			f, _ := new(big.Int).SetString(frac, 10)
			n = new(big.Int).Add(new(big.Int).Mul(n, scale), f)
			d = scale
		}
		s = rest
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		t := s[1:]
		eneg := false
		if t != "" && (t[0] == '+' || t[0] == '-') {
			eneg, t = t[0] == '-', t[1:]
		}
		exp, rest := digitRun(t)
		if exp == "" || rest != "" || !validDigits(exp) {
			return nil, nil, bad
		}
		e, _ := new(big.Int).SetString(strings.ReplaceAll(exp, "_", ""), 10)
		if e.Cmp(big.NewInt(maxFractionExp)) > 0 {
			return nil, nil, pyrt.PyErrorf(pyrt.ExcMemory, "Fraction(): exponent %s is too large for the REPL (at most %d)", e.String(), maxFractionExp)
		}
		p, err := r.PyPow(starlark.MakeInt(10), starlark.MakeBigInt(e))
		if err != nil {
			return nil, nil, err
		}
		if eneg {
			d = new(big.Int).Mul(d, p.(starlark.Int).BigInt())
		} else {
			n = new(big.Int).Mul(n, p.(starlark.Int).BigInt())
		}
		s = ""
	}
	if s != "" {
		return nil, nil, bad
	}
	return n, d, nil
}

// maxFractionExp bounds the exponent of a Fraction string: 10**exp is
// computed exactly, and a larger one would pass the memory limit.
const maxFractionExp = 10_000_000

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitRun splits s after its leading digits and underscores.
func digitRun(s string) (string, string) {
	i := 0
	for i < len(s) && (isDigit(s[i]) || s[i] == '_') {
		i++
	}
	return s[:i], s[i:]
}

// validDigits is \d+(_\d+)*: digits with single underscores between them.
func validDigits(s string) bool {
	return s != "" && s[0] != '_' && s[len(s)-1] != '_' && !strings.Contains(s, "__")
}

func (f *pyFraction) Type() string          { return "Fraction" }
func (f *pyFraction) Freeze()               {}
func (f *pyFraction) Truth() starlark.Bool  { return f.q.Sign() != 0 }
func (f *pyFraction) PyClass() *pyrt.PyType { return f.cls }
func (f *pyFraction) String() string        { return f.ReprPy() }
func (f *pyFraction) ReprPy() string {
	return fmt.Sprintf("%s(%s, %s)", f.cls.TypeName, f.q.Num().String(), f.q.Denom().String())
}
func (f *pyFraction) StrPy() string {
	if f.q.IsInt() {
		return f.q.Num().String()
	}
	return f.q.Num().String() + "/" + f.q.Denom().String()
}

// formatPy is format(f, spec): CPython 3.11's Fraction has only the
// empty spec.
func (f *pyFraction) FormatPy(spec string) (string, error) {
	if spec != "" {
		return "", pyrt.PyErrorf(pyrt.ExcTypeError, "unsupported format string passed to Fraction.__format__")
	}
	return f.StrPy(), nil
}

func (f *pyFraction) Hash() (uint32, error) {
	h, _ := pyrt.PyHashNumber(f.q).Int64()
	return uint32(h) ^ uint32(h>>32), nil
}

func (f *pyFraction) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	return pyrt.CompareInts(op, int64(f.q.Cmp(y.(*pyFraction).q)), 0), nil
}

func (f *pyFraction) AttrNames() []string {
	return []string{"as_integer_ratio", "conjugate", "denominator", "from_decimal", "from_float", "imag", "limit_denominator", "numerator", "real"}
}

func (f *pyFraction) Attr(name string) (starlark.Value, error) {
	method := func(fn pyrt.BuiltinFunc) (starlark.Value, error) {
		return pyrt.Builtin("Fraction."+name, fn), nil
	}
	switch name {
	case "numerator":
		return starlark.MakeBigInt(f.q.Num()), nil
	case "denominator":
		return starlark.MakeBigInt(f.q.Denom()), nil
	case "real":
		return f, nil
	case "imag":
		return starlark.MakeInt(0), nil
	case "as_integer_ratio":
		return method(func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return starlark.Tuple{starlark.MakeBigInt(f.q.Num()), starlark.MakeBigInt(f.q.Denom())}, nil
		})
	case "conjugate":
		return method(func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return f, starlark.UnpackPositionalArgs(b.Name(), args, kw, 0)
		})
	case "limit_denominator":
		return method(f.limitDenominator)
	case "from_float", "from_decimal":
		return f.cls.Attrs[name], nil
	}
	return nil, nil
}

// SetField refuses f.name = v with CPython's AttributeError: a Fraction
// is immutable.
func (f *pyFraction) SetField(name string, _ starlark.Value) error {
	switch name {
	case "numerator", "denominator", "real", "imag":
		return pyrt.PyErrorf(pyrt.ExcAttribute, "property '%s' of 'Fraction' object has no setter", name)
	case "as_integer_ratio", "conjugate", "limit_denominator", "from_float", "from_decimal":
		return pyrt.PyErrorf(pyrt.ExcAttribute, "'Fraction' object attribute '%s' is read-only", name)
	}
	return pyrt.PyErrorf(pyrt.ExcAttribute, "'Fraction' object has no attribute '%s'", name)
}

// limitDenominator is f.limit_denominator(max_denominator=1000000): the
// closest fraction with a denominator at most max, CPython's algorithm.
func (f *pyFraction) limitDenominator(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var maxV starlark.Value = starlark.MakeInt(1000000)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "max_denominator?", &maxV); err != nil {
		return nil, err
	}
	mq, ok := rationalOf(maxV)
	if !ok || !mq.IsInt() {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "limit_denominator() needs an int max_denominator in this REPL, not %s", pyrt.PyTypeName(maxV))
	}
	max := mq.Num()
	if max.Sign() < 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "max_denominator should be at least 1")
	}
	if f.q.Denom().Cmp(max) <= 0 {
		return f, nil
	}
	p0, q0, p1, q1 := big.NewInt(0), big.NewInt(1), big.NewInt(1), big.NewInt(0)
	n, d := new(big.Int).Set(f.q.Num()), new(big.Int).Set(f.q.Denom())
	for {
		a := floorDivBig(n, d)
		q2 := new(big.Int).Add(q0, new(big.Int).Mul(a, q1))
		if q2.Cmp(max) > 0 {
			break
		}
		p0, q0, p1, q1 = p1, q1, new(big.Int).Add(p0, new(big.Int).Mul(a, p1)), q2
		n, d = d, new(big.Int).Sub(n, new(big.Int).Mul(a, d))
	}
	k := floorDivBig(new(big.Int).Sub(max, q0), q1)
	bound1 := new(big.Rat).SetFrac(new(big.Int).Add(p0, new(big.Int).Mul(k, p1)), new(big.Int).Add(q0, new(big.Int).Mul(k, q1)))
	bound2 := new(big.Rat).SetFrac(p1, q1)
	dist := func(x *big.Rat) *big.Rat { return new(big.Rat).Abs(new(big.Rat).Sub(x, f.q)) }
	if dist(bound2).Cmp(dist(bound1)) <= 0 {
		return f.make(bound2), nil
	}
	return f.make(bound1), nil
}

// floorDivBig is Python's x // y for ints (y != 0).
func floorDivBig(x, y *big.Int) *big.Int {
	q, m := new(big.Int).QuoRem(x, y, new(big.Int))
	if m.Sign() != 0 && m.Sign() != y.Sign() {
		q.Sub(q, big.NewInt(1))
	}
	return q
}

// floorModBig is Python's x % y for ints (y != 0): the sign of y.
func floorModBig(x, y *big.Int) *big.Int {
	m := new(big.Int).Rem(x, y)
	if m.Sign() != 0 && m.Sign() != y.Sign() {
		m.Add(m, y)
	}
	return m
}
