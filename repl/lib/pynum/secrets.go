// secrets: token_bytes, token_hex and token_urlsafe (32 bytes by
// default, as CPython's DEFAULT_ENTROPY), choice, randbelow, randbits,
// compare_digest and SystemRandom, all from crypto/rand.

package pynum

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"reflect"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var sysRandomType = &pyrt.PyType{TypeName: "SystemRandom", Module: "random"}

func init() {
	sysRandomType.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := pyrt.UnpackArgs("SystemRandom", args, kw, "x?", new(starlark.Value)); err != nil {
			return nil, err
		}
		return newSysRandom(), nil
	}
}

// sysRandom is a random.SystemRandom: the random module's functions over
// the system's entropy.
type sysRandom struct{ methods starlark.StringDict }

func newSysRandom() *sysRandom {
	return &sysRandom{randomMembers(&mt19937{system: true}, "SystemRandom.")}
}

func (s *sysRandom) String() string { return s.ReprPy() }
func (s *sysRandom) ReprPy() string {
	return fmt.Sprintf("<random.SystemRandom object at %#x>", reflect.ValueOf(s).Pointer())
}
func (s *sysRandom) Type() string          { return "SystemRandom" }
func (s *sysRandom) Freeze()               {}
func (s *sysRandom) Truth() starlark.Bool  { return true }
func (s *sysRandom) Hash() (uint32, error) { return uint32(reflect.ValueOf(s).Pointer()), nil }
func (s *sysRandom) PyClass() *pyrt.PyType { return sysRandomType }
func (s *sysRandom) AttrNames() []string   { return s.methods.Keys() }
func (s *sysRandom) Attr(name string) (starlark.Value, error) {
	switch name {
	case "getstate", "setstate":
		return pyrt.Builtin("SystemRandom."+name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "System entropy source does not have state.")
		}), nil
	}
	return s.methods[name], nil
}

const secretsEntropy = 32

func secretsModule(r *pyrt.Interp) starlark.Value {
	sys := newSysRandom()
	fn := func(name string, f pyrt.BuiltinFunc) *starlark.Builtin { return pyrt.Builtin("secrets."+name, f) }
	return pyrt.NewModule("secrets", starlark.StringDict{
		"DEFAULT_ENTROPY": starlark.MakeInt(secretsEntropy),
		"SystemRandom":    sysRandomType,
		"token_bytes":     fn("token_bytes", secretsToken(func(b []byte) starlark.Value { return starlark.Bytes(b) })),
		"token_hex":       fn("token_hex", secretsToken(func(b []byte) starlark.Value { return starlark.String(hex.EncodeToString(b)) })),
		"token_urlsafe": fn("token_urlsafe", secretsToken(func(b []byte) starlark.Value {
			return starlark.String(base64.RawURLEncoding.EncodeToString(b))
		})),
		"choice":         sys.methods["choice"],
		"randbits":       sys.methods["getrandbits"],
		"randbelow":      fn("randbelow", secretsRandbelow),
		"compare_digest": fn("compare_digest", compareDigest),
	})
}

// secretsToken reads nbytes=None (DEFAULT_ENTROPY) random bytes and
// encodes them with enc.
func secretsToken(enc func([]byte) starlark.Value) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var nV starlark.Value = starlark.None
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "nbytes?", &nV); err != nil {
			return nil, err
		}
		n := secretsEntropy
		if nV != starlark.None {
			i, ok := pyrt.BoolToInt(nV).(starlark.Int)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object cannot be interpreted as an integer", pyrt.PyTypeName(nV))
			}
			v, ok := i.Int64()
			if !ok || v > 1<<30 {
				return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "Python int too large to convert to C ssize_t")
			}
			if v < 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "negative argument not allowed")
			}
			n = int(v)
		}
		buf := make([]byte, n)
		rand.Read(buf)
		return enc(buf), nil
	}
}

func secretsRandbelow(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var nV starlark.Value
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "exclusive_upper_bound", &nV); err != nil {
		return nil, err
	}
	n, ok := pyrt.BoolToInt(nV).(starlark.Int)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'<=' not supported between instances of '%s' and 'int'", pyrt.PyTypeName(nV))
	}
	if n.Sign() <= 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Upper bound must be positive.")
	}
	v, _ := rand.Int(rand.Reader, n.BigInt())
	return starlark.MakeBigInt(v), nil
}

// compareDigest is hmac.compare_digest(a, b): two ASCII strs or two
// bytes, compared in constant time.
func compareDigest(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &x, &y); err != nil {
		return nil, err
	}
	xs, xStr := x.(starlark.String)
	ys, yStr := y.(starlark.String)
	xb, xBytes := x.(starlark.Bytes)
	yb, yBytes := y.(starlark.Bytes)
	switch {
	case xStr && yStr:
		if !isASCII(string(xs)) || !isASCII(string(ys)) {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "comparing strings with non-ASCII characters is not supported")
		}
		return starlark.Bool(subtle.ConstantTimeCompare([]byte(xs), []byte(ys)) == 1), nil
	case xBytes && yBytes:
		return starlark.Bool(subtle.ConstantTimeCompare([]byte(xb), []byte(yb)) == 1), nil
	case !xBytes && !yBytes:
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "unsupported operand types(s) or combination of types: '%s' and '%s'", pyrt.PyTypeName(x), pyrt.PyTypeName(y))
	case !xBytes:
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "a bytes-like object is required, not '%s'", pyrt.PyTypeName(x))
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "a bytes-like object is required, not '%s'", pyrt.PyTypeName(y))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
