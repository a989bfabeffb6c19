// uuid: CPython 3.11's UUID (from hex, bytes, bytes_le, fields or int,
// with its read-only attributes, comparisons and hash), uuid1, uuid3,
// uuid4 (crypto/rand), uuid5, getnode and the RFC 4122 namespaces.

package pynum

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

// pyUUID is a uuid.UUID: its 16 bytes, big-endian; never changed.
type pyUUID struct{ b [16]byte }

var (
	_ starlark.Comparable  = (*pyUUID)(nil)
	_ starlark.HasAttrs    = (*pyUUID)(nil)
	_ starlark.HasSetField = (*pyUUID)(nil)

	uuidType = &pyrt.PyType{TypeName: "UUID", Module: "uuid"}

	uuidVariants = map[string]starlark.String{
		"RESERVED_NCS": "reserved for NCS compatibility", "RFC_4122": "specified in RFC 4122",
		"RESERVED_MICROSOFT": "reserved for Microsoft compatibility", "RESERVED_FUTURE": "reserved for future definition",
	}
)

func init() {
	uuidType.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return newUUID(args, kw)
	}
}

func mustUUID(s string) *pyUUID {
	u, err := uuidFromHex(starlark.String(s))
	if err != nil {
		panic(err)
	}
	return u
}

func uuidModule(r *pyrt.Interp) starlark.Value {
	fn := func(name string, f pyrt.BuiltinFunc) *starlark.Builtin { return pyrt.Builtin("uuid."+name, f) }
	m := starlark.StringDict{
		"UUID":           uuidType,
		"NAMESPACE_DNS":  mustUUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
		"NAMESPACE_URL":  mustUUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8"),
		"NAMESPACE_OID":  mustUUID("6ba7b812-9dad-11d1-80b4-00c04fd430c8"),
		"NAMESPACE_X500": mustUUID("6ba7b814-9dad-11d1-80b4-00c04fd430c8"),
		"uuid4": fn("uuid4", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			u := &pyUUID{}
			rand.Read(u.b[:])
			return u.withVersion(4), nil
		}),
		"uuid3": fn("uuid3", uuidHashed(3)),
		"uuid5": fn("uuid5", uuidHashed(5)),
		"uuid1": fn("uuid1", uuid1),
		"getnode": fn("getnode", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeUint64(uuidNode()), nil
		}),
	}
	for k, v := range uuidVariants {
		m[k] = v
	}
	return pyrt.NewModule("uuid", m)
}

// newUUID is UUID(hex=None, bytes=None, bytes_le=None, fields=None,
// int=None, version=None): exactly one of the first five.
func newUUID(args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var hex, bytesV, bytesLE, fields, intV, version starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	if err := pyrt.UnpackArgs("UUID", args, kw, "hex?", &hex, "bytes?", &bytesV, "bytes_le?", &bytesLE,
		"fields?", &fields, "int?", &intV, "version?", &version, "is_safe?", new(starlark.Value)); err != nil {
		return nil, err
	}
	given := 0
	for _, v := range []starlark.Value{hex, bytesV, bytesLE, fields, intV} {
		if v != starlark.None {
			given++
		}
	}
	if given != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "one of the hex, bytes, bytes_le, fields, or int arguments must be given")
	}
	var u *pyUUID
	var err error
	switch {
	case hex != starlark.None:
		u, err = uuidFromHex(hex)
	case bytesV != starlark.None:
		u, err = uuidFromBytes(bytesV, "bytes", false)
	case bytesLE != starlark.None:
		u, err = uuidFromBytes(bytesLE, "bytes_le", true)
	case fields != starlark.None:
		u, err = uuidFromFields(fields)
	default:
		u, err = uuidFromInt(intV)
	}
	if err != nil || version == starlark.None {
		return u, err
	}
	n, err := starlark.AsInt32(version)
	if err != nil || n < 1 || n > 5 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "illegal version number")
	}
	return u.withVersion(n), nil
}

func uuidFromHex(v starlark.Value) (*pyUUID, error) {
	s, ok := v.(starlark.String)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'replace'", pyrt.PyTypeName(v))
	}
	h := strings.ReplaceAll(strings.ReplaceAll(string(s), "urn:", ""), "uuid:", "")
	h = strings.ReplaceAll(strings.Trim(h, "{}"), "-", "")
	if len([]rune(h)) != 32 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "badly formed hexadecimal UUID string")
	}
	n, err := pyrt.ParseInt(h, 16)
	if err != nil {
		return nil, err
	}
	return uuidFromBig(n.(starlark.Int).BigInt())
}

func uuidFromBig(n *big.Int) (*pyUUID, error) {
	if n.Sign() < 0 || n.BitLen() > 128 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "int is out of range (need a 128-bit value)")
	}
	u := &pyUUID{}
	n.FillBytes(u.b[:])
	return u, nil
}

func uuidFromInt(v starlark.Value) (*pyUUID, error) {
	n, ok := pyrt.BoolToInt(v).(starlark.Int)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'<=' not supported between instances of 'int' and '%s'", pyrt.PyTypeName(v))
	}
	return uuidFromBig(n.BigInt())
}

func uuidFromBytes(v starlark.Value, what string, le bool) (*pyUUID, error) {
	b, isBytes := v.(starlark.Bytes)
	s, isStr := v.(starlark.String)
	switch {
	case !isBytes && !isStr:
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "object of type '%s' has no len()", pyrt.PyTypeName(v))
	case isBytes && len(b) != 16, isStr && len([]rune(string(s))) != 16:
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "%s is not a 16-char string", what)
	case isStr:
		return nil, pyrt.PyErrorf(pyrt.ExcAssertion, "%s", pyrt.PyRepr(v))
	}
	u := &pyUUID{}
	copy(u.b[:], b)
	if le {
		u.b = u.swapLE()
	}
	return u, nil
}

// swapLE turns the first three fields' byte order around (bytes_le).
func (u *pyUUID) swapLE() [16]byte {
	b := u.b
	out := b
	out[0], out[1], out[2], out[3] = b[3], b[2], b[1], b[0]
	out[4], out[5], out[6], out[7] = b[5], b[4], b[7], b[6]
	return out
}

var uuidFieldBits = []uint{32, 16, 16, 8, 8, 48}

func uuidFromFields(v starlark.Value) (*pyUUID, error) {
	vals, err := pyrt.ListOf(v)
	if err != nil {
		return nil, err
	}
	if len(vals) != 6 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "fields is not a 6-tuple")
	}
	n := new(big.Int)
	for i, f := range vals {
		x, ok := pyrt.BoolToInt(f).(starlark.Int)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'<=' not supported between instances of 'int' and '%s'", pyrt.PyTypeName(f))
		}
		bits := uuidFieldBits[i]
		if x.Sign() < 0 || x.BigInt().BitLen() > int(bits) {
			unit := map[uint]string{32: "a 32-bit", 16: "a 16-bit", 8: "an 8-bit", 48: "a 48-bit"}[bits]
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "field %d out of range (need %s value)", i+1, unit)
		}
		n.Lsh(n, bits).Or(n, x.BigInt())
	}
	return uuidFromBig(n)
}

// withVersion sets the RFC 4122 variant and the version, as CPython does.
func (u *pyUUID) withVersion(v int) *pyUUID {
	out := *u
	out.b[8] = out.b[8]&0x3f | 0x80
	out.b[6] = out.b[6]&0x0f | byte(v)<<4
	return &out
}

// uuidHashed is uuid3 (MD5) or uuid5 (SHA-1) of a namespace and a name.
func uuidHashed(version int) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var ns, name starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &ns, &name); err != nil {
			return nil, err
		}
		nsU, ok := ns.(*pyUUID)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'bytes'", pyrt.PyTypeName(ns))
		}
		s, ok := name.(starlark.String)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "encoding without a string argument")
		}
		data := append(nsU.b[:len(nsU.b):len(nsU.b)], s...)
		u := &pyUUID{}
		if version == 3 {
			sum := md5.Sum(data)
			copy(u.b[:], sum[:])
		} else {
			sum := sha1.Sum(data)
			copy(u.b[:], sum[:16])
		}
		return u.withVersion(version), nil
	}
}

var (
	uuidMu       sync.Mutex
	uuidNodeVal  uint64
	uuidLastTime uint64
)

// uuidNode is getnode(): the REPL has no hardware address to read, so a
// random 48-bit number with the multicast bit set, as CPython falls back to.
func uuidNode() uint64 {
	uuidMu.Lock()
	defer uuidMu.Unlock()
	if uuidNodeVal == 0 {
		var b [8]byte
		rand.Read(b[2:])
		uuidNodeVal = (uint64(b[2])<<40 | uint64(b[3])<<32 | uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])) | 1<<40
	}
	return uuidNodeVal
}

// uuid1 is uuid1(node=None, clock_seq=None): the time in 100 ns since
// 1582-10-15, strictly increasing between calls.
func uuid1(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var nodeV, seqV starlark.Value = starlark.None, starlark.None
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "node?", &nodeV, "clock_seq?", &seqV); err != nil {
		return nil, err
	}
	node := uuidNode()
	if nodeV != starlark.None {
		n, ok := pyrt.BoolToInt(nodeV).(starlark.Int)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'<=' not supported between instances of 'int' and '%s'", pyrt.PyTypeName(nodeV))
		}
		v, exact := n.Uint64()
		if !exact || v >= 1<<48 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "field 6 out of range (need a 48-bit value)")
		}
		node = v
	}
	var seq uint64
	if seqV != starlark.None {
		n, ok := pyrt.BoolToInt(seqV).(starlark.Int)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "unsupported operand type(s) for &: '%s' and 'int'", pyrt.PyTypeName(seqV))
		}
		seq = new(big.Int).And(n.BigInt(), big.NewInt(0x3fff)).Uint64()
	} else {
		var r [2]byte
		rand.Read(r[:])
		seq = (uint64(r[0])<<8 | uint64(r[1])) & 0x3fff
	}
	uuidMu.Lock()
	ts := uint64(time.Now().UnixNano()/100) + 0x01b21dd213814000
	if ts <= uuidLastTime {
		ts = uuidLastTime + 1
	}
	uuidLastTime = ts
	uuidMu.Unlock()
	n := new(big.Int).SetUint64(ts & 0xffffffff)
	for _, part := range [][2]uint64{{(ts >> 32) & 0xffff, 16}, {(ts >> 48) & 0x0fff, 16}, {(seq >> 8) & 0x3f, 8}, {seq & 0xff, 8}, {node, 48}} {
		n.Lsh(n, uint(part[1])).Or(n, new(big.Int).SetUint64(part[0]))
	}
	u, _ := uuidFromBig(n)
	return u.withVersion(1), nil
}

func (u *pyUUID) big() *big.Int { return new(big.Int).SetBytes(u.b[:]) }

// intPy is int(u): UUID.__int__ (pynumbers.go's intValued).
func (u *pyUUID) IntPy() *big.Int { return u.big() }
func (u *pyUUID) bits(shift, width uint) starlark.Int {
	n := u.big()
	n.Rsh(n, shift)
	return starlark.MakeBigInt(n.And(n, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), width), big.NewInt(1))))
}

func (u *pyUUID) hex() string { return fmt.Sprintf("%x", u.b[:]) }
func (u *pyUUID) StrPy() string {
	h := u.hex()
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
func (u *pyUUID) String() string        { return u.StrPy() }
func (u *pyUUID) ReprPy() string        { return "UUID('" + u.StrPy() + "')" }
func (u *pyUUID) Type() string          { return "UUID" }
func (u *pyUUID) Freeze()               {}
func (u *pyUUID) Truth() starlark.Bool  { return true }
func (u *pyUUID) PyClass() *pyrt.PyType { return uuidType }
func (u *pyUUID) Hash() (uint32, error) {
	h, _ := pyrt.PyHashNumber(new(big.Rat).SetInt(u.big())).Int64()
	return uint32(h) ^ uint32(h>>32), nil
}
func (u *pyUUID) HashPy() (starlark.Int, error) {
	return pyrt.PyHashNumber(new(big.Rat).SetInt(u.big())), nil
}

func (u *pyUUID) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	return pyrt.CompareInts(op, int64(u.big().Cmp(y.(*pyUUID).big())), 0), nil
}

func (u *pyUUID) variant() starlark.String {
	switch c := u.b[8]; {
	case c&0x80 == 0:
		return uuidVariants["RESERVED_NCS"]
	case c&0x40 == 0:
		return uuidVariants["RFC_4122"]
	case c&0x20 == 0:
		return uuidVariants["RESERVED_MICROSOFT"]
	}
	return uuidVariants["RESERVED_FUTURE"]
}

var uuidAttrNames = []string{"bytes", "bytes_le", "clock_seq", "clock_seq_hi_variant", "clock_seq_low", "fields", "hex", "int",
	"node", "time", "time_hi_version", "time_low", "time_mid", "urn", "variant", "version"}

func (u *pyUUID) AttrNames() []string { return uuidAttrNames }

func (u *pyUUID) Attr(name string) (starlark.Value, error) {
	switch name {
	case "int":
		return starlark.MakeBigInt(u.big()), nil
	case "hex":
		return starlark.String(u.hex()), nil
	case "urn":
		return starlark.String("urn:uuid:" + u.StrPy()), nil
	case "bytes":
		return starlark.Bytes(u.b[:]), nil
	case "bytes_le":
		b := u.swapLE()
		return starlark.Bytes(b[:]), nil
	case "variant":
		return u.variant(), nil
	case "version":
		if u.variant() != uuidVariants["RFC_4122"] {
			return starlark.None, nil
		}
		return starlark.MakeInt(int(u.b[6] >> 4)), nil
	case "fields":
		t := make(starlark.Tuple, 6)
		for i, n := range []string{"time_low", "time_mid", "time_hi_version", "clock_seq_hi_variant", "clock_seq_low", "node"} {
			t[i], _ = u.Attr(n)
		}
		return t, nil
	case "time":
		t := new(big.Int).Lsh(new(big.Int).And(u.bits(64, 16).BigInt(), big.NewInt(0x0fff)), 48)
		t.Or(t, new(big.Int).Lsh(u.bits(80, 16).BigInt(), 32)).Or(t, u.bits(96, 32).BigInt())
		return starlark.MakeBigInt(t), nil
	case "clock_seq":
		return u.bits(48, 14), nil
	}
	if f, ok := uuidFieldAt[name]; ok {
		return u.bits(f[0], f[1]), nil
	}
	return nil, nil
}

var uuidFieldAt = map[string][2]uint{"time_low": {96, 32}, "time_mid": {80, 16}, "time_hi_version": {64, 16},
	"clock_seq_hi_variant": {56, 8}, "clock_seq_low": {48, 8}, "node": {0, 48}}

func (u *pyUUID) SetField(string, starlark.Value) error {
	return pyrt.PyErrorf(pyrt.ExcTypeError, "UUID objects are immutable")
}
