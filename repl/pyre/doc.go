// Package pyre is Python's re over two engines: Go's RE2 for every
// pattern it can run (linear time), and a backtracking engine,
// github.com/dlclark/regexp2, for what RE2 lacks, both with Python's
// syntax and meaning.
//
// Compile gives a *Regexp for a pattern and its flags (IgnoreCase,
// Multiline, DotAll, Unicode, Verbose, ASCII, as in Python). It first
// translates the pattern into RE2 syntax (re_translate.go; a trailing
// lookahead X(?=Y) runs on RE2 as X(Y), re_ahead.go). A pattern that
// needs lookaround, backreferences (\1, (?P=name)), conditionals
// (?(1)..|..), atomic groups (?>...), possessive quantifiers (a++) or a
// scoped (?x:...) goes to the backtracking engine instead
// (re_back_translate.go, re_back_escape.go, re_back.go): translated into
// regexp2's .NET syntax ((?P<n>) as (?<n>), \Z as \z, Python's \w \s \d
// and Unicode \b spelled out, [ in a class escaped, {,n} as {0,n}),
// refused where Python refuses (a lookbehind without fixed width, a
// reference to an open or unknown group, a bad escape). Engine says
// which engine a pattern runs on; a pattern RE2 can run never goes to
// the backtracking engine.
//
// A subject string is prepared once (Prepare), then searched with Exec
// (one match of a Kind: Search, Match or Full) or Each (successive
// matches, as Python's findall, finditer, sub and split iterate; after an
// empty match Python looks first for a non-empty one at the same place).
// A text where RE2 cannot give Python's meaning (non-ASCII word
// characters next to a \b, a $ outside MULTILINE with a MULTILINE part
// over several lines, a non-empty match after an empty one at the same
// place) runs on the backtracking engine compiled from the same pattern.
// Offsets are bytes of the subject; the caller converts them to
// characters (package pystr).
//
// One match of the backtracking engine stops after MatchTimeout (2 s) with
// a *TimeoutError (the re module raises TimeoutError), or at its
// backtracking stack bound (raised as MemoryError), or when the
// Subject's Ctx is done (the call was cancelled). The re module of the
// runtime (package repl's re.go, re_match.go, re_py.go) gives the Python
// names over this package and raises an *Error as re.error.
//
// pyre imports only the standard library, harness/repl/pystr and regexp2;
// it knows nothing of Starlark values (repl/layers_test.go checks).
package pyre
