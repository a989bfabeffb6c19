// Package pytext is the REPL's modules of text: re, string (Template,
// Formatter, the constants), textwrap, pprint, shlex, difflib, html and
// argparse.
//
// re is Python's module over package pyre (the pattern translation and the
// two engines): its functions, flags, Pattern and Match objects (re.go,
// re_match.go) and re.error (re_py.go). Compiled patterns are cached per
// interpreter in pyrt's RegexpCache, which string.Template's pattern uses
// too. Package repl predeclares re (ReModule) as well as offering it to
// import.
//
// It is one of the packages of standard modules under repl/lib, which stand
// on the runtime (package pyrt) alone: it imports the standard library,
// go.starlark.net, pyrt and the runtime's own lower floors (pystr, pyre,
// pyast), never another package under repl/lib, never the host's packages
// (jail, worker, wire, config, rlm, ui). They touch no files. What two
// module packages share belongs to pyrt. repl/layers_test.go checks the
// imports, file by file.
//
// Each module is one file, MODULE.go (more when it is large:
// MODULE_PART.go), whose MODULE builder returns its starlarkstruct module;
// modules.go names the builders by import name, and package repl adds them
// to pyrt.ModuleMakers. See pyrt's package doc, "Adding a standard module".
package pytext
