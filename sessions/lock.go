// Session locks: one process per session, with flock on a lock file.

package sessions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// LockName is the lock file in a session's directory. The process that has
// the session open holds an exclusive flock on it and writes its PID in
// it; the kernel releases the lock when that process ends, however it ends,
// so a crash never leaves a session locked.
const LockName = "lock"

// lockWait bounds how long Open retries a lock someone holds: harness
// --resume takes a shared lock for an instant to see whether a session is
// in use, and an Open racing with it must not be refused for that.
const lockWait = 150 * time.Millisecond

// InUseError is the refusal to open a session another process has open.
type InUseError struct {
	Name string
	PID  int // the holder's PID, 0 when it could not be read
}

func (e *InUseError) Error() string {
	who := "another harness process"
	if e.PID > 0 {
		who += fmt.Sprintf(" (pid %d)", e.PID)
	}
	return fmt.Sprintf("session %s is in use by %s; wait for it to finish or stop it, or start a new session (run harness --resume to see which sessions are in use)", e.Name, who)
}

// errNoLocking wraps flock errors meaning the file system cannot lock.
var errNoLocking = errors.New("the file system does not support locks")

// acquire takes the exclusive lock of the session directory dir (named
// name in errors) and records this process's PID in it.
func acquire(dir, name string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock session %s: %w", name, err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		pid := holder(f)
		f.Close()
		return nil, &InUseError{Name: name, PID: pid}
	case err != nil:
		f.Close()
		return nil, fmt.Errorf("lock session %s: %w", name, err)
	}
	// The PID is for messages only: the lock holds without it.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// flock is syscall.Flock on f, retried on EINTR, with errors meaning no
// locking support wrapped in errNoLocking.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			return fmt.Errorf("%w (%v)", errNoLocking, err)
		}
		return err
	}
}

// release gives up the lock of f: the PID is cleared first, so the file
// never names a process that no longer holds it (except after a crash,
// when no one holds it).
func release(f *os.File) {
	if f == nil {
		return
	}
	f.Truncate(0)
	f.Close()
}

// holder reads the PID recorded in the lock file f that someone else
// holds. The holder writes it just after locking, so an empty file or a
// PID that is not running is read again for a moment; 0 means unknown.
func holder(f *os.File) int {
	deadline := time.Now().Add(lockWait)
	for {
		buf := make([]byte, 32)
		n, _ := f.ReadAt(buf, 0)
		pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
		if err == nil && pid > 0 && running(pid) {
			return pid
		}
		if time.Now().After(deadline) {
			return 0
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// InUse reports whether another process has the session directory dir
// open, and its PID (0 when unknown). It takes a shared lock for an
// instant, so it never blocks and never disturbs the holder.
func InUse(dir string) (bool, int) {
	f, err := os.Open(filepath.Join(dir, LockName))
	if err != nil {
		return false, 0 // never opened by a harness that locks
	}
	defer f.Close()
	err = flock(f, syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		flock(f, syscall.LOCK_UN)
		return false, 0
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return false, 0
	}
	return true, holder(f)
}
