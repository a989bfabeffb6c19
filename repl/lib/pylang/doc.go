// Package pylang is the REPL's modules of the language itself: abc, enum,
// dataclasses, functools, operator, collections (with collections.abc),
// contextlib, typing, sys's module object and hashlib.
//
// The runtime knows the values these modules make (an enum member, a
// dataclass's fields, a cached function, an OrderedDict or Counter, a
// namedtuple record, an abstract method): those types live in pyrt's
// kind_*.go files, because the builtins treat them specially (an IntEnum
// member is an int to arithmetic, a frozen dataclass refuses attribute
// stores, a Counter compares as a multiset). This package holds the
// modules' surface: the builders, the decorators and the classes made from
// them.
//
// It is one of the packages of standard modules under repl/lib, which stand
// on the runtime (package pyrt) alone: it imports the standard library,
// go.starlark.net, pyrt and the runtime's own lower floors (pystr, pyre,
// pyast), never another package under repl/lib, never the host's packages
// (jail, worker, wire, config, rlm, ui). What two module packages share
// belongs to pyrt. repl/layers_test.go checks the imports, file by file.
//
// Each module is one file, MODULE.go (more when it is large:
// MODULE_PART.go), whose MODULE builder returns its starlarkstruct module;
// modules.go names the builders by import name, and package repl adds them
// to pyrt.ModuleMakers. See pyrt's package doc, "Adding a standard module".
package pylang
