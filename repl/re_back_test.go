package repl

import (
	"context"
	"strings"
	"testing"
	"time"

	"harness/repl/pyre"
)

// TestReBacktrackingTimeout: a catastrophic pattern on the backtracking
// engine raises TimeoutError (caught as Python code catches it) at the
// injected limit, and the REPL goes on.
func TestReBacktrackingTimeout(t *testing.T) {
	inProcessOnly(t)
	defer func(d time.Duration) { pyre.MatchTimeout = d }(pyre.MatchTimeout)
	pyre.MatchTimeout = 20 * time.Millisecond
	e := newEnv(t)
	out := e.exec(`import re
try:
    re.search(r"(?=x?)(a+)+$", "a" * 40 + "b")
    print("finished")
except TimeoutError as e:
    print("timeout:", "regex time limit (20ms)" in str(e), isinstance(e, OSError))
re.sub(r"(?<=a)b", "c", "ab")`)
	if out != "timeout: True True\n'ac'" {
		t.Fatalf("got %q", out)
	}
	if out := e.exec(`re.findall(r"(\w+\s?)*(?=$)x", "word " * 30 + "!")`); !strings.Contains(out, "TimeoutError: re.findall: ") {
		t.Fatalf("uncaught: %q", out)
	}
}

// TestReBacktrackingCancel: the call's cancel stops a backtracking match
// long before its timeout (2 s), in a worker as in process.
func TestReBacktrackingCancel(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	out := e.repl.Exec(ctx, `import re
re.search(r"(?=y?)(a+)+$", "a" * 60 + "b")`)
	if d := time.Since(start); d > 1500*time.Millisecond || !strings.Contains(out, "cancelled") {
		t.Fatalf("after %v: %q", d, out)
	}
}
