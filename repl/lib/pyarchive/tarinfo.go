// tarfile.TarInfo: a member's name, size, time, mode, type, link and
// owner, settable as in CPython (addfile writes what they say).

package pyarchive

import (
	"fmt"
	"reflect"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

// tarInfo is a tarfile.TarInfo.
type tarInfo struct {
	name, linkname string
	size           int64
	mtime          starlark.Value // an int, or a float (from stat, or a PAX header)
	mode           int64
	typ            byte
	uid, gid       int64
	uname, gname   string
	noOwner        uint8 // bits of tarOwnerBits: those of uid, gid, uname, gname that are None
	offset, data   int64 // offset and offset_data, for members read
	pax            map[string]string
}

var (
	_ starlark.HasAttrs    = (*tarInfo)(nil)
	_ starlark.HasSetField = (*tarInfo)(nil)

	tarInfoType = &pyrt.PyType{TypeName: "TarInfo", Module: "tarfile"}
)

func init() {
	tarInfoType.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		name := ""
		if err := pyrt.UnpackArgs("TarInfo", args, kw, "name?", &name); err != nil {
			return nil, err
		}
		return newTarInfo(name), nil
	}
}

func newTarInfo(name string) *tarInfo {
	return &tarInfo{name: name, mtime: starlark.MakeInt(0), mode: 0o644, typ: '0'}
}

func (t *tarInfo) clone() *tarInfo {
	c := *t
	return &c
}

func (t *tarInfo) isReg() bool { return t.typ == '0' || t.typ == 0 || t.typ == '7' }
func (t *tarInfo) isDir() bool { return t.typ == '5' }
func (t *tarInfo) isSym() bool { return t.typ == '2' }
func (t *tarInfo) isLnk() bool { return t.typ == '1' }

func (t *tarInfo) String() string { return t.ReprPy() }
func (t *tarInfo) ReprPy() string {
	return fmt.Sprintf("<TarInfo %s at %#x>", pystr.Quote(t.name), reflect.ValueOf(t).Pointer())
}
func (t *tarInfo) Type() string          { return "TarInfo" }
func (t *tarInfo) Freeze()               {}
func (t *tarInfo) Truth() starlark.Bool  { return true }
func (t *tarInfo) Hash() (uint32, error) { return uint32(reflect.ValueOf(t).Pointer()), nil }
func (t *tarInfo) PyClass() *pyrt.PyType { return tarInfoType }

var tarInfoPredicates = map[string]func(t *tarInfo) bool{
	"isfile": (*tarInfo).isReg, "isreg": (*tarInfo).isReg, "isdir": (*tarInfo).isDir, "issym": (*tarInfo).isSym,
	"islnk":  (*tarInfo).isLnk,
	"ischr":  func(t *tarInfo) bool { return t.typ == '3' },
	"isblk":  func(t *tarInfo) bool { return t.typ == '4' },
	"isfifo": func(t *tarInfo) bool { return t.typ == '6' },
	"isdev":  func(t *tarInfo) bool { return t.typ == '3' || t.typ == '4' || t.typ == '6' },
}

func (t *tarInfo) AttrNames() []string {
	names := []string{"devmajor", "devminor", "gid", "gname", "linkname", "linkpath", "mode", "mtime", "name", "offset",
		"offset_data", "path", "pax_headers", "replace", "size", "sparse", "type", "uid", "uname"}
	for k := range tarInfoPredicates {
		names = append(names, k)
	}
	return names
}

func (t *tarInfo) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name", "path":
		return starlark.String(t.name), nil
	case "linkname", "linkpath":
		return starlark.String(t.linkname), nil
	case "size":
		return starlark.MakeInt64(t.size), nil
	case "mtime":
		return t.mtime, nil
	case "mode":
		if t.mode < 0 {
			return starlark.None, nil // the data filter leaves a directory's mode unset
		}
		return starlark.MakeInt64(t.mode), nil
	case "type":
		return starlark.Bytes([]byte{t.typ}), nil
	case "uid", "gid", "uname", "gname":
		return t.owner(name), nil
	case "devmajor", "devminor":
		return starlark.MakeInt(0), nil
	case "offset":
		return starlark.MakeInt64(t.offset), nil
	case "offset_data":
		return starlark.MakeInt64(t.data), nil
	case "sparse":
		return starlark.None, nil
	case "pax_headers":
		d := starlark.NewDict(len(t.pax))
		for k, v := range t.pax {
			d.SetKey(starlark.String(k), starlark.String(v))
		}
		return d, nil
	}
	if name == "replace" {
		return pyrt.Builtin("TarInfo.replace", t.replace), nil
	}
	if p, ok := tarInfoPredicates[name]; ok {
		return pyrt.Builtin("TarInfo."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return starlark.Bool(p(t)), nil
		}), nil
	}
	return nil, nil
}

var tarOwnerBits = map[string]uint8{"uid": 1, "gid": 2, "uname": 4, "gname": 8}

// owner is uid, gid, uname or gname, None when unset (the data filter
// unsets them all).
func (t *tarInfo) owner(name string) starlark.Value {
	if t.noOwner&tarOwnerBits[name] != 0 {
		return starlark.None
	}
	switch name {
	case "uid":
		return starlark.MakeInt64(t.uid)
	case "gid":
		return starlark.MakeInt64(t.gid)
	case "uname":
		return starlark.String(t.uname)
	}
	return starlark.String(t.gname)
}

// SetField sets a field as CPython's attributes are set; the REPL checks
// the value's type now, where CPython fails later, in addfile.
func (t *tarInfo) SetField(name string, v starlark.Value) error {
	str := func(dst *string) error {
		s, ok := v.(starlark.String)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "TarInfo.%s must be a str, not %s", name, pyrt.PyTypeName(v))
		}
		*dst = string(s)
		return nil
	}
	num := func(dst *int64) error {
		n, ok := pyrt.BoolToInt(v).(starlark.Int)
		i, exact := n.Int64()
		if !ok || !exact {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "TarInfo.%s must be an int, not %s", name, pyrt.PyTypeName(v))
		}
		*dst = i
		return nil
	}
	if bit, ok := tarOwnerBits[name]; ok {
		if v == starlark.None {
			t.noOwner |= bit
			return nil
		}
		t.noOwner &^= bit
	}
	switch name {
	case "name", "path":
		return str(&t.name)
	case "linkname", "linkpath":
		return str(&t.linkname)
	case "uname":
		return str(&t.uname)
	case "gname":
		return str(&t.gname)
	case "size":
		return num(&t.size)
	case "mode":
		return num(&t.mode)
	case "uid":
		return num(&t.uid)
	case "gid":
		return num(&t.gid)
	case "mtime":
		switch v := pyrt.BoolToInt(v).(type) {
		case starlark.Int, starlark.Float:
			t.mtime = v
			return nil
		}
		return pyrt.PyErrorf(pyrt.ExcTypeError, "TarInfo.mtime must be a number, not %s", pyrt.PyTypeName(v))
	case "type":
		b, ok := v.(starlark.Bytes)
		if !ok || len(b) != 1 {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "TarInfo.type must be one byte, as tarfile.REGTYPE or tarfile.DIRTYPE")
		}
		t.typ = b[0]
		return nil
	}
	if _, ok := tarInfoPredicates[name]; ok || name == "pax_headers" || strings.HasPrefix(name, "offset") {
		return pyrt.PyErrorf(pyrt.ExcNotImplemented, "the REPL's TarInfo.%s cannot be set", name)
	}
	return pyrt.PyErrorf(pyrt.ExcAttribute, "'TarInfo' object has no attribute '%s'", name)
}

// replace is TarInfo.replace(*, name=..., mtime=..., mode=..., linkname=...,
// uid=..., gid=..., uname=..., gname=..., deep=True): a copy with those
// fields changed (None for mode, uid, gid, uname and gname means unset).
func (t *tarInfo) replace(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "TarInfo.replace() takes 1 positional argument but %d were given", len(args)+1)
	}
	out := t.clone()
	for _, pair := range kw {
		key, v := string(pair[0].(starlark.String)), pair[1]
		switch key {
		case "deep":
			continue
		case "name", "mtime", "mode", "linkname", "uid", "gid", "uname", "gname":
		default:
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "TarInfo.replace() got an unexpected keyword argument '%s'", key)
		}
		if v == starlark.None {
			switch key {
			case "mode":
				out.mode = -1
				continue
			case "uid", "gid", "uname", "gname":
				out.noOwner |= tarOwnerBits[key]
				continue
			}
		}
		if err := out.SetField(key, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mtimeSeconds is mtime as whole seconds and nanoseconds.
func (t *tarInfo) mtimeSeconds() (int64, int64) {
	switch v := t.mtime.(type) {
	case starlark.Int:
		n, _ := v.Int64()
		return n, 0
	case starlark.Float:
		f := float64(v)
		sec := int64(f)
		if float64(sec) > f {
			sec--
		}
		return sec, int64((f - float64(sec)) * 1e9)
	}
	return 0, 0
}
