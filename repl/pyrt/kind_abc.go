package pyrt

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
)

// abstractError is Python 3.11's refusal to instantiate t.
func abstractError(t *PyType, left []string) error {
	s := ""
	if len(left) > 1 {
		s = "s"
	}
	return PyErrorf(ExcTypeError, "Can't instantiate abstract class %s with abstract method%s %s", t.TypeName, s, strings.Join(left, ", "))
}

// abstractLeft returns the abstract methods t still has, when it derives
// from abc.ABC (sorted, as Python lists them).
func abstractLeft(t *PyType) []string {
	if !derivesABC(t) {
		return nil
	}
	seen := map[string]bool{}
	var left []string
	for c := t; c != nil; c = c.Base {
		if c.User == nil {
			continue
		}
		for _, name := range c.User.Order {
			if seen[name] {
				continue
			}
			seen[name] = true
			v := c.User.Dict[name]
			if p, ok := v.(*pyProperty); ok {
				v = p.fget
			}
			if _, ok := v.(*AbstractMethod); ok {
				left = append(left, name)
			}
		}
	}
	sort.Strings(left)
	return left
}

// abstractMethod is @abstractmethod's function: a method like any other,
// which keeps a class deriving from abc.ABC from being instantiated until
// a subclass defines it.
type AbstractMethod struct{ Fn starlark.Value }

func (m *AbstractMethod) String() string { return PyRepr(m.Fn) }

func (m *AbstractMethod) Type() string { return "function" }

func (m *AbstractMethod) Freeze() {}

func (m *AbstractMethod) Truth() starlark.Bool { return true }

func (m *AbstractMethod) Hash() (uint32, error) { return m.Fn.Hash() }

func (m *AbstractMethod) Name() string {
	if n, ok := m.Fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "abstractmethod"
}

func (m *AbstractMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return starlark.Call(thread, m.Fn, args, kw)
}

// derivesABC reports whether t is or derives from abc.ABC.
func derivesABC(t *PyType) bool {
	for c := t; c != nil; c = c.Base {
		if c.Module == "abc" && c.TypeName == "ABC" {
			return true
		}
	}
	return false
}
