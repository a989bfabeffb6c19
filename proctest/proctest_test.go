package proctest

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func TestStatState(t *testing.T) {
	for _, tt := range []struct {
		stat string
		want byte
	}{
		{"12 (sleep) S 1 12 12 0", 'S'},
		{"12 (a) b) Z 1 12", 'Z'}, // comm holds ") "
		{"12 (x y) R", 'R'},
		{"12 (sleep)", 0},
		{"", 0},
	} {
		if got := statState([]byte(tt.stat)); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.stat, got, tt.want)
		}
	}
}

// TestLifecycle follows a sleep from start to reaping: found by its
// marker and alive, a zombie once killed, gone once waited for.
func TestLifecycle(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	m := Marker()
	cmd := exec.Command("sleep", m)
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if n := WaitCount(m, 1, 10*time.Second); n != 1 {
		t.Fatalf("%d processes carry %s, want 1", n, m)
	}
	if got := WithArg(m); len(got) != 1 || got[0] != pid {
		t.Errorf("WithArg = %v, want [%d]", got, pid)
	}
	if !Alive(pid) || Zombie(pid) {
		t.Errorf("a running sleep: alive %v, zombie %v (state %q)", Alive(pid), Zombie(pid), State(pid))
	}
	if rss := StatusBytes(pid, "VmRSS"); rss <= 0 {
		t.Errorf("VmRSS = %d", rss)
	}
	if v := StatusBytes(pid, "NoSuchField"); v != -1 {
		t.Errorf("a missing field: %d", v)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	if !WaitGone(pid, 10*time.Second) {
		t.Fatal("the killed sleep still runs")
	}
	if !Zombie(pid) || Alive(pid) {
		t.Errorf("killed, not reaped: zombie %v, alive %v (state %q)", Zombie(pid), Alive(pid), State(pid))
	}
	if n := WaitCount(m, 0, 10*time.Second); n != 0 {
		t.Errorf("%d processes still carry %s", n, m)
	}
	cmd.Wait()
	if State(pid) != 0 || Zombie(pid) || StatusBytes(pid, "VmRSS") != -1 {
		t.Errorf("reaped: state %q, zombie %v", State(pid), Zombie(pid))
	}
	if WaitGone(os.Getpid(), 30*time.Millisecond) {
		t.Error("this process is gone")
	}
}
