package pyrt

import "go.starlark.net/starlark"

func (a *astInfo) unparseBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return nil, pyErrorf(excNotImplemented, "ast.unparse is not available yet")
}
