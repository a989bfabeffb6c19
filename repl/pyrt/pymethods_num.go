// The methods of int and float values: bit_length, bit_count, to_bytes,
// as_integer_ratio, is_integer, hex, conjugate.

package pyrt

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
)

var (
	intMethods = map[string]methodFunc{
		"bit_length": intUnary(func(x *big.Int) starlark.Value { return starlark.MakeInt(new(big.Int).Abs(x).BitLen()) }),
		"bit_count": intUnary(func(x *big.Int) starlark.Value {
			n := 0
			for _, w := range new(big.Int).Abs(x).Bits() {
				n += bits.OnesCount(uint(w))
			}
			return starlark.MakeInt(n)
		}),
		"as_integer_ratio": intUnary(func(x *big.Int) starlark.Value { return starlark.Tuple{starlark.MakeBigInt(x), starlark.MakeInt(1)} }),
		"conjugate":        intUnary(func(x *big.Int) starlark.Value { return starlark.MakeBigInt(x) }),
		"to_bytes":         intToBytes,
	}
	floatMethods = map[string]methodFunc{
		"is_integer": floatUnary("is_integer", func(f float64) (starlark.Value, error) {
			return starlark.Bool(!math.IsInf(f, 0) && f == math.Trunc(f)), nil
		}),
		"as_integer_ratio": floatUnary("as_integer_ratio", func(f float64) (starlark.Value, error) {
			if math.IsInf(f, 0) {
				return nil, PyErrorf(ExcOverflow, "cannot convert Infinity to integer ratio")
			}
			if math.IsNaN(f) {
				return nil, PyErrorf(ExcValueError, "cannot convert NaN to integer ratio")
			}
			r := new(big.Rat).SetFloat64(f)
			return starlark.Tuple{starlark.MakeBigInt(r.Num()), starlark.MakeBigInt(r.Denom())}, nil
		}),
		"hex":       floatUnary("hex", func(f float64) (starlark.Value, error) { return starlark.String(floatHex(f)), nil }),
		"conjugate": floatUnary("conjugate", func(f float64) (starlark.Value, error) { return starlark.Float(f), nil }),
	}
)

func init() {
	for _, t := range []map[string]methodFunc{intMethods, floatMethods} {
		for name := range t {
			PyMethods[name] = true
		}
	}
	PyMethods["from_bytes"] = true // int.from_bytes (CallMethod)
}

func intOf(v starlark.Value) *big.Int {
	if b, ok := v.(starlark.Bool); ok {
		return big.NewInt(int64(B2i(bool(b))))
	}
	return v.(starlark.Int).BigInt()
}

func intUnary(f func(*big.Int) starlark.Value) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args)+len(kw) > 0 {
			return nil, PyErrorf(ExcTypeError, "method takes no arguments (%d given)", len(args)+len(kw))
		}
		return f(intOf(recv)), nil
	}
}

func floatUnary(name string, f func(float64) (starlark.Value, error)) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args)+len(kw) > 0 {
			return nil, PyErrorf(ExcTypeError, "float.%s() takes no arguments (%d given)", name, len(args)+len(kw))
		}
		return f(float64(recv.(starlark.Float)))
	}
}

// intToBytes is int.to_bytes(length=1, byteorder='big', *, signed=False).
func intToBytes(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	length, order, signed := 1, "big", false
	if err := UnpackArgs("to_bytes", args, kw, "length?", &length, "byteorder?", &order, "signed?", &signed); err != nil {
		return nil, err
	}
	if order != "big" && order != "little" {
		return nil, PyErrorf(ExcValueError, "byteorder must be either 'little' or 'big'")
	}
	x := intOf(recv)
	if x.Sign() < 0 && !signed {
		return nil, PyErrorf(ExcOverflow, "can't convert negative int to unsigned")
	}
	v := new(big.Int).Set(x)
	if v.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(8*length))) // two's complement
	}
	limit := uint(8 * length)
	if signed {
		limit--
	}
	if x.Sign() >= 0 && x.BitLen() > int(limit) || x.Sign() < 0 && new(big.Int).Not(x).BitLen() > int(limit) || v.Sign() < 0 {
		return nil, PyErrorf(ExcOverflow, "int too big to convert")
	}
	buf := v.FillBytes(make([]byte, length))
	if order == "little" {
		for i, j := 0, len(buf)-1; i < j; i, j = i+1, j-1 {
			buf[i], buf[j] = buf[j], buf[i]
		}
	}
	return starlark.Bytes(buf), nil
}

// floatHex is float.hex(): '0x1.8000000000000p+1' for 3.0.
func floatHex(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	sign := ""
	if math.Signbit(f) {
		sign, f = "-", -f
	}
	if f == 0 {
		return sign + "0x0.0p+0"
	}
	b := math.Float64bits(f)
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	lead := "1"
	if exp == 0 { // subnormal
		lead, exp = "0", -1022
	} else {
		exp -= 1023
	}
	m := strconv.FormatUint(mant, 16)
	m = strings.Repeat("0", 13-len(m)) + m
	e := strconv.Itoa(exp)
	if exp >= 0 {
		e = "+" + e
	}
	return sign + "0x" + lead + "." + m + "p" + e
}

// intFromBytes is int.from_bytes(bytes, byteorder='big', *, signed=False).
func intFromBytes(args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var data starlark.Value
	order, signed := "big", false
	if err := UnpackArgs("from_bytes", args, kw, "bytes", &data, "byteorder?", &order, "signed?", &signed); err != nil {
		return nil, err
	}
	if order != "big" && order != "little" {
		return nil, PyErrorf(ExcValueError, "byteorder must be either 'little' or 'big'")
	}
	var buf []byte
	if b, ok := data.(starlark.Bytes); ok {
		buf = []byte(string(b))
	} else {
		vals, err := ListOf(data)
		if err != nil {
			return nil, PyErrorf(ExcTypeError, "cannot convert '%s' object to bytes", PyTypeName(data))
		}
		for _, v := range vals {
			n, err := starlark.AsInt32(v)
			if err != nil || n < 0 || n > 255 {
				return nil, PyErrorf(ExcValueError, "bytes must be in range(0, 256)")
			}
			buf = append(buf, byte(n))
		}
	}
	if order == "little" {
		for i, j := 0, len(buf)-1; i < j; i, j = i+1, j-1 {
			buf[i], buf[j] = buf[j], buf[i]
		}
	}
	x := new(big.Int).SetBytes(buf)
	if signed && len(buf) > 0 && buf[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(buf))))
	}
	return starlark.MakeBigInt(x), nil
}
