// The modules of this package, by the name a program imports; package
// repl adds them to pyrt.ModuleMakers (repl/stdlib.go).

package pynum

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// Modules build this package's modules, once per interpreter, when first
// imported.
var Modules = map[string]func(r *pyrt.Interp) starlark.Value{
	"bisect":     bisectModule,
	"decimal":    decimalModule,
	"fractions":  fractionsModule,
	"heapq":      heapqModule,
	"math":       MathModule,
	"random":     randomModule,
	"secrets":    secretsModule,
	"statistics": statisticsModule,
	"uuid":       uuidModule,
}
