package repl

import (
	"context"
	"strings"
	"testing"
)

// TestCancelBeforeStart: a call whose context is cancelled as it is sent
// (Ctrl+C typed with the Enter that started it) stops at once and keeps
// the state: in a worker, the Cancel that overtakes the Exec being served
// is remembered, not dropped (the worker was killed after the grace
// period, losing the state).
func TestCancelBeforeStart(t *testing.T) {
	e := newEnv(t)
	e.exec("x = 1")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := 0; i < 10; i++ {
		out := e.repl.Exec(ctx, "while True: pass")
		if out != cancelledText {
			t.Fatalf("call %d: %q", i, out)
		}
	}
	if got := e.exec("x"); got != "1" {
		t.Errorf("x = %q after the cancelled calls", got)
	}
	if got := e.exec("x"); strings.Contains(got, "state lost") {
		t.Error(got)
	}
}
