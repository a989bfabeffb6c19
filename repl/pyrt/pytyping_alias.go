// typing's aliases (List, Optional[str], …) and their reprs, which
// __annotations__ and inspect show.

package pyrt

import (
	"strings"

	"go.starlark.net/starlark"
)

// typingAlias stands for a typing name, subscripted or not: args are the
// subscript's values (Optional[X] is Union[X, None]).
type TypingAlias struct {
	AliasName string
	args      []starlark.Value
	sub       bool // subscripted
	// builtin: a subscripted builtin class (list[int]), shown without
	// typing's prefix.
	builtin bool
}

func (t *TypingAlias) String() string {
	if !t.sub {
		return "typing." + t.AliasName
	}
	args := t.args
	if t.AliasName == "Union" && len(args) == 2 && (args[0] == starlark.None || args[1] == starlark.None) {
		other := args[0]
		if other == starlark.None {
			other = args[1]
		}
		return "typing.Optional[" + TypeRepr(other, false) + "]"
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = TypeRepr(a, t.AliasName == "Literal")
	}
	if t.builtin {
		return t.AliasName + "[" + strings.Join(parts, ", ") + "]"
	}
	return "typing." + t.AliasName + "[" + strings.Join(parts, ", ") + "]"
}

// typeRepr is typing's repr of one argument of an alias: a class by its
// module and name (builtins' by name alone), None as NoneType in a Union.
func TypeRepr(v starlark.Value, literal bool) string {
	switch x := v.(type) {
	case *PyType:
		if x.Module == "" || x.Module == "builtins" {
			return x.TypeName
		}
		return x.Module + "." + x.TypeName
	case *ExcType:
		if x.user == nil {
			return x.TypeName
		}
		return "__main__." + x.TypeName
	case starlark.NoneType:
		if literal {
			return "None"
		}
		return "NoneType"
	case Ellipsis:
		return "..."
	case *starlark.List:
		parts := make([]string, x.Len())
		for i := range parts {
			parts[i] = TypeRepr(x.Index(i), false)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case starlark.String:
		if !literal {
			return "ForwardRef(" + PyRepr(x) + ")"
		}
	}
	return PyRepr(v)
}

func (t *TypingAlias) ReprPy() string        { return t.String() }
func (t *TypingAlias) Type() string          { return "typing" }
func (t *TypingAlias) Freeze()               {}
func (t *TypingAlias) Truth() starlark.Bool  { return true }
func (t *TypingAlias) Hash() (uint32, error) { return starlark.String(t.AliasName).Hash() }

// Get is the alias subscripted: Optional[X], Union[X, Y], Dict[K, V].
func (t *TypingAlias) Get(k starlark.Value) (starlark.Value, bool, error) {
	var args []starlark.Value
	if tup, ok := k.(starlark.Tuple); ok {
		args = append(args, tup...)
	} else {
		args = []starlark.Value{k}
	}
	switch t.AliasName {
	case "Optional":
		return unionOf(append(args, starlark.None)), true, nil
	case "Union":
		return unionOf(args), true, nil
	}
	return &TypingAlias{AliasName: t.AliasName, args: args, sub: true}, true, nil
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
		if u, ok := a.(*TypingAlias); ok && u.sub && u.AliasName == "Union" {
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
	return &TypingAlias{AliasName: "Union", args: flat, sub: true}
}

func (t *TypingAlias) Name() string { return t.AliasName }
func (t *TypingAlias) CallInternal(_ *starlark.Thread, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if t.AliasName == "TypeVar" && !t.sub {
		if len(args) == 0 {
			return nil, PyErrorf(ExcTypeError, "TypeVar.__init__() missing 1 required positional argument: 'name'")
		}
		name, ok := args[0].(starlark.String)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "TypeVar name must be a string")
		}
		return &typeVar{name: string(name)}, nil
	}
	return t, nil
}

// typeVar is TypeVar("T"): ~T in reprs, as typing writes an invariant one.
type typeVar struct{ name string }

var _ starlark.HasAttrs = (*typeVar)(nil)

func (v *typeVar) String() string        { return "~" + v.name }
func (v *typeVar) ReprPy() string        { return v.String() }
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
