// frozenset: Python's immutable, hashable set, over a frozen Starlark set.

package pyrt

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// frozenSet is a frozenset. Its operators and methods answer as Python's:
// the result of an operator takes the left operand's type (frozenset |
// set is a frozenset, set | frozenset a set), it can be a dict key or a
// set element, and it equals another frozenset with the same elements.
// Starlark compares values of different types as unequal, so
// frozenset([1]) == {1} is False here (True in Python).
type frozenSet struct{ s *starlark.Set }

var (
	_ starlark.HasBinary  = (*frozenSet)(nil)
	_ starlark.Comparable = (*frozenSet)(nil)
	_ starlark.Container  = (*frozenSet)(nil)
	_ starlark.Sequence   = (*frozenSet)(nil)
	_ starlark.HasAttrs   = (*frozenSet)(nil)
	_ pyReprer            = (*frozenSet)(nil)
)

func newFrozenSet(s *starlark.Set) *frozenSet {
	s.Freeze()
	return &frozenSet{s: s}
}

func (f *frozenSet) String() string       { return f.ReprPy() }
func (f *frozenSet) Type() string         { return "frozenset" }
func (f *frozenSet) Freeze()              {}
func (f *frozenSet) Truth() starlark.Bool { return f.s.Len() > 0 }
func (f *frozenSet) Len() int             { return f.s.Len() }
func (f *frozenSet) Iterate() starlark.Iterator {
	return f.s.Iterate()
}
func (f *frozenSet) Has(x starlark.Value) (bool, error) { return f.s.Has(x) }

// Hash combines the elements' hashes independently of their order.
func (f *frozenSet) Hash() (uint32, error) {
	h := uint32(1927868237) * uint32(f.s.Len()+1)
	iter := f.s.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		xh, err := x.Hash()
		if err != nil {
			return 0, err
		}
		h ^= (xh ^ (xh << 16) ^ 89869747) * 3644798167
	}
	return h*69069 + 907133923, nil
}

func (f *frozenSet) ReprPy() string {
	if f.s.Len() == 0 {
		return "frozenset()"
	}
	var sb strings.Builder
	writeRepr(&sb, f.s, nil)
	return "frozenset(" + sb.String() + ")"
}

func (f *frozenSet) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, f.s, y.(*frozenSet).s, depth)
}

// Binary is |, &, - and ^ with a set or frozenset on either side.
func (f *frozenSet) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	switch op {
	case syntax.PIPE, syntax.AMP, syntax.MINUS, syntax.CIRCUMFLEX:
	default:
		return nil, nil
	}
	other := asSet(y)
	if other == nil {
		return nil, nil
	}
	x, z := f.s, other
	if side == starlark.Right {
		x, z = other, f.s
	}
	v, err := starlark.Binary(op, CopySet(x), z)
	if err != nil {
		return nil, err
	}
	if _, isFrozen := y.(*frozenSet); side == starlark.Right && !isFrozen {
		return v, nil // set op frozenset is a set
	}
	return newFrozenSet(v.(*starlark.Set)), nil
}

// asSet returns the set of a set or frozenset, else nil.
func asSet(v starlark.Value) *starlark.Set {
	switch v := v.(type) {
	case *starlark.Set:
		return v
	case *frozenSet:
		return v.s
	}
	return nil
}

var frozenMethods = []string{"copy", "difference", "intersection", "isdisjoint", "issubset", "issuperset", "symmetric_difference", "union"}

func (f *frozenSet) AttrNames() []string { return frozenMethods }

func (f *frozenSet) Attr(name string) (starlark.Value, error) {
	if i := sort.SearchStrings(frozenMethods, name); i == len(frozenMethods) || frozenMethods[i] != name {
		return nil, nil
	}
	return starlark.NewBuiltin("frozenset."+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if name == "copy" {
			return f, starlark.UnpackPositionalArgs(name, args, kw, 0)
		}
		v, err := CallMethod(thread, CopySet(f.s), name, args, kw)
		if s, ok := v.(*starlark.Set); ok && err == nil {
			return newFrozenSet(s), nil
		}
		return v, err
	}), nil
}

// frozensetCall is frozenset(iterable=()).
func (r *Interp) frozensetCall(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(kw) > 0 {
		return nil, PyErrorf(ExcTypeError, "frozenset() takes no keyword arguments")
	}
	if len(args) > 1 {
		return nil, PyErrorf(ExcTypeError, "frozenset expected at most 1 argument, got %d", len(args))
	}
	s := starlark.NewSet(0)
	if len(args) == 1 {
		if f, ok := args[0].(*frozenSet); ok {
			return f, nil
		}
		err := Iterate(args[0], func(x starlark.Value) (bool, error) {
			if err := s.Insert(storedElem(s, x)); err != nil {
				return false, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(x))
			}
			return true, nil
		})
		if err != nil {
			return nil, err
		}
	}
	return newFrozenSet(s), nil
}

// sameTuple reports whether a and b are the same tuple (not only equal).
func SameTuple(a, b starlark.Tuple) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// copySet is a new set with the elements of s (which, being hashable,
// are never copied themselves).
func CopySet(s *starlark.Set) *starlark.Set {
	out := new(starlark.Set)
	iter := s.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		_ = out.Insert(x)
	}
	return out
}
