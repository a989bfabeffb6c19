// Package replcheck is harness replib check: each helper file loaded in
// a fresh REPL, as a subagent's REPL loads it, and reported with
//
//   - the load error at path:line:column (then the backtrace of an error
//     raised while the file ran), and nothing else for such a file;
//   - its public functions, each as help() lists it: the signature and the
//     first sentence of the docstring;
//   - the top-level names it shadows: a predeclared name (a builtin, a
//     REPL function, json, re, ...) or a helper an earlier file defined
//     fails the check; a name import also binds (glob, os, ...) is a note,
//     since only `import x` replaces the helper;
//   - the result of every docstring example, doctest style.
//
// # Examples
//
// In a function's docstring, a line ">>> code" (with "... more" lines
// for a block) is run in the file's REPL, and the lines after it up to a
// blank line or the next ">>>" are the output it must give: what it
// printed and the repr of its trailing value, as the model's result has
// them ("<BLANKLINE>" stands for an empty line). Output is compared as
// text, without trailing spaces. When the expected output starts with
// "Traceback (most recent call last):", only the exception after the
// stack is compared, as Python's doctest does. A mismatch shows the
// example and a line diff (- expected, + got).
//
// The examples of one file share one REPL, in source order; each file
// gets a fresh one, and the caller gives it an empty scratch repository,
// so examples make the files they need and never touch real ones.
//
// The report ends with "N passed, N failed": the examples that passed;
// the examples that failed, the files that did not load and the failing
// shadows.
package replcheck
