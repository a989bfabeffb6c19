package repl

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"harness/config"
	"harness/failures"
	"harness/proctest"
	"harness/repl/pyrt"
)

// peakRSS returns this process's VmHWM in bytes, or -1.
func peakRSS() int64 { return proctest.StatusBytes(os.Getpid(), "VmHWM") }

func TestMemoryLimitStopsAllocationLoop(t *testing.T) {
	e := newEnv(t, withMemory(64))
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // reset the peak when allowed
	e.exec("keep = 'defined earlier'\ndef f():\n    return 1")
	start := time.Now()
	out := e.exec("x = []\nwhile True:\n    x.append('a' * 1000 + str(len(x)))")
	if !strings.Contains(out, "REPL state lost") || !strings.Contains(out, "max_memory_mb = 64") ||
		!strings.Contains(out, "Every variable and function defined by earlier calls is gone") ||
		!strings.Contains(out, "helper functions were reloaded") {
		t.Fatalf("result: %q", out)
	}
	t.Logf("stopped after %v; peak RSS %d MiB", time.Since(start), peakRSS()>>20)
	if p := peakRSS(); p > 600<<20 {
		t.Errorf("peak RSS %d MiB", p>>20)
	}
	if got := e.exec("1 + 1"); got != "2" {
		t.Errorf("next call: %q", got)
	}
	if got := e.exec("keep"); !strings.Contains(got, "undefined: keep") {
		t.Errorf("state survived: %q", got)
	}
	if got := e.exec(`glob("*")`); got != "[]" {
		t.Errorf("helpers not reloaded: %q", got)
	}
}

func TestMemoryStateAcrossCalls(t *testing.T) {
	e := newEnv(t, withMemory(16))
	out := e.exec("big = ['b' * 1000 + str(i) for i in range(10000)]")
	if out != "(no output)" {
		t.Fatalf("10 MB of state: %q", out)
	}
	out = e.exec("more = ['c' * 1000 + str(i) for i in range(10000)]")
	if !strings.Contains(out, "REPL state lost") {
		t.Fatalf("20 MB of state across two calls was not stopped: %q", out)
	}
}

func TestBigFileReadIsRefused(t *testing.T) {
	e := newEnv(t, withMemory(64))
	p := filepath.Join(e.repo, "big.bin")
	f, _ := os.Create(p)
	f.Truncate(100 << 20)
	f.Close()
	e.exec("kept = 1")
	out := e.exec(`Path("big.bin").read_bytes()`)
	if !strings.Contains(out, "read_bytes /repository/big.bin: the file is 104857600 bytes") || strings.Contains(out, "state lost") {
		t.Fatalf("result: %q", out)
	}
	if got := e.exec("kept"); got != "1" {
		t.Errorf("state lost after a refused read: %q", got)
	}
}

func TestRunOutputOverLimit(t *testing.T) {
	e := newEnv(t, withMemory(16), withEnviron(hostEnviron),
		withCommands(config.Commands{Allow: map[string]string{"sh": "/bin/sh"}}))
	out := e.exec(`run(["sh", "-c", "head -c 50000000 /dev/zero"])`)
	if !strings.Contains(out, "its output passed this REPL's memory limit") {
		t.Fatalf("result: %q", out)
	}
}

// TestEndlessCodeStopsOnCancel cancels a call while its code runs
// forever, in the call's own loop or in a generator's body (on a thread of
// its own): the code stops, the call reports the cancel, and the REPL's
// state is kept.
func TestEndlessCodeStopsOnCancel(t *testing.T) {
	for _, c := range []struct{ name, code string }{
		{"loop", "print('looping')\nn = 0\nwhile True:\n    n += 1"},
		{"generator body", "def spin():\n    print('looping')\n    while True:\n        pass\n    yield 1\nfor x in spin():\n    pass"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			ctx, cancel := context.WithCancel(context.Background())
			e.repl.current().opts.Output = func(s string) {
				if strings.Contains(s, "looping") {
					cancel()
				}
			}
			e.exec("state = 'kept'")
			done := make(chan string, 1)
			go func() { done <- e.repl.Exec(ctx, c.code) }()
			select {
			case out := <-done:
				if !strings.HasPrefix(out, "looping\n") || !strings.Contains(out, "cancelled: the call was stopped by the user (Esc)") ||
					strings.Contains(out, "state lost") {
					t.Errorf("result: %q", out)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the code did not stop")
			}
			if got := e.exec("state"); got != `'kept'` {
				t.Errorf("state after cancel: %q", got)
			}
		})
	}
}

func TestCancelInsideTryCall(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	e.repl.current().opts.Output = func(string) { cancel() }
	out := e.repl.Exec(ctx, "def spin():\n    print('x')\n    while True:\n        pass\nr = try_call(spin)\nprint('swallowed')")
	if strings.Contains(out, "swallowed") || !strings.Contains(out, "cancelled") {
		t.Fatalf("try_call swallowed the cancel: %q", out)
	}
}

func TestPanicIsRecovered(t *testing.T) {
	e := newEnv(t, withEnviron(hostEnviron))
	e.exec("keep = 1")
	e.repl.current().opts.Approver = approverFunc(func() { panic("approver exploded") })
	out := e.exec(`run(["sh", "-c", "true"])`)
	if !strings.Contains(out, "REPL state lost") || !strings.Contains(out, "crashed") || !strings.Contains(out, "approver exploded") {
		t.Fatalf("result: %q", out)
	}
	if got := e.exec("keep"); !strings.Contains(got, "undefined: keep") {
		t.Errorf("state after crash: %q", got)
	}
	if got := e.exec("2 * 3"); got != "6" {
		t.Errorf("next call: %q", got)
	}
}

type approverFunc func()

func (f approverFunc) Approve(context.Context, json.RawMessage) (bool, error) { f(); return false, nil }

func TestPermissionChangedDuringCall(t *testing.T) {
	e := newEnv(t)
	e.write(t, "f.txt", "content")
	e.repl.current().opts.Output = func(s string) {
		if strings.Contains(s, "switch") {
			e.perm.Store(int32(config.PermNone))
		}
	}
	out := e.exec("a = Path('f.txt').read_text()\nprint('switch')\nb = try_call(Path('f.txt').read_text)\nprint(a, b.error)")
	if !strings.Contains(out, "content read_text /repository/f.txt: permission denied") {
		t.Fatalf("result: %q", out)
	}
	e.perm.Store(int32(config.PermReadOnly))
	if out := e.exec("Path('f.txt').read_text()"); out != `'content'` {
		t.Errorf("read-only read: %q", out)
	}
	if out := e.exec("Path('g.txt').write_text('x')"); !strings.Contains(out, "write_text /repository/g.txt: permission denied") {
		t.Errorf("read-only write: %q", out)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "g.txt")); err == nil {
		t.Error("g.txt was written at read-only")
	}
	if out := e.exec("Path('/store/s').write_text('x')"); out != "1" {
		t.Errorf("store at read-only: %q", out)
	}
}

func TestEscapeCorpus(t *testing.T) {
	e := newEnv(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
	e.write(t, "sub/ok.txt", "ok")
	os.Symlink(outside, filepath.Join(e.repo, "abs"))
	os.Symlink("../../"+filepath.Base(filepath.Dir(outside))+"/"+filepath.Base(outside), filepath.Join(e.repo, "relup"))
	os.Symlink("sub", filepath.Join(e.repo, "inner"))
	os.Symlink(filepath.Join(e.repo, "sub"), filepath.Join(e.repo, "absinner"))
	paths := []string{
		"/etc/passwd", "../secret", "../../etc/passwd", "/repository/../etc/passwd",
		e.repo + "/sub/ok.txt", outside + "/secret", "abs/secret", "relup/secret", "absinner/ok.txt",
		"sub/../../secret", "/", "/repositoryx/a",
	}
	ops := []string{"read_text()", "write_text('x')", "exists()", "iterdir()", "glob('*')", "stat()", "unlink()", "mkdir()", "rename('moved')"}
	for _, p := range paths {
		for _, op := range ops {
			code := "Path(" + strconv.Quote(p) + ")." + op
			out := e.exec(code)
			if !strings.Contains(out, "outside the root") && !strings.Contains(out, "permission denied") {
				t.Errorf("%s: not refused as an escape: %q", code, out)
			}
			if (strings.Contains(out, outside) && !strings.Contains(code, outside)) || (strings.Contains(out, e.repo) && !strings.Contains(code, e.repo)) {
				t.Errorf("%s: shows a host path: %q", code, out)
			}
		}
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("files were created outside: %v", entries)
	}
	if out := e.exec("Path('inner/ok.txt').read_text()"); out != `'ok'` {
		t.Errorf("in-root relative symlink: %q", out)
	}
	if out := e.exec("Path('a\\x00b').read_text()"); !strings.Contains(out, "NUL") {
		t.Errorf("NUL: %q", out)
	}
}

func TestFailureNotes(t *testing.T) {
	e := newEnv(t)
	e.exec("Path('/etc/passwd').read_text()")
	e.exec("async def main():\n    pass")
	e.exec("fail('ordinary error')")
	data, err := os.ReadFile(filepath.Join(e.home, failures.FileName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("notes:\n%s", data)
	}
	if !strings.Contains(lines[0], `"kind":"denied"`) || !strings.Contains(lines[0], `"session":"test-session"`) ||
		!strings.Contains(lines[0], "read_text /etc/passwd: outside the root") || !strings.Contains(lines[0], `"code":"Path('/etc/passwd').read_text()"`) {
		t.Errorf("denial note: %s", lines[0])
	}
	if !strings.Contains(lines[1], `"kind":"unsupported"`) || !strings.Contains(lines[1], "async/await is not available in this REPL") {
		t.Errorf("unsupported note: %s", lines[1])
	}
	n, _ := failures.Open(e.home).Count(useInsteadTable[0].hint())
	if n != 1 {
		t.Errorf("count %d", n)
	}
	// A runtime error's note names the gap, then gives the message, not "Traceback".
	e.notes = nil
	e.exec("def f():\n    return 'abc'.maketrans('a', 'b')\nf()")
	if len(e.notes) != 1 || e.notes[0].Message != "method not available: str.maketrans\nstring has no .maketrans field or method" {
		t.Errorf("runtime error note: %q", e.notes)
	}
}

func TestClose(t *testing.T) {
	e := newEnv(t)
	e.repl.Close()
	if out := e.exec("1"); !strings.Contains(out, "closed") {
		t.Fatalf("after Close: %q", out)
	}
}

func TestHugeListIsRefusedBeforeAllocating(t *testing.T) {
	e := newEnv(t, withMemory(64))
	e.exec("kept = 1")
	for _, code := range []string{"list(range(1000000000))", "tuple(range(1000000000))", "sorted(range(1000000000))"} {
		out := e.exec(code)
		if !strings.Contains(out, "of 1000000000 elements needs about") || strings.Contains(out, "state lost") {
			t.Errorf("%s: %q", code, out)
		}
	}
	if got := e.exec("len(list(range(100000))) + kept"); got != "100001" {
		t.Errorf("ordinary list: %q", got)
	}
}

// TestOneStepAllocationsAreRefused covers the operations that allocate in
// one interpreter step, which the watchdog cannot interrupt: each must fail
// with an ordinary error that keeps the state, before allocating.
func TestOneStepAllocationsAreRefused(t *testing.T) {
	e := newEnv(t, withMemory(16))
	e.exec("kept = 1\nrow = [0]")
	for _, code := range []string{
		"[0] * 20000000", "20000000 * [0]", "row * 20000000", "(1, 2) * 10000000",
		`"ab" * 20000000`, `b"ab" * 20000000`, "x = [0]\nx *= 20000000",
		"enumerate(range(10000000))", "zip(range(10000000), range(10000000))", "reversed(range(10000000))",
		"[y for y in [0] * 20000000]", "[1 for y in [1] if [0] * 20000000]", "{k: [0] * 20000000 for k in [1]}",
		"f = lambda n = [0] * 20000000: n", "def g():\n    return [0] * 20000000\ng()",
	} {
		out := e.exec(code)
		if !strings.Contains(out, "needs about") || !strings.Contains(out, "max_memory_mb = 16") || strings.Contains(out, "state lost") {
			t.Errorf("%s: %.300q", code, out)
		}
	}
	for code, want := range map[string]string{
		"kept":                           "1",
		"6 * 7":                          "42",
		`"ab" * 3`:                       `'ababab'`,
		"2 * [1]":                        "[1, 1]",
		"n = 3\nn *= 5\nn":               "15",
		"d = {'k': [1]}\nd['k'] *= 2\nd": `{'k': [1, 1]}`,
		"len([0] * 100000)":              "100000",
		"2.5 * 2":                        "5.0",
	} {
		if got := e.exec(code); got != want {
			t.Errorf("%s = %q, want %q", code, got, want)
		}
	}
	if got := e.exec(`"a" * "b"`); !strings.HasSuffix(got, "\nTypeError: can't multiply sequence by non-int of type 'str'") {
		t.Errorf("error of a bad *: %q", got)
	}
}

// TestConcatenationStopsBeforeAllocating: x + y of strings,
// bytes, lists and tuples that cannot fit in what the limit leaves stop the
// call as the watchdog does (state lost), before the result exists: no
// value past half the limit is ever built, so the worker never nears its
// ceiling. Ordinary additions still work, and lists still grow in place.
func TestConcatenationStopsBeforeAllocating(t *testing.T) {
	e := newEnv(t, withMemory(32))
	for _, code := range []string{
		"s = 'x' * 1000000\nwhile True:\n    print(len(s))\n    s = s + s",
		"s = b'x' * 1000000\nwhile True:\n    print(len(s))\n    s = s + s",
		"s = [0] * 62500\nwhile True:\n    print(len(s) * 16)\n    s = s + s",
		"s = (0,) * 62500\nwhile True:\n    print(len(s) * 16)\n    s = s + s",
		"def grow(s):\n    for i in range(40):\n        print(len(s))\n        s = s + s\ngrow('x' * 1000000)",
	} {
		out := e.exec(code)
		if !strings.Contains(out, "REPL state lost: The call was stopped because this REPL passed its memory limit (max_memory_mb = 32)") {
			t.Errorf("%s:\n%.400s", code, out)
			continue
		}
		for _, line := range strings.Split(out, "\n") {
			if n, err := strconv.Atoi(line); err == nil && n > 16<<20 {
				t.Errorf("%s: a value of %d bytes was built before the stop", code, n)
			}
		}
	}
	for code, want := range map[string]string{
		"x = [1]\ny = x\nx += (2,)\nx += x\n(x, y is x)": "([1, 2, 1, 2], True)",
		"s = 'a'\ns += 'b' + 'c'\ns":                     `'abc'`,
		"n = 0\nfor i in range(5):\n    n += i\nn":       "10",
		"(1,) + (2,), b'a' + b'b', 1.5 + 1, [1] + [2]":   "((1, 2), b'ab', 2.5, [1, 2])",
		"len('x' * 1000000 + 'y' * 1000000)":             "2000000",
	} {
		if got := e.exec(code); got != want {
			t.Errorf("%s = %q, want %q", code, got, want)
		}
	}
	for code, want := range map[string]string{
		"1 + 'a'":         "\nTypeError: unsupported operand type(s) for +: 'int' and 'str'",
		"s = 'a'\ns += 1": "\nTypeError: can only concatenate str (not \"int\") to str",
	} {
		if got := e.exec(code); !strings.HasSuffix(got, want) {
			t.Errorf("error of %s: %q", code, got)
		}
	}
}

// TestHelperLoadIsBounded loads helper files that loop forever or pass the
// memory limit at their top level: each is reported and left out, the
// others load, and New returns.
func TestHelperLoadIsBounded(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		file    string
		want    []string
	}{
		{"endless loop", 100 * time.Millisecond, "def looping():\n    pass\nwhile True:\n    pass\n",
			[]string{"replib/a.star: did not finish loading within 100ms"}},
		{"growing", helperLoadTimeout, "def looping():\n    pass\nbig = []\nfor i in range(100000):\n    big.append('x' * 100000 + str(i))\n",
			[]string{"replib/a.star: passed this REPL's memory limit (max_memory_mb = 16) while loading"}},
		{"one step", helperLoadTimeout, "def looping():\n    pass\nhuge = [0] * 100000000\n",
			[]string{"replib/a.star: ", "list * 100000000 needs about"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := helperLoadTimeout
			helperLoadTimeout = tt.timeout
			t.Cleanup(func() { helperLoadTimeout = old })
			e := newEnv(t, withoutHelpers(), withMemory(16))
			dir := filepath.Join(e.home, "replib")
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "a.star"), []byte(tt.file), 0o644)
			os.WriteFile(filepath.Join(dir, "b.star"), []byte("def good():\n    return 'good'\n"), 0o644)
			done := make(chan *REPL, 1)
			go func() {
				r, err := New(e.repl.opts)
				if err != nil {
					t.Error(err)
				}
				done <- r
			}()
			var r *REPL
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("New did not return: a helper file's top level runs unbounded")
			}
			defer r.Close()
			out := r.Exec(context.Background(), "good()")
			if tt.name == "growing" && strings.Contains(out, "reached the hard ceiling of its worker process") {
				// The growth can outrun the watchdog up to the worker's
				// ceiling (about once in a hundred runs on a loaded
				// machine): the state is lost and said so, and the next
				// worker loads the helpers again.
				out = r.Exec(context.Background(), "good()")
			}
			for _, want := range append(tt.want, `'good'`) {
				if !strings.Contains(out, want) {
					t.Errorf("first result lacks %q:\n%s", want, out)
				}
			}
			if got := r.Exec(context.Background(), "looping"); !strings.Contains(got, "undefined: looping") {
				t.Errorf("a file that failed to load contributed names: %q", got)
			}
		})
	}
}

// TestSmallCallsDoNotWalkTheState checks that the globals are walked to
// re-estimate the retained state only after calls that allocated enough
// to matter: walking millions of values made every call, even 1 + 1,
// take seconds.
func TestSmallCallsDoNotWalkTheState(t *testing.T) {
	inProcessOnly(t)
	e := newEnv(t, withMemory(16))
	if out := e.exec("big = ['b' * 100 + str(i) for i in range(50000)]"); out != "(no output)" {
		t.Fatal(out)
	}
	walks, walked := e.repl.current().walks, e.repl.current().walked
	if walks == 0 || walked < 5<<20 {
		t.Fatalf("a call allocating 5 MiB of state with max_memory_mb = 16: %d walks, %d bytes", walks, walked)
	}
	for i := 0; i < 20; i++ {
		if out := e.exec("len(big) + 1"); out != "50001" {
			t.Fatal(out)
		}
	}
	if e.repl.current().walks != walks {
		t.Errorf("small calls walked the globals %d times", e.repl.current().walks-walks)
	}
	if e.repl.current().retained-walked > 2<<20 {
		t.Errorf("retained bound drifted by %d bytes", e.repl.current().retained-walked)
	}
	if out := e.exec("more = ['c' * 100 + str(i) for i in range(100000)]"); !strings.Contains(out, "REPL state lost") {
		t.Errorf("state over the limit was not noticed: %q", out)
	}
}

// TestGuardedAllocationsCheckMemory: the bytes x * y and x + y allocate
// run the memory check each time they pass a sixteenth of the limit, so a
// call over the limit is stopped between the watchdog's samples. The call
// here has no watchdog: only noteAlloc can stop it.
func TestGuardedAllocationsCheckMemory(t *testing.T) {
	inProcessOnly(t)
	e := newEnv(t, withMemory(16))
	r := e.repl.current()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &callState{r: r, thread: r.Thread, ctx: ctx, cancel: cancel, done: make(chan struct{}), stopCh: make(chan struct{})}
	runtime.GC() // so that the live heap is this test's alone
	_, c.mem.liveBase = readMetrics()
	c.mem.limit, c.mem.on = r.limitBytes(), true
	r.setCall(c)
	defer func() { r.setCall(nil); r.Thread.Uncancel() }()
	held := make([]byte, 32<<20) // twice the limit, live
	for i := range held {
		held[i] = 1
	}
	r.AllocNoted = 0
	r.NoteAlloc(pyrt.AllocNoteMin - 1) // too small to count
	r.NoteAlloc(r.limitBytes() / 32)
	if c.stopped() || r.AllocNoted == 0 {
		t.Fatalf("checked before a sixteenth of the limit (stopped %v, counted %d)", c.stopped(), r.AllocNoted)
	}
	r.NoteAlloc(r.limitBytes() / 32)
	if c.reason() != pyrt.StopMemory {
		t.Errorf("a call over the limit was not stopped once a sixteenth was allocated: %v", c.reason())
	}
	runtime.KeepAlive(held)
}
