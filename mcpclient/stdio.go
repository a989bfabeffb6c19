// Stdio servers: a host process in its own process group, its environment
// and its stderr log.

package mcpclient

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/sensitive"
)

// Grace periods when stopping a process: after its stdin is closed, and
// after SIGTERM, before the next step.
const (
	stdinGrace = 300 * time.Millisecond
	termGrace  = 700 * time.Millisecond
	exitGrace  = 500 * time.Millisecond // for the exit status of a server whose start failed
)

// maxLog is the size past which a server's log is emptied when the server
// starts, so logs do not grow without bound.
const maxLog = 4 << 20

// process is a running stdio server.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of its stdin
	exited chan struct{}
	err    error // what Wait returned, once exited is closed
}

func logPath(dir, name string) string { return filepath.Join(dir, name+".log") }

// startProcess starts a stdio server and returns the transport over its
// stdin and stdout.
func startProcess(sp Spec, o Options, log string) (mcp.Transport, *process, error) {
	ex, err := expanded(sp)
	if err != nil {
		return nil, nil, err
	}
	env := environ(o, ex.Env)
	exe, err := lookPath(ex.Command, env)
	if err != nil {
		return nil, nil, err
	}
	stderr, err := openLog(log, sp)
	if err != nil {
		return nil, nil, err
	}
	defer stderr.Close()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, err
	}
	cmd := &exec.Cmd{Path: exe, Args: append([]string{ex.Command}, ex.Args...), Dir: o.RepoDir, Env: env,
		Stdin: inR, Stdout: outW, Stderr: stderr, SysProcAttr: sysProcAttr()}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, fmt.Errorf("start %s: %w", ex.Command, err)
	}
	p := &process{cmd: cmd, stdin: inW, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	var notes io.WriteCloser // the log again, for what frameFilter drops
	if log != "" {
		if f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			notes = f
		}
	}
	// frameFilter enforces MaxFrameBytes itself, call by call.
	return &mcp.IOTransport{Reader: filterFrames(outR, notes), Writer: inW, MaxLineLength: -1}, p, nil
}

// expanded returns sp with its ${NAME} references replaced.
func expanded(sp Spec) (Spec, error) {
	if sp.Expand == nil {
		return sp, nil
	}
	var err error
	x := func(what, s string) string {
		v, e := sp.Expand(s)
		if e != nil && err == nil {
			err = fmt.Errorf("%s: %v", what, e)
		}
		return v
	}
	sp.Command, sp.URL = x("command", sp.Command), x("url", sp.URL)
	sp.Args = slices.Clone(sp.Args)
	for i, a := range sp.Args {
		sp.Args[i] = x("args", a)
	}
	sp.Env, sp.Headers = expandMap(x, "env", sp.Env), expandMap(x, "headers", sp.Headers)
	return sp, err
}

func expandMap(x func(what, s string) string, what string, m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = x(what+"."+k, v)
	}
	return out
}

// environ is what a stdio server starts with: Options.Environ minus
// EnvFilter, then the server's own env.
func environ(o Options, own map[string]string) []string {
	out := []string{}
	for _, kv := range o.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if _, mine := own[name]; mine || slices.Contains(o.EnvFilter, name) {
			continue
		}
		out = append(out, kv)
	}
	names := make([]string, 0, len(own))
	for k := range own {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		out = append(out, k+"="+own[k])
	}
	return out
}

// lookPath finds a bare command name on env's PATH; absolute paths are
// used as they are.
func lookPath(command string, env []string) (string, error) {
	if filepath.IsAbs(command) {
		return command, nil
	}
	if strings.Contains(command, "/") {
		return "", fmt.Errorf("command %q is a relative path; use an absolute path or a name on PATH", command)
	}
	pathVar := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathVar = v
		}
	}
	for _, dir := range filepath.SplitList(pathVar) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, command)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("command %q not found on PATH", command)
}

// openLog opens the server's stderr log for appending, with a line saying
// which start follows (the command as configured: expanded values may be
// secrets). Without a log, stderr is discarded.
func openLog(path string, sp Spec) (*os.File, error) {
	if path == "" {
		return os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create the log folder: %w", err)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxLog {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the log: %w", err)
	}
	fmt.Fprintf(f, "--- %s harness starts %s %s\n", time.Now().Format(time.RFC3339), sensitive.Scrub(sp.Command), strings.Join(sensitive.Args(sp.Args), " "))
	return f, nil
}

func (p *process) exitedCh() <-chan struct{} {
	if p == nil {
		return nil
	}
	return p.exited
}

// stop ends the process: stdin closed, then SIGTERM, then SIGKILL to its
// whole group, each after a grace period. It returns once it has exited;
// the group is killed in any case, so no child it started outlives it.
func (p *process) stop() {
	if p == nil {
		return
	}
	p.stdin.Close()
	if !p.waitFor(stdinGrace) {
		p.signal(syscall.SIGTERM)
		if !p.waitFor(termGrace) {
			p.signal(syscall.SIGKILL)
			<-p.exited
		}
	}
	p.signal(syscall.SIGKILL) // whatever else is left in its group
}

func (p *process) waitFor(d time.Duration) bool {
	select {
	case <-p.exited:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

func (p *process) signal(sig syscall.Signal) {
	syscall.Kill(-p.cmd.Process.Pid, sig)
}

// status says how the process ended, or that the connection closed.
func (p *process) status() string {
	if p == nil {
		return "the connection closed"
	}
	if !p.waitFor(time.Second) {
		return "it closed its output"
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by signal " + ws.Signal().String()
		}
		return ee.Error()
	}
	if p.err != nil {
		return p.err.Error()
	}
	return "exit status 0"
}

// startErr is err from a start that failed after the process started: the
// process group is killed, and an exit says why better than a broken pipe.
func (p *process) startErr(err error) error {
	if p == nil {
		return err
	}
	exited := p.waitFor(exitGrace)
	p.signal(syscall.SIGKILL)
	<-p.exited
	if exited {
		return fmt.Errorf("it exited (%s) before it answered", p.status())
	}
	return err
}
