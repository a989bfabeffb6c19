package sessions

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain lets the test binary hold a session open in a child process
// (SESSIONS_HOLD is the store directory, a newline and the name): it opens it, prints "held", and keeps it
// until stdin closes or it is killed.
func TestMain(m *testing.M) {
	if v := os.Getenv("SESSIONS_HOLD"); v != "" {
		dir, name, _ := strings.Cut(v, "\n")
		if _, err := (Store{Dir: dir}).Open(name, nil); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("held")
		bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func savedSession(t *testing.T) (Store, *Session) {
	t.Helper()
	st := Store{Dir: t.TempDir(), Now: fixedNow}
	s := st.New(nil)
	if err := s.Save(0, "", rootFile("a")); err != nil {
		t.Fatal(err)
	}
	return st, s
}

func TestOpenRefusesSessionInUse(t *testing.T) {
	st, s := savedSession(t)
	start := time.Now()
	_, err := st.Open(s.Name(), nil)
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.PID != os.Getpid() || inUse.Name != s.Name() {
		t.Fatalf("second open: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refused after %v", d)
	}
	for _, want := range []string{"session " + s.Name() + " is in use", fmt.Sprintf("pid %d", os.Getpid())} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	s.Close()
	s2, err := st.Open(s.Name(), nil)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	if err := s.Save(0, "", rootFile("late")); err == nil {
		t.Error("a closed session saved")
	}
	if err := s2.Save(0, "", rootFile("b")); err != nil {
		t.Error(err)
	}
	if in, pid := InUse(s2.Dir()); !in || pid != os.Getpid() {
		t.Errorf("InUse = %v, %d", in, pid)
	}
	s2.Close()
	s2.Close()
	if in, _ := InUse(s2.Dir()); in {
		t.Error("in use after Close")
	}
	if b, _ := os.ReadFile(s2.Dir() + "/" + LockName); len(b) != 0 {
		t.Errorf("lock file after Close holds %q", b)
	}
}

// TestRenameKeepsLock: the lock moves with the directory.
func TestRenameKeepsLock(t *testing.T) {
	st, s := savedSession(t)
	if err := s.Rename("renamed", false); err != nil {
		t.Fatal(err)
	}
	var inUse *InUseError
	if _, err := st.Open("renamed", nil); !errors.As(err, &inUse) || inUse.Name != "renamed" {
		t.Fatalf("open of the renamed session: %v", err)
	}
	if l, _ := st.List(); len(l) != 1 || !l[0].InUse {
		t.Errorf("list %+v", l)
	}
	s.Close()
	if err := s.Rename("again", false); err == nil {
		t.Error("renamed a closed session")
	}
}

// TestInUseNeverRefusesAnOpen: harness --resume listing while a session is
// opened and closed in a loop never makes the open fail.
func TestInUseNeverRefusesAnOpen(t *testing.T) {
	st, s := savedSession(t)
	s.Close()
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			InUse(s.Dir())
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	for i := 0; i < 200; i++ {
		o, err := st.Open(s.Name(), nil)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		o.Close()
	}
}

// TestLockAcrossProcesses: a child process holds the session; this one is
// refused with the child's PID; once the child is killed (SIGKILL: nothing
// released by hand), the session opens.
func TestLockAcrossProcesses(t *testing.T) {
	st, s := savedSession(t)
	s.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SESSIONS_HOLD="+st.Dir+"\n"+s.Name())
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "held\n" {
		cmd.Process.Kill()
		t.Fatalf("child: %q", line)
	}
	_, err := st.Open(s.Name(), nil)
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.PID != cmd.Process.Pid {
		t.Fatalf("open while the child holds it: %v (child %d)", err, cmd.Process.Pid)
	}
	if l, _ := st.List(); len(l) != 1 || !l[0].InUse || l[0].PID != cmd.Process.Pid {
		t.Errorf("list %+v", l)
	}
	cmd.Process.Kill()
	cmd.Wait()
	o, err := st.Open(s.Name(), nil)
	if err != nil {
		t.Fatalf("open after the holder was killed: %v", err)
	}
	o.Close()
}
