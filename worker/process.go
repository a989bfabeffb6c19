// A worker process: starting it, the handshake, its stderr, killing it.

package worker

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"harness/wire"
)

// Subcommand is the hidden first argument that makes the harness binary a
// REPL worker.
const Subcommand = "__repl-worker"

// cookieVar is set in every worker's environment; Accept refuses to run
// without it, so `harness __repl-worker` typed by hand explains itself.
const cookieVar = "HARNESS_REPL_WORKER"

// handshakeTimeout bounds the wait for a new worker's Hello.
var handshakeTimeout = 20 * time.Second

// Config says how workers start.
type Config struct {
	// Exe is the executable to run; default "/proc/self/exe" (the running
	// binary, even when the file was replaced since) where it exists,
	// else os.Executable().
	Exe string
	// Env is the worker's whole environment (besides the handshake
	// variable); default: TZ when the parent has it.
	Env []string
	// Log receives the workers' stderr, one line at a time, each prefixed
	// with "worker PID: "; nil discards it.
	Log io.Writer
	// Watch, when set, is told each worker's process group as it starts
	// (harness passes its reaper, which kills the groups it lists if
	// harness dies); the returned function is called once the worker has
	// been reaped.
	Watch func(pgid int) (release func())
}

func (c Config) exe() string {
	if c.Exe != "" {
		return c.Exe
	}
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe"
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return os.Args[0]
}

func (c Config) env() []string {
	env := c.Env
	if env == nil {
		if tz, ok := os.LookupEnv("TZ"); ok {
			env = []string{"TZ=" + tz}
		}
	}
	// Two Ps are plenty for one interpreter and keep the thread count (and
	// so the thread stacks under the ceiling) small on many-core machines.
	return append(append([]string(nil), env...), "GOMAXPROCS=2", cookieVar+"="+strconv.Itoa(wire.Version))
}

// Process is one running worker. Conn belongs to the caller: one
// goroutine reads it, any may send.
type Process struct {
	Conn *wire.Conn
	PID  int

	cmd    *exec.Cmd
	stderr *tailWriter
	done   chan struct{}

	release func() // tells Config.Watch the group is gone

	mu     sync.Mutex
	reaped bool
	killed string // why the parent killed it
	exit   Exit
}

// Exit is how a worker ended.
type Exit struct {
	Status  *os.ProcessState
	Killed  string // the reason given to Kill, "" when it ended by itself
	Stderr  string // the last lines it wrote to stderr
	Head    string // the first lines it wrote to stderr
	PeakRSS int64  // bytes
	crash   string // the first panic, fatal-error or fault line
	frame   string // the first stack frame after it
}

// OutOfMemory reports whether the worker ended because the Go runtime
// could not get memory: it says so ("fatal error: out of memory",
// "cannot allocate memory"), or it faulted inside the runtime itself, which
// happens when the collector's own allocations fail under the ceiling.
func (e Exit) OutOfMemory() bool {
	if strings.HasPrefix(e.crash, "runtime/cgo: pthread_create failed") || strings.HasPrefix(e.crash, "runtime: out of memory") {
		return true // no memory for a thread's stack, or for the heap
	}
	if strings.HasPrefix(e.crash, "fatal error: ") {
		return strings.Contains(e.crash, "out of memory") || strings.Contains(e.crash, "cannot allocate memory") ||
			strings.Contains(e.crash, "unexpected signal during runtime execution")
	}
	fault := strings.HasPrefix(e.crash, "SIGSEGV: ") || strings.HasPrefix(e.crash, "SIGBUS: ") || strings.HasPrefix(e.crash, "unexpected signal")
	return fault && strings.HasPrefix(e.frame, "runtime.")
}

// Crash returns the first line of a Go panic or fatal error the worker
// printed, or "".
func (e Exit) Crash() string { return e.crash }

// Start starts a worker and waits for its Hello.
func Start(cfg Config) (*Process, error) {
	conn, childEnd, err := wire.Pair()
	if err != nil {
		return nil, err
	}
	defer childEnd.Close()
	exe := cfg.exe()
	cmd := &exec.Cmd{Path: exe, Args: []string{"harness-worker", Subcommand}, Env: cfg.env(), Dir: "/"}
	cmd.ExtraFiles = []*os.File{childEnd}
	cmd.SysProcAttr = procAttr()
	p := &Process{Conn: conn, cmd: cmd, stderr: newTailWriter(cfg.Log), done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("start a REPL worker (%s): %w", exe, err)
	}
	p.PID = cmd.Process.Pid
	p.stderr.setPrefix(fmt.Sprintf("worker %d: ", p.PID))
	p.release = func() {}
	if cfg.Watch != nil {
		p.release = cfg.Watch(p.PID)
	}
	go p.wait()
	if err := p.handshake(); err != nil {
		p.Kill("handshake failed")
		<-p.done
		if tail := strings.TrimSpace(p.exit.Stderr); tail != "" {
			err = fmt.Errorf("%w; it wrote: %s", err, lastLine(tail))
		}
		return nil, err
	}
	return p, nil
}

// handshake reads the worker's Hello, bounded by handshakeTimeout.
func (p *Process) handshake() error {
	type answer struct {
		f   wire.Frame
		err error
	}
	got := make(chan answer, 1)
	go func() { f, err := p.Conn.Read(); got <- answer{f, err} }()
	t := time.NewTimer(handshakeTimeout)
	defer t.Stop()
	var a answer
	select {
	case a = <-got:
	case <-t.C:
		p.Conn.Close()
		return fmt.Errorf("a REPL worker did not answer within %v", handshakeTimeout)
	}
	if a.err != nil {
		return fmt.Errorf("a REPL worker ended before its handshake: %w", a.err)
	}
	var h wire.HelloBody
	if a.f.Type != wire.Hello || a.f.Unmarshal(&h) != nil {
		return fmt.Errorf("a REPL worker sent %s instead of Hello", a.f.Type)
	}
	if h.Version != wire.Version {
		return fmt.Errorf("a REPL worker speaks protocol %d, harness %d (was the binary replaced while harness ran? restart harness)", h.Version, wire.Version)
	}
	return nil
}

// wait reaps the process and records how it ended.
func (p *Process) wait() {
	err := p.cmd.Wait()
	p.release()
	p.mu.Lock()
	p.reaped = true
	ps := p.cmd.ProcessState
	var rss int64
	if ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss << 10
		}
	} else if err != nil {
		p.stderr.Write([]byte(err.Error() + "\n"))
	}
	p.exit = Exit{Status: ps, Killed: p.killed, Stderr: p.stderr.tail(), PeakRSS: rss}
	p.exit.crash, p.exit.frame = p.stderr.crashLine()
	p.exit.Head = p.stderr.start()
	p.mu.Unlock()
	close(p.done) // the Conn stays open: its reader drains what the worker sent, then sees end of file
}

// Kill ends the worker's process group with SIGKILL, recording why; the
// first reason is kept. It does nothing once the worker has ended.
func (p *Process) Kill(reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reaped {
		return
	}
	if p.killed == "" {
		p.killed = reason
	}
	syscall.Kill(-p.PID, syscall.SIGKILL) // the group; still ours until reaped
	p.cmd.Process.Kill()
}

// closeGrace is how long a closed worker has to exit before it is killed.
const closeGrace = 2 * time.Second

// Close ends the worker without waiting: its socket is closed (it exits at
// end of file), and it is killed if it has not ended within closeGrace.
func (p *Process) Close() {
	p.Conn.Close()
	go func() {
		t := time.NewTimer(closeGrace)
		defer t.Stop()
		select {
		case <-p.done:
		case <-t.C:
			p.Kill("closed")
		}
	}()
}

// Done is closed once the worker has ended and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited reports whether the worker has ended.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Exit returns how the worker ended; it waits for the end.
func (p *Process) Exit() Exit {
	<-p.done
	return p.exit
}

// PeakRSS returns the worker's peak resident set size in bytes: VmHWM
// while it runs, the kernel's figure once it has ended; -1 when unknown.
func (p *Process) PeakRSS() int64 {
	if p.Exited() {
		return p.exit.PeakRSS
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.PID))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return -1
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// errNotWorker is Accept's error when the process was not started by
// harness as a worker.
var errNotWorker = errors.New("harness " + Subcommand + " is internal: harness starts its REPL workers itself")
