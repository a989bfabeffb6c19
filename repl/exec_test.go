// Tests of Exec abandoning an interpreter stuck in a builtin after a stop.

package repl

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"harness/failures"
	"harness/repl/pyrt"
)

// blocker is a builtin that ignores cancellation the way a long str() or
// sorted() does: it blocks until released, then prints "late".
type blocker struct {
	entered, release, finished chan struct{}
	once                       sync.Once
}

func (b *blocker) free() { b.once.Do(func() { close(b.release) }) }

func newBlocker(t *testing.T, in *interp) *blocker {
	inProcessOnly(t)
	b := &blocker{entered: make(chan struct{}), release: make(chan struct{}), finished: make(chan struct{})}
	in.Globals["block"] = starlark.NewBuiltin("block", func(th *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		defer close(b.finished)
		close(b.entered)
		<-b.release
		th.Print(th, "late")
		return starlark.None, nil
	})
	t.Cleanup(b.free)
	return b
}

// shortGrace sets abandonGrace for one (non-parallel) test.
func shortGrace(t *testing.T, d time.Duration) {
	old := abandonGrace
	abandonGrace = d
	t.Cleanup(func() { abandonGrace = old })
}

// wait receives from ch or fails after a generous timeout.
func wait[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

func TestStuckBuiltinIsAbandonedOnCancel(t *testing.T) {
	shortGrace(t, 100*time.Millisecond)
	e := newEnv(t)
	e.exec("keep = 1")
	old := e.repl.current()
	b := newBlocker(t, old)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan string, 1)
	go func() { done <- e.repl.Exec(ctx, "print('before')\nblock()\nprint('after')") }()
	wait(t, b.entered, "the builtin to start")
	start := time.Now()
	cancel()
	out := wait(t, done, "Exec to return after cancel")
	if d := time.Since(start); d < abandonGrace {
		t.Errorf("Exec returned after %v, before the grace period", d)
	}
	for _, want := range []string{"before\n", "cancelled: the call was stopped by the user (Esc)",
		"REPL state lost", "did not stop within 100ms", "Every variable and function defined by earlier calls is gone"} {
		if !strings.Contains(out, want) {
			t.Errorf("result lacks %q:\n%s", want, out)
		}
	}
	if e.repl.current() == old {
		t.Fatal("the stuck interpreter is still current")
	}
	if got := e.exec("keep"); !strings.Contains(got, "undefined: keep") {
		t.Errorf("state survived the abandonment: %q", got)
	}
	if got := e.exec("1 + 1"); got != "2" {
		t.Errorf("next call: %q", got)
	}
	if _, ok := e.repl.Functions()["search"]; !ok {
		t.Errorf("helpers not reloaded: %v", e.repl.Functions())
	}

	b.free() // the abandoned call finishes and prints into nothing
	wait(t, b.finished, "the abandoned builtin to finish")
	if got := e.exec("print('fresh')"); got != "fresh" {
		t.Errorf("call after the abandoned one finished: %q", got)
	}
	e.outMu.Lock()
	printed := strings.Join(e.output, "")
	e.outMu.Unlock()
	if !strings.Contains(printed, "before") || strings.Contains(printed, "late") || strings.Contains(printed, "after") {
		t.Errorf("streamed output: %q", printed)
	}
}

func TestStuckBuiltinAbandonedOnMemoryStopAndClose(t *testing.T) {
	shortGrace(t, 50*time.Millisecond)
	tests := []struct {
		name string
		stop func(e *env, in *interp)
		want []string
	}{
		{"memory", func(_ *env, in *interp) { in.currentCall().stop(pyrt.StopMemory) },
			[]string{"REPL state lost", "memory limit (max_memory_mb = 512)", "did not stop within 50ms"}},
		{"close", func(e *env, _ *interp) { e.repl.Close() },
			[]string{"cancelled", "REPL state lost"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			in := e.repl.current()
			b := newBlocker(t, in)
			done := make(chan string, 1)
			go func() { done <- e.repl.Exec(context.Background(), "block()") }()
			wait(t, b.entered, "the builtin to start")
			stopped := make(chan struct{})
			go func() { tt.stop(e, in); close(stopped) }()
			out := wait(t, done, "Exec to return after the stop")
			wait(t, stopped, "the stop to return")
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("result lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

func TestCancelledLoopUnwindsWithinGrace(t *testing.T) {
	e := newEnv(t)
	e.exec("kept = 'yes'")
	old := e.repl.current()
	ctx, cancel := context.WithCancel(context.Background())
	old.opts.Output = func(string) { cancel() }
	out := e.repl.Exec(ctx, "print('go')\nwhile True:\n    pass")
	if !strings.Contains(out, "cancelled") || strings.Contains(out, "state lost") {
		t.Errorf("result: %q", out)
	}
	if e.repl.current() != old {
		t.Error("the interpreter was replaced after a cancel that unwound")
	}
	if got := e.exec("kept"); got != `'yes'` {
		t.Errorf("state after cancel: %q", got)
	}
}

func TestPanicOutsideInterpreterResetsState(t *testing.T) {
	e := newEnv(t)
	e.exec("kept = 1")
	e.repl.current().opts.OnFailure = func(failures.Note, int) { panic("listener exploded") }
	out := e.exec("Path('/etc/passwd').read_text()")
	if !strings.Contains(out, "crashed the interpreter (listener exploded)") || !strings.Contains(out, "REPL state lost") {
		t.Errorf("result: %q", out)
	}
	if got := e.exec("kept"); !strings.Contains(got, "undefined: kept") {
		t.Errorf("state after the crash: %q", got)
	}
}

// TestRunSaysFailed: Run reports the calls that ended in an error, in both
// the in-process and the worker REPL.
func TestRunSaysFailed(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		code   string
		failed bool
	}{
		{"1 + 1", false},
		{"print('hi')", false},
		{"reasoning('thinking')", false},
		{"1 // 0", true},
		{"undefined_name", true},
		{"Path('missing.txt').read_text()", true},
		{"try_call(Path('missing.txt').read_text).error != None", false},
	} {
		if out, failed := e.repl.Run(context.Background(), c.code); failed != c.failed {
			t.Errorf("Run(%q) failed = %v, want %v (output %q)", c.code, failed, c.failed, out)
		}
	}
}
