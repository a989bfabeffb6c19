package reaper

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
		cmd := shell(mark)
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		New(os.Args[0]).Watch(cmd.Process.Pid)
		fmt.Println("ready")
		cmd.Wait()
		os.Exit(0)
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
// reaper kills the group, background child included.
func TestSIGKILLedParent(t *testing.T) {
	mark := proctest.Marker()
	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), "REAPER_PARENT="+mark)
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
	if n := waitCount(mark, 3); n != 3 {
		t.Fatalf("%d processes started, want 3", n)
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
