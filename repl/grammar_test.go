package repl

import (
	"context"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// grammarKinds are the statement and expression kinds of Python 3.11's
// grammar: the subclasses of ast.stmt and ast.expr.
var grammarKinds = []string{
	// ast.stmt
	"AnnAssign", "Assert", "Assign", "AsyncFor", "AsyncFunctionDef", "AsyncWith", "AugAssign", "Break", "ClassDef",
	"Continue", "Delete", "Expr", "For", "FunctionDef", "Global", "If", "Import", "ImportFrom", "Match", "Nonlocal",
	"Pass", "Raise", "Return", "Try", "TryStar", "While", "With",
	// ast.expr
	"Attribute", "Await", "BinOp", "BoolOp", "Call", "Compare", "Constant", "Dict", "DictComp", "FormattedValue",
	"GeneratorExp", "IfExp", "JoinedStr", "Lambda", "List", "ListComp", "Name", "NamedExpr", "Set", "SetComp",
	"Slice", "Starred", "Subscript", "Tuple", "UnaryOp", "Yield", "YieldFrom",
}

// TestGrammar walks the grammar: testdata/grammar.txtar has a snippet for
// every kind of grammarKinds, and each either prints what CPython 3.11
// prints for it (KIND.want) or is refused before anything runs, with a
// message starting as KIND.refused says (the REPL's refusals name the
// rewrite to use).
func TestGrammar(t *testing.T) {
	a, err := txtar.ParseFile("testdata/grammar.txtar")
	if err != nil {
		t.Fatal(err)
	}
	src, want, refused := map[string]string{}, map[string]string{}, map[string]string{}
	for _, f := range a.Files {
		data := strings.TrimSuffix(string(f.Data), "\n")
		switch name, kind, _ := strings.Cut(f.Name, "."); kind {
		case "":
			src[name] = data
		case "want":
			want[name] = data
		case "refused":
			refused[name] = data
		default:
			t.Fatalf("section %s: want KIND, KIND.want or KIND.refused", f.Name)
		}
	}
	var kinds []string
	for k := range src {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	all := append([]string(nil), grammarKinds...)
	sort.Strings(all)
	if strings.Join(kinds, " ") != strings.Join(all, " ") {
		t.Fatalf("grammar.txtar covers\n%v\nwant every kind of\n%v", kinds, all)
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			raw, failed := e.repl.exec(context.Background(), src[kind])
			got := pyExprResult(raw, failed)
			switch w, isWant := want[kind]; {
			case isWant:
				if got != w {
					t.Errorf("%s:\n got: %s\nwant: %s", kind, got, w)
				}
			case refused[kind] != "":
				if !failed || !strings.HasPrefix(raw, "repl:") || !strings.Contains(raw, refused[kind]) {
					t.Errorf("%s: want a refusal before running containing %q, got %s", kind, refused[kind], raw)
				}
			default:
				t.Errorf("%s has neither a .want nor a .refused section", kind)
			}
		})
	}
}
