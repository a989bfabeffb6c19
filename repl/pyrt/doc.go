// Package pyrt is the Python runtime of the REPL: Python's meaning over
// go.starlark.net values, and the standard modules the runtime itself
// reaches into; the other modules live in the packages under repl/lib,
// which stand on this one.
//
// It holds the values and their methods (str, bytes, numbers, list, dict,
// set, the dict views), classes and their special methods, exceptions and
// how Starlark errors map onto them, generators, formatting (%, format,
// f-strings), the hidden builtins the AST pass routes operations through,
// the driver that runs a call's statements, and the modules whose classes
// the runtime itself builds on or which several module packages share
// (pymod_*.go: datetime, time, sys's names; io). re's module is in
// repl/lib/pytext, over package pyre. The language modules (enum,
// dataclasses, abc, functools, collections, contextlib, typing, operator,
// hashlib) live in repl/lib/pylang; the values of theirs the builtins treat specially (an
// enum member, a dataclass's fields, a cached function, an OrderedDict or
// Counter, a namedtuple record, an abstract method, sys.stdout) are
// declared here, in kind_*.go. pymodules.go's ModuleMakers registers
// the modules, to which package repl adds those of repl/lib
// (repl/stdlib.go).
//
// # Imports
//
// pyrt imports the standard library, go.starlark.net, toml and doublestar,
// and the lower floors of the REPL: pystr, pyre, modslots, rewrite and
// pyast. It never imports jail, worker, wire, config, rlm, ui or any other
// package of harness: what it needs of the host (files under the mounts,
// commands through run(), the call in progress, the limits) it asks of
// Interp.Host (a Host) and of the Roots Host.Locate returns, which package
// repl implements. repl/layers_test.go checks this file by file.
//
// # Dialect: Python habits
//
// Starlark with While, Recursion, Set, TopLevelControl and GlobalReassign,
// read so that the Python models write runs with Python's meaning. A call
// goes through four stages (a helper file through the first three):
//
//  1. The pre-pass (package rewrite) rewrites the forms Starlark cannot
//     parse (f-strings, **, is, chained comparisons, import, try, with,
//     class, match, yield, ...) into Starlark with their Python meaning,
//     with a position map back to the user's line and column. Code without
//     these habits reaches Starlark byte for byte unchanged; a form whose
//     Python meaning cannot be kept is refused at the user's position.
//  2. Starlark parses and resolves the result.
//  3. The AST pass (package rewrite) routes the operations whose Starlark
//     meaning differs through hidden builtins (pyhidden.go): indexing,
//     iteration, method calls, %, **, identity, membership, item stores,
//     bit operators and dict displays (a bool is the int it equals, as a
//     key too: pykeys.go), global reads inside
//     functions, the attributes every Python object has. A function
//     reading a global while the chunk defining it still runs reads the
//     chunk's current value (package modslots: go.starlark.net keeps it in
//     an unexported slice, read through reflect and unsafe; a test checks
//     the layout, and the read falls back to the REPL's globals when the
//     layout is not the expected one).
//  4. The driver (driver.go) runs the top-level statements one by one,
//     carrying out the try and with markers: an exception is a value of an
//     exception class (pyerrors.go) matched by class and its bases;
//     Starlark errors from builtins are classified by their message
//     (KeyError, IndexError, ZeroDivisionError, TypeError, ...), file
//     errors by kind (FileNotFoundError, PermissionError, ...). Esc and a
//     memory stop are never caught.
//
// Strings are Python's: len, indexing, slicing, iteration, find and re
// offsets count characters (Starlark's elems() and codepoints() remain).
// Python's builtins (py*.go: print with sep/end/file, sum, map, filter,
// isinstance with type objects, round, pow, divmod, open, min/max with key
// and default, sorted, enumerate(start=), ...) replace Starlark's where
// they differ. Classes (pyclass*.go) follow Python's single-inheritance
// lookup: instances carry their attributes, methods bind to self,
// staticmethod, classmethod, property and super() work, and the special
// methods (__repr__, __str__, __eq__, __lt__, __hash__, __len__, __iter__,
// __contains__, __getitem__, the arithmetic ones, __enter__/__exit__)
// are used where Python uses them; a class deriving from an exception
// class is an exception class. dataclasses, abc and collections'
// namedtuple build on them. dict.keys(), values() and items() are live
// views with set operators. import finds the modules of pymodules.go's registry, each a
// Python module over the REPL's mounts, permissions and approvals (os,
// pathlib, glob, shutil over the mounts' Roots; subprocess and os.system
// over Host.RunCommand, which is run()); os.environ and other host state are not available, and their
// errors say so. Recursion deeper than 2000 nested calls is stopped with a
// clean error.
//
// # Adding a standard module
//
// A new module goes in the package under repl/lib whose theme it shares
// (pyfs: files and commands; pyarchive: bytes and archives; pytext: text;
// pydata: data formats; pynum: numbers; pydev: introspection and tooling),
// or in a new package there, listed in repl/layers_test.go's layers and in
// repl/stdlib.go. It is one file, <name>.go (more when it is large:
// <name>_<part>.go), whose builder func(r *pyrt.Interp) starlark.Value
// returns its starlarkstruct module from a table of builtins (which unpack
// their arguments with UnpackArgs, whose bool parameters take ints as
// Python's do), and a line in that package's modules.go (help() lists the
// modules from ModuleMakers; drop the module's line from pymodules.go's
// moduleHints if it had one). It
// uses only what pyrt exports and never another module package: what two
// packages share moves down into pyrt. It touches files only through
// Interp.Host.Locate and the Root it returns, and raises the exception
// classes CPython raises (pyerrors.go), so the except clauses models write
// catch them. Its cases go in repl/testdata/pyexprs.txtar (TestPyExprs,
// checked against CPython 3.11 when python3 is present) or
// repl/testdata/py_modules.star; a whole program using it goes in
// pyprograms/testdata. When the builtins must know a module's values (its
// classes change how they behave), those types go in pyrt as
// kind_<name>.go, and the module's surface still in a lib package.
package pyrt
