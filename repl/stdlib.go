// The standard modules of the lib packages, added to the runtime's own.

package repl

import (
	"go.starlark.net/starlark"

	"harness/repl/lib/pyarchive"
	"harness/repl/lib/pydata"
	"harness/repl/lib/pydev"
	"harness/repl/lib/pyfs"
	"harness/repl/lib/pylang"
	"harness/repl/lib/pynum"
	"harness/repl/lib/pytext"
	"harness/repl/pyrt"
)

// libModules are the modules of the packages under repl/lib, each of which
// depends on the runtime only.
var libModules = []map[string]func(*pyrt.Interp) starlark.Value{
	pyarchive.Modules,
	pydata.Modules,
	pydev.Modules,
	pyfs.Modules,
	pynum.Modules,
	pytext.Modules,
	pylang.Modules,
}

func init() {
	for _, mods := range libModules {
		for name, make := range mods {
			pyrt.ModuleMakers[name] = make
		}
	}
}
