// Recognizing calls that never need approval.

package repl

import (
	"harness/repl/rewrite"

	"go.starlark.net/syntax"
)

// syntheticNames are the REPL functions the app calls on the model's behalf.
var syntheticNames = map[string]bool{"FYI": true, "help": true, "store_summary": true, "library_summary": true}

// IsSynthetic reports whether code consists only of argument-less calls to
// FYI(), help(), store_summary() and library_summary(), one per statement.
// Such calls never need approval, at any permission level; anything else in
// the code (including an argument) makes it ordinary code.
func IsSynthetic(code string) bool {
	f, err := rewrite.FileOptions().Parse("repl", code, 0)
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	for _, s := range f.Stmts {
		if !isCallOf(s, func(name string) bool { return syntheticNames[name] }, 0) {
			return false
		}
	}
	return true
}

// IsReasoningOnly reports whether code is exactly one call reasoning("...")
// whose only argument is a plain string literal. The app answers such a call
// "(no output)" without running it.
func IsReasoningOnly(code string) bool {
	f, err := rewrite.FileOptions().Parse("repl", code, 0)
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	if !isCallOf(f.Stmts[0], func(name string) bool { return name == "reasoning" }, 1) {
		return false
	}
	call := f.Stmts[0].(*syntax.ExprStmt).X.(*syntax.CallExpr)
	lit, ok := call.Args[0].(*syntax.Literal)
	return ok && lit.Token == syntax.STRING
}

// isCallOf reports whether s is an expression statement calling a plain
// name accepted by ok with exactly nargs arguments.
func isCallOf(s syntax.Stmt, ok func(string) bool, nargs int) bool {
	es, isExpr := s.(*syntax.ExprStmt)
	if !isExpr {
		return false
	}
	call, isCall := es.X.(*syntax.CallExpr)
	if !isCall || len(call.Args) != nargs {
		return false
	}
	id, isIdent := call.Fn.(*syntax.Ident)
	return isIdent && ok(id.Name)
}
