// struct's functions and its Struct class; IEEE half floats for 'e'.

package pyarchive

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func structModule(r *pyrt.Interp) starlark.Value {
	withFormat := func(name string, f func(sf *structFormat, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)) *starlark.Builtin {
		return pyrt.Builtin("struct."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s expected at least 1 argument, got 0", name)
			}
			sf, err := structFormatArg(args[0])
			if err != nil {
				return nil, err
			}
			return f(sf, name, args[1:], kw)
		})
	}
	return pyrt.NewModule("struct", starlark.StringDict{
		"error":       excStruct,
		"pack":        withFormat("pack", structPack),
		"unpack":      withFormat("unpack", structUnpack),
		"unpack_from": withFormat("unpack_from", structUnpackFrom),
		"iter_unpack": withFormat("iter_unpack", structIterUnpack),
		"pack_into":   withFormat("pack_into", structPackInto),
		"calcsize": withFormat("calcsize", func(sf *structFormat, _ string, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(sf.size), nil
		}),
		"Struct": pyrt.Builtin("struct.Struct", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var format starlark.Value
			if err := pyrt.UnpackArgs("Struct", args, kw, "format", &format); err != nil {
				return nil, err
			}
			sf, err := structFormatArg(format)
			if err != nil {
				return nil, err
			}
			return &structValue{sf}, nil
		}),
	})
}

func structPack(sf *structFormat, _ string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(kw) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "pack() takes no keyword arguments")
	}
	b, err := sf.pack(args)
	if err != nil {
		return nil, err
	}
	return starlark.Bytes(b), nil
}

func structPackInto(*structFormat, string, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "pack_into needs a writable buffer (bytearray), which this REPL does not have: use data = data[:offset] + struct.pack(fmt, ...) + data[offset + struct.calcsize(fmt):]")
}

func structBuffer(fn string, v starlark.Value) (string, error) {
	b, ok := v.(starlark.Bytes)
	if !ok {
		return "", pyrt.PyErrorf(pyrt.ExcTypeError, "a bytes-like object is required, not '%s'", pyrt.PyTypeName(v))
	}
	return string(b), nil
}

func structUnpack(sf *structFormat, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var bufV starlark.Value
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &bufV); err != nil {
		return nil, err
	}
	data, err := structBuffer(fn, bufV)
	if err != nil {
		return nil, err
	}
	if len(data) != sf.size {
		return nil, pyrt.PyErrorf(excStruct, "unpack requires a buffer of %d bytes", sf.size)
	}
	return sf.unpack(data), nil
}

func structUnpackFrom(sf *structFormat, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var bufV starlark.Value
	offset := 0
	if err := pyrt.UnpackArgs(fn, args, kw, "buffer", &bufV, "offset?", &offset); err != nil {
		return nil, err
	}
	data, err := structBuffer(fn, bufV)
	if err != nil {
		return nil, err
	}
	if offset < 0 {
		if offset+len(data) < 0 {
			return nil, pyrt.PyErrorf(excStruct, "offset %d out of range for %d-byte buffer", offset, len(data))
		}
		offset += len(data)
	}
	if len(data)-offset < sf.size {
		return nil, pyrt.PyErrorf(excStruct, "unpack_from requires a buffer of at least %d bytes for unpacking %d bytes at offset %d (actual buffer size is %d)", sf.size+offset, sf.size, offset, len(data))
	}
	return sf.unpack(data[offset : offset+sf.size]), nil
}

func structIterUnpack(sf *structFormat, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var bufV starlark.Value
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &bufV); err != nil {
		return nil, err
	}
	data, err := structBuffer(fn, bufV)
	if err != nil {
		return nil, err
	}
	if sf.size == 0 {
		return nil, pyrt.PyErrorf(excStruct, "cannot iteratively unpack with a struct of length 0")
	}
	if len(data)%sf.size != 0 {
		return nil, pyrt.PyErrorf(excStruct, "iterative unpacking requires a buffer of a multiple of %d bytes", sf.size)
	}
	var out []starlark.Value
	for i := 0; i < len(data); i += sf.size {
		out = append(out, sf.unpack(data[i:i+sf.size]))
	}
	return pyrt.NewListIter("unpack_iterator", out), nil
}

// structValue is a struct.Struct: a compiled format.
type structValue struct{ f *structFormat }

func (s *structValue) String() string { return s.ReprPy() }
func (s *structValue) ReprPy() string {
	return fmt.Sprintf("<_struct.Struct object at %p>", s)
}
func (s *structValue) Type() string          { return "Struct" }
func (s *structValue) Freeze()               {}
func (s *structValue) Truth() starlark.Bool  { return true }
func (s *structValue) Hash() (uint32, error) { return starlark.String(s.f.text).Hash() }
func (s *structValue) AttrNames() []string {
	return []string{"format", "iter_unpack", "pack", "pack_into", "size", "unpack", "unpack_from"}
}

func (s *structValue) Attr(name string) (starlark.Value, error) {
	method := func(f func(*structFormat, string, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return pyrt.Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return f(s.f, name, args, kw)
		})
	}
	switch name {
	case "format":
		return starlark.String(s.f.text), nil
	case "size":
		return starlark.MakeInt(s.f.size), nil
	case "pack":
		return method(structPack), nil
	case "pack_into":
		return method(structPackInto), nil
	case "unpack":
		return method(structUnpack), nil
	case "unpack_from":
		return method(structUnpackFrom), nil
	case "iter_unpack":
		return method(structIterUnpack), nil
	}
	return nil, nil
}

// float16bits rounds x to the nearest IEEE half (ties to even); false
// when x is finite but too large.
func float16bits(x float64) (uint16, bool) {
	sign := uint16(0)
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	switch {
	case math.IsNaN(x):
		return sign | 0x7e00, true
	case math.IsInf(x, 0):
		return sign | 0x7c00, true
	case x == 0:
		return sign, true
	}
	frac, exp := math.Frexp(x) // x = frac * 2^exp, 0.5 <= frac < 1
	if exp < -13 {             // subnormal: units of 2^-24
		m := math.RoundToEven(x * (1 << 24))
		return sign | uint16(m), true // m == 1024 becomes the smallest normal
	}
	m := math.RoundToEven((frac*2 - 1) * 1024)
	e := exp - 1 + 15
	if m == 1024 {
		m, e = 0, e+1
	}
	if e >= 31 {
		return 0, false
	}
	return sign | uint16(e)<<10 | uint16(m), true
}

func float16value(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * math.Ldexp(m, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1+m/1024, e-15)
}
