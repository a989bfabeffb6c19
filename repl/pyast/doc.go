// Package pyast parses Python 3.11 source into the node classes of
// CPython 3.11's ast module, with the same fields, positions (lineno,
// col_offset in UTF-8 bytes, end_lineno, end_col_offset) and, for bad
// source, SyntaxError messages where feasible.
//
// Why a parser of our own: github.com/go-python/gpython (v0.2.0, the Go
// Python served) follows the Python 3.4 grammar: no walrus, no match,
// no positional-only parameters, no f-strings as JoinedStr, no end
// positions, and decorators limited to dotted names. The ast module
// models use lists functions, classes and imports with their line
// ranges, so the nodes and positions must be 3.11's exactly.
//
// It is a recursive-descent parser over a tokenizer with INDENT/DEDENT
// and implicit line joining, following the PEG grammar of 3.11; f-string
// replacement fields are parsed as JoinedStr and FormattedValue, their
// expressions at their true positions as CPython 3.11 gives them. The
// tests compare Dump(Parse(src)) with CPython's
// ast.dump(ast.parse(src), include_attributes=True) on snippets of every
// statement and expression kind and on 40 modules of CPython's library
// (testdata/cases.json, written once by testdata/gen.py), and FuzzParse
// checks that Parse never panics.
//
// It imports only the standard library and harness/repl/pystr (Python's repr
// of strings, bytes and floats, which ast.dump shows).
package pyast
