// typing's aliases (List, Optional[str], …) and their reprs, which
// __annotations__ and inspect show.

package pyrt

import (
	"strings"

	"go.starlark.net/starlark"
)

// typingAlias stands for a typing name, subscripted or not: args are the
// subscript's values (Optional[X] is Union[X, None]).
type typingAlias struct {
	name string
	args []starlark.Value
	sub  bool // subscripted
}

func (t *typingAlias) String() string {
	if !t.sub {
		return "typing." + t.name
	}
	args := t.args
	if t.name == "Union" && len(args) == 2 && (args[0] == starlark.None || args[1] == starlark.None) {
		other := args[0]
		if other == starlark.None {
			other = args[1]
		}
		return "typing.Optional[" + typeRepr(other, false) + "]"
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = typeRepr(a, t.name == "Literal")
	}
	return "typing." + t.name + "[" + strings.Join(parts, ", ") + "]"
}

// typeRepr is typing's repr of one argument of an alias: a class by its
// module and name (builtins' by name alone), None as NoneType in a Union.
func typeRepr(v starlark.Value, literal bool) string {
	switch x := v.(type) {
	case *PyType:
		if x.module == "" || x.module == "builtins" {
			return x.name
		}
		return x.module + "." + x.name
	case *excType:
		if x.user == nil {
			return x.name
		}
		return "__main__." + x.name
	case starlark.NoneType:
		if literal {
			return "None"
		}
		return "NoneType"
	case ellipsis:
		return "..."
	case *starlark.List:
		parts := make([]string, x.Len())
		for i := range parts {
			parts[i] = typeRepr(x.Index(i), false)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case starlark.String:
		if !literal {
			return "ForwardRef(" + PyRepr(x) + ")"
		}
	}
	return PyRepr(v)
}

func (t *typingAlias) reprPy() string        { return t.String() }
func (t *typingAlias) Type() string          { return "typing" }
func (t *typingAlias) Freeze()               {}
func (t *typingAlias) Truth() starlark.Bool  { return true }
func (t *typingAlias) Hash() (uint32, error) { return starlark.String(t.name).Hash() }

// Get is the alias subscripted: Optional[X], Union[X, Y], Dict[K, V].
func (t *typingAlias) Get(k starlark.Value) (starlark.Value, bool, error) {
	var args []starlark.Value
	if tup, ok := k.(starlark.Tuple); ok {
		args = append(args, tup...)
	} else {
		args = []starlark.Value{k}
	}
	switch t.name {
	case "Optional":
		return unionOf(append(args, starlark.None)), true, nil
	case "Union":
		return unionOf(args), true, nil
	}
	return &typingAlias{name: t.name, args: args, sub: true}, true, nil
}

// unionOf is Union[args]: nested unions flattened, repeats dropped, a
// single member standing for itself (None for NoneType).
func unionOf(args []starlark.Value) starlark.Value {
	var flat []starlark.Value
	add := func(v starlark.Value) {
		for _, x := range flat {
			if Identical(x, v) {
				return
			}
		}
		flat = append(flat, v)
	}
	for _, a := range args {
		if u, ok := a.(*typingAlias); ok && u.sub && u.name == "Union" {
			for _, x := range u.args {
				add(x)
			}
			continue
		}
		add(a)
	}
	if len(flat) == 1 {
		return flat[0]
	}
	return &typingAlias{name: "Union", args: flat, sub: true}
}

func (t *typingAlias) Name() string { return t.name }
func (t *typingAlias) CallInternal(_ *starlark.Thread, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if t.name == "TypeVar" && !t.sub {
		if len(args) == 0 {
			return nil, pyErrorf(excTypeError, "TypeVar.__init__() missing 1 required positional argument: 'name'")
		}
		name, ok := args[0].(starlark.String)
		if !ok {
			return nil, pyErrorf(excTypeError, "TypeVar name must be a string")
		}
		return &typeVar{name: string(name)}, nil
	}
	return t, nil
}

// typeVar is TypeVar("T"): ~T in reprs, as typing writes an invariant one.
type typeVar struct{ name string }

var _ starlark.HasAttrs = (*typeVar)(nil)

func (v *typeVar) String() string        { return "~" + v.name }
func (v *typeVar) reprPy() string        { return v.String() }
func (v *typeVar) Type() string          { return "TypeVar" }
func (v *typeVar) Freeze()               {}
func (v *typeVar) Truth() starlark.Bool  { return true }
func (v *typeVar) Hash() (uint32, error) { return starlark.String(v.name).Hash() }
func (v *typeVar) AttrNames() []string   { return []string{"__name__"} }
func (v *typeVar) Attr(name string) (starlark.Value, error) {
	if name == "__name__" {
		return starlark.String(v.name), nil
	}
	return nil, nil
}
