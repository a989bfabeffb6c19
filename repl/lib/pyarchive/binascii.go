// binascii: hex, base64 and CRC conversions with CPython's errors
// (binascii.Error, a ValueError); the decoders base64 uses too.

package pyarchive

import (
	"encoding/base64"
	"encoding/hex"
	"hash/crc32"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var (
	excBinascii   = &pyrt.ExcType{TypeName: "Error", Module: "binascii", Base: pyrt.ExcValueError}
	excIncomplete = &pyrt.ExcType{TypeName: "Incomplete", Module: "binascii", Base: pyrt.ExcException}
)

func binasciiErr(msg string) error { return pyrt.PyErrorf(excBinascii, "%s", msg) }

// binasciiData is a bytes argument (str is refused, as in CPython).
func binasciiData(v starlark.Value) (string, error) {
	b, ok := v.(starlark.Bytes)
	if !ok {
		return "", pyrt.PyErrorf(pyrt.ExcTypeError, "a bytes-like object is required, not '%s'", pyrt.PyTypeName(v))
	}
	return string(b), nil
}

// asciiData is an a2b_* argument: bytes, or a str of ASCII characters.
func asciiData(v starlark.Value) (string, error) {
	switch v := v.(type) {
	case starlark.Bytes:
		return string(v), nil
	case starlark.String:
		for i := 0; i < len(v); i++ {
			if v[i] >= 0x80 {
				return "", pyrt.PyErrorf(pyrt.ExcValueError, "string argument should contain only ASCII characters")
			}
		}
		return string(v), nil
	}
	return "", pyrt.PyErrorf(pyrt.ExcTypeError, "argument should be bytes, buffer or ASCII string, not '%s'", pyrt.PyTypeName(v))
}

// hexlifySep is hexlify(data, sep, bytes_per_sep): sep between groups of
// n bytes counted from the right (n > 0) or the left (n < 0).
func hexlifySep(data, sep string, n int) string {
	h := hex.EncodeToString([]byte(data))
	if sep == "" || len(data) == 0 {
		return h
	}
	step := n
	if step < 0 {
		step = -step
	}
	if step == 0 {
		return h
	}
	var groups []string
	if n > 0 {
		first := len(data) % step
		if first > 0 {
			groups = append(groups, h[:2*first])
		}
		for i := first; i < len(data); i += step {
			groups = append(groups, h[2*i:2*(i+step)])
		}
	} else {
		for i := 0; i < len(data); i += step {
			end := i + step
			if end > len(data) {
				end = len(data)
			}
			groups = append(groups, h[2*i:2*end])
		}
	}
	return strings.Join(groups, sep)
}

func unhexlify(s string) ([]byte, error) {
	if len(s)%2 != 0 {
		return nil, binasciiErr("Odd-length string")
	}
	out, err := hex.DecodeString(s)
	if err != nil {
		return nil, binasciiErr("Non-hexadecimal digit found")
	}
	return out, nil
}

// a2bBase64 decodes as CPython's binascii.a2b_base64: other characters
// are skipped unless strict, decoding stops at the padding.
func a2bBase64(s string, strict bool) ([]byte, error) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var out []byte
	quad, pads, data := 0, 0, 0
	var left byte
	padding := false
	if strict && len(s) > 0 && s[0] == '=' {
		return nil, binasciiErr("Leading padding not allowed")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '=' {
			padding = true
			pads++
			if quad >= 2 && quad+pads >= 4 {
				if strict && i+1 < len(s) {
					return nil, binasciiErr("Excess data after padding")
				}
				return out, nil
			}
			continue
		}
		v := strings.IndexByte(alphabet, c)
		if v < 0 {
			if strict {
				return nil, binasciiErr("Only base64 data is allowed")
			}
			continue
		}
		if strict && padding {
			return nil, binasciiErr("Discontinuous padding not allowed")
		}
		pads, data = 0, data+1
		b := byte(v)
		switch quad {
		case 0:
			quad, left = 1, b
		case 1:
			out = append(out, left<<2|b>>4)
			quad, left = 2, b&0xf
		case 2:
			out = append(out, left<<4|b>>2)
			quad, left = 3, b&3
		case 3:
			out = append(out, left<<6|b)
			quad, left = 0, 0
		}
	}
	switch quad {
	case 0:
		return out, nil
	case 1:
		return nil, binasciiErr("Invalid base64-encoded string: number of data characters (" + pyrt.Itoa(data) + ") cannot be 1 more than a multiple of 4")
	}
	return nil, binasciiErr("Incorrect padding")
}

func binasciiModule(r *pyrt.Interp) starlark.Value {
	hexlify := func(name string) *starlark.Builtin {
		return pyrt.Builtin("binascii."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var dataV, sepV starlark.Value = nil, starlark.None
			n := 1
			if err := pyrt.UnpackArgs(name, args, kw, "data", &dataV, "sep?", &sepV, "bytes_per_sep?", &n); err != nil {
				return nil, err
			}
			data, err := binasciiData(dataV)
			if err != nil {
				return nil, err
			}
			sep := ""
			if sepV != starlark.None {
				s, ok := pyrt.TextOf(sepV)
				if !ok || len(s) != 1 {
					return nil, pyrt.PyErrorf(pyrt.ExcValueError, "sep must be length 1.")
				}
				sep = s
			}
			return starlark.Bytes(hexlifySep(data, sep, n)), nil
		})
	}
	unhex := func(name string) *starlark.Builtin {
		return pyrt.Builtin("binascii."+name, pyrt.Unary(func(v starlark.Value) (starlark.Value, error) {
			s, err := asciiData(v)
			if err != nil {
				return nil, err
			}
			out, err := unhexlify(s)
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(out), nil
		}))
	}
	return pyrt.NewModule("binascii", starlark.StringDict{
		"Error": excBinascii, "Incomplete": excIncomplete,
		"hexlify": hexlify("hexlify"), "b2a_hex": hexlify("b2a_hex"),
		"unhexlify": unhex("unhexlify"), "a2b_hex": unhex("a2b_hex"),
		"crc32": checksum("binascii", "crc32", func(s uint32, d []byte) uint32 { return crc32.Update(s, crc32.IEEETable, d) }, 0),
		"crc_hqx": pyrt.Builtin("binascii.crc_hqx", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var dataV starlark.Value
			var crc int
			if err := starlark.UnpackPositionalArgs("crc_hqx", args, kw, 2, &dataV, &crc); err != nil {
				return nil, err
			}
			data, err := binasciiData(dataV)
			if err != nil {
				return nil, err
			}
			c := uint16(crc)
			for i := 0; i < len(data); i++ {
				c ^= uint16(data[i]) << 8
				for k := 0; k < 8; k++ {
					if c&0x8000 != 0 {
						c = c<<1 ^ 0x1021
					} else {
						c <<= 1
					}
				}
			}
			return starlark.MakeInt(int(c)), nil
		}),
		"b2a_base64": pyrt.Builtin("binascii.b2a_base64", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var dataV starlark.Value
			newline := true
			if err := pyrt.UnpackArgs("b2a_base64", args, kw, "data", &dataV, "newline?", &newline); err != nil {
				return nil, err
			}
			data, err := binasciiData(dataV)
			if err != nil {
				return nil, err
			}
			out := base64.StdEncoding.EncodeToString([]byte(data))
			if newline {
				out += "\n"
			}
			return starlark.Bytes(out), nil
		}),
		"a2b_base64": pyrt.Builtin("binascii.a2b_base64", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var dataV starlark.Value
			strict := false
			if err := pyrt.UnpackArgs("a2b_base64", args, kw, "data", &dataV, "strict_mode?", &strict); err != nil {
				return nil, err
			}
			s, err := asciiData(dataV)
			if err != nil {
				return nil, err
			}
			out, err := a2bBase64(s, strict)
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(out), nil
		}),
	})
}

// uint32Arg is a CRC's starting value, taken modulo 2**32 as CPython does.
func uint32Arg(v starlark.Value) (uint32, error) {
	n, ok := v.(starlark.Int)
	if !ok {
		return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object cannot be interpreted as an integer", pyrt.PyTypeName(v))
	}
	u, _ := n.And(starlark.MakeUint64(0xffffffff)).Uint64()
	return uint32(u), nil
}
