package repl

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestGeneratorsEndWithTheirCall abandons suspended generators: when the
// call ends, their goroutines have exited; a later next() on one is a
// clear error, and a generator never started still runs in a later call.
func TestGeneratorsEndWithTheirCall(t *testing.T) {
	inProcessOnly(t)
	e := newEnv(t)
	e.exec("def count():\n    n = 0\n    while True:\n        yield n\n        n += 1")
	base := runtime.NumGoroutine()
	out := e.exec("gens = [count() for _ in range(50)]\nfirst = [next(g) for g in gens]\nlazy = count()\nsum(first)")
	if out != "0" {
		t.Fatalf("first call: %q", out)
	}
	settle := func(what string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > base {
			t.Errorf("%s: %d goroutines, %d before", what, n, base)
		}
		if n := len(e.repl.current().Gens); n != 0 {
			t.Errorf("%s: %d generators still registered", what, n)
		}
	}
	settle("after the call")
	if out := e.exec("next(gens[0])"); !strings.Contains(out, "RuntimeError: this generator was suspended when the REPL call that ran it ended") {
		t.Errorf("next on a closed generator: %q", out)
	}
	if out := e.exec("next(lazy), next(lazy)"); out != "(0, 1)" {
		t.Errorf("a generator made by an earlier call: %q", out)
	}
	settle("after the second call")
}
