// base64: the encodings of CPython's base64 module over binascii, with
// its errors (binascii.Error "Incorrect padding", "Non-base32 digit
// found", ...).

package pyarchive

import (
	"encoding/ascii85"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// base64Data is a decoder's argument: bytes or an ASCII str.
func base64Data(v starlark.Value) (string, error) {
	switch v.(type) {
	case starlark.Bytes, starlark.String:
		return asciiData(v)
	}
	return "", pyrt.PyErrorf(pyrt.ExcTypeError, "argument should be a bytes-like object or ASCII string, not '%s'", pyrt.PyTypeName(v))
}

// altTranslate maps the two characters of altchars onto to (or back).
func altTranslate(s string, altchars starlark.Value, to string) (string, error) {
	if altchars == starlark.None {
		return s, nil
	}
	alt, err := base64Data(altchars)
	if err != nil {
		return "", err
	}
	if len(alt) != 2 {
		return "", pyrt.PyErrorf(pyrt.ExcAssertion, "%s", pyrt.PyRepr(altchars))
	}
	return strings.NewReplacer(alt[:1], to[:1], alt[1:], to[1:]).Replace(s), nil
}

func b32decode(s string, casefold bool, alphabet string) ([]byte, error) {
	if len(s)%8 != 0 {
		return nil, binasciiErr("Incorrect padding")
	}
	if casefold {
		s = strings.ToUpper(s)
	}
	l := len(s)
	s = strings.TrimRight(s, "=")
	pads := l - len(s)
	var out []byte
	var acc uint64
	for i := 0; i < len(s); i += 8 {
		end := i + 8
		if end > len(s) {
			end = len(s)
		}
		acc = 0
		for j := i; j < end; j++ {
			v := strings.IndexByte(alphabet, s[j])
			if v < 0 {
				return nil, binasciiErr("Non-base32 digit found")
			}
			acc = acc<<5 + uint64(v)
		}
		for k := 4; k >= 0; k-- {
			out = append(out, byte(acc>>(8*k)))
		}
	}
	if pads != 0 && pads != 1 && pads != 3 && pads != 4 && pads != 6 {
		return nil, binasciiErr("Incorrect padding")
	}
	if pads > 0 && len(out) > 0 {
		acc <<= 5 * uint(pads)
		keep := (43 - 5*pads) / 8
		out = out[:len(out)-5]
		for k := 0; k < keep; k++ {
			out = append(out, byte(acc>>(8*(4-k))))
		}
	}
	return out, nil
}

func b16decode(s string, casefold bool) ([]byte, error) {
	if casefold {
		s = strings.ToUpper(s)
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789ABCDEF", rune(s[i])) {
			return nil, binasciiErr("Non-base16 digit found")
		}
	}
	return unhexlify(s)
}

// encodebytes is base64 in lines of 76 characters, each ending "\n".
func encodebytes(data []byte) string {
	var sb strings.Builder
	for i := 0; i < len(data); i += 57 {
		end := i + 57
		if end > len(data) {
			end = len(data)
		}
		sb.WriteString(base64.StdEncoding.EncodeToString(data[i:end]) + "\n")
	}
	return sb.String()
}

func base64Module(r *pyrt.Interp) starlark.Value {
	enc := func(name string, f func([]byte) string) *starlark.Builtin {
		return pyrt.Builtin("base64."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			var altchars starlark.Value = starlark.None
			if err := pyrt.UnpackArgs(name, args, kw, "s", &v, "altchars?", &altchars); err != nil {
				return nil, err
			}
			data, err := binasciiData(v)
			if err != nil {
				return nil, err
			}
			out := f([]byte(data))
			if altchars != starlark.None {
				alt, err := base64Data(altchars)
				if err != nil {
					return nil, err
				}
				if len(alt) != 2 {
					return nil, pyrt.PyErrorf(pyrt.ExcAssertion, "%s", pyrt.PyRepr(altchars))
				}
				out = strings.NewReplacer("+", alt[:1], "/", alt[1:]).Replace(out)
			}
			return starlark.Bytes(out), nil
		})
	}
	dec := func(name string, f func(s string, casefold bool) ([]byte, error)) *starlark.Builtin {
		return pyrt.Builtin("base64."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			casefold := false
			if err := pyrt.UnpackArgs(name, args, kw, "s", &v, "casefold?", &casefold, "map01?", new(starlark.Value)); err != nil {
				return nil, err
			}
			s, err := base64Data(v)
			if err != nil {
				return nil, err
			}
			out, err := f(s, casefold)
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(out), nil
		})
	}
	b64dec := func(name, urlsafe string) *starlark.Builtin {
		return pyrt.Builtin("base64."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			var altchars starlark.Value = starlark.None
			validate := false
			if urlsafe != "" {
				altchars = starlark.String(urlsafe)
				if err := pyrt.UnpackArgs(name, args, kw, "s", &v); err != nil {
					return nil, err
				}
			} else if err := pyrt.UnpackArgs(name, args, kw, "s", &v, "altchars?", &altchars, "validate?", &validate); err != nil {
				return nil, err
			}
			s, err := base64Data(v)
			if err != nil {
				return nil, err
			}
			if s, err = altTranslate(s, altchars, "+/"); err != nil {
				return nil, err
			}
			out, err := a2bBase64(s, validate)
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(out), nil
		})
	}
	const b32hex = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
	hexEnc := base32.NewEncoding(b32hex)
	return pyrt.NewModule("base64", starlark.StringDict{
		"b64encode": enc("b64encode", base64.StdEncoding.EncodeToString), "b64decode": b64dec("b64decode", ""),
		"standard_b64encode": enc("standard_b64encode", base64.StdEncoding.EncodeToString), "standard_b64decode": b64dec("standard_b64decode", ""),
		"urlsafe_b64encode": enc("urlsafe_b64encode", base64.URLEncoding.EncodeToString), "urlsafe_b64decode": b64dec("urlsafe_b64decode", "-_"),
		"b32encode": enc("b32encode", base32.StdEncoding.EncodeToString),
		"b32decode": dec("b32decode", func(s string, casefold bool) ([]byte, error) {
			return b32decode(s, casefold, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
		}),
		"b32hexencode": enc("b32hexencode", hexEnc.EncodeToString),
		"b32hexdecode": dec("b32hexdecode", func(s string, casefold bool) ([]byte, error) { return b32decode(s, casefold, b32hex) }),
		"b16encode":    enc("b16encode", func(b []byte) string { return strings.ToUpper(hex.EncodeToString(b)) }),
		"b16decode":    dec("b16decode", b16decode),
		"a85encode": enc("a85encode", func(b []byte) string {
			out := make([]byte, ascii85.MaxEncodedLen(len(b)))
			return string(out[:ascii85.Encode(out, b)])
		}),
		"encodebytes": enc("encodebytes", encodebytes),
		"decodebytes": dec("decodebytes", func(s string, _ bool) ([]byte, error) { return a2bBase64(s, false) }),
	})
}
