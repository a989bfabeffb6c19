package repl

import (
	"context"
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
		if n := len(e.repl.current().gens); n != 0 {
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

// TestGeneratorBodyStopsOnCancel cancels a call while a generator's body
// runs forever: the body stops, the call reports the cancel, and the
// REPL's state is kept.
func TestGeneratorBodyStopsOnCancel(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	e.repl.current().opts.Output = func(s string) {
		if strings.Contains(s, "looping") {
			cancel()
		}
	}
	e.exec("state = 'kept'")
	done := make(chan string, 1)
	go func() {
		done <- e.repl.Exec(ctx, "def spin():\n    print('looping')\n    while True:\n        pass\n    yield 1\nfor x in spin():\n    pass")
	}()
	select {
	case out := <-done:
		if !strings.Contains(out, "cancelled: the call was stopped by the user (Esc)") || strings.Contains(out, "state lost") {
			t.Errorf("result: %q", out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the generator's body did not stop")
	}
	if got := e.exec("state"); got != `'kept'` {
		t.Errorf("state after cancel: %q", got)
	}
}
