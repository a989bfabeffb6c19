// Package pyarchive is the REPL's modules of bytes and archives: zlib,
// gzip, zipfile, tarfile, binascii, base64 and struct.
//
// It is one of the packages of standard modules under repl/lib, which stand
// on the runtime (package pyrt) alone: it imports the standard library,
// go.starlark.net, pyrt and the runtime's own lower floors (pystr, pyre,
// pyast), never another package under repl/lib, never the host's packages
// (jail, worker, wire, config, rlm, ui). Archives on disk are read and
// written only through Interp.Host.Locate and the pyrt.Root it returns.
// What two module packages share belongs to pyrt. repl/layers_test.go
// checks the imports, file by file.
//
// Each module is one file, MODULE.go (more when it is large:
// MODULE_PART.go), whose MODULE builder returns its starlarkstruct module;
// modules.go names the builders by import name, and package repl adds them
// to pyrt.ModuleMakers. See pyrt's package doc, "Adding a standard module".
package pyarchive
