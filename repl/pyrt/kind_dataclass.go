package pyrt

import (
	"go.starlark.net/starlark"
)

func (u *UserClass) Remove(name string) {
	delete(u.Dict, name)
	for i, n := range u.Order {
		if n == name {
			u.Order = append(u.Order[:i], u.Order[i+1:]...)
			break
		}
	}
}

// dataclassInfo is what @dataclass made of a class: its fields, in order
// (those of dataclass bases first), and its options.
type DataclassInfo struct {
	Fields               []*DcField
	InitVars             []DcInitVar // InitVar[...] names: __init__ parameters, not fields
	Frozen, Order, Eq    bool
	Init, Repr, KwOnlyOK bool
}

// params are __init__'s parameters: the fields with the InitVars in
// their declared places.
func (info *DataclassInfo) Params() []*DcField {
	if len(info.InitVars) == 0 {
		return info.Fields
	}
	out := make([]*DcField, 0, len(info.Fields)+len(info.InitVars))
	j := 0
	for i := 0; i <= len(info.Fields); i++ {
		for j < len(info.InitVars) && info.InitVars[j].Pos == i {
			out = append(out, info.InitVars[j].F)
			j++
		}
		if i < len(info.Fields) {
			out = append(out, info.Fields[i])
		}
	}
	return out
}

func (info *DataclassInfo) IsInitVar(f *DcField) bool {
	for _, iv := range info.InitVars {
		if iv.F == f {
			return true
		}
	}
	return false
}

// dcField is one field: the class body's annotated name with its
// default, given directly or by field(...).
type DcField struct {
	Name                string
	Def, Factory        starlark.Value // nil when absent
	Init, Repr, Compare bool
	KwOnly              bool
}

// dcInitVar is an InitVar pseudo-field and the number of fields declared
// before it (its place among __init__'s parameters).
type DcInitVar struct {
	F   *DcField
	Pos int
}

// dcOf returns the dataclass description of a dataclass or its instance.
func DcOf(x starlark.Value) *DataclassInfo {
	switch v := x.(type) {
	case *PyObject:
		return v.Cls.Dataclass()
	case *PyType:
		return v.Dataclass()
	}
	return nil
}

var (
	ExcFrozenInstance = &ExcType{TypeName: "FrozenInstanceError", Module: "dataclasses", Base: ExcAttribute}
	DcMissing         = &TypingAlias{AliasName: "MISSING"}
)
