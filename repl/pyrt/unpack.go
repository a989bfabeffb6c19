package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"
)

// UnpackArgs is starlark.UnpackArgs for the builtins of the runtime and of
// the modules, with Python's flags: a *bool parameter takes an int too
// (sorted(xs, reverse=1), os.makedirs(p, exist_ok=1), splitlines(1)), as
// CPython's do, where Starlark takes only a bool. Any other value is the
// TypeError CPython gives an int parameter.
func UnpackArgs(fn string, args starlark.Tuple, kw []starlark.Tuple, pairs ...any) error {
	for i := 1; i < len(pairs); i += 2 {
		if p, ok := pairs[i].(*bool); ok {
			pairs[i] = (*intFlag)(p)
		}
	}
	return starlark.UnpackArgs(fn, args, kw, pairs...)
}

// intFlag is a bool parameter that takes an int as its truth.
type intFlag bool

func (f *intFlag) Unpack(v starlark.Value) error {
	switch v := v.(type) {
	case starlark.Bool:
		*f = intFlag(v)
	case starlark.Int:
		*f = v.Sign() != 0
	default:
		// Starlark's wording, which the error rules turn into CPython's
		// "'str' object cannot be interpreted as an integer"
		return fmt.Errorf("got %s, want int", v.Type())
	}
	return nil
}
