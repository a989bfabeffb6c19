// The modules of this package, by the name a program imports; package
// repl adds them to pyrt.ModuleMakers (repl/stdlib.go).

package pyarchive

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// Modules build this package's modules, once per interpreter, when first
// imported.
var Modules = map[string]func(r *pyrt.Interp) starlark.Value{
	"base64":   base64Module,
	"binascii": binasciiModule,
	"gzip":     gzipModule,
	"struct":   structModule,
	"tarfile":  tarfileModule,
	"zipfile":  zipfileModule,
	"zlib":     zlibModule,
}
