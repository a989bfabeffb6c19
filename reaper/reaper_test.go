package reaper

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/proctest"
)

// TestMain makes the test binary the helper (Arg) or a stand-in for
// harness (REAPER_PARENT=marker: it starts a shell with a background
// sleep in a group of its own, watches the group, prints "ready" and waits
// to be killed).
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == Arg {
		os.Exit(Main(os.Stdin))
	}
	if mark := os.Getenv("REAPER_PARENT"); mark != "" {
		r := New(os.Args[0])
		cmd := shell(mark)
		if os.Getenv("REAPER_SETSID") != "" {
			// A command whose child escapes its group and session.
			cmd = exec.Command("sh", "-c", "setsid sleep "+mark+" >/dev/null 2>&1 &")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Env = append(os.Environ(), r.Env())
		}
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		r.Watch(cmd.Process.Pid)
		fmt.Println("ready")
		cmd.Wait()
		wait := make(chan os.Signal, 1) // until the test kills this process
		signal.Notify(wait, syscall.SIGTERM)
		<-wait
		os.Exit(0)
	}
	if mark := os.Getenv("REAPER_SWEEP"); mark != "" {
		os.Exit(sweepChild(mark))
	}
	if mark := os.Getenv("REAPER_SWEEP_SHORT"); mark != "" {
		os.Exit(sweepShortOrphan(mark))
	}
	if mark := os.Getenv("REAPER_KILLALL"); mark != "" {
		os.Exit(killAllChild(mark))
	}
	os.Exit(m.Run())
}

// shell is sh -c "sleep M & sleep M; wait" in a process group of its own:
// three processes carrying the marker M.
func shell(mark string) *exec.Cmd {
	cmd := exec.Command("sh", "-c", "sleep "+mark+" & sleep "+mark+"; wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// waitCount waits until want processes carry mark, for at most 10 s, and
// returns how many there are at the end.
func waitCount(mark string, want int) int { return proctest.WaitCount(mark, want, 10*time.Second) }

func cleanup(t *testing.T, cmds ...*exec.Cmd) {
	t.Cleanup(func() {
		for _, c := range cmds {
			syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			c.Wait()
		}
	})
}

// TestMainKillsListedGroups: when its input ends, Main kills every group
// still listed (a shell and its background child) and spares a released one.
func TestMainKillsListedGroups(t *testing.T) {
	killed, released := proctest.Marker(), proctest.Marker()
	a, b := shell(killed), shell(released)
	for _, c := range []*exec.Cmd{a, b} {
		if err := c.Start(); err != nil {
			t.Skip("no sh:", err)
		}
	}
	cleanup(t, a, b)
	if waitCount(killed, 3) != 3 || waitCount(released, 3) != 3 {
		t.Fatal("the shells did not start their sleeps")
	}
	pr, pw := io.Pipe()
	r := &Reaper{started: true, w: pw}
	done := make(chan int)
	go func() { done <- Main(pr) }()
	r.Watch(a.Process.Pid)
	r.Watch(b.Process.Pid)()
	pw.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Main did not return when its input ended")
	}
	if n := waitCount(killed, 0); n != 0 {
		t.Errorf("%d processes of the listed group left", n)
	}
	if n := len(proctest.WithArg(released)); n != 3 {
		t.Errorf("the released group has %d processes, want 3", n)
	}
}

// TestSIGKILLedParent: a process that watched a group is SIGKILLed; its
// reaper kills the group, background child included, and a child that
// left the group and session, found by the mark in its environment.
func TestSIGKILLedParent(t *testing.T) {
	t.Run("group", func(t *testing.T) { testSIGKILLedParent(t, false, 3) })
	t.Run("setsid", func(t *testing.T) { testSIGKILLedParent(t, true, 1) })
}

func testSIGKILLedParent(t *testing.T, setsid bool, want int) {
	mark := proctest.Marker()
	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), "REAPER_PARENT="+mark)
	if setsid {
		parent.Env = append(parent.Env, "REAPER_SETSID=1")
	}
	out, _ := parent.StdoutPipe()
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		parent.Process.Kill()
		parent.Wait()
		for _, pid := range proctest.WithArg(mark) { // left by a failure
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("parent: %q", line)
	}
	if n := waitCount(mark, want); n != want {
		t.Fatalf("%d processes started, want %d", n, want)
	}
	parent.Process.Signal(syscall.SIGKILL)
	parent.Wait()
	if n := waitCount(mark, 0); n != 0 {
		t.Errorf("%d processes left after the parent was SIGKILLed", n)
	}
}

func TestNilAndFailedReaper(t *testing.T) {
	var r *Reaper
	r.Start()
	r.Watch(1)()
	if r.Err() != nil {
		t.Error("a nil Reaper has an error")
	}
	r = New(filepath.Join(t.TempDir(), "missing"))
	r.Start()
	r.Watch(os.Getpid())()
	if r.Err() == nil {
		t.Error("no error for a helper that cannot start")
	}
}

// sweepChild is a subreaper whose marked command leaves a background
// child: adopted once the command ends, noted by a sweep, reaped by the
// next once it ended. An unmarked child that ended is left to its own
// Wait. It prints what went wrong, and returns 0 when nothing did.
func sweepChild(mark string) int {
	fail := func(format string, a ...any) int { fmt.Printf(format+"\n", a...); return 1 }
	if err := Subreap(); err != nil {
		return fail("subreap: %v", err)
	}
	r := New("/nonexistent")
	own := exec.Command("true")
	if err := own.Start(); err != nil {
		return fail("%v", err)
	}
	cmd := exec.Command("sh", "-c", "sleep "+mark+" >/dev/null 2>&1 &")
	cmd.Env = append(os.Environ(), r.Env())
	if err := cmd.Run(); err != nil {
		return fail("%v", err)
	}
	pids := proctest.WithArg(mark)
	if len(pids) != 1 {
		return fail("%d sleeps", len(pids))
	}
	none := func(int) bool { return false }
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if ppid := parentOf(pids[0]); ppid == os.Getpid() {
			break
		} else if time.Now().After(deadline) {
			return fail("the sleep was not adopted (parent %d)", ppid)
		}
	}
	SweepOrphans(r.Env(), none)
	syscall.Kill(pids[0], syscall.SIGKILL)
	for deadline := time.Now().Add(10 * time.Second); proctest.State(pids[0]) != 'Z'; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fail("the sleep did not end")
		}
	}
	SweepOrphans(r.Env(), none)
	if s := proctest.State(pids[0]); s != 0 {
		return fail("the ended orphan is still there (state %c)", s)
	}
	if err := own.Wait(); err != nil {
		return fail("the unmarked child's own Wait: %v", err)
	}
	return 0
}

// sweepShortOrphan is a subreaper whose command, in a session of its own,
// leaves a background child that ends before any sweep saw it running: a
// zombie whose mark cannot be read. The sweep after the command reaps it
// by the command's session.
func sweepShortOrphan(mark string) int {
	fail := func(format string, a ...any) int { fmt.Printf(format+"\n", a...); return 1 }
	if err := Subreap(); err != nil {
		return fail("subreap: %v", err)
	}
	r := New("/nonexistent")
	cmd := exec.Command("sh", "-c", "(sleep 0.01; : "+mark+") >/dev/null 2>&1 & echo $!")
	cmd.Env = append(os.Environ(), r.Env())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out := &strings.Builder{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		return fail("%v", err)
	}
	Session(cmd.Process.Pid)
	if err := cmd.Wait(); err != nil {
		return fail("%v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out.String()))
	if err != nil {
		return fail("the child's pid: %q", out.String())
	}
	for deadline := time.Now().Add(10 * time.Second); proctest.State(pid) != 'Z'; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fail("the orphan did not end as a zombie of this process (state %c, parent %d)", proctest.State(pid), parentOf(pid))
		}
	}
	SweepOrphans(r.Env(), func(int) bool { return false })
	if s := proctest.State(pid); s != 0 {
		return fail("the short-lived orphan is still there (state %c)", s)
	}
	SweepOrphans(r.Env(), func(int) bool { return false })
	adopted.Lock()
	defer adopted.Unlock()
	if len(adopted.sessions) != 0 {
		return fail("sessions kept after they emptied: %v", adopted.sessions)
	}
	return 0
}

// TestSweepShortOrphan runs sweepShortOrphan in a process of its own.
func TestSweepShortOrphan(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "REAPER_SWEEP_SHORT="+proctest.Marker())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// parentOf is pid's parent from /proc, 0 when unknown.
func parentOf(pid int) int {
	for _, p := range scan() {
		if p.pid == pid {
			return p.ppid
		}
	}
	return 0
}

// TestSweepOrphans runs sweepChild in a process of its own (a subreaper
// changes the whole process).
func TestSweepOrphans(t *testing.T) {
	mark := proctest.Marker()
	t.Cleanup(func() {
		for _, pid := range proctest.WithArg(mark) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "REAPER_SWEEP="+mark)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestKillDescendants: a subreaper kills what its children left in other
// sessions, and nothing else.
func TestKillDescendants(t *testing.T) {
	mark, other := proctest.Marker(), proctest.Marker()
	t.Cleanup(func() {
		for _, pid := range append(proctest.WithArg(mark), proctest.WithArg(other)...) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	outside := exec.Command("sleep", other)
	outside.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	// The child: a subreaper that starts a setsid grandchild, then kills.
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "REAPER_KILLALL="+mark)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if n := waitCount(mark, 0); n != 0 {
		t.Errorf("%d processes left below the subreaper", n)
	}
	if !proctest.Alive(outside.Process.Pid) {
		t.Error("a process outside the tree was killed")
	}
	outside.Process.Kill()
	outside.Wait()
}

// killAllChild is TestKillDescendants's subreaper.
func killAllChild(mark string) int {
	if err := Subreap(); err != nil {
		fmt.Println(err)
		return 1
	}
	cmd := exec.Command("sh", "-c", "setsid sleep "+mark+" >/dev/null 2>&1 & (sleep "+mark+" >/dev/null 2>&1 &)")
	if err := cmd.Run(); err != nil {
		fmt.Println(err)
		return 1
	}
	if n := waitCount(mark, 2); n != 2 {
		fmt.Printf("%d sleeps started\n", n)
		return 1
	}
	if n := KillDescendants(); n != 2 {
		fmt.Printf("killed %d, want 2\n", n)
		return 1
	}
	return 0
}
