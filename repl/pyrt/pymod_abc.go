// abc: ABC and abstractmethod for class hierarchies defined in the REPL.

package pyrt

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
)

// abstractMethod is @abstractmethod's function: a method like any other,
// which keeps a class deriving from abc.ABC from being instantiated until
// a subclass defines it.
type abstractMethod struct{ fn starlark.Value }

var _ starlark.Callable = (*abstractMethod)(nil)

func (m *abstractMethod) String() string        { return PyRepr(m.fn) }
func (m *abstractMethod) Type() string          { return "function" }
func (m *abstractMethod) Freeze()               {}
func (m *abstractMethod) Truth() starlark.Bool  { return true }
func (m *abstractMethod) Hash() (uint32, error) { return m.fn.Hash() }
func (m *abstractMethod) Name() string {
	if n, ok := m.fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "abstractmethod"
}
func (m *abstractMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return starlark.Call(thread, m.fn, args, kw)
}

func (r *Interp) abcModule() starlark.Value {
	abc := r.abcClass()
	return NewModule("abc", starlark.StringDict{
		"ABC": abc,
		"abstractmethod": Builtin("abstractmethod", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			if err := starlark.UnpackPositionalArgs("abstractmethod", args, kw, 1, &f); err != nil {
				return nil, err
			}
			return &abstractMethod{fn: f}, nil
		}),
	})
}

// abcClass is abc.ABC, made once per interpreter.
func (r *Interp) abcClass() *PyType {
	if t, ok := r.Types["abc.ABC"]; ok {
		return t
	}
	t := &PyType{TypeName: "ABC", Module: "abc", Base: r.Types["object"], User: &UserClass{R: r, Dict: map[string]starlark.Value{}}}
	t.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return t.Construct(thread, args, kw)
	}
	r.Types["abc.ABC"] = t
	return t
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
			if _, ok := v.(*abstractMethod); ok {
				left = append(left, name)
			}
		}
	}
	sort.Strings(left)
	return left
}

// abstractError is Python 3.11's refusal to instantiate t.
func abstractError(t *PyType, left []string) error {
	s := ""
	if len(left) > 1 {
		s = "s"
	}
	return PyErrorf(ExcTypeError, "Can't instantiate abstract class %s with abstract method%s %s", t.TypeName, s, strings.Join(left, ", "))
}
