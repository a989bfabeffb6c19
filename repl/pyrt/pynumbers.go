// Numbers as Python has them: int() and float() parsing, round, pow, **,
// divmod, hex, oct and bin.

package pyrt

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pystr"
)

// numberObject is a number of a module's class (fractions.Fraction,
// decimal.Decimal) that the builtins treat as Python treats a number:
// int, float, round, abs, hash, **, divmod, the comparisons with numbers
// of other types, % formatting and math.floor/ceil/trunc ask it, as
// Python asks __int__, __float__, __round__, __floor__, ...
type NumberObject interface {
	starlark.Value
	IntPy() (starlark.Value, error)            // int(x), math.trunc(x)
	FloatPy() (float64, error)                 // float(x)
	FloorPy(ceil bool) (starlark.Value, error) // math.floor(x), math.ceil(x)
	RoundPy(nd starlark.Value) (starlark.Value, error)
	HashPy() (starlark.Int, error)
	AbsPy() (starlark.Value, error)
	// comparePy is x op y, or y op x when reversed, for y of another type;
	// handled is false when x cannot compare itself with y.
	ComparePy(op syntax.Token, y starlark.Value, reversed bool) (result, handled bool, err error)
	// powPy and divmodPy are x ** y and divmod(x, y), or with x on the
	// right; nil, nil when y is no number they know.
	PowPy(r *Interp, y starlark.Value, side starlark.Side) (starlark.Value, error)
	DivmodPy(y starlark.Value, side starlark.Side) (starlark.Value, error)
}

// intCall is int(x=0, base=10).
func (r *Interp) IntCall(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value = starlark.MakeInt(0)
	var baseV starlark.Value = starlark.None
	if err := UnpackArgs("int", args, kw, "x?", &x, "base?", &baseV); err != nil {
		return nil, err
	}
	if baseV != starlark.None {
		base, err := starlark.AsInt32(baseV)
		if err != nil || base != 0 && (base < 2 || base > 36) {
			return nil, PyErrorf(ExcValueError, "int() base must be >= 2 and <= 36, or 0")
		}
		s, ok := TextOf(x)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "int() can't convert non-string with explicit base")
		}
		return ParseInt(s, base)
	}
	x = enumMixinValue(x) // an IntEnum member is its int
	switch v := x.(type) {
	case NumberObject:
		return v.IntPy()
	case intValued:
		return starlark.MakeBigInt(v.IntPy()), nil // UUID.__int__
	case starlark.Int:
		return v, nil
	case starlark.Bool:
		return starlark.MakeInt(B2i(bool(v))), nil
	case starlark.Float:
		f := float64(v)
		if math.IsInf(f, 0) {
			return nil, PyErrorf(ExcOverflow, "cannot convert float infinity to integer")
		}
		if math.IsNaN(f) {
			return nil, PyErrorf(ExcValueError, "cannot convert float NaN to integer")
		}
		i, _ := big.NewFloat(math.Trunc(f)).Int(nil)
		return starlark.MakeBigInt(i), nil
	case starlark.String, starlark.Bytes:
		s, _ := TextOf(v)
		n, err := ParseInt(s, 10)
		return n, bytesLiteralError(err, v, s)
	}
	return nil, PyErrorf(ExcTypeError, "int() argument must be a string, a bytes-like object or a real number, not '%s'", PyTypeName(x))
}

// bytesLiteralError writes the bytes a failed int(b) or float(b) read as
// CPython does, b'...', in place of the text's repr.
func bytesLiteralError(err error, v starlark.Value, text string) error {
	if _, ok := v.(starlark.Bytes); !ok || err == nil {
		return err
	}
	msg := strings.TrimPrefix(ErrorMessage(err), "ValueError: ")
	return PyErrorf(ExcValueError, "%s", strings.Replace(msg, reprAtMost(pystr.Quote(text), 200), reprAtMost(PyRepr(v), 200), 1))
}

// reprAtMost is a repr cut to n characters, as CPython's %.200R writes the
// text int() could not read.
func reprAtMost(repr string, n int) string {
	if pystr.CharLen(repr) <= n {
		return repr
	}
	return string([]rune(repr)[:n])
}

func TextOf(v starlark.Value) (string, bool) {
	switch v := v.(type) {
	case starlark.String:
		return string(v), true
	case starlark.Bytes:
		return string(v), true
	}
	return "", false
}

// parseInt reads an int literal as int(s, base) does: surrounding
// whitespace, a sign, a base prefix matching base (or any with base 0),
// and underscores between digits.
func ParseInt(orig string, base int) (starlark.Value, error) {
	bad := func() (starlark.Value, error) {
		return nil, PyErrorf(ExcValueError, "invalid literal for int() with base %d: %s", base, reprAtMost(pystr.Quote(orig), 200))
	}
	s := strings.TrimSpace(orig)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	lower := strings.ToLower(s)
	for p, b := range map[string]int{"0x": 16, "0o": 8, "0b": 2} {
		if strings.HasPrefix(lower, p) && (base == b || base == 0) {
			s, base = s[2:], b
			s = strings.TrimPrefix(s, "_")
			break
		}
	}
	if base == 0 {
		if len(s) > 1 && s[0] == '0' && strings.Trim(s, "0_") != "" {
			return bad()
		}
		base = 10
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return bad()
	}
	n, ok := new(big.Int).SetString(strings.ReplaceAll(s, "_", ""), base)
	if !ok {
		return bad()
	}
	if neg {
		n.Neg(n)
	}
	return starlark.MakeBigInt(n), nil
}

// floatCall is float(x=0.0).
func (r *Interp) FloatCall(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value = starlark.Float(0)
	if err := starlark.UnpackPositionalArgs("float", args, kw, 0, &x); err != nil {
		return nil, err
	}
	switch v := x.(type) {
	case NumberObject:
		f, err := v.FloatPy()
		if err != nil {
			return nil, err
		}
		return starlark.Float(f), nil
	case starlark.Float:
		return v, nil
	case starlark.Int:
		f, acc := new(big.Float).SetInt(v.BigInt()).Float64()
		if math.IsInf(f, 0) && acc != big.Exact {
			return nil, PyErrorf(ExcOverflow, "int too large to convert to float")
		}
		return starlark.Float(f), nil
	case starlark.Bool:
		return starlark.Float(B2i(bool(v))), nil
	case starlark.String, starlark.Bytes:
		s, _ := TextOf(v)
		f, err := ParseFloat(s)
		return f, bytesLiteralError(err, v, s)
	}
	return nil, PyErrorf(ExcTypeError, "float() argument must be a string or a real number, not '%s'", PyTypeName(x))
}

func ParseFloat(orig string) (starlark.Value, error) {
	s := strings.TrimSpace(orig)
	t := strings.ToLower(strings.TrimLeft(s, "+-"))
	switch t {
	case "inf", "infinity", "nan":
		f := math.Inf(1)
		if t == "nan" {
			f = math.NaN()
		}
		if strings.HasPrefix(s, "-") {
			f = -f
		}
		return starlark.Float(f), nil
	}
	clean := strings.ReplaceAll(s, "_", "")
	bad := s == "" || strings.ContainsAny(strings.ToLower(s), "xpi") || strings.Contains(s, "__") || s[0] == '_' || s[len(s)-1] == '_'
	f, err := strconv.ParseFloat(clean, 64)
	if bad || err != nil && !strings.Contains(err.Error(), "range") {
		return nil, PyErrorf(ExcValueError, "could not convert string to float: %s", pystr.Quote(orig))
	}
	return starlark.Float(f), nil
}

// pyRound is round(x, ndigits=None), rounding halves to even as Python does.
func pyRound(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x, nd starlark.Value = nil, starlark.None
	if err := UnpackArgs("round", args, kw, "number", &x, "ndigits?", &nd); err != nil {
		return nil, err
	}
	switch v := x.(type) {
	case starlark.Bool:
		x = starlark.MakeInt(B2i(bool(v)))
	}
	switch v := x.(type) {
	case NumberObject:
		return v.RoundPy(nd)
	case starlark.Int:
		if nd == starlark.None {
			return v, nil
		}
		n, err := starlark.AsInt32(nd)
		if err != nil {
			return nil, PyErrorf(ExcTypeError, "'%s' object cannot be interpreted as an integer", PyTypeName(nd))
		}
		if n >= 0 {
			return v, nil
		}
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-n)), nil)
		q, m := new(big.Int).DivMod(v.BigInt(), p, new(big.Int))
		twice := new(big.Int).Mul(m, big.NewInt(2))
		if c := twice.Cmp(p); c > 0 || c == 0 && q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
		return starlark.MakeBigInt(q.Mul(q, p)), nil
	case starlark.Float:
		f := float64(v)
		if nd == starlark.None {
			if math.IsInf(f, 0) {
				return nil, PyErrorf(ExcOverflow, "cannot convert float infinity to integer")
			}
			if math.IsNaN(f) {
				return nil, PyErrorf(ExcValueError, "cannot convert float NaN to integer")
			}
			i, _ := big.NewFloat(math.RoundToEven(f)).Int(nil)
			return starlark.MakeBigInt(i), nil
		}
		n, err := starlark.AsInt32(nd)
		if err != nil {
			return nil, PyErrorf(ExcTypeError, "'%s' object cannot be interpreted as an integer", PyTypeName(nd))
		}
		if math.IsInf(f, 0) || math.IsNaN(f) || f == 0 {
			return v, nil
		}
		if n >= 0 {
			if n > 320 {
				return v, nil
			}
			out, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', n, 64), 64)
			return starlark.Float(out), nil
		}
		p := math.Pow(10, float64(-n))
		return starlark.Float(math.RoundToEven(f/p) * p), nil
	}
	return nil, PyErrorf(ExcTypeError, "type %s doesn't define __round__ method", PyTypeName(x))
}

// pyPow is x ** y: exact for integers, floats as in Python.
func (r *Interp) PyPow(x, y starlark.Value) (starlark.Value, error) {
	if b, ok := x.(starlark.Bool); ok {
		x = starlark.MakeInt(B2i(bool(b)))
	}
	if b, ok := y.(starlark.Bool); ok {
		y = starlark.MakeInt(B2i(bool(b)))
	}
	if n, ok := x.(NumberObject); ok {
		if v, err := n.PowPy(r, y, starlark.Left); v != nil || err != nil {
			return v, err
		}
	} else if n, ok := y.(NumberObject); ok {
		if v, err := n.PowPy(r, x, starlark.Right); v != nil || err != nil {
			return v, err
		}
	}
	xi, xInt := x.(starlark.Int)
	yi, yInt := y.(starlark.Int)
	if xInt && yInt && yi.Sign() >= 0 {
		bx, by := xi.BigInt(), yi.BigInt()
		if bits := int64(bx.BitLen()); bits > 1 {
			tooLarge := PyErrorf(ExcOverflow, "the result of %s ** %s would be too large to hold", PyRepr(x), PyRepr(y))
			if !by.IsInt64() || by.Int64() > math.MaxInt64/bits {
				return nil, tooLarge
			}
			need := bits * by.Int64() / 8
			switch {
			case need > BigAlloc && r.Host.MaxMemoryMB() > 0:
				if err := r.checkAlloc(PyRepr(x)+" ** "+PyRepr(y), need); err != nil {
					return nil, err
				}
			case need > 1<<30:
				return nil, tooLarge
			}
		}
		return starlark.MakeBigInt(new(big.Int).Exp(bx, by, nil)), nil
	}
	fx, okx := ToFloat(x)
	fy, oky := ToFloat(y)
	if !okx || !oky {
		return nil, PyErrorf(ExcTypeError, "unsupported operand type(s) for ** or pow(): '%s' and '%s'", PyTypeName(x), PyTypeName(y))
	}
	if fx == 0 && fy < 0 {
		return nil, PyErrorf(ExcZeroDivision, "0.0 cannot be raised to a negative power")
	}
	if fx < 0 && fy != math.Trunc(fy) && !math.IsInf(fy, 0) {
		return nil, PyErrorf(ExcValueError, "a negative number raised to a fractional power is a complex number, which this REPL does not support")
	}
	out := Pow(fx, fy) // correctly rounded, as C's pow (crmath.go)
	if math.IsInf(out, 0) && !math.IsInf(fx, 0) && !math.IsInf(fy, 0) {
		return nil, PyErrorf(ExcOverflow, "(34, 'Numerical result out of range')")
	}
	return starlark.Float(out), nil
}

func ToFloat(v starlark.Value) (float64, bool) {
	switch v := v.(type) {
	case starlark.Float:
		return float64(v), true
	case starlark.Int:
		f, _ := new(big.Float).SetInt(v.BigInt()).Float64()
		return f, true
	}
	return 0, false
}

// pyPowBuiltin is pow(base, exp, mod=None).
func (r *Interp) pyPowBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x, y, mod starlark.Value = nil, nil, starlark.None
	if err := UnpackArgs("pow", args, kw, "base", &x, "exp", &y, "mod?", &mod); err != nil {
		return nil, err
	}
	if mod == starlark.None {
		return r.PyPow(x, y)
	}
	xi, ok1 := BoolToInt(x).(starlark.Int)
	yi, ok2 := BoolToInt(y).(starlark.Int)
	mi, ok3 := BoolToInt(mod).(starlark.Int)
	if !ok1 || !ok2 || !ok3 {
		return nil, PyErrorf(ExcTypeError, "pow() 3rd argument not allowed unless all arguments are integers")
	}
	if mi.Sign() == 0 {
		return nil, PyErrorf(ExcValueError, "pow() 3rd argument cannot be 0")
	}
	bx, by, bm := xi.BigInt(), yi.BigInt(), mi.BigInt()
	if by.Sign() < 0 {
		inv := new(big.Int).ModInverse(bx, new(big.Int).Abs(bm))
		if inv == nil {
			return nil, PyErrorf(ExcValueError, "base is not invertible for the given modulus")
		}
		bx, by = inv, new(big.Int).Neg(by)
	}
	res := new(big.Int).Exp(bx, by, new(big.Int).Abs(bm))
	if bm.Sign() < 0 && res.Sign() != 0 {
		res.Add(res, bm)
	}
	return starlark.MakeBigInt(res), nil
}

// pyDivmod is divmod(a, b).
func PyDivmod(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs("divmod", args, kw, 2, &x, &y); err != nil {
		return nil, err
	}
	for _, v := range []*starlark.Value{&x, &y} {
		if b, ok := (*v).(starlark.Bool); ok {
			*v = starlark.MakeInt(B2i(bool(b)))
		}
	}
	if n, ok := x.(NumberObject); ok {
		if v, err := n.DivmodPy(y, starlark.Left); v != nil || err != nil {
			return v, err
		}
	} else if n, ok := y.(NumberObject); ok {
		if v, err := n.DivmodPy(x, starlark.Right); v != nil || err != nil {
			return v, err
		}
	}
	if isZero(y) {
		if _, f := x.(starlark.Float); f {
			return nil, PyErrorf(ExcZeroDivision, "float divmod()")
		}
		if _, f := y.(starlark.Float); f {
			return nil, PyErrorf(ExcZeroDivision, "float divmod()")
		}
		return nil, PyErrorf(ExcZeroDivision, "integer division or modulo by zero")
	}
	q, err := starlark.Binary(syntax.SLASHSLASH, x, y)
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "unsupported operand type(s) for divmod(): '%s' and '%s'", PyTypeName(x), PyTypeName(y))
	}
	m, err := starlark.Binary(syntax.PERCENT, x, y)
	if err != nil {
		return nil, err
	}
	if f, ok := m.(starlark.Float); ok && f == 0 {
		yf, _ := starlark.AsFloat(y)
		m = starlark.Float(math.Copysign(0, yf)) // a zero remainder takes the divisor's sign
	}
	return starlark.Tuple{q, m}, nil
}

// intText returns hex, oct or bin.
func intText(name string, base int, prefix string) BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &x); err != nil {
			return nil, err
		}
		x = enumMixinValue(x) // an IntEnum or IntFlag member is its int (__index__)
		if b, ok := x.(starlark.Bool); ok {
			x = starlark.MakeInt(B2i(bool(b)))
		}
		i, ok := x.(starlark.Int)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "'%s' object cannot be interpreted as an integer", PyTypeName(x))
		}
		n := i.BigInt()
		sign := ""
		if n.Sign() < 0 {
			sign = "-"
			n.Neg(n)
		}
		return starlark.String(sign + prefix + n.Text(base)), nil
	}
}

// pyFloat unpacks a number argument as Python does for floats: ints and
// bools too.
type PyFloat float64

func (f *PyFloat) Unpack(v starlark.Value) error {
	x, ok := ToFloat(BoolToInt(v))
	if !ok {
		return PyErrorf(ExcTypeError, "must be real number, not %s", PyTypeName(v))
	}
	*f = PyFloat(x)
	return nil
}

// flipCompare is the operator of y op' x meaning x op y.
var FlipCompare = map[syntax.Token]syntax.Token{
	syntax.LT: syntax.GT, syntax.GT: syntax.LT, syntax.LE: syntax.GE, syntax.GE: syntax.LE,
	syntax.EQL: syntax.EQL, syntax.NEQ: syntax.NEQ,
}

// compareNumberObjects is x op y when one of them is a numberObject of
// another type than the other.
func compareNumberObjects(op syntax.Token, x, y starlark.Value) (bool, bool, error) {
	if x.Type() == y.Type() {
		return false, false, nil
	}
	if n, ok := x.(NumberObject); ok {
		if v, handled, err := n.ComparePy(op, y, false); handled || err != nil {
			return v, true, err
		}
	}
	if n, ok := y.(NumberObject); ok {
		return n.ComparePy(op, x, true)
	}
	return false, false, nil
}

// pyHashNumber is hash(x) for a rational as CPython computes it, so that
// equal ints, floats and fractions hash alike: |n| / d modulo 2**61 - 1.
func PyHashNumber(q *big.Rat) starlark.Int {
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 61), big.NewInt(1))
	var h *big.Int
	dinv := new(big.Int).ModInverse(new(big.Int).Mod(q.Denom(), p), p)
	if dinv == nil {
		h = big.NewInt(314159) // sys.hash_info.inf
	} else {
		h = new(big.Int).Mod(new(big.Int).Abs(q.Num()), p)
		h.Mod(h.Mul(h, dinv), p)
	}
	if q.Sign() < 0 {
		h.Neg(h)
	}
	if h.IsInt64() && h.Int64() == -1 {
		h.SetInt64(-2)
	}
	return starlark.MakeBigInt(h)
}

// intValued is a value that int() reads as an int and hash() hashes as
// that int (uuid.UUID), as its class's __int__ and __hash__ do.
type intValued interface {
	IntPy() *big.Int
}
