// run(): host commands with deny/allow lists, approvals and process groups.

package repl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.starlark.net/starlark"

	"harness/approval"
	"harness/config"
	"harness/failures"
	"harness/reaper"
	"harness/repl/lib/pyfs"
	"harness/repl/pyrt"
	"harness/sandbox"
)

// waitDelay bounds how long run() waits for output pipes after the command
// exits (a background child may keep them open).
const waitDelay = 500 * time.Millisecond

// command is a run() request after checks.
type command struct {
	exe       string   // host path to execute
	shown     string   // the executable as shown in approvals
	argv      []string // argv as given
	dir       string   // host working directory
	shownDir  string   // the working directory as a virtual path
	outsideTo string   // where dir resolves when outside the repository
	approve   bool     // the command itself needs approval
}

func (r *interp) run(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var argvV, cwdV starlark.Value = nil, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kw, "argv", &argvV, "cwd?", &cwdV); err != nil {
		return nil, err
	}
	argv, err := stringList(argvV)
	if err != nil || len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf(`run: argv must be a non-empty list of strings, like run(["go", "test", "./..."])`)
	}
	cwd := ""
	if cwdV != starlark.None {
		p, err := r.PathOf("run", cwdV)
		if err != nil {
			return nil, err
		}
		cwd = p.P
	}
	out, err := r.runCommand(argv, cwd, 0)
	if err != nil {
		return nil, err
	}
	d := starlark.NewDict(3)
	_ = d.SetKey(starlark.String("exit_code"), starlark.MakeInt(out.ExitCode))
	_ = d.SetKey(starlark.String("stdout"), starlark.String(out.Stdout))
	_ = d.SetKey(starlark.String("stderr"), starlark.String(out.Stderr))
	return d, nil
}

// runCommand runs argv in cwd (repository-relative, "" for the root)
// through the "run" host service, with its checks and approval; run() and
// the subprocess and os modules all use it. A positive timeout kills the
// command's process group when it passes and returns a TimeoutExpired
// error carrying the output so far.
func (r *interp) runCommand(argv []string, cwd string, timeout time.Duration) (pyrt.RunReply, error) {
	c := callOf(r)
	// A third of the budget: buffers grow by doubling, and the result copies
	// the output once more into Starlark strings.
	out, err := hostCall[runRequest, pyrt.RunReply](r, c, "run", runRequest{Argv: argv, Cwd: cwd, Limit: c.budget() / 3, Timeout: timeout})
	if err == nil && out.TimedOut {
		err = pyfs.TimeoutExpired(argv, timeout, out.Stdout, out.Stderr)
	}
	return out, err
}

// runRequest is run()'s call of the "run" host service: the command, its
// repository-relative cwd, the output bytes the REPL can take and the
// time it may run (0 for no limit but the call's).
type runRequest struct {
	Argv    []string      `json:"argv"`
	Cwd     string        `json:"cwd,omitempty"`
	Limit   int64         `json:"limit"`
	Timeout time.Duration `json:"timeout,omitempty"`
}

// serveRun is the "run" host service: the checks, the approval and the
// command itself, all on the host.
func serveRun(in *interp, c *callState, req runRequest) (pyrt.RunReply, error) {
	if p := in.opts.Sandbox; p != nil {
		if err := p.Check(); err != nil {
			return pyrt.RunReply{}, fmt.Errorf("run: %v", err)
		}
	}
	cmd, err := in.prepare(req.Argv, req.Cwd)
	if err != nil {
		return pyrt.RunReply{}, err
	}
	if err := in.approve(c, cmd); err != nil {
		return pyrt.RunReply{}, err
	}
	return in.execute(c, cmd, req.Limit, req.Timeout)
}

func stringList(v starlark.Value) ([]string, error) {
	it, ok := v.(starlark.Iterable)
	if !ok || v.Type() == "string" {
		return nil, errors.New("not a list")
	}
	var out []string
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		s, ok := starlark.AsString(x)
		if !ok {
			return nil, errors.New("not a string")
		}
		out = append(out, s)
	}
	return out, nil
}

// deny records and returns a denial.
func (r *interp) deny(format string, args ...any) error {
	err := fmt.Errorf("run: PermissionError: "+format, args...)
	callOf(r).note(failures.KindDenied, err.Error())
	return err
}

func hasDotDot(p string) bool {
	return slices.Contains(strings.Split(p, "/"), "..")
}

// repoReal returns the repository's host path with symlinks resolved.
func (r *interp) repoReal() (string, error) {
	real, err := filepath.EvalSymlinks(r.opts.RepoDir)
	if err != nil {
		return "", fmt.Errorf("run: the repository directory is not accessible: %v", classifyText(err))
	}
	return real, nil
}

func inside(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// prepare applies the checks of "Host commands" to argv and cwd.
func (r *interp) prepare(argv []string, cwd string) (*command, error) {
	repo, err := r.repoReal()
	if err != nil {
		return nil, err
	}
	cmd := &command{argv: argv, dir: repo, shownDir: "/repository"}
	if cwd != "" && cwd != "." {
		if strings.HasPrefix(cwd, "/") || hasDotDot(cwd) {
			return nil, r.deny("cwd %q must be relative to the repository root and free of '..' (commands start in the repository root; /repository does not exist on the host)", cwd)
		}
		host := filepath.Join(r.opts.RepoDir, filepath.FromSlash(cwd))
		fi, err := os.Stat(host)
		if err != nil {
			return nil, fmt.Errorf("run: FileNotFoundError: cwd %s: %s", cwd, classifyText(err))
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("run: NotADirectoryError: cwd %s is not a directory", cwd)
		}
		real, err := filepath.EvalSymlinks(host)
		if err != nil {
			return nil, fmt.Errorf("run: cwd %s: %s", cwd, classifyText(err))
		}
		cmd.dir, cmd.shownDir = real, "/repository/"+pyrt.NormPath(cwd)
		if !inside(repo, real) {
			cmd.outsideTo = real
		}
	}
	name := argv[0]
	if strings.Contains(name, "/") {
		return cmd, r.prepareRepoPath(cmd, repo, cwd, name)
	}
	deny := r.opts.Commands.Deny
	if slices.Contains(deny, name) {
		return nil, r.deny("%q is on the [commands] deny list and can never run", name)
	}
	if exe, ok := r.opts.Commands.Allow[name]; ok {
		cmd.exe, cmd.shown = exe, exe
		return cmd, nil
	}
	exe, err := r.lookPath(name)
	if err != nil {
		return nil, err
	}
	cmd.exe, cmd.shown, cmd.approve = exe, exe, true
	return cmd, nil
}

// prepareRepoPath checks an executable named by a relative path.
func (r *interp) prepareRepoPath(cmd *command, repo, cwd, name string) error {
	if strings.HasPrefix(name, "/") || hasDotDot(name) {
		return r.deny("%q: absolute paths and '..' are not allowed; name a command on PATH or a path inside the repository relative to cwd", name)
	}
	rel := path.Join(pyrt.NormPath(cwd), name)
	host := filepath.Join(r.opts.RepoDir, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(host)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("run: FileNotFoundError: /repository/%s does not exist", rel)
		}
		return fmt.Errorf("run: /repository/%s: %s", rel, classifyText(err))
	}
	if !inside(repo, real) {
		return r.deny("/repository/%s resolves outside the repository", rel)
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("run: PermissionError: /repository/%s is not an executable file (chmod +x it, or run it through its interpreter)", rel)
	}
	cmd.exe, cmd.shown, cmd.approve = real, "/repository/"+rel, true
	return nil
}

// lookPath finds name on the app's PATH.
func (r *interp) lookPath(name string) (string, error) {
	pathVar := ""
	for _, kv := range r.opts.Environ() {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathVar = v
		}
	}
	for _, dir := range filepath.SplitList(pathVar) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("run: FileNotFoundError: command %q not found on PATH", name)
}

// approve asks the Approver when the command or its directory needs it.
func (r *interp) approve(c *callState, cmd *command) error {
	if !cmd.approve && cmd.outsideTo == "" {
		return nil
	}
	op := map[string]any{
		"operation":         "run",
		"executable":        cmd.shown,
		"arguments":         cmd.argv[1:],
		"working_directory": cmd.shownDir,
		"sandbox":           config.SandboxNone,
	}
	if r.opts.Sandbox != nil {
		op["sandbox"] = config.SandboxWorkspace
	}
	if cmd.outsideTo != "" {
		op["working_directory_resolves_to"] = cmd.outsideTo
		if !cmd.approve {
			op["operation"] = "working_directory"
		}
	}
	data, _ := json.Marshal(op)
	if r.opts.Approver == nil {
		return r.deny("running %s needs approval and no one can approve it here", cmd.argv[0])
	}
	ok, err := r.opts.Approver.Approve(c.ctx, data)
	if c.ctx.Err() != nil {
		return fmt.Errorf("run: cancelled")
	}
	var refusal *approval.Refusal
	if errors.As(err, &refusal) {
		return r.deny("the user refused to run %s and wrote: %s", cmd.argv[0], refusal.Note)
	}
	if err != nil {
		return r.deny("%s was not approved: %v", cmd.argv[0], err)
	}
	if !ok {
		return r.deny("the user refused to run %s; do not retry it, choose another way or ask in your answer", cmd.argv[0])
	}
	return nil
}

// environ returns the child environment without the env_filter names. It
// is never nil: os/exec gives a child with a nil Env the app's own
// environment, filtered names included.
func (r *interp) environ() []string {
	out := []string{}
	for _, kv := range r.opts.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(r.opts.Commands.EnvFilter, name) {
			out = append(out, kv)
		}
	}
	return out
}

// execute runs the command in its own session and process group, killing
// the whole group when the call is cancelled; its output together may take
// limit bytes; a positive timeout kills it when it passes. With a sandbox,
// the command starts through the shim, which confines itself and then
// executes it.
func (r *interp) execute(c *callState, cmd *command, limit int64, timeout time.Duration) (pyrt.RunReply, error) {
	ctx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	if timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, timeout)
		defer stop()
	}
	exe, args := cmd.exe, cmd.argv
	attr := procAttr() // own session and group; killed if harness dies
	if p := r.opts.Sandbox; p != nil {
		pol := p.WithMounts() // read-only outside the writable folders, where namespaces can be made
		exe, args = pol.Command(sandbox.Self(), cmd.exe, cmd.argv)
		attr = pol.Attr(attr)
	}
	x := exec.CommandContext(ctx, exe)
	x.Args = args
	x.Dir = cmd.dir
	x.Env = r.environ()
	x.SysProcAttr = attr
	x.Cancel = func() error { return syscall.Kill(-x.Process.Pid, syscall.SIGKILL) }
	x.WaitDelay = waitDelay
	sk := &sink{limit: limit, over: cancel}
	out, errb := &capped{sink: sk}, &capped{sink: sk}
	x.Stdout, x.Stderr = out, errb
	commands.mu.Lock()
	err := x.Start()
	if err == nil {
		commands.live[x.Process.Pid] = true
		if attr.Setsid {
			reaper.Session(x.Process.Pid) // its orphans keep its session
		}
	}
	commands.mu.Unlock()
	if err == nil {
		defer commands.done(x.Process.Pid, x.Env)
		if r.opts.Watch != nil {
			defer r.opts.Watch(x.Process.Pid)() // released once waited for
		}
		if r.opts.OnCommand != nil {
			defer r.opts.OnCommand(slices.Clone(cmd.argv))()
		}
		err = x.Wait()
	}
	sk.mu.Lock()
	exceeded := sk.exceeded
	sk.mu.Unlock()
	if exceeded {
		return pyrt.RunReply{}, fmt.Errorf("run: %s: its output passed this REPL's memory limit (max_memory_mb = %d) and it was killed; redirect the output to a file in the repository and read parts of it", cmd.argv[0], r.opts.MaxMemoryMB)
	}
	if c.ctx.Err() != nil {
		return pyrt.RunReply{}, fmt.Errorf("run: %s: cancelled", cmd.argv[0])
	}
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			if errors.Is(err, exec.ErrWaitDelay) {
				err = nil // a background child kept the output open
			} else {
				return pyrt.RunReply{}, fmt.Errorf("run: %s: %s", cmd.argv[0], classifyText(err))
			}
		}
	}
	if ps := x.ProcessState; ps != nil {
		code = ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = -int(ws.Signal())
		}
	}
	return pyrt.RunReply{ExitCode: code,
		Stdout:   strings.ToValidUTF8(out.b.String(), "\uFFFD"),
		Stderr:   strings.ToValidUTF8(errb.b.String(), "\uFFFD"),
		TimedOut: ctx.Err() == context.DeadlineExceeded}, nil
}

// commandSet is the run() commands started and not yet waited for; the
// orphans of commands that harness adopted as a subreaper are reaped after
// each command (reaper.SweepOrphans), so none stays a zombie.
type commandSet struct {
	mu   sync.Mutex
	live map[int]bool
}

var commands = &commandSet{live: map[int]bool{}}

// done forgets the command pid, whose environment was env, and sweeps the
// orphans of commands marked as its (reaper.MarkVar).
func (c *commandSet) done(pid int, env []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.live, pid)
	for _, kv := range env {
		if strings.HasPrefix(kv, reaper.MarkVar+"=") {
			reaper.SweepOrphans(kv, func(pid int) bool { return c.live[pid] })
		}
	}
}

// capped is one output stream; both streams of a command share a sink
// that kills the command once they together pass the limit.
type capped struct {
	b    bytes.Buffer
	sink *sink
}

type sink struct {
	mu       sync.Mutex
	total    int64
	limit    int64
	over     func()
	exceeded bool
}

func (w *capped) Write(p []byte) (int, error) {
	s := w.sink
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.total+int64(len(p)) > s.limit {
		if !s.exceeded {
			s.exceeded = true
			s.over()
		}
		return 0, errors.New("output limit")
	}
	s.total += int64(len(p))
	return w.b.Write(p)
}

// classifyText describes an OS error without its path.
func classifyText(err error) string {
	k, reason := classify(err)
	if reason != "" {
		return k.String() + ": " + reason
	}
	return k.String()
}
