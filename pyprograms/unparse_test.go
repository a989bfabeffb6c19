package pyprograms

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestUnparseCorpus checks ast.unparse against CPython 3.11 over every
// program of the corpus: the REPL prints ast.unparse(ast.parse(source))
// for each, as CPython does (skipped without python3).
func TestUnparseCorpus(t *testing.T) {
	py := python3(t, "TestUnparseCorpus")
	var b strings.Builder
	b.WriteString("import ast\n")
	for _, a := range loadArchives(t) {
		for _, p := range a.Programs {
			fmt.Fprintf(&b, "print(%s)\ntry:\n    print(ast.unparse(ast.parse(%s)))\nexcept Exception as e:\n    print(type(e).__name__, e)\n",
				strconv.Quote(p.Name), strconv.Quote(p.Source))
		}
	}
	src := b.String()
	want, err := runCPython(t, py, materialize(t, nil), src)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(want, "\n") < 500 {
		t.Fatalf("CPython printed only %d lines", strings.Count(want, "\n"))
	}
	if got := runREPL(t, materialize(t, nil), src); got != want {
		t.Errorf("ast.unparse differs from CPython (- CPython, + REPL):\n%s", lineDiff(want, got))
	}
}
