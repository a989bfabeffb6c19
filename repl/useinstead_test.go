package repl

import (
	"context"
	"strings"
	"testing"

	"harness/failures"
)

// TestUseInsteadRowsStillFail runs every row's example: each must still
// fail, with the row's hint line, and be counted in the failure notes
// under that hint. A row whose example starts working must leave the
// table (and help()).
func TestUseInsteadRowsStillFail(t *testing.T) {
	for _, u := range useInsteadTable {
		t.Run(u.name, func(t *testing.T) {
			e := newEnv(t)
			out, failed := e.repl.exec(context.Background(), u.example)
			if !failed {
				t.Fatalf("%q works now; remove its row:\n%s", u.example, out)
			}
			if !strings.HasSuffix(out, "\n"+u.hint()) {
				t.Errorf("result does not end with the hint line %q:\n%s", u.hint(), out)
			}
			if len(e.notes) != 1 || e.notes[0].Kind != failures.KindUnsupported || failures.FirstLine(e.notes[0].Message) != u.hint() {
				t.Errorf("notes = %+v, want one unsupported note headed by the hint", e.notes)
			}
		})
	}
}

// TestGapsAreCounted checks that failures the table does not explain are
// noted under a stable first line, so that they add up across sessions.
func TestGapsAreCounted(t *testing.T) {
	tests := []struct{ code, first string }{
		{"import numpy", "import numpy: module not available"},
		{"x = bytearray(3)", "builtin not available: bytearray"},
		{`"abc".maketrans("a", "b")`, "method not available: str.maketrans"},
		{"import os\nos.environ['HOME']", "os.environ is not available in this REPL: the REPL does not expose the host environment; commands started by run() or subprocess get it (minus [commands] env_filter): run([\"printenv\", \"NAME\"])"},
		{"class A: pass\nclass B: pass\nclass C(A, B): pass", "multiple inheritance is supported here between exception classes only; derive from one class and hold the other as an attribute"},
		{"def f():\n    class X: pass", "not supported: a class statement works only at the top level of a REPL call here; define the class outside the function"},
	}
	for _, tt := range tests {
		t.Run(tt.first, func(t *testing.T) {
			e := newEnv(t)
			for i := 1; i <= 2; i++ {
				out, failed := e.repl.exec(context.Background(), tt.code)
				if !failed {
					t.Fatalf("%q succeeded:\n%s", tt.code, out)
				}
			}
			var firsts []string
			for _, n := range e.notes {
				firsts = append(firsts, failures.FirstLine(n.Message))
			}
			if len(firsts) != 2 || firsts[0] != tt.first || firsts[1] != tt.first {
				t.Fatalf("notes %q, want twice %q", firsts, tt.first)
			}
			if n, _ := e.repl.opts.Failures.Count(tt.first); n != 2 {
				t.Errorf("failures.jsonl counts %d, want 2", n)
			}
		})
	}
}
