// decimal.Decimal values: construction from str, int, float and tuples,
// str and repr, comparisons and hashing.

package pynum

import (
	"math"
	"math/big"
	"reflect"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

type decKind byte

const (
	decFinite decKind = iota
	decInf
	decNaN
	decSNaN
)

// pyDecimal is a Decimal: (-1)**neg * coef * 10**exp, or an infinity or
// a NaN (coef its payload). Values are immutable.
type pyDecimal struct {
	neg  bool
	kind decKind
	coef *big.Int
	exp  int
	m    *decModule
}

var (
	_      pyrt.NumberObject   = (*pyDecimal)(nil)
	_      starlark.HasBinary  = (*pyDecimal)(nil)
	_      starlark.HasUnary   = (*pyDecimal)(nil)
	_      starlark.Comparable = (*pyDecimal)(nil)
	_      pyrt.PyFormatter    = (*pyDecimal)(nil)
	bigTen                     = big.NewInt(10)
)

func (m *decModule) dec(neg bool, coef *big.Int, exp int) *pyDecimal {
	return &pyDecimal{neg: neg, coef: coef, exp: exp, m: m}
}
func (m *decModule) nan() *pyDecimal { return &pyDecimal{kind: decNaN, coef: new(big.Int), m: m} }
func (m *decModule) inf(neg bool) *pyDecimal {
	return &pyDecimal{neg: neg, kind: decInf, coef: new(big.Int), m: m}
}

func (d *pyDecimal) special() bool { return d.kind != decFinite }
func (d *pyDecimal) isNaN() bool   { return d.kind == decNaN || d.kind == decSNaN }
func (d *pyDecimal) isZero() bool  { return d.kind == decFinite && d.coef.Sign() == 0 }

// digits is the number of digits of the coefficient (1 for 0).
func (d *pyDecimal) digits() int { return numDigits(d.coef) }

func numDigits(c *big.Int) int {
	if c.Sign() == 0 {
		return 1
	}
	if c.IsInt64() {
		n, x := 0, c.Int64()
		for ; x > 0; x /= 10 {
			n++
		}
		return n
	}
	return len(c.String())
}

// adjusted is the exponent of the most significant digit.
func (d *pyDecimal) adjusted() int {
	if d.special() {
		return 0
	}
	return d.exp + d.digits() - 1
}

func pow10(n int) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil) }

// newDecimal is Decimal(value="0", context=None).
func (m *decModule) newDecimal(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value = starlark.String("0")
	var ctxV starlark.Value = starlark.None
	if err := pyrt.UnpackArgs("Decimal", args, kw, "value?", &v, "context?", &ctxV); err != nil {
		return nil, err
	}
	ctx := m.cur
	if c, ok := ctxV.(*decContext); ok {
		ctx = c
	} else if ctxV != starlark.None {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "optional argument must be a context")
	}
	return m.convert(v, ctx, true)
}

// convert makes a Decimal of v exactly (no rounding), as the constructor
// does; floats only when allowFloat.
func (m *decModule) convert(v starlark.Value, ctx *decContext, allowFloat bool) (*pyDecimal, error) {
	switch v := v.(type) {
	case *pyDecimal:
		return v, nil
	case starlark.Bool:
		return m.dec(false, big.NewInt(int64(pyrt.B2i(bool(v)))), 0), nil
	case starlark.Int:
		b := v.BigInt()
		return m.dec(b.Sign() < 0, b.Abs(b), 0), nil
	case starlark.Float:
		if !allowFloat {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "conversion from float to Decimal is not supported")
		}
		return m.fromFloat(float64(v)), nil
	case starlark.String:
		d, ok := m.parse(string(v))
		if !ok {
			return ctx.invalid(excDecSyntax)
		}
		return d, nil
	case starlark.Tuple:
		return m.fromTuple(v)
	case *starlark.List:
		t := make(starlark.Tuple, v.Len())
		for i := range t {
			t[i] = v.Index(i)
		}
		return m.fromTuple(t)
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "conversion from %s to Decimal is not supported", pyrt.PyTypeName(v))
}

// parse reads a decimal string: sign, digits with an optional point and
// exponent, Infinity/Inf, NaN and sNaN with a payload; case and
// surrounding whitespace do not matter, underscores may group digits.
func (m *decModule) parse(orig string) (*pyDecimal, bool) {
	s := strings.TrimSpace(orig)
	if strings.Contains(s, "__") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") {
		return nil, false
	}
	s = strings.ReplaceAll(s, "_", "")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	low := strings.ToLower(s)
	switch {
	case low == "inf" || low == "infinity":
		return m.inf(neg), true
	case strings.HasPrefix(low, "nan") || strings.HasPrefix(low, "snan"):
		kind, payload := decNaN, low[3:]
		if low[0] == 's' {
			kind, payload = decSNaN, low[4:]
		}
		c := new(big.Int)
		if payload != "" {
			if !allDigits(payload) {
				return nil, false
			}
			c.SetString(payload, 10)
		}
		return &pyDecimal{neg: neg, kind: kind, coef: c, m: m}, true
	}
	mant, expPart := low, ""
	if i := strings.IndexByte(low, 'e'); i >= 0 {
		mant, expPart = low[:i], low[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	if intPart+frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return nil, false
	}
	exp := 0
	if expPart != "" || strings.Contains(low, "e") {
		e, ok := new(big.Int).SetString(expPart, 10)
		if !ok || !allDigits(strings.TrimLeft(expPart, "+-")) || !e.IsInt64() || e.Int64() > decMaxExp*2 || e.Int64() < -decMaxExp*2 {
			return nil, false
		}
		exp = int(e.Int64())
	}
	c, _ := new(big.Int).SetString(intPart+frac, 10)
	return m.dec(neg, c, exp-len(frac)), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// fromFloat is the exact value of f: Decimal(0.1) is
// 0.1000000000000000055511151231257827021181583404541015625.
func (m *decModule) fromFloat(f float64) *pyDecimal {
	switch {
	case math.IsNaN(f):
		return m.nan()
	case math.IsInf(f, 0):
		return m.inf(f < 0)
	}
	neg := math.Signbit(f)
	fr, e := math.Frexp(math.Abs(f))
	mant := uint64(fr * (1 << 53))
	e -= 53
	for mant != 0 && mant&1 == 0 {
		mant >>= 1
		e++
	}
	c := new(big.Int).SetUint64(mant)
	if mant == 0 {
		return m.dec(neg, c, 0)
	}
	if e >= 0 {
		return m.dec(neg, c.Lsh(c, uint(e)), 0)
	}
	five := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(-e)), nil)
	return m.dec(neg, c.Mul(c, five), e)
}

func (m *decModule) fromFloatBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("from_float", args, kw, 1, &v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case starlark.Float:
		return m.fromFloat(float64(x)), nil
	case starlark.Int, starlark.Bool:
		return m.convert(x, m.cur, false)
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "argument must be int or float")
}

// fromTuple is Decimal((sign, digits, exponent)).
func (m *decModule) fromTuple(t starlark.Tuple) (*pyDecimal, error) {
	if len(t) != 3 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "argument must be a sequence of length 3")
	}
	sign, ok := t[0].(starlark.Int)
	if s, _ := sign.Int64(); !ok || s != 0 && s != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "sign must be an integer with the value 0 or 1")
	}
	neg := sign.Sign() != 0
	digits, err := pyrt.ListOf(t[1])
	if err != nil {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "coefficient must be a tuple of digits")
	}
	var sb strings.Builder
	for _, dv := range digits {
		di, ok := dv.(starlark.Int)
		n, _ := di.Int64()
		if !ok || n < 0 || n > 9 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "coefficient must be a tuple of digits")
		}
		sb.WriteByte(byte('0' + n))
	}
	c, _ := new(big.Int).SetString("0"+sb.String(), 10)
	if s, isStr := t[2].(starlark.String); isStr {
		switch s {
		case "F":
			return m.inf(neg), nil
		case "n", "N":
			kind := decNaN
			if s == "N" {
				kind = decSNaN
			}
			return &pyDecimal{neg: neg, kind: kind, coef: c, m: m}, nil
		}
	}
	e, ok := t[2].(starlark.Int)
	n, fits := e.Int64()
	if !ok || !fits {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "exponent must be an integer")
	}
	return m.dec(neg, c, int(n)), nil
}

func (d *pyDecimal) String() string        { return d.sci(false) }
func (d *pyDecimal) StrPy() string         { return d.sci(false) }
func (d *pyDecimal) ReprPy() string        { return "Decimal('" + d.sci(false) + "')" }
func (d *pyDecimal) PyClass() *pyrt.PyType { return d.m.decimal }
func (d *pyDecimal) Type() string          { return "decimal.Decimal" }
func (d *pyDecimal) Freeze()               {}
func (d *pyDecimal) Truth() starlark.Bool {
	return starlark.Bool(d.special() || d.coef.Sign() != 0)
}

// sci is the to-scientific-string (or engineering) form of the
// specification, as str() gives it.
func (d *pyDecimal) sci(eng bool) string {
	sign := ""
	if d.neg {
		sign = "-"
	}
	switch d.kind {
	case decInf:
		return sign + "Infinity"
	case decNaN, decSNaN:
		s := sign + "NaN"
		if d.kind == decSNaN {
			s = sign + "sNaN"
		}
		if d.coef.Sign() != 0 {
			s += d.coef.String()
		}
		return s
	}
	digits := d.coef.String()
	left := d.exp + len(digits)
	var dot int
	switch {
	case d.exp <= 0 && left > -6:
		dot = left
	case !eng:
		dot = 1
	case d.coef.Sign() == 0:
		dot = ((left+1)%3+3)%3 - 1
	default:
		dot = ((left-1)%3+3)%3 + 1
	}
	var intPart, frac string
	switch {
	case dot <= 0:
		intPart, frac = "0", "."+strings.Repeat("0", -dot)+digits
	case dot >= len(digits):
		intPart = digits + strings.Repeat("0", dot-len(digits))
	default:
		intPart, frac = digits[:dot], "."+digits[dot:]
	}
	exp := ""
	if left != dot {
		e := "E"
		if d.m.cur.capitals == 0 {
			e = "e"
		}
		n := left - dot
		exp = e + "+" + pyrt.Itoa(n)
		if n < 0 {
			exp = e + pyrt.Itoa(n)
		}
	}
	return sign + intPart + frac + exp
}

// cmp compares two non-NaN values: -1, 0 or 1.
func (d *pyDecimal) cmp(o *pyDecimal) int {
	if d.special() || o.special() {
		a, b := d.signedInf(), o.signedInf()
		return compareInt(a, b)
	}
	switch {
	case d.isZero() && o.isZero():
		return 0
	case d.isZero():
		return -o.sgn()
	case o.isZero():
		return d.sgn()
	case d.neg != o.neg:
		return d.sgn()
	}
	a, b := d.coef, o.coef
	if d.exp > o.exp {
		a = new(big.Int).Mul(a, pow10(d.exp-o.exp))
	} else if o.exp > d.exp {
		b = new(big.Int).Mul(b, pow10(o.exp-d.exp))
	}
	if da, oa := d.adjusted(), o.adjusted(); da != oa {
		return compareInt(da, oa) * d.sgn()
	}
	return a.Cmp(b) * d.sgn()
}

func (d *pyDecimal) signedInf() int {
	if d.kind != decInf {
		return 0
	}
	return d.sgn()
}

func (d *pyDecimal) sgn() int {
	if d.neg {
		return -1
	}
	return 1
}

func compareInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareWith is d op o: NaNs are unequal to everything, and ordering
// them signals InvalidOperation.
func (d *pyDecimal) compareWith(op syntax.Token, o *pyDecimal) (bool, error) {
	if d.isNaN() || o.isNaN() {
		if op == syntax.EQL || op == syntax.NEQ {
			if d.kind == decSNaN || o.kind == decSNaN {
				if err := d.m.cur.signal(excDecInvalid); err != nil {
					return false, err
				}
			}
			return op == syntax.NEQ, nil
		}
		return false, d.m.cur.signal(excDecInvalid)
	}
	c := d.cmp(o)
	switch op {
	case syntax.EQL:
		return c == 0, nil
	case syntax.NEQ:
		return c != 0, nil
	case syntax.LT:
		return c < 0, nil
	case syntax.LE:
		return c <= 0, nil
	case syntax.GT:
		return c > 0, nil
	}
	return c >= 0, nil
}

func (d *pyDecimal) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	return d.compareWith(op, y.(*pyDecimal))
}

// comparePy is d op y, or y op d when reversed, for y of another type:
// ints and floats compare by value (a float sets FloatOperation), == and
// != with anything else are False and True, the others a TypeError.
func (d *pyDecimal) ComparePy(op syntax.Token, y starlark.Value, reversed bool) (bool, bool, error) {
	v, err := d.compareOther(op, y, reversed)
	return v, true, err
}

func (d *pyDecimal) compareOther(op syntax.Token, y starlark.Value, reversed bool) (bool, error) {
	switch y.(type) {
	case starlark.Int, starlark.Bool, starlark.Float:
		o, _ := d.m.convert(y, d.m.cur, true)
		if _, isFloat := y.(starlark.Float); isFloat {
			_ = d.m.cur.flags.SetKey(excDecFloatOp, starlark.True)
		}
		if reversed {
			op = pyrt.FlipCompare[op]
		}
		return d.compareWith(op, o)
	}
	switch op {
	case syntax.EQL:
		return false, nil
	case syntax.NEQ:
		return true, nil
	}
	a, b := d.Type(), pyrt.PyTypeName(y)
	if reversed {
		a, b = b, a
	}
	return false, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' not supported between instances of '%s' and '%s'", decCompareOp(op), a, b)
}

// hashPy is Python's hash: an integral value hashes as its int, and
// hash(x) == hash(y) whenever x == y, modulo 2**61 - 1.
func (d *pyDecimal) HashPy() (starlark.Int, error) {
	switch d.kind {
	case decSNaN:
		return starlark.Int{}, pyrt.PyErrorf(pyrt.ExcTypeError, "Cannot hash a signaling NaN value.")
	case decNaN:
		return starlark.MakeInt64(int64(reflect.ValueOf(d).Pointer() >> 4)), nil
	case decInf:
		return starlark.MakeInt(314159 * d.sgn()), nil
	}
	mod := big.NewInt(1<<61 - 1)
	var e *big.Int
	if d.exp >= 0 {
		e = new(big.Int).Exp(bigTen, big.NewInt(int64(d.exp)), mod)
	} else {
		inv := new(big.Int).ModInverse(bigTen, mod)
		e = new(big.Int).Exp(inv, big.NewInt(int64(-d.exp)), mod)
	}
	h := new(big.Int).Mul(d.coef, e)
	h.Mod(h, mod)
	if d.neg {
		h.Neg(h)
	}
	if h.IsInt64() && h.Int64() == -1 {
		h.SetInt64(-2)
	}
	return starlark.MakeBigInt(h), nil
}

func (d *pyDecimal) Hash() (uint32, error) {
	h, err := d.HashPy()
	if err != nil {
		return 0, err
	}
	n, _ := h.Int64()
	return uint32(n), nil
}
