package worker

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/proctest"
	"harness/wire"
)

// TestMain lets the test binary act as a worker whose behaviour
// WORKER_TEST_MODE picks.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == Subcommand {
		os.Exit(testChild(os.Getenv("WORKER_TEST_MODE")))
	}
	if os.Getenv("WORKER_TEST_MODE") == "parent" {
		os.Exit(testParent())
	}
	os.Exit(m.Run())
}

// oomSink keeps the oom child's allocations reachable.
var oomSink [][]byte

func testChild(mode string) int {
	switch mode {
	case "silent":
		time.Sleep(time.Minute)
		return 0
	case "badversion":
		c, _ := wire.FromFile(os.NewFile(3, "wire"))
		c.Send(wire.Make(wire.Hello, 0, wire.HelloBody{Version: 999}))
		time.Sleep(time.Minute)
		return 0
	}
	conn, err := Accept()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	switch mode {
	case "oom":
		if err := SetCeiling(48); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		var keep [][]byte
		for {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
			oomSink = keep
		}
	case "panic":
		panic("boom")
	case "stderr":
		fmt.Fprint(os.Stderr, "first line\nsecond ")
		fmt.Fprint(os.Stderr, "line\nno newline at the end")
		return 0
	}
	for { // echo
		f, err := conn.Read()
		if err != nil {
			return 0 // end of file: the parent closed or went away
		}
		conn.Send(f)
	}
}

// testParent starts a worker, prints its PID and exits without ending it.
func testParent() int {
	p, err := Start(Config{Env: []string{"WORKER_TEST_MODE=echo"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(p.PID)
	os.Exit(0) // no Close: the worker must notice on its own
	return 0
}

func start(t *testing.T, mode string, log *bytes.Buffer) *Process {
	t.Helper()
	cfg := Config{Env: []string{"WORKER_TEST_MODE=" + mode}}
	if log != nil {
		cfg.Log = &LockedWriter{W: log}
	}
	p, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill("test cleanup"); <-p.Done() })
	return p
}

func waitDone(t *testing.T, p *Process) Exit {
	t.Helper()
	select {
	case <-p.Done():
		return p.Exit()
	case <-time.After(20 * time.Second):
		t.Fatal("the worker did not end")
	}
	return Exit{}
}

func TestEchoAndClose(t *testing.T) {
	p := start(t, "echo", nil)
	if err := p.Conn.Send(wire.Make(wire.Output, 5, "ping")); err != nil {
		t.Fatal(err)
	}
	f, err := p.Conn.Read()
	if err != nil || f.Type != wire.Output || f.ID != 5 || string(f.Body) != "ping" {
		t.Fatalf("echo: %v %+v", err, f)
	}
	if rss := p.PeakRSS(); rss <= 0 {
		t.Errorf("peak RSS while running: %d", rss)
	}
	p.Close()
	e := waitDone(t, p)
	if !e.Status.Success() || e.Killed != "" {
		t.Errorf("exit after Close: %v, killed %q", e.Status, e.Killed)
	}
	if e.PeakRSS <= 0 {
		t.Errorf("peak RSS after exit: %d", e.PeakRSS)
	}
}

func TestKillEndsTheGroup(t *testing.T) {
	p := start(t, "echo", nil)
	p.Kill("too slow")
	p.Kill("second reason")
	e := waitDone(t, p)
	ws, _ := e.Status.Sys().(syscall.WaitStatus)
	if e.Killed != "too slow" || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("killed %q, status %v", e.Killed, e.Status)
	}
	if err := syscall.Kill(-p.PID, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the process group still exists: %v", err)
	}
	p.Kill("after the end") // a no-op, never a signal to a reused id
}

func TestOutOfMemoryIsReported(t *testing.T) {
	if raceEnabled {
		t.Skip("race builds set no ceiling")
	}
	p := start(t, "oom", nil)
	e := waitDone(t, p)
	if !e.OutOfMemory() || e.Status.Success() {
		t.Fatalf("exit %v, stderr tail:\n%s", e.Status, e.Stderr)
	}
	if e.PeakRSS > 2*48<<20 {
		t.Errorf("peak RSS %d MiB under a 48 MiB ceiling", e.PeakRSS>>20)
	}
	t.Logf("peak RSS %d MiB under a 48 MiB ceiling", e.PeakRSS>>20)
}

func TestCrashAndStderr(t *testing.T) {
	var log bytes.Buffer
	p := start(t, "panic", &log)
	e := waitDone(t, p)
	if got := e.Crash(); got != "panic: boom" {
		t.Errorf("Crash() = %q; stderr:\n%s", got, e.Stderr)
	}
	p = start(t, "stderr", &log)
	e = waitDone(t, p)
	prefix := "worker " + strconv.Itoa(p.PID) + ": "
	want := prefix + "first line\n" + prefix + "second line\n" + prefix + "no newline at the end\n"
	if !strings.Contains(log.String(), want) {
		t.Errorf("log:\n%s\nwant it to contain:\n%s", log.String(), want)
	}
	if !strings.HasSuffix(e.Stderr, "no newline at the end") {
		t.Errorf("tail %q", e.Stderr)
	}
}

func TestHandshakeFailures(t *testing.T) {
	old := handshakeTimeout
	handshakeTimeout = 300 * time.Millisecond
	defer func() { handshakeTimeout = old }()
	for mode, want := range map[string]string{
		"silent":     "did not answer within 300ms",
		"badversion": "speaks protocol 999",
	} {
		_, err := Start(Config{Env: []string{"WORKER_TEST_MODE=" + mode}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", mode, err, want)
		}
	}
	if _, err := Start(Config{Exe: "/nonexistent/harness"}); err == nil || !strings.Contains(err.Error(), "/nonexistent/harness") {
		t.Errorf("missing executable: %v", err)
	}
}

func TestAcceptOutsideAWorker(t *testing.T) {
	if _, err := Accept(); !errors.Is(err, errNotWorker) {
		t.Fatalf("Accept in a test process: %v", err)
	}
}

// TestWorkerEndsWithItsParent checks that a worker whose parent dies
// without closing it exits on its own.
func TestWorkerEndsWithItsParent(t *testing.T) {
	self, _ := os.Executable()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), "WORKER_TEST_MODE=parent")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("parent: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("parent printed %q", out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for syscall.Kill(pid, 0) == nil && !proctest.Zombie(pid) { // whoever adopts it may reap it late
		if time.Now().After(deadline) {
			syscall.Kill(-pid, syscall.SIGKILL)
			t.Fatalf("worker %d outlived its parent", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestPoolKeepsOneSpare(t *testing.T) {
	pool := NewPool(Config{Env: []string{"WORKER_TEST_MODE=echo"}})
	var got []*Process
	for i := 0; i < 3; i++ {
		w, err := pool.Get()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, w)
	}
	// Three handed out, at most one spare beyond them.
	if n := pool.Started(); n < 3 || n > 4 {
		t.Errorf("started %d workers for 3 Gets", n)
	}
	pool.Close()
	if _, err := pool.Get(); err == nil {
		t.Error("Get after Close succeeded")
	}
	if n := pool.Started(); n > 4 {
		t.Errorf("started %d", n)
	}
	for _, w := range got {
		w.Close()
	}
	for _, w := range got {
		if !w.Exit().Status.Success() {
			t.Errorf("worker %d: %v", w.PID, w.Exit().Status)
		}
	}
}

// TestPoolReplacesADeadSpare kills the spare while it waits.
func TestPoolReplacesADeadSpare(t *testing.T) {
	pool := NewPool(Config{Env: []string{"WORKER_TEST_MODE=echo"}})
	defer pool.Close()
	w, err := pool.Get()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// Wait for the refill, then kill it behind the pool's back.
	deadline := time.Now().Add(20 * time.Second)
	for {
		pool.mu.Lock()
		spare := pool.spare
		pool.mu.Unlock()
		if spare != nil {
			spare.Kill("test")
			<-spare.Done()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no spare was started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	w2, err := pool.Get()
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	if err := w2.Conn.Send(wire.Make(wire.Output, 1, "alive")); err != nil {
		t.Fatal(err)
	}
	if f, err := w2.Conn.Read(); err != nil || string(f.Body) != "alive" {
		t.Fatalf("the replacement does not answer: %v", err)
	}
}

func TestLogLinesArePrefixed(t *testing.T) {
	var buf bytes.Buffer
	w := newTailWriter(&buf)
	w.setPrefix("worker 1: ")
	w.Write([]byte("a\nb"))
	w.Write([]byte(strings.Repeat("x", tailKeep+1)))
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<20)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 2 || lines[0] != "worker 1: a" || !strings.HasPrefix(lines[1], "worker 1: bxxx") {
		t.Errorf("lines %q", lines)
	}
}

func TestExitClassification(t *testing.T) {
	tests := []struct {
		stderr     string
		crash      string
		outOfMemry bool
	}{
		{"runtime: out of memory: cannot allocate 4194304-byte block\nfatal error: out of memory\n\ngoroutine 1 [running]:\nruntime.throw()\n", "runtime: out of memory: cannot allocate 4194304-byte block", true},
		{"fatal error: runtime: cannot allocate memory\n", "fatal error: runtime: cannot allocate memory", true},
		{"fatal error: out of memory allocating heap arena metadata\n", "fatal error: out of memory allocating heap arena metadata", true},
		{"SIGSEGV: segmentation violation\nPC=0x43649d m=3 sigcode=1 addr=0x0\n\ngoroutine 0 gp=0x1 m=3 [idle]:\nruntime.(*spanQueue).tryDrain(0x1)\n", "SIGSEGV: segmentation violation", true},
		{"SIGSEGV: segmentation violation\nPC=0x1 m=0\n\ngoroutine 7 [running]:\nharness/repl.(*interp).f()\n", "SIGSEGV: segmentation violation", false},
		{"fatal error: unexpected signal during runtime execution\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1]\n\nruntime stack:\nruntime.throw()\n", "fatal error: unexpected signal during runtime execution", true},
		{"runtime/cgo: pthread_create failed: Resource temporarily unavailable\nSIGABRT: abort\n", "runtime/cgo: pthread_create failed: Resource temporarily unavailable", true},
		{"fatal error: concurrent map writes\n\ngoroutine 5 [running]:\nruntime.throw()\n", "fatal error: concurrent map writes", false},
		{"panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n", "panic: boom", false},
		{"just a log line\n", "", false},
	}
	for _, tt := range tests {
		w := newTailWriter(nil)
		for _, chunk := range strings.SplitAfter(tt.stderr, "\n") { // line by line, as a pipe may deliver it
			w.Write([]byte(chunk))
		}
		e := Exit{}
		e.crash, e.frame = w.crashLine()
		if e.Crash() != tt.crash || e.OutOfMemory() != tt.outOfMemry {
			t.Errorf("%q: Crash() = %q, OutOfMemory() = %v; want %q, %v", tt.stderr, e.Crash(), e.OutOfMemory(), tt.crash, tt.outOfMemry)
		}
	}
}

// TestWatch checks that Config.Watch hears of each worker's group as it
// starts and is released once the worker is reaped.
func TestWatch(t *testing.T) {
	watched, released := make(chan int, 1), make(chan int, 1)
	cfg := Config{Env: []string{"WORKER_TEST_MODE=echo"}, Watch: func(pgid int) func() {
		watched <- pgid
		return func() { released <- pgid }
	}}
	p, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := <-watched; got != p.PID {
		t.Errorf("watched %d, want the worker's group %d", got, p.PID)
	}
	select {
	case <-released:
		t.Fatal("released while the worker runs")
	default:
	}
	p.Kill("test")
	<-p.Done()
	select {
	case got := <-released:
		if got != p.PID {
			t.Errorf("released %d", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("not released after the worker ended")
	}
}
