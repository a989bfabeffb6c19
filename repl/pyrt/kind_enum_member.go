package pyrt

import (
	"reflect"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// enumMember is one member of an enum class (or a composite flag value).
type EnumMember struct {
	cls    *PyType
	info   *EnumInfo
	Name   string
	value  starlark.Value
	attrs  map[string]starlark.Value // what the class's __init__ set
	pseudo bool                      // a composite flag made by an operator
}

func (m *EnumMember) PyClass() *PyType { return m.cls }

func (m *EnumMember) Type() string { return m.cls.TypeName }

func (m *EnumMember) Freeze() {}

func (m *EnumMember) String() string { return m.ReprPy() }

func (m *EnumMember) thread() *starlark.Thread {
	return m.cls.userRoot().R.Thread
}

func (m *EnumMember) bits() int64 {
	if n, ok := m.value.(starlark.Int); ok {
		if k, ok := n.Int64(); ok {
			return k
		}
	}
	return 0
}

// text calls a __repr__/__str__/__format__ the enum class body defines.
func (m *EnumMember) Text(name string, args ...starlark.Value) (string, bool) {
	fn, owner := ClassLookup(m.cls, name)
	if fn == nil || owner.User == nil || owner.User.Enum == nil || owner.Module == "enum" {
		return "", false
	}
	v, err := CallBound(m.thread(), fn, m, args, nil)
	if err != nil {
		m.cls.userRoot().R.noteReprErr(err)
		return "", true
	}
	s, ok := v.(starlark.String)
	if !ok {
		m.cls.userRoot().R.noteReprErr(PyErrorf(ExcTypeError, "%s returned non-string (type %s)", name, PyTypeName(v)))
	}
	return string(s), true
}

func (m *EnumMember) ReprPy() string {
	if s, ok := m.Text("__repr__"); ok {
		return s
	}
	if m.pseudo && m.Name == "" {
		return "<" + m.cls.TypeName + ": " + PyRepr(m.value) + ">"
	}
	return "<" + m.cls.TypeName + "." + m.Name + ": " + PyRepr(m.value) + ">"
}

func (m *EnumMember) StrPy() string {
	if s, ok := m.Text("__str__"); ok {
		return s
	}
	switch m.info.Kind {
	case EnumInt, EnumIntFlag, EnumStr:
		return PyStr(m.value)
	}
	if m.pseudo && m.Name == "" {
		return m.cls.TypeName + "(" + PyRepr(m.value) + ")"
	}
	return m.cls.TypeName + "." + m.Name
}

func (m *EnumMember) FormatPy(spec string) (string, error) {
	if s, ok := m.Text("__format__", starlark.String(spec)); ok {
		return s, m.cls.userRoot().R.TakeReprErr()
	}
	if fn, _ := ClassLookup(m.cls, "__str__"); fn == nil {
		switch m.info.Kind {
		case EnumInt, EnumIntFlag, EnumStr:
			return formatValue(m.value, spec)
		}
	}
	return formatValue(starlark.String(m.StrPy()), spec)
}

func (m *EnumMember) Truth() starlark.Bool {
	if m.info.Kind.flag() || m.info.Kind.intLike() || m.info.Kind == EnumStr {
		return m.value.Truth()
	}
	return true
}

func (m *EnumMember) Hash() (uint32, error) {
	if m.info.Kind != EnumPlain {
		return m.value.Hash()
	}
	return uint32(reflect.ValueOf(m).Pointer() >> 4), nil
}

func (m *EnumMember) AttrNames() []string {
	names := []string{"name", "value"}
	for k := range m.attrs {
		names = append(names, k)
	}
	return names
}

func (m *EnumMember) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name", "_name_":
		if m.pseudo && m.Name == "" {
			return starlark.None, nil
		}
		return starlark.String(m.Name), nil
	case "value", "_value_":
		return m.value, nil
	case "__class__":
		return m.cls, nil
	}
	if v, ok := m.attrs[name]; ok {
		return v, nil
	}
	if v, _ := ClassLookup(m.cls, name); v != nil {
		return bindAttr(m.thread(), v, m)
	}
	if v := enumMixinValue(m); v != starlark.Value(m) {
		if h, ok := v.(starlark.HasAttrs); ok {
			return h.Attr(name) // a StrEnum member's str methods, an IntEnum's int ones
		}
	}
	return nil, nil
}

// SetField is self.x = v in the class's __init__; afterwards members are
// read-only as in Python.
func (m *EnumMember) SetField(name string, v starlark.Value) error {
	if m.attrs == nil || name == "name" || name == "value" {
		return PyErrorf(ExcAttribute, "cannot set attribute '%s' of an enum member", name)
	}
	if p, ok := m.classValue(name).(*pyProperty); ok && p.fset != starlark.None {
		_, err := starlark.Call(m.thread(), p.fset, starlark.Tuple{m, v}, nil)
		return err
	}
	m.attrs[name] = v
	return nil
}

func (m *EnumMember) classValue(name string) starlark.Value {
	v, _ := ClassLookup(m.cls, name)
	return v
}

// CompareSameType: members are equal only to themselves; IntEnum members
// order by value, other enums do not order.
func (m *EnumMember) CompareSameType(op syntax.Token, yv starlark.Value, depth int) (bool, error) {
	y := yv.(*EnumMember)
	if fn := m.classValue(compareNames[op][0]); fn != nil {
		v, err := CallBound(m.thread(), fn, m, starlark.Tuple{y}, nil)
		if err != nil || v != NotImplemented {
			return err == nil && bool(v.Truth()), err
		}
	}
	if fn := y.classValue(compareNames[op][1]); fn != nil { // the reflected method: a > b is b < a
		v, err := CallBound(m.thread(), fn, y, starlark.Tuple{m}, nil)
		if err != nil || v != NotImplemented {
			return err == nil && bool(v.Truth()), err
		}
	}
	if m.info.Kind.intLike() && y.info.Kind.intLike() {
		return starlark.CompareDepth(op, m.value, y.value, depth)
	}
	switch op {
	case syntax.EQL:
		return m == y || m.pseudo && y.pseudo && m.cls == y.cls && m.bits() == y.bits(), nil
	case syntax.NEQ:
		return !(m == y || m.pseudo && y.pseudo && m.cls == y.cls && m.bits() == y.bits()), nil
	}
	return false, PyErrorf(ExcTypeError, "'%s' not supported between instances of '%s' and '%s'", opSymbols[op], m.cls.TypeName, y.cls.TypeName)
}

// Binary: flags combine with | & ^; IntEnum and IntFlag members are ints
// in arithmetic; a body's __add__ and the others are called.
func (m *EnumMember) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if m.info.Kind.flag() {
		var other int64
		switch o := y.(type) {
		case *EnumMember:
			if o.cls != m.cls {
				return nil, nil
			}
			other = o.bits()
		case starlark.Int:
			if m.info.Kind != EnumIntFlag {
				return nil, nil
			}
			k, _ := o.Int64()
			other = k
		default:
			return nil, nil
		}
		switch op {
		case syntax.PIPE:
			return m.info.flagOf(m.bits() | other), nil
		case syntax.AMP:
			return m.info.flagOf(m.bits() & other), nil
		case syntax.CIRCUMFLEX:
			return m.info.flagOf(m.bits() ^ other), nil
		}
	}
	if m.info.Kind.intLike() {
		if o, ok := y.(*EnumMember); ok && o.info.Kind.intLike() {
			y = o.value
		}
		if side == starlark.Left {
			return starlark.Binary(op, m.value, y)
		}
		return starlark.Binary(op, y, m.value)
	}
	if m.info.Kind == EnumStr || m.info.Kind == enumMixStr {
		if _, ok := y.(starlark.String); ok && op == syntax.PLUS {
			if side == starlark.Left {
				return starlark.Binary(op, m.value, y)
			}
			return starlark.Binary(op, y, m.value)
		}
	}
	return nil, nil
}

func (m *EnumMember) Unary(op syntax.Token) (starlark.Value, error) {
	if op == syntax.TILDE && m.info.Kind == EnumFlag {
		return m.info.flagOf(m.info.allBits() &^ m.bits()), nil
	}
	if m.info.Kind.intLike() {
		return starlark.Unary(op, m.value)
	}
	return nil, nil
}

// Has is member in flag: every bit of member is set in flag.
func (m *EnumMember) Has(x starlark.Value) (bool, error) {
	if !m.info.Kind.flag() {
		if m.info.Kind == EnumStr || m.info.Kind == enumMixStr {
			return starlark.String(PyStr(m.value)).Has(x)
		}
		return false, PyErrorf(ExcTypeError, "argument of type '%s' is not iterable", m.cls.TypeName)
	}
	o, ok := x.(*EnumMember)
	if !ok || o.cls != m.cls {
		return false, PyErrorf(ExcTypeError, "unsupported operand type(s) for 'in': '%s' and '%s'", PyTypeName(x), m.cls.TypeName)
	}
	return m.bits()&o.bits() == o.bits(), nil
}
