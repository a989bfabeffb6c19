// Package rewrite is the REPL's rewrite layer: Python habits turned into
// Starlark that keeps their Python meaning, before and after
// go.starlark.net parses the code. Its functions are pure: text in, text
// (or a syntax tree) out, no interpreter state.
//
// # Stages
//
// The REPL runs a call through four stages; rewrite is the first and the
// third (the runtime, today package repl's py*.go files, carries out the hidden calls they
// write; the driver runs the result):
//
//  1. The pre-pass (Prepass, prepass*.go) rewrites the forms Starlark
//     cannot parse: f-strings, **, is / is not, chained comparisons,
//     generator arguments, import, assert, raise, del,
//     try/except/else/finally (at top level for the driver; inside a
//     function as one function per clause, run by the hidden __py_tryrun,
//     prepass_trydef.go), with (inside a function its block is such a
//     clause, run by __py_withrun, prepass_withdef.go), top-level class statements (a function
//     running the class body, then __py_class, prepass_class.go),
//     decorators, annotations, star unpacking, the walrus (a marker call
//     the AST pass binds, prepass_compwalrus.go), for/while-else, nonlocal, match (an if/elif chain over
//     __py_match, prepass_match.go), yield (hidden calls; the runtime runs
//     a generator function's body on a goroutine of its own, one step per
//     next()). Code without these habits reaches Starlark byte for byte
//     unchanged (FuzzPrepass checks this and that the pre-pass never
//     panics). A position map (PosMap, posmap.go) sends error positions in
//     rewritten code back to the user's line and column. A form whose
//     Python meaning cannot be kept is refused with an *Error at the
//     user's position, never run with another meaning.
//  2. Starlark parses and resolves the result (FileOptions is the
//     dialect: While, Recursion, Set, TopLevelControl, GlobalReassign).
//  3. The AST pass (ASTPass, astpass.go) routes the operations whose
//     Starlark meaning differs through hidden builtins (the Hid* names):
//     indexing and slicing (strings count characters), iteration, method
//     calls (the names in ASTOptions.Methods: Python's str, list, dict and
//     set methods), x % y without a number literal (%-formatting), ** and
//     identity, global reads inside functions (ASTOptions.LiveGlobal),
//     x.__name__ and the other attributes every Python object has. It
//     keeps the variables a function's try (and with) clauses assign in a dict the
//     function makes on entry, so that body, handlers, finally and the
//     code after share them (and so the variables nested functions declare
//     nonlocal, and those a walrus binds: astpass_walrus.go), and makes a method's reads of its class body's names
//     global reads, as Python scopes them (astpass_locals.go); super()
//     gets its class and instance.
//
// Incomplete (incomplete.go) tells an interactive prompt whether typed
// lines need more, over the pre-pass tokenizer.
//
// # Imports
//
// rewrite imports only the standard library and go.starlark.net/syntax.
// It must not import the runtime, the standard modules, repl, or any of
// jail, worker, wire, config, rlm, ui (repl/layers_test.go checks).
package rewrite
