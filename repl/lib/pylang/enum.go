// enum: Enum, IntEnum, StrEnum, Flag, IntFlag, auto and unique. A class
// statement deriving from one of them (or from str or int and Enum) makes
// an enum class: a *pyType whose body's plain values became members
// (*enumMember) and whose enumInfo keeps them in definition order.

package pylang

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func enumModule(r *pyrt.Interp) starlark.Value {
	base := func(name string, kind pyrt.EnumKind) *pyrt.PyType {
		key := "enum." + name
		if t, ok := r.Types[key]; ok {
			return t
		}
		t := &pyrt.PyType{TypeName: name, Module: "enum", Base: r.Types["object"], User: &pyrt.UserClass{R: r, Dict: map[string]starlark.Value{}}}
		t.User.Enum = &pyrt.EnumInfo{Kind: kind, Cls: t, ByName: map[string]*pyrt.EnumMember{}}
		t.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) < 2 && len(kw) == 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() needs members: define a class deriving from %s, or call %s(name, names)", name, name, name)
			}
			return enumFunctional(r, t, args, kw)
		}
		r.Types[key] = t
		return t
	}
	enum := base("Enum", pyrt.EnumPlain)
	return pyrt.NewModule("enum", starlark.StringDict{
		"Enum": enum, "IntEnum": base("IntEnum", pyrt.EnumInt), "StrEnum": base("StrEnum", pyrt.EnumStr),
		"Flag": base("Flag", pyrt.EnumFlag), "IntFlag": base("IntFlag", pyrt.EnumIntFlag),
		"EnumType": r.ClassNamed("EnumType"), "EnumMeta": r.ClassNamed("EnumType"),
		"auto": pyrt.Builtin("auto", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args)+len(kw) > 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "auto() takes no arguments")
			}
			return &pyrt.EnumAuto{}, nil
		}),
		"unique": pyrt.Builtin("unique", enumUnique),
	})
}

// enumUnique is @unique: a ValueError naming the aliases.
func enumUnique(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var cls starlark.Value
	if err := starlark.UnpackPositionalArgs("unique", args, kw, 1, &cls); err != nil {
		return nil, err
	}
	e := pyrt.EnumClassOf(cls)
	if e == nil {
		return cls, nil
	}
	var dups []string
	for _, n := range e.Names {
		if m := e.ByName[n]; m.Name != n {
			dups = append(dups, n+" -> "+m.Name)
		}
	}
	if len(dups) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "duplicate values found in <enum '%s'>: %s", e.Cls.TypeName, strings.Join(dups, ", "))
	}
	return cls, nil
}
