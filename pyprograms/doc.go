// Package pyprograms measures how much of the Python that models write as
// whole programs the REPL runs with CPython's meaning. It has no code of
// its own: its tests run a corpus of programs through package repl's
// public API and compare what the REPL prints with CPython 3.11.
package pyprograms
