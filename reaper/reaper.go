// Package reaper kills the process groups of host commands when harness
// ends, however it ends, SIGKILL included.
//
// run() starts each command in a process group of its own and kills the
// group when the call is cancelled (Esc, SIGINT, SIGHUP, SIGTERM), and the
// kernel's parent-death signal kills the command itself if harness dies.
// Neither reaches what a command started in the background once harness is
// SIGKILLed: the shell of sh -c "sleep 100 & make" dies with harness, its
// children would live on. A reaper is a small helper process that outlives
// harness for that moment:
//
//	harness  --"+PGID\n" (a command started) / "-PGID\n" (it ended)-->  reaper's stdin
//	harness ends, any way: the pipe closes  -->  reaper: kill(-PGID, SIGKILL)
//	                                             for every group still listed; exit
//
// The reaper is the harness binary itself, started with the argument Arg
// (cmd/harness hands that argument to Main), so nothing extra is installed.
// It starts when harness starts (Start) or at the latest with the first
// command (Watch), in a session of its own, and
// ignores SIGINT, SIGHUP and SIGTERM: a closed terminal or a Ctrl+C must not
// end it before harness. Only groups of commands still running are listed,
// so a group ID is never killed after its command was reaped. When the
// reaper cannot start, Watch does nothing and the parent-death signal is
// the only guard.
package reaper

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"sync"
	"syscall"
)

// Arg is the argument that makes the harness binary run Main.
const Arg = "--internal-reaper"

// Reaper is the harness side: it starts the helper process on first use
// and tells it which process groups to kill. The zero value is not usable;
// the methods of a nil *Reaper do nothing. Safe for concurrent use.
type Reaper struct {
	exe string

	mu      sync.Mutex
	started bool
	w       io.WriteCloser // the helper's stdin; nil when it could not start
	err     error
}

// New returns a Reaper whose helper is exe started with Arg; "" means this
// program's own binary.
func New(exe string) *Reaper {
	if exe == "" {
		exe = self()
	}
	return &Reaper{exe: exe}
}

// self is this program's binary: /proc/self/exe on Linux, which works even
// after the file was replaced (go install while harness runs).
func self() string {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe"
	}
	exe, _ := os.Executable()
	return exe
}

// Start starts the helper now, unless it runs already; Watch starts it
// otherwise. Starting it before the first command leaves no moment in which
// a command runs and the helper does not know it yet.
func (r *Reaper) Start() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.startLocked()
}

func (r *Reaper) startLocked() {
	if !r.started {
		r.started = true
		r.w, r.err = r.start()
	}
}

// Watch lists the process group pgid (a command's, started with its own
// group) for killing if harness ends while it runs. Call the returned
// function once the command has been waited for.
func (r *Reaper) Watch(pgid int) (release func()) {
	if r == nil || pgid <= 0 || !r.send('+', pgid) {
		return func() {}
	}
	var once sync.Once
	return func() { once.Do(func() { r.send('-', pgid) }) }
}

// Err returns why the helper could not start or stopped listening, or nil.
func (r *Reaper) Err() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// send writes one line to the helper, starting it first when needed.
func (r *Reaper) send(op byte, pgid int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.startLocked()
	if r.w == nil {
		return false
	}
	if _, err := fmt.Fprintf(r.w, "%c%d\n", op, pgid); err != nil {
		r.err = fmt.Errorf("reaper: %w", err)
		r.w.Close()
		r.w = nil
		return false
	}
	return true
}

func (r *Reaper) start() (io.WriteCloser, error) {
	cmd := exec.Command(r.exe, Arg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("reaper: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("reaper: start %s: %w", r.exe, err)
	}
	// The helper lives as long as harness; it is never waited for (after
	// harness ends, init reaps it).
	return w, nil
}

// Main is the helper process: it reads "+PGID" and "-PGID" lines from in
// until in ends, then kills every group still listed and returns the exit
// code (0).
func Main(in io.Reader) int {
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGPIPE)
	groups := map[int]bool{}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		pgid, err := strconv.Atoi(line[1:])
		if err != nil || pgid <= 0 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pgid] = true
		case '-':
			delete(groups, pgid)
		}
	}
	for pgid := range groups {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	return 0
}
