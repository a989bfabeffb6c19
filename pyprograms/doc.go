// Package pyprograms measures how much of the Python that models write as
// whole programs the REPL runs with CPython's meaning. It has no code of
// its own: its tests run a corpus of programs through package repl's
// public API (repl.New, Exec, Close, in-process) and compare what the REPL
// prints with what CPython 3.11 prints for the same program.
//
// # The corpus
//
// testdata/*.txtar holds the programs, a few archives by theme (project
// exploration, data reports, configuration, language habits, edits). An
// archive's sections are:
//
//	repository/PATH   a file of the fixture tree: the REPL's /repository
//	store/PATH        a file under the REPL's /store
//	program/NAME.py   one program, run as one REPL call
//	want/NAME         what the REPL should print for it: CPython's output
//
// Every program runs over a fresh copy of its archive's fixture tree, in a
// fresh REPL whose /repository (also the working directory) and /store are
// read-write. The programs are written the way models write them in a
// coding-agent session, 15 to 60 lines with several habits each, not the
// way the REPL likes; they sort directory listings because CPython's
// order is the file system's.
//
// # What "the same output" means
//
// want/NAME is made by testdata/run_cpython.py, which runs the program as
// the REPL runs a call: stdout and stderr in the order written (print to
// sys.stderr and logging land in the REPL's one output), then the repr of
// a trailing expression that is not None, then for an exception the
// program does not catch the line "Traceback (most recent call last):"
// and Python's "Kind: message" line. SystemExit with code None or 0 ends
// the program silently (sys.exit(main()) is a common last line);
// another code shows as an uncaught exception. Empty output is
// "(no output)". Both sides are compared after one normalisation: the
// indented frame lines after each "Traceback (most recent call last):"
// line are dropped, since the REPL's frames are not CPython's; the
// exception line stays and must match.
//
// CPython runs with the fixture copied into a temporary directory T as
// T/repository and T/store, T/repository as its working directory, so
// that relative paths start at /repository as in the REPL. The absolute
// paths /repository and /store in the program's text are rewritten to T's
// before it runs, and T's are written back as /repository and /store in
// what it prints, so os.getcwd(), Path.resolve() and error messages read
// as in the REPL (a program that measures the length of an absolute path
// would see the difference). PYTHONHASHSEED=0, TZ=UTC and a UTF-8 locale
// keep the output stable.
//
// # Running it
//
//	go test ./pyprograms -run TestPrograms -v
//
// logs "N/M programs match CPython" and a diff (- CPython, + REPL) for
// each mismatch. It fails only when a program listed in
// testdata/expected_pass.txt does not match, so it passes while most
// programs still fail; a program not listed that now matches is logged,
// to be added. Flags:
//
//	-pyprograms.want-all        fail on every mismatch (the goal state)
//	-pyprograms.report=FILE     write every mismatch with its diff to FILE
//	-pyprograms.write-manifest  rewrite expected_pass.txt with what matches now
//	-pyprograms.update          rewrite the want/ sections with python3
//
// # The differential check
//
//	go test ./pyprograms -run TestDifferential -pyprograms.diff-n=500 [-pyprograms.diff-seed=1] [-pyprograms.diff-report=FILE]
//
// makes N mutants of the corpus programs with testdata/mutate.py (CPython's
// own ast module parses each program, changes one thing and writes it
// back, so every mutant is valid Python): a literal's value or kind (int,
// float, bool, str), an iterable's kind (iter, list, tuple, a generator,
// map, a dict view listed), a container display's kind, an operand
// wrapped in float/int/bool/str, an except clause naming a base class or
// a tuple, zip with a shorter last argument. Each mutant runs under
// CPython and in the REPL; differences are grouped by a signature of the
// first differing line (the REPL's error, or both lines, with strings and
// numbers blanked). Each program's baseline (the program as ast.unparse
// writes it, unmutated) runs too, and a mutant that differs as its parent
// does, or fails where its parent fails, is counted but not reported: only
// new classes of difference are. The same seed and N give the same mutants.
// The test is skipped without -pyprograms.diff-n, and without python3.
package pyprograms
