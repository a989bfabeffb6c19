// The modules of this package, by the name a program imports; package
// repl adds them to pyrt.ModuleMakers (repl/stdlib.go).

package pydata

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// Modules build this package's modules, once per interpreter, when first
// imported.
var Modules = map[string]func(r *pyrt.Interp) starlark.Value{
	"configparser": configparserModule,
	"csv":          csvModule,
	"json":         JsonModule,
	"tomllib":      tomllibModule,
}
