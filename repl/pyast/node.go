package pyast

import (
	"harness/repl/pystr"
	"math/big"
	"strconv"
	"strings"
)

// Node is one AST node: its class name, its fields in _fields order and,
// for the classes that have them, its position.
type Node struct {
	Type   string
	Fields []Field
	HasPos bool
	Pos    Pos
}

// Pos is lineno, col_offset (bytes), end_lineno, end_col_offset.
type Pos struct{ Line, Col, EndLine, EndCol int }

// Field is one field. Value is nil (None), *Node, []*Node (a nil element
// is None), []string, string (an identifier), int, or Const.
type Field struct {
	Name  string
	Value any
}

// ConstKind says which Python type a Const holds.
type ConstKind int

const (
	CNone ConstKind = iota
	CBool
	CInt
	CFloat
	CComplex // imaginary part in Float
	CStr
	CBytes
	CEllipsis
)

// Const is a Constant's value.
type Const struct {
	Kind  ConstKind
	Bool  bool
	Int   *big.Int
	Float float64
	Str   string // str or bytes
}

// Get returns the value of field name, or nil.
func (n *Node) Get(name string) any {
	for _, f := range n.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

func (n *Node) set(name string, v any) {
	for i := range n.Fields {
		if n.Fields[i].Name == name {
			n.Fields[i].Value = v
			return
		}
	}
}

// mk makes a node of class typ with fields in order from kv (name, value pairs).
func mk(typ string, pos Pos, kv ...any) *Node {
	n := &Node{Type: typ, Pos: pos, HasPos: true}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Fields = append(n.Fields, Field{kv[i].(string), kv[i+1]})
	}
	return n
}

// leaf makes a node without position (Load(), Add(), ...).
func leaf(typ string) *Node { return &Node{Type: typ} }

// Dump is ast.dump(node, include_attributes=attrs) as CPython 3.11 prints it.
func Dump(v any, attrs bool) string {
	var b strings.Builder
	dump(&b, v, attrs)
	return b.String()
}

func dump(b *strings.Builder, v any, attrs bool) {
	switch v := v.(type) {
	case nil:
		b.WriteString("None")
	case *Node:
		if v == nil {
			b.WriteString("None")
			return
		}
		b.WriteString(v.Type + "(")
		first := true
		sep := func() {
			if !first {
				b.WriteString(", ")
			}
			first = false
		}
		for _, f := range v.Fields {
			if f.Value == nil || f.Value == (*Node)(nil) {
				if !OptionalField(v.Type, f.Name) {
					sep()
					b.WriteString(f.Name + "=None")
				}
				continue
			}
			sep()
			b.WriteString(f.Name + "=")
			dump(b, f.Value, attrs)
		}
		if attrs && v.HasPos {
			sep()
			b.WriteString("lineno=" + strconv.Itoa(v.Pos.Line) + ", col_offset=" + strconv.Itoa(v.Pos.Col) +
				", end_lineno=" + strconv.Itoa(v.Pos.EndLine) + ", end_col_offset=" + strconv.Itoa(v.Pos.EndCol))
		}
		b.WriteString(")")
	case []*Node:
		b.WriteString("[")
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			dump(b, x, attrs)
		}
		b.WriteString("]")
	case []string:
		b.WriteString("[")
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pystr.Quote(x))
		}
		b.WriteString("]")
	case string:
		b.WriteString(pystr.Quote(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case Const:
		b.WriteString(v.Repr())
	}
}

// OptionalField reports whether field name of class typ is optional
// ("?" in the ASDL), so ast.dump leaves it out when it is None.
func OptionalField(typ, name string) bool {
	switch name {
	case "returns", "type_comment", "annotation", "asname", "kind", "format_spec", "cause", "exc", "msg",
		"optional_vars", "vararg", "kwarg", "lower", "upper", "step", "guard", "rest", "pattern", "name":
		return !(name == "name" && typ != "ExceptHandler" && typ != "MatchAs" && typ != "MatchStar")
	case "value":
		return typ == "Return" || typ == "AnnAssign" || typ == "Yield"
	case "module", "level":
		return typ == "ImportFrom"
	case "type":
		return typ == "ExceptHandler"
	case "arg":
		return typ == "keyword"
	}
	return false
}

// Repr is Python's repr of the constant.
func (c Const) Repr() string {
	switch c.Kind {
	case CNone:
		return "None"
	case CBool:
		if c.Bool {
			return "True"
		}
		return "False"
	case CInt:
		return c.Int.String()
	case CFloat:
		return pystr.FloatRepr(c.Float)
	case CComplex:
		s := pystr.FloatRepr(c.Float)
		s = strings.TrimSuffix(s, ".0")
		return s + "j"
	case CStr:
		return pystr.Quote(c.Str)
	case CBytes:
		return pystr.BytesRepr(c.Str)
	}
	return "Ellipsis"
}
