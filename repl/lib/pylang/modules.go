// The modules of this package, by the name a program imports; package
// repl adds them to pyrt.ModuleMakers (repl/stdlib.go).

package pylang

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// Modules build this package's modules, once per interpreter, when first
// imported.
var Modules = map[string]func(r *pyrt.Interp) starlark.Value{
	"abc":             abcModule,
	"collections":     collectionsModule,
	"collections.abc": typingModule,
	"contextlib":      contextlibModule,
	"dataclasses":     dataclassesModule,
	"enum":            enumModule,
	"functools":       functoolsModule,
	"hashlib":         hashlibModule,
	"operator":        operatorModule,
	"sys":             sysModule,
	"typing":          typingModule,
}
