// Python's repr() and str() of REPL values: what print, str, repr,
// formatting and a call's trailing value show.

package pyrt

import (
	"fmt"
	"reflect"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"harness/repl/pystr"
)

// pyReprer is a value whose Python repr differs from its String().
type pyReprer interface{ ReprPy() string }

// pyStrer is a value whose str() differs from its repr.
type pyStrer interface{ StrPy() string }

func PyRepr(v starlark.Value) string {
	var sb strings.Builder
	writeRepr(&sb, v, nil)
	return sb.String()
}

func PyStr(v starlark.Value) string {
	switch v := v.(type) {
	case starlark.String:
		return string(v)
	case *PyException:
		return v.Str()
	case *Path:
		return v.P
	case pyStrer:
		return v.StrPy()
	}
	return PyRepr(v)
}

// writeRepr writes v's repr; seen holds the containers being written, so
// that a list containing itself shows [...] as Python does.
func writeRepr(sb *strings.Builder, v starlark.Value, seen map[starlark.Value]bool) {
	switch v := v.(type) {
	case starlark.String:
		sb.WriteString(pystr.Quote(string(v)))
	case starlark.Bytes:
		sb.WriteString(pystr.BytesRepr(string(v)))
	case starlark.Float:
		sb.WriteString(pystr.FloatRepr(float64(v)))
	case starlark.NoneType:
		sb.WriteString("None")
	case starlark.Bool:
		if v {
			sb.WriteString("True")
		} else {
			sb.WriteString("False")
		}
	case *starlark.List:
		if seen[v] {
			sb.WriteString("[...]")
			return
		}
		seen = mark(seen, v)
		sb.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, v.Index(i), seen)
		}
		sb.WriteByte(']')
		delete(seen, v)
	case starlark.Tuple:
		sb.WriteByte('(')
		for i, x := range v {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, x, seen)
		}
		if len(v) == 1 {
			sb.WriteByte(',')
		}
		sb.WriteByte(')')
	case *starlark.Dict:
		if seen[v] {
			sb.WriteString("{...}")
			return
		}
		seen = mark(seen, v)
		writeDictItems(sb, v.Items(), seen)
		delete(seen, v)
	case *starlark.Set:
		if v.Len() == 0 {
			sb.WriteString("set()")
			return
		}
		sb.WriteByte('{')
		iter := v.Iterate()
		var x starlark.Value
		for i := 0; iter.Next(&x); i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, x, seen)
		}
		iter.Done()
		sb.WriteByte('}')
	case *Path:
		sb.WriteString("PosixPath(" + pystr.Quote(v.P) + ")")
	case *starlarkstruct.Struct:
		sb.WriteString("struct(")
		for i, name := range v.AttrNames() {
			if i > 0 {
				sb.WriteString(", ")
			}
			x, _ := v.Attr(name)
			sb.WriteString(name + "=")
			writeRepr(sb, x, seen)
		}
		sb.WriteByte(')')
	case *starlarkstruct.Module:
		sb.WriteString("<module '" + v.Name + "'>")
	case *SysModule:
		sb.WriteString("<module '" + v.Name + "'>")
	case *starlark.Function:
		sb.WriteString("<function " + v.Name() + ">")
	case *starlark.Builtin:
		sb.WriteString("<built-in function " + v.Name() + ">")
	case *PyException:
		sb.WriteString(v.ReprPy())
	case pyReprer:
		sb.WriteString(v.ReprPy())
	default:
		s := v.String()
		if v.Type() == "range" && !strings.Contains(s, ",") {
			s = "range(0, " + strings.TrimPrefix(s, "range(") // Python always shows the start
		}
		sb.WriteString(s)
	}
}

func mark(seen map[starlark.Value]bool, v starlark.Value) map[starlark.Value]bool {
	if seen == nil {
		seen = map[starlark.Value]bool{}
	}
	seen[v] = true
	return seen
}

func writeDictItems(sb *strings.Builder, items []starlark.Tuple, seen map[starlark.Value]bool) {
	sb.WriteByte('{')
	for i, kv := range items {
		if i > 0 {
			sb.WriteString(", ")
		}
		writeRepr(sb, kv[0], seen)
		sb.WriteString(": ")
		writeRepr(sb, kv[1], seen)
	}
	sb.WriteByte('}')
}

// pyTypeName is the Python name of v's type, as error messages show it.
func PyTypeName(v starlark.Value) string {
	switch v.(type) {
	case starlark.String:
		return "str"
	case *starlark.Builtin:
		return "builtin_function_or_method"
	case *Path:
		return "PosixPath"
	}
	return v.Type()
}

// plainObject is object(): a value with nothing but its identity, which
// programs use as a sentinel (_MISSING = object()).
type plainObject struct{ cls *PyType }

func (o *plainObject) String() string {
	return fmt.Sprintf("<object object at %#x>", reflect.ValueOf(o).Pointer())
}
func (o *plainObject) Type() string                        { return "object" }
func (o *plainObject) PyClass() *PyType                    { return o.cls }
func (o *plainObject) Freeze()                             {}
func (o *plainObject) Truth() starlark.Bool                { return true }
func (o *plainObject) Hash() (uint32, error)               { return uint32(reflect.ValueOf(o).Pointer() >> 4), nil }
func (o *plainObject) Attr(string) (starlark.Value, error) { return nil, nil }
func (o *plainObject) AttrNames() []string                 { return nil }
func (o *plainObject) SetField(name string, _ starlark.Value) error {
	return PyErrorf(ExcAttribute, "'object' object has no attribute '%s'", name)
}
