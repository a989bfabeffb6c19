// Package pydev is the REPL's modules of program introspection and tooling:
// ast, inspect, types, traceback, warnings, logging, itertools, calendar
// and copy.
//
// It is one of the packages of standard modules under repl/lib, which stand
// on the runtime (package pyrt) alone: it imports the standard library,
// go.starlark.net, pyrt and the runtime's own lower floors (pystr, pyre,
// pyast), never another package under repl/lib, never the host's packages
// (jail, worker, wire, config, rlm, ui). logging writes to the call's
// output; files only through Interp.Host.Locate. What two module packages
// share belongs to pyrt. repl/layers_test.go checks the imports, file by
// file.
//
// Each module is one file, MODULE.go (more when it is large:
// MODULE_PART.go), whose MODULE builder returns its starlarkstruct module;
// modules.go names the builders by import name, and package repl adds them
// to pyrt.ModuleMakers. See pyrt's package doc, "Adding a standard module".
package pydev
