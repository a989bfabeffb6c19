// struct: pack and unpack binary records as CPython's struct module does,
// with its byte orders, sizes, alignment and error messages.

package pyarchive

import (
	"encoding/binary"
	"math"
	"math/big"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var excStruct = &pyrt.ExcType{TypeName: "error", Module: "struct", Base: pyrt.ExcException}

// structItem is one field of a format: a kind, its size in bytes, and for
// s and p the byte length (count), for others how many times it repeats.
type structItem struct {
	kind  byte
	size  int
	count int
}

// structFormat is a parsed format string.
type structFormat struct {
	text  string
	order binary.ByteOrder
	items []structItem
	size  int
	nargs int
}

// native sizes (x86-64 Linux) and standard sizes.
var structNative = map[byte]int{'x': 1, 'c': 1, 'b': 1, 'B': 1, '?': 1, 'h': 2, 'H': 2, 'i': 4, 'I': 4,
	'l': 8, 'L': 8, 'q': 8, 'Q': 8, 'n': 8, 'N': 8, 'e': 2, 'f': 4, 'd': 8, 's': 1, 'p': 1, 'P': 8}
var structStandard = map[byte]int{'x': 1, 'c': 1, 'b': 1, 'B': 1, '?': 1, 'h': 2, 'H': 2, 'i': 4, 'I': 4,
	'l': 4, 'L': 4, 'q': 8, 'Q': 8, 'e': 2, 'f': 4, 'd': 8, 's': 1, 'p': 1}

func parseStructFormat(text string) (*structFormat, error) {
	f := &structFormat{text: text, order: binary.LittleEndian}
	s := text
	sizes, align := structNative, true
	if s != "" {
		switch s[0] {
		case '@':
			s = s[1:]
		case '=', '<':
			sizes, align, s = structStandard, false, s[1:]
		case '>', '!':
			f.order, sizes, align, s = binary.BigEndian, structStandard, false, s[1:]
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			i++
			continue
		}
		count, digits := 1, false
		if c >= '0' && c <= '9' {
			count, digits = 0, true
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				count = count*10 + int(s[i]-'0')
				if count > 1<<30 {
					return nil, pyrt.PyErrorf(excStruct, "total struct size too long")
				}
				i++
			}
			if i == len(s) {
				return nil, pyrt.PyErrorf(excStruct, "repeat count given without format specifier")
			}
			c = s[i]
		}
		size, ok := sizes[c]
		if !ok {
			return nil, pyrt.PyErrorf(excStruct, "bad char in struct format")
		}
		i++
		if align && size > 1 && f.size%size != 0 {
			f.size += size - f.size%size
		}
		switch c {
		case 's', 'p':
			f.items = append(f.items, structItem{c, count, count})
			f.size += count
			f.nargs++
		case 'x':
			f.items = append(f.items, structItem{c, count, count})
			f.size += count
		default:
			if digits && count == 0 {
				continue
			}
			f.items = append(f.items, structItem{c, size, count})
			f.size += size * count
			f.nargs += count
		}
	}
	return f, nil
}

// structFormatArg accepts a format as str or bytes.
func structFormatArg(v starlark.Value) (*structFormat, error) {
	switch v := v.(type) {
	case starlark.String:
		return parseStructFormat(string(v))
	case starlark.Bytes:
		return parseStructFormat(string(v))
	case *structValue:
		return v.f, nil
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Struct() argument 1 must be a str or bytes object, not %s", pyrt.PyTypeName(v))
}

func (f *structFormat) pack(args starlark.Tuple) ([]byte, error) {
	if len(args) != f.nargs {
		return nil, pyrt.PyErrorf(excStruct, "pack expected %d items for packing (got %d)", f.nargs, len(args))
	}
	out := make([]byte, 0, f.size)
	align := f.text == "" || !strings.ContainsAny(f.text[:1], "=<>!")
	next := 0
	for _, it := range f.items {
		if align && it.kind != 's' && it.kind != 'p' && it.kind != 'x' && it.size > 1 && len(out)%it.size != 0 {
			out = append(out, make([]byte, it.size-len(out)%it.size)...)
		}
		switch it.kind {
		case 'x':
			out = append(out, make([]byte, it.count)...)
			continue
		case 's', 'p':
			b, ok := args[next].(starlark.Bytes)
			next++
			if !ok {
				return nil, pyrt.PyErrorf(excStruct, "argument for '%c' must be a bytes object", it.kind)
			}
			out = append(out, packString(it, string(b))...)
			continue
		}
		for k := 0; k < it.count; k++ {
			b, err := packOne(f.order, !align, it, args[next])
			if err != nil {
				return nil, err
			}
			next++
			out = append(out, b...)
		}
	}
	return out, nil
}

func packString(it structItem, s string) []byte {
	field := make([]byte, it.count)
	if it.kind == 's' {
		copy(field, s)
		return field
	}
	if it.count == 0 {
		return field
	}
	n := copy(field[1:], s)
	if n > 255 {
		n = 255
	}
	field[0] = byte(n)
	return field
}

var structIntNames = map[byte]string{'b': "byte", 'B': "ubyte", 'h': "short", 'H': "ushort"}

func packOne(order binary.ByteOrder, std bool, it structItem, v starlark.Value) ([]byte, error) {
	buf := make([]byte, it.size)
	switch it.kind {
	case 'c':
		b, ok := v.(starlark.Bytes)
		if !ok || len(b) != 1 {
			return nil, pyrt.PyErrorf(excStruct, "char format requires a bytes object of length 1")
		}
		return []byte(b), nil
	case '?':
		if v.Truth() {
			buf[0] = 1
		}
		return buf, nil
	case 'e', 'f', 'd':
		x, ok := structFloat(v)
		if !ok {
			return nil, pyrt.PyErrorf(excStruct, "required argument is not a float")
		}
		switch it.kind {
		case 'd':
			order.PutUint64(buf, math.Float64bits(x))
		case 'f':
			f := float32(x)
			if std && math.IsInf(float64(f), 0) && !math.IsInf(x, 0) {
				return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "float too large to pack with f format")
			}
			order.PutUint32(buf, math.Float32bits(f))
		default:
			h, ok := float16bits(x)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcOverflow, "float too large to pack with e format")
			}
			order.PutUint16(buf, h)
		}
		return buf, nil
	}
	n, err := structInt(v)
	if err != nil {
		return nil, err
	}
	signed := it.kind == 'b' || it.kind == 'h' || it.kind == 'i' || it.kind == 'l' || it.kind == 'q' || it.kind == 'n'
	bits := uint(it.size * 8)
	var lo, hi big.Int
	if signed {
		lo.Lsh(big.NewInt(-1), bits-1)
		hi.Lsh(big.NewInt(1), bits-1)
	} else {
		hi.Lsh(big.NewInt(1), bits)
	}
	hi.Sub(&hi, big.NewInt(1))
	if n.Cmp(&lo) < 0 || n.Cmp(&hi) > 0 {
		name, short := structIntNames[it.kind]
		if !n.IsInt64() || !short && (it.size == 8 || !signed && n.Sign() < 0) {
			return nil, pyrt.PyErrorf(excStruct, "argument out of range")
		}
		if !short {
			name = "'" + string(it.kind) + "'"
		}
		return nil, pyrt.PyErrorf(excStruct, "%s format requires %s <= number <= %s", name, lo.String(), hi.String())
	}
	var u uint64
	if n.Sign() < 0 {
		u = uint64(n.Int64())
	} else {
		u = n.Uint64()
	}
	switch it.size {
	case 1:
		buf[0] = byte(u)
	case 2:
		order.PutUint16(buf, uint16(u))
	case 4:
		order.PutUint32(buf, uint32(u))
	default:
		order.PutUint64(buf, u)
	}
	return buf, nil
}

func structInt(v starlark.Value) (*big.Int, error) {
	switch v := v.(type) {
	case starlark.Int:
		return v.BigInt(), nil
	case starlark.Bool:
		if v {
			return big.NewInt(1), nil
		}
		return big.NewInt(0), nil
	}
	return nil, pyrt.PyErrorf(excStruct, "required argument is not an integer")
}

func structFloat(v starlark.Value) (float64, bool) {
	switch v := v.(type) {
	case starlark.Float:
		return float64(v), true
	case starlark.Int:
		f, _ := new(big.Float).SetInt(v.BigInt()).Float64()
		return f, true
	case starlark.Bool:
		if v {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func (f *structFormat) unpack(data string) starlark.Tuple {
	var out starlark.Tuple
	align := f.text == "" || !strings.ContainsAny(f.text[:1], "=<>!")
	pos := 0
	for _, it := range f.items {
		if align && it.kind != 's' && it.kind != 'p' && it.kind != 'x' && it.size > 1 && pos%it.size != 0 {
			pos += it.size - pos%it.size
		}
		switch it.kind {
		case 'x':
			pos += it.count
			continue
		case 's':
			out = append(out, starlark.Bytes(data[pos:pos+it.count]))
			pos += it.count
			continue
		case 'p':
			s := ""
			if it.count > 0 {
				n := int(data[pos])
				if n > it.count-1 {
					n = it.count - 1
				}
				s = data[pos+1 : pos+1+n]
			}
			out = append(out, starlark.Bytes(s))
			pos += it.count
			continue
		}
		for k := 0; k < it.count; k++ {
			out = append(out, unpackOne(f.order, it, []byte(data[pos:pos+it.size])))
			pos += it.size
		}
	}
	return out
}

func unpackOne(order binary.ByteOrder, it structItem, b []byte) starlark.Value {
	switch it.kind {
	case 'c':
		return starlark.Bytes(b)
	case '?':
		return starlark.Bool(b[0] != 0)
	case 'd':
		return starlark.Float(math.Float64frombits(order.Uint64(b)))
	case 'f':
		return starlark.Float(math.Float32frombits(order.Uint32(b)))
	case 'e':
		return starlark.Float(float16value(order.Uint16(b)))
	}
	var u uint64
	switch it.size {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(order.Uint16(b))
	case 4:
		u = uint64(order.Uint32(b))
	default:
		u = order.Uint64(b)
	}
	switch it.kind {
	case 'b':
		return starlark.MakeInt(int(int8(u)))
	case 'h':
		return starlark.MakeInt(int(int16(u)))
	case 'i', 'l':
		if it.size == 4 {
			return starlark.MakeInt(int(int32(u)))
		}
		return starlark.MakeInt64(int64(u))
	case 'q', 'n':
		return starlark.MakeInt64(int64(u))
	}
	return starlark.MakeUint64(u)
}
