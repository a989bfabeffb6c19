// harness repl: the REPL a depth-1 subagent of a session started here
// gets, at the terminal (package replterm) or for one call (-c, FILE, -).

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"harness/config"
	"harness/failures"
	"harness/jail"
	"harness/repl"
	"harness/replterm"
	"harness/rlm"
	"harness/sessions"
)

const replUsage = `Usage:
  harness repl [--permission LEVEL] [--library NAME]
        an interactive REPL in the current directory, as a depth-1 subagent of
        a session started here has it (mounts, helpers, MCP servers, worker,
        [commands] rules; approvals are asked here)
  harness repl [--permission LEVEL] [--library NAME] -c CODE | FILE | -
        run CODE, the file FILE or stdin (-) as one call and print its result
        as the subagent would receive it

  --permission LEVEL  none, read-only or read-write for this run (never saved;
                      default [repl] permission)
  --library NAME      mount saved session NAME's conversations at /library,
                      read-only

Exit codes: 0 done, 1 the call ended in an error (or the REPL could not
start), 2 bad usage or configuration; for one call, 130 after SIGINT (the
call is stopped and its result printed), 143 after SIGTERM.
At the >>> prompt, :help lists the workbench commands (:reload, :reset).
`

// replFlags are harness repl's arguments.
type replFlags struct {
	permission *config.Permission
	library    string
	code       *string // -c CODE
	file       string  // FILE, or "-" for stdin
}

// parseREPLFlags parses harness repl's arguments; help reports -h.
func parseREPLFlags(args []string) (f replFlags, help bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		next := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", name)
			}
			i++
			return args[i], nil
		}
		switch {
		case a == "-h" || a == "--help" || a == "-help":
			return f, true, nil
		case name == "--permission" || name == "-permission":
			v, err := next()
			if err != nil {
				return f, false, err
			}
			p, ok := config.ParsePermission(v)
			if !ok {
				return f, false, fmt.Errorf("--permission %q: want none, read-only or read-write", v)
			}
			f.permission = &p
		case name == "--library" || name == "-library":
			if f.library, err = next(); err != nil {
				return f, false, err
			}
		case a == "-c":
			if i+1 >= len(args) {
				return f, false, errors.New("-c needs the code to run")
			}
			i++
			code := args[i]
			f.code = &code
		case a == "-" || !strings.HasPrefix(a, "-"):
			if f.file != "" {
				return f, false, fmt.Errorf("one FILE at most (got %q and %q)", f.file, a)
			}
			f.file = a
		default:
			return f, false, fmt.Errorf("unknown argument %q", a)
		}
	}
	if f.code != nil && f.file != "" {
		return f, false, fmt.Errorf("give -c CODE or FILE, not both")
	}
	return f, false, nil
}

func cmdREPL(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, help, err := parseREPLFlags(args)
	if help {
		fmt.Fprint(stdout, replUsage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "harness repl: %v\n\n%s", err, replUsage)
		return exitUsage
	}
	code, interactive := "", f.code == nil && f.file == "" && onTerminal(stdin, stdout)
	if !interactive {
		var ok bool
		if code, ok = replSource(f, stdin, stderr); !ok {
			return exitUsage
		}
	}
	cfg, rc := loadConfig(stderr)
	if rc != exitOK {
		return rc
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "harness repl: current directory:", err)
		return exitError
	}
	commands = newCommands()
	go commands.Start()
	level := cfg.REPL.Permission
	if f.permission != nil {
		level = *f.permission
	}
	w, rc := openWorkbench(cfg, wd, level, f.library, stderr)
	if rc != exitOK {
		return rc
	}
	defer w.close()
	if interactive {
		return w.interactive()
	}
	return w.once(code, f.code == nil && f.file == "-", stdin, stdout, stderr)
}

// replSource is the code of a non-interactive run: -c CODE, FILE, or
// stdin (-, or no argument when stdin is not a terminal).
func replSource(f replFlags, stdin io.Reader, stderr io.Writer) (string, bool) {
	switch {
	case f.code != nil:
		return *f.code, true
	case f.file == "" || f.file == "-":
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintln(stderr, "harness repl: read stdin:", err)
			return "", false
		}
		return string(b), true
	}
	b, err := os.ReadFile(f.file)
	if err != nil {
		fmt.Fprintf(stderr, "harness repl: %v\n", err)
		return "", false
	}
	return string(b), true
}

// replSession names harness repl's REPL in failure notes of MCP calls.
const replSession = "harness-repl"

// workbench is what harness repl's REPLs are built from: the roots of
// the launch directory at one permission level, the library of
// --library, and the configuration.
type workbench struct {
	*roots
	cfg     *config.Config
	library *jail.Root // nil without --library
	level   config.Permission
	notice  func(string) // MCP servers' failures and progress
}

// openWorkbench opens the roots (and the library of session library,
// when given), printing errors to stderr.
func openWorkbench(cfg *config.Config, launchDir string, level config.Permission, library string, stderr io.Writer) (*workbench, int) {
	rs, code := openRoots(cfg, launchDir, func() config.Permission { return level }, stderr)
	if code != exitOK {
		return nil, code
	}
	w := &workbench{roots: rs, cfg: cfg, level: level, notice: func(s string) { fmt.Fprintln(stderr, "harness repl: "+s) }}
	if library != "" {
		dir, err := sessions.Store{Dir: cfg.SessionsDir()}.LibraryDir(library)
		if err == nil {
			w.library, err = jail.Open(jail.Library, dir, nil)
		}
		if err != nil {
			rs.close()
			fmt.Fprintf(stderr, "harness repl: --library: %v\n", err)
			return nil, exitUsage
		}
	}
	return w, exitOK
}

// startMCP starts the configured MCP servers; their failures are notices.
func (w *workbench) startMCP() {
	w.roots.startMCP(w.cfg, failures.Open(w.cfg.Home).Redacting(redactor(w.cfg).String), func(n failures.Note, _ int) {
		if n.Kind == failures.KindMCP {
			w.notice(n.Message)
		}
	})
}

func (w *workbench) close() {
	if w.library != nil {
		w.library.Close()
	}
	w.roots.close()
}

// newREPL builds the REPL a depth-1 subagent gets, its printed output
// going to out (may be nil) and its approvals to ap (nil refuses).
func (w *workbench) newREPL(base repl.Options, out func(string), ap repl.Approver) (*repl.REPL, error) {
	var mcp repl.MCP
	var rap rlm.Approver
	if ap != nil {
		rap = ap
	}
	if w.mcp != nil {
		mcp = rlm.REPLMCP(w.mcp, rap, replSession, w.notice)
	}
	return repl.New(rlm.REPLOptions(base, rlm.REPLEnv{
		Depth: 1, Library: w.library, Output: out, Approver: rap,
		Model: func() string { return w.cfg.Endpoint.Model }, Session: replSession, MCP: mcp,
	}))
}

// interactive runs the prompt loop on the terminal.
func (w *workbench) interactive() int {
	var t *replterm.Terminal
	t = replterm.New(replterm.Options{
		New: func() (replterm.REPL, error) {
			r, err := w.newREPL(w.replOptions(w.cfg, nil, nil), t.Output, t)
			if err != nil {
				return nil, err
			}
			return r, nil
		},
		HistoryPath: filepath.Join(w.cfg.Home, "repl_history"),
		Banner:      w.banner(),
		Describe:    describer(w.cfg),
	})
	w.notice = t.Notice
	w.startMCP()
	return t.Run()
}

// banner is printed before the first prompt.
func (w *workbench) banner() string {
	mounts := "/repository " + w.level.String()
	if w.store != nil {
		mounts += ", /store"
	}
	if w.library != nil {
		mounts += ", /library"
	}
	files, _ := filepath.Glob(filepath.Join(w.cfg.Home, "replib", "*.star"))
	return fmt.Sprintf("harness repl in %s: the REPL of a depth-1 subagent (%s; %d helper files).\n"+
		"help() is its manual, :help lists the workbench commands, Ctrl+D exits.\n", w.dir, mounts, len(files))
}

// errNoOneToApprove refuses approvals when no one is at a terminal.
var errNoOneToApprove = errors.New("denied: harness repl runs without a terminal on stdin, so no one can approve this operation. " +
	"Commands listed in [commands.allow], and MCP tools on their server's allow list, run without approval; " +
	"run harness repl at a terminal to be asked")

// refuse is the approver without a terminal.
type refuse struct{}

func (refuse) Approve(context.Context, json.RawMessage) (bool, error) {
	return false, errNoOneToApprove
}

// once runs code as one call and prints its result; approvals are asked
// on the terminal when stdin is one (and does not hold the code).
func (w *workbench) once(code string, codeOnStdin bool, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ap repl.Approver = refuse{}
	var t *replterm.Terminal
	if !codeOnStdin && isTerminal(stdin) {
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			defer tty.Close()
			t = replterm.New(replterm.Options{In: tty, Out: tty, Describe: describer(w.cfg)})
			ap = t
			defer t.Running(cancel)()
		}
	}
	w.startMCP()
	r, err := w.newREPL(w.replOptions(w.cfg, nil, nil), nil, ap)
	if err != nil {
		fmt.Fprintln(stderr, "harness repl:", err)
		return exitError
	}
	defer r.Close()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	caught := newCaught()
	go func() {
		select {
		case s := <-sigs:
			caught.set(s)
			cancel()
		case <-ctx.Done():
		}
	}()
	out, failed := r.Run(ctx, code)
	fmt.Fprintln(stdout, out)
	select {
	case <-caught.got:
		caught.mu.Lock()
		defer caught.mu.Unlock()
		return signalCode(caught.sig)
	default:
	}
	if failed {
		return exitError
	}
	return exitOK
}
