// Package pyre is Python's re over Go's RE2: a Python pattern translated
// into RE2 syntax with its Python meaning (re_translate.go), or refused
// with an *Error saying why and what to write instead; and the engine
// (re_engine.go, re_bounds.go, re_ahead.go) that runs it so that matches,
// spans and the order of matches are Python's.
//
// Compile gives a *Regexp for a pattern and its flags (IgnoreCase,
// Multiline, DotAll, Unicode, Verbose, ASCII, as in Python). A subject
// string is prepared once (Prepare, which may refuse a text whose word
// boundaries RE2 would judge differently), then searched with Exec (one
// match of a Kind: Search, Match or Full) or Each (successive matches, as
// Python's findall, finditer, sub and split iterate). Offsets are bytes of
// the subject; the caller converts them to characters (package pystr).
//
// What RE2 cannot do (lookaround but a trailing lookahead, backreferences)
// is refused, never run with another meaning. The re
// module of the runtime (package repl's re.go, re_match.go, re_py.go)
// gives the Python names over this package and raises an *Error as
// re.error.
//
// pyre imports only the standard library and harness/repl/pystr; it knows
// nothing of Starlark values (repl/layers_test.go checks).
package pyre
