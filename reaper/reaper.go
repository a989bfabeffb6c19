// Package reaper makes sure nothing a host command starts outlives
// harness, however harness ends, SIGKILL included.
//
// run() starts each command in a process group of its own and kills the
// group when the call is cancelled (Esc, SIGINT, SIGHUP, SIGTERM), and the
// kernel's parent-death signal kills the command itself if harness dies.
// What a command leaves in the background may run on while harness runs;
// it must not survive harness. Three things see to it:
//
//   - Subreap makes harness a child subreaper: an orphan below it (the
//     child of sh -c "sleep 100 &", a setsid daemon, a double fork) becomes
//     harness's child instead of init's. SweepOrphans reaps those that
//     ended, after each command.
//   - Shutdown, as harness ends on its own (the turn done, /exit, a stop
//     signal), kills every process below it (KillDescendants).
//   - A small helper process outlives a SIGKILLed harness for a moment.
//
// The helper:
//
//	harness  --"+PGID\n" (a command started) / "-PGID\n" (it ended)-->  reaper's stdin
//	harness ends, any way: the pipe closes  -->  reaper: SIGKILL the groups still listed,
//	                                             every process whose environment holds
//	                                             the mark (Env), and all below them; exit
//
// Every command's environment holds Env, a MarkVar entry naming this
// harness process, which what it starts inherits whatever session or
// parent it moves to. The helper is the harness binary itself, started
// with the argument Arg (cmd/harness hands that argument to Main), so
// nothing extra is installed. It starts when harness starts (Start) or at
// the latest with the first command (Watch), in a session of its own, and
// ignores SIGINT, SIGHUP and SIGTERM: a closed terminal or a Ctrl+C must not
// end it before harness. Only groups of commands still running are listed,
// so a group ID is never killed after its command was reaped. When the
// helper cannot start, Watch does nothing and the parent-death signal is
// the only guard against SIGKILL. A process that replaced its whole
// environment (env -i), or runs as another user, is not found by the mark.
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
	"time"
)

// Arg is the argument that makes the harness binary run Main.
const Arg = "--internal-reaper"

// Reaper is the harness side: it starts the helper process on first use
// and tells it which process groups to kill. The zero value is not usable;
// the methods of a nil *Reaper do nothing. Safe for concurrent use.
type Reaper struct {
	exe  string
	mark string // MarkVar's value

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
	return &Reaper{exe: exe, mark: fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())}
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

// Shutdown kills every process below harness (workers, MCP servers, what
// run() commands left in the background, adopted orphans) and every
// process carrying the mark, as harness ends. The methods of a nil
// *Reaper do nothing.
func (r *Reaper) Shutdown() {
	if r != nil {
		KillDescendants()
		killGroupTrees(nil, r.Env())
	}
}

// MarkVar is the environment variable every run() command gets (Env): its
// value names this harness process, so that the helper finds what the
// commands started after harness is gone, whatever session or parent it
// moved to.
const MarkVar = "HARNESS_RUN"

// Env returns the MarkVar entry ("HARNESS_RUN=…") to put in every
// command's environment; "" for a nil Reaper.
func (r *Reaper) Env() string {
	if r == nil {
		return ""
	}
	return MarkVar + "=" + r.mark
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
	cmd.Env = []string{r.Env()} // nothing of harness's environment (keys) in its /proc entry
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
	mark := ""
	if v := os.Getenv(MarkVar); v != "" {
		mark = MarkVar + "=" + v
	}
	killGroupTrees(groups, mark)
	for pgid := range groups {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	return 0
}
