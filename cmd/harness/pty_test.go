//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"harness/proctest"
	"harness/sessions"
)

// openPTY opens a pseudo-terminal pair of 100×30 cells. The master is
// non-blocking, so closing it while it is read really closes it (the
// kernel then hangs up the terminal, as when a terminal window closes).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	fd, err := syscall.Open("/dev/ptmx", syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Skip("no pseudo-terminals:", err)
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(arg)); errno != 0 {
			syscall.Close(fd)
			t.Skipf("pseudo-terminal ioctl %#x: %v", req, errno)
		}
	}
	var unlock int32
	ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	var n uint32
	ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n))
	ws := struct{ rows, cols, x, y uint16 }{30, 100, 0, 0}
	ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws))
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		syscall.Close(fd)
		t.Skip("open the pseudo-terminal:", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), s
}

// uiProc is harness's UI running on a pseudo-terminal.
type uiProc struct {
	cmd    *exec.Cmd
	master *os.File
	mu     sync.Mutex
	screen bytes.Buffer // everything harness wrote
	done   chan struct{}
}

func (e *testEnv) startUI(args ...string) *uiProc {
	e.t.Helper()
	return e.startUICommand(e.command(args...))
}

// startUICommand runs cmd (harness, or a wrapper starting it) as the
// session leader of a new pseudo-terminal.
func (e *testEnv) startUICommand(cmd *exec.Cmd) *uiProc {
	e.t.Helper()
	master, slave := openPTY(e.t)
	u := &uiProc{cmd: cmd, master: master, done: make(chan struct{})}
	u.cmd.Env = append(u.cmd.Env, "TERM=xterm-256color")
	u.cmd.Stdin, u.cmd.Stdout, u.cmd.Stderr = slave, slave, slave
	u.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := u.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	slave.Close()
	e.t.Cleanup(func() {
		u.cmd.Process.Kill()
		<-u.done
		master.Close()
	})
	go func() {
		defer close(u.done)
		buf := make([]byte, 1<<16)
		for {
			n, err := master.Read(buf)
			u.mu.Lock()
			u.screen.Write(buf[:n])
			u.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return u
}

// waitText waits until harness has written s to the terminal: in one
// piece, or in pieces that show it on the screen (vtScreen).
func (u *uiProc) waitText(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		u.mu.Lock()
		out := u.screen.Bytes()
		ok := bytes.Contains(out, []byte(s)) || strings.Contains(strings.Join(vtScreen(out, 100, 30), "\n"), s)
		u.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never appeared on the terminal", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitIdle waits until the status line no longer says that a turn runs
// ("… · Esc stops"): a reply's last words are on screen before its turn
// ends, and a key meant for an idle screen must wait for the end.
func (u *uiProc) waitIdle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		u.mu.Lock()
		rows := vtScreen(u.screen.Bytes(), 100, 30)
		u.mu.Unlock()
		if !strings.Contains(rows[len(rows)-1], "Esc stops") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the turn never ended:\n%s", strings.Join(rows, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (u *uiProc) exitCode(t *testing.T) int {
	t.Helper()
	exited := make(chan struct{})
	go func() { u.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("harness did not exit")
	}
	return u.cmd.ProcessState.ExitCode()
}

// TestStopSignalsUI: in the UI, SIGTERM and a closed terminal (SIGHUP)
// stop the turn like Esc, kill its run() process group, save the session,
// and exit 143 / 129.
func TestStopSignalsUI(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(u *uiProc)
		code int
	}{
		{"SIGTERM", func(u *uiProc) { u.cmd.Process.Signal(syscall.SIGTERM) }, 143},
		{"terminal closed", func(u *uiProc) { u.master.Close() }, 129},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := proctest.Marker()
			killAll(t, m)
			e := runCommandEnv(t, backgrounded(m)...)
			u := e.startUI()
			u.waitText(t, "llmtest-model")
			u.master.Write([]byte("go\r"))
			if n := proctest.WaitCount(m, 3, 30*time.Second); n != 3 {
				t.Fatalf("%d processes started, want 3", n)
			}
			tc.stop(u)
			if code := u.exitCode(t); code != tc.code {
				u.mu.Lock()
				t.Errorf("exit %d, want %d; the terminal's last bytes: %q", code, tc.code, tail(u.screen.String(), 400))
				u.mu.Unlock()
			}
			if n := proctest.WaitCount(m, 0, 5*time.Second); n != 0 {
				t.Errorf("%d processes left running", n)
			}
			list, err := sessions.Store{Dir: filepath.Join(e.home, "sessions")}.List()
			if err != nil || len(list) != 1 || list[0].InUse {
				t.Fatalf("sessions %+v %v", list, err)
			}
			root, err := sessions.Load(filepath.Join(e.home, "sessions", list[0].Name, "library", "root.json"))
			if err != nil {
				t.Fatal(err)
			}
			if got := lastMessage(root.Messages()).Content; !strings.HasSuffix(got, "[stopped by user]") {
				t.Errorf("saved root ends with %q", got)
			}
		})
	}
}

// TestTerminalLostWithoutSIGHUP: a wrapper that outlives the terminal
// (here a shell ignoring SIGHUP, as nohup-style wrappers and some
// multiplexers do) is the session leader, so the kernel's SIGHUP goes to
// it and harness only sees its input fail. The closed terminal is a hangup
// all the same: harness stops the turn, kills its run() processes, saves
// and exits 129, not 1 with "the terminal UI failed".
func TestTerminalLostWithoutSIGHUP(t *testing.T) {
	m := proctest.Marker()
	killAll(t, m)
	e := runCommandEnv(t, backgrounded(m)...)
	rc := filepath.Join(t.TempDir(), "rc")
	harness := e.command()
	wrapper := exec.Command("/bin/sh", "-c", `trap "" HUP; "$0"; echo $? > "$1"`, harness.Path, rc)
	wrapper.Env, wrapper.Dir = harness.Env, harness.Dir
	u := e.startUICommand(wrapper)
	u.waitText(t, "llmtest-model")
	u.master.Write([]byte("go\r"))
	if n := proctest.WaitCount(m, 3, 30*time.Second); n != 3 {
		t.Fatalf("%d processes started, want 3", n)
	}
	u.master.Close()
	if code := u.exitCode(t); code != 0 {
		t.Fatalf("the wrapper exited %d", code)
	}
	if got, err := os.ReadFile(rc); strings.TrimSpace(string(got)) != "129" {
		t.Errorf("harness exited %q (%v), want 129", got, err)
	}
	if n := proctest.WaitCount(m, 0, 5*time.Second); n != 0 {
		t.Errorf("%d processes left running", n)
	}
	list, err := sessions.Store{Dir: filepath.Join(e.home, "sessions")}.List()
	if err != nil || len(list) != 1 || list[0].InUse {
		t.Fatalf("sessions %+v %v", list, err)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
