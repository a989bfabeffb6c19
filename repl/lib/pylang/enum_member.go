// enum members: name and value, repr and str as CPython 3.11 shows them,
// comparison (IntEnum's by value), flag operators.

package pylang

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var (
	_ starlark.HasAttrs    = (*pyrt.EnumMember)(nil)
	_ starlark.HasSetField = (*pyrt.EnumMember)(nil)
	_ starlark.Comparable  = (*pyrt.EnumMember)(nil)
	_ starlark.HasBinary   = (*pyrt.EnumMember)(nil)
	_ starlark.HasUnary    = (*pyrt.EnumMember)(nil)
	_ starlark.Container   = (*pyrt.EnumMember)(nil)
	_ pyrt.PyFormatter     = (*pyrt.EnumMember)(nil)
	_ pyrt.Classed         = (*pyrt.EnumMember)(nil)
)
