package pyrt

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Has makes `x in cls` work for enum classes; for any other class it is
// Python's TypeError.
func (t *PyType) Has(x starlark.Value) (bool, error) {
	if e := EnumClassOf(t); e != nil {
		return e.has(x)
	}
	return false, PyErrorf(ExcTypeError, "argument of type 'type' is not iterable")
}

// Get makes cls[key] work for enum classes (Color["RED"]); any other
// class is not subscriptable here.
func (t *PyType) Get(k starlark.Value) (starlark.Value, bool, error) {
	if e := EnumClassOf(t); e != nil {
		v, err := e.getItem(k)
		return v, err == nil, err
	}
	switch t.TypeName {
	case "list", "dict", "set", "frozenset", "tuple", "type":
		if t.Module == "" || t.Module == "builtins" { // list[int]: a generic alias, for annotations
			alias, _, err := (&TypingAlias{AliasName: t.TypeName}).Get(k)
			if a, ok := alias.(*TypingAlias); ok {
				a.builtin = true
			}
			return alias, err == nil, err
		}
	}
	return nil, false, PyErrorf(ExcTypeError, "'type' object is not subscriptable")
}

// resolveAuto is the value of v, an auto whose operands the class has
// given values, or any other value.
func resolveAuto(v starlark.Value) (starlark.Value, error) {
	a, ok := v.(*EnumAuto)
	if !ok {
		return v, nil
	}
	if a.val != nil {
		return a.val, nil
	}
	if a.op == 0 {
		return nil, PyErrorf(ExcTypeError, "auto() used before the class gave it a value")
	}
	x, err := resolveAuto(a.x)
	if err != nil {
		return nil, err
	}
	y, err := resolveAuto(a.y)
	if err != nil {
		return nil, err
	}
	return starlark.Binary(a.op, x, y)
}

// enumAuto is auto(): its value is chosen when the class is made. One
// made by an operator on autos (RW = R | W in a Flag's body, where
// CPython has already given R and W their values) has op, x and y.
type EnumAuto struct {
	val  starlark.Value // the value chosen, once the class is made
	op   syntax.Token
	x, y starlark.Value
}

func (a *EnumAuto) String() string { return "auto()" }

func (a *EnumAuto) Type() string { return "auto" }

func (a *EnumAuto) Freeze() {}

func (a *EnumAuto) Truth() starlark.Bool { return true }

func (a *EnumAuto) Hash() (uint32, error) { return 0, nil }

// Binary is R | W and the other operators on autos: worked out when the
// class gives the autos their values.
func (a *EnumAuto) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if side == starlark.Right {
		return &EnumAuto{op: op, x: y, y: a}, nil
	}
	return &EnumAuto{op: op, x: a, y: y}, nil
}

// enumClassOf returns the enum part of v when v is an enum class with
// members of its own (what iteration, len and [] see), or nil.
func EnumClassOf(v starlark.Value) *EnumInfo {
	t, ok := v.(*PyType)
	if !ok || t.User == nil || t.User.Enum == nil || t.User.Enum.Cls != t {
		return nil
	}
	return t.User.Enum
}

const (
	EnumPlain EnumKind = iota
	EnumInt            // IntEnum: str() and format() are the int's
	EnumStr            // StrEnum: str() and format() are the value
	EnumFlag
	EnumIntFlag
	enumMixStr // class X(str, Enum): values are str, str() is X.NAME
	enumMixInt // class X(int, Enum)
)

// enumInfo is what an enum class knows beyond its body.
type EnumInfo struct {
	Kind    EnumKind
	Cls     *PyType
	members []*EnumMember          // the canonical members, in definition order
	ByName  map[string]*EnumMember // members and aliases
	Names   []string               // every name, aliases too, in order (__members__)
	pseudo  map[string]*EnumMember // composite flag values made by | & ^ ~
}

// addMembers turns the body's plain values into members.
func (e *EnumInfo) addMembers(r *Interp, u *UserClass) error {
	thread := r.Thread
	var last []starlark.Value
	for _, name := range append([]string(nil), u.Order...) {
		v := u.Dict[name]
		if !isEnumMemberValue(name, v) {
			continue
		}
		if a, ok := v.(*EnumAuto); ok {
			var err error
			if a.op == 0 {
				v, err = e.nextValue(thread, name, last)
			} else {
				v, err = resolveAuto(a)
			}
			if err != nil {
				return err
			}
			a.val = v
		}
		m := &EnumMember{cls: e.Cls, info: e, Name: name}
		val, err := e.memberValue(thread, m, v)
		if err != nil {
			return err
		}
		m.value = val
		last = append(last, val)
		e.Names = append(e.Names, name)
		if old := e.byValue(val); old != nil {
			e.ByName[name] = old
			u.Dict[name] = old
			continue
		}
		e.members = append(e.members, m)
		e.ByName[name] = m
		u.Dict[name] = m
	}
	members := starlark.NewDict(len(e.Names))
	for _, n := range e.Names {
		_ = members.SetKey(starlark.String(n), e.ByName[n])
	}
	u.Dict["__members__"] = members
	return nil
}

// memberValue is the value a member gets from its class body value: the
// int or str of IntEnum and StrEnum, an __init__'s arguments.
func (e *EnumInfo) memberValue(thread *starlark.Thread, m *EnumMember, v starlark.Value) (starlark.Value, error) {
	if init, _ := ClassLookup(e.Cls, "__init__"); init != nil {
		args, ok := v.(starlark.Tuple)
		if !ok {
			args = starlark.Tuple{v}
		}
		m.attrs = map[string]starlark.Value{}
		if _, err := CallBound(thread, init, m, args, nil); err != nil {
			return nil, err
		}
	}
	switch {
	case e.Kind.intLike() || e.Kind == EnumFlag:
		if _, ok := v.(starlark.Int); !ok {
			return nil, PyErrorf(ExcTypeError, "invalid literal for int() with base 10: %s", PyRepr(v))
		}
	case e.Kind == EnumStr || e.Kind == enumMixStr:
		if _, ok := v.(starlark.String); !ok {
			if e.Kind == EnumStr {
				return nil, PyErrorf(ExcTypeError, "%s is not a string", PyRepr(v))
			}
			return starlark.String(PyStr(v)), nil
		}
	}
	return v, nil
}

// nextValue is auto()'s value: _generate_next_value_ when the class has
// one, else the lower-case name (StrEnum), the next power of two (Flag) or
// one more than the last int.
func (e *EnumInfo) nextValue(thread *starlark.Thread, name string, last []starlark.Value) (starlark.Value, error) {
	if gen, _ := ClassLookup(e.Cls, "_generate_next_value_"); gen != nil {
		if s, ok := gen.(*staticMethod); ok {
			gen = s.fn
		}
		return starlark.Call(thread, gen, starlark.Tuple{starlark.String(name), starlark.MakeInt(1), starlark.MakeInt(len(last)), starlark.NewList(append([]starlark.Value(nil), last...))}, nil)
	}
	if e.Kind == EnumStr {
		return starlark.String(strings.ToLower(name)), nil
	}
	if e.Kind.flag() {
		high := int64(0)
		for _, v := range last {
			if n, ok := v.(starlark.Int); ok {
				if k, ok := n.Int64(); ok && k > high {
					high = k
				}
			}
		}
		next := int64(1)
		for next <= high {
			next <<= 1
		}
		return starlark.MakeInt64(next), nil
	}
	for i := len(last) - 1; i >= 0; i-- {
		if n, ok := last[i].(starlark.Int); ok {
			return n.Add(starlark.MakeInt(1)), nil
		}
	}
	return starlark.MakeInt(1), nil
}

func (e *EnumInfo) byValue(v starlark.Value) *EnumMember {
	for _, m := range e.members {
		if eq, err := starlark.Equal(m.value, v); err == nil && eq {
			return m
		}
	}
	return nil
}

// lookup is Color(value): the member with that value (or a member given
// itself), a composite flag, or _missing_'s answer.
func (e *EnumInfo) lookup(thread *starlark.Thread, v starlark.Value) (starlark.Value, error) {
	if m, ok := v.(*EnumMember); ok && m.cls == e.Cls {
		return m, nil
	}
	if m := e.byValue(v); m != nil {
		return m, nil
	}
	if e.Kind.flag() {
		if n, ok := v.(starlark.Int); ok {
			if k, ok := n.Int64(); ok && (k >= 0 && k&^e.allBits() == 0 || e.Kind == EnumIntFlag) {
				return e.flagOf(k), nil
			}
		}
	}
	if missing, _ := ClassLookup(e.Cls, "_missing_"); missing != nil {
		res, err := CallBound(thread, missing, e.Cls, starlark.Tuple{v}, nil)
		if err != nil {
			return nil, err
		}
		if res != starlark.None {
			return res, nil
		}
	}
	return nil, PyErrorf(ExcValueError, "%s is not a valid %s", PyRepr(v), e.Cls.TypeName)
}

// getItem is Color["RED"].
func (e *EnumInfo) getItem(k starlark.Value) (starlark.Value, error) {
	if s, ok := k.(starlark.String); ok {
		if m, ok := e.ByName[string(s)]; ok {
			return m, nil
		}
	}
	return nil, KeyError(k)
}

// memberTuple is the members iteration gives: a flag's are its members
// of one bit (RW = R | W and NONE = 0 are left out, as in 3.11).
func (e *EnumInfo) memberTuple() starlark.Tuple {
	out := make(starlark.Tuple, 0, len(e.members))
	for _, m := range e.members {
		if b := m.bits(); e.Kind.flag() && (b == 0 || b&(b-1) != 0) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// Has is x in EnumClass: a member of the class, or a TypeError as in 3.11.
func (e *EnumInfo) has(x starlark.Value) (bool, error) {
	m, ok := x.(*EnumMember)
	if !ok {
		return false, PyErrorf(ExcTypeError, "unsupported operand type(s) for 'in': '%s' and 'EnumType'", PyTypeName(x))
	}
	if m.cls != e.Cls {
		return false, nil
	}
	if e.Kind.flag() {
		return m.bits()&^e.allBits() == 0, nil
	}
	return true, nil
}

func (e *EnumInfo) allBits() int64 {
	var all int64
	for _, m := range e.members {
		all |= m.bits()
	}
	return all
}

// flagOf is the flag member with bits k: a canonical member, or a
// composite named by the members it holds (R|W), made once.
func (e *EnumInfo) flagOf(k int64) *EnumMember {
	for _, m := range e.members {
		if m.bits() == k {
			return m
		}
	}
	var names []string
	rest := k
	for _, m := range e.members {
		if b := m.bits(); b != 0 && b&(b-1) == 0 && k&b == b {
			names = append(names, m.Name)
			rest &^= b
		}
	}
	if rest != 0 {
		names = append(names, fmt.Sprint(rest))
	}
	key := fmt.Sprint(k)
	if m, ok := e.pseudo[key]; ok {
		return m
	}
	m := &EnumMember{cls: e.Cls, info: e, value: starlark.MakeInt64(k), pseudo: true}
	if k != 0 {
		m.Name = strings.Join(names, "|")
	}
	e.pseudo[key] = m
	return m
}

// enumInfoOf returns the enum part of class t or its bases, or nil.
func enumInfoOf(t *PyType) *EnumInfo {
	for c := t; c != nil; c = c.Base {
		if c.User != nil && c.User.Enum != nil {
			return c.User.Enum
		}
	}
	return nil
}

// enumIterable is what iterating v gives when v is an enum class (its
// members) or a flag value (the members it holds), else nil.
func enumIterable(v starlark.Value) starlark.Value {
	if e := EnumClassOf(v); e != nil {
		return e.memberTuple()
	}
	m, ok := v.(*EnumMember)
	if !ok || !m.info.Kind.flag() {
		return nil
	}
	var out starlark.Tuple
	for _, x := range m.info.members {
		if b := x.bits(); b != 0 && b&(b-1) == 0 && m.bits()&b == b {
			out = append(out, x)
		}
	}
	return out
}

type EnumKind int

func (k EnumKind) flag() bool { return k == EnumFlag || k == EnumIntFlag }

func (k EnumKind) intLike() bool { return k == EnumInt || k == EnumIntFlag || k == enumMixInt }

// enumMixinValue is the int or str an IntEnum, StrEnum, IntFlag or
// (str, Enum) member stands for in comparisons with plain ints and strs,
// else v itself.
func enumMixinValue(v starlark.Value) starlark.Value {
	if m, ok := v.(*EnumMember); ok && m.info.Kind != EnumPlain && m.info.Kind != EnumFlag {
		return m.value
	}
	return v
}

// enumSubclass makes the class of a class statement whose bases include
// an enum class; ok is false when none does.
func (r *Interp) EnumSubclass(name string, bases []starlark.Value, u *UserClass) (starlark.Value, bool, error) {
	var parent *PyType
	var mix EnumKind = -1
	for _, b := range bases {
		t, isType := b.(*PyType)
		switch {
		case isType && enumInfoOf(t) != nil:
			parent = t
		case b == r.Types["str"]:
			mix = enumMixStr
		case b == r.Types["int"]:
			mix = enumMixInt
		default:
			if parent == nil {
				continue
			}
			return nil, true, PyErrorf(ExcNotImplemented, "an enum here derives from Enum, IntEnum, StrEnum, Flag or IntFlag, optionally with str or int first")
		}
	}
	if parent == nil {
		return nil, false, nil
	}
	pinfo := enumInfoOf(parent)
	if len(pinfo.members) > 0 {
		return nil, true, PyErrorf(ExcTypeError, "<enum '%s'> cannot extend <enum '%s'>", name, parent.TypeName)
	}
	kind := pinfo.Kind
	if mix >= 0 && kind == EnumPlain {
		kind = mix
	}
	t := &PyType{TypeName: name, Module: "__main__", Base: parent, User: u}
	info := &EnumInfo{Kind: kind, Cls: t, ByName: map[string]*EnumMember{}, pseudo: map[string]*EnumMember{}}
	u.Enum = info
	t.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var v starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &v); err != nil {
			return nil, err
		}
		return info.lookup(thread, v)
	}
	if err := info.addMembers(r, u); err != nil {
		return nil, true, err
	}
	return t, true, nil
}

// isEnumMemberValue reports whether a class body's value becomes a member
// (functions, descriptors and nested classes do not).
func isEnumMemberValue(name string, v starlark.Value) bool {
	if strings.HasPrefix(name, "_") {
		return false
	}
	switch v.(type) {
	case *starlark.Function, *starlark.Builtin, *GoMethod, *staticMethod, *classMethod, *pyProperty, *AbstractMethod, *GenFunc, *PyType, *ExcType:
		return false
	}
	return true
}
