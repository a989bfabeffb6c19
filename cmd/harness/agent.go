// Agent runs from the command line: -p, --json, --resume, --system-prompt.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"harness/config"
	"harness/failures"
	"harness/headless"
	"harness/prompts"
	"harness/reaper"
	"harness/redact"
	"harness/rlm"
	"harness/sessions"
	"harness/ui"
)

// agentFlags are the options of a conversation run.
type agentFlags struct {
	prompt    string // -p value; "-" reads stdin
	hasPrompt bool
	json      bool
	resume    string // --resume NAME
	hasResume bool   // --resume given, with or without NAME
	system    *string
}

// parseAgentFlags parses -p, --json, --resume [NAME] and --system-prompt.
// Each takes its value from the next argument (or after "="); --resume takes
// a following argument as NAME unless it starts with "-".
func parseAgentFlags(args []string) (agentFlags, error) {
	var f agentFlags
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(args[i], "=")
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
		var err error
		switch name {
		case "-p":
			f.hasPrompt = true
			f.prompt, err = next()
		case "--json", "-json":
			if hasVal {
				return f, errors.New("--json takes no value")
			}
			f.json = true
		case "--resume", "-resume":
			f.hasResume = true
			if hasVal {
				f.resume = val
			} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				f.resume = args[i]
			}
		case "--system-prompt", "-system-prompt":
			var s string
			s, err = next()
			f.system = &s
		default:
			return f, fmt.Errorf("unknown argument %q", args[i])
		}
		if err != nil {
			return f, err
		}
	}
	if f.json && !f.hasPrompt {
		return f, errors.New("--json needs -p PROMPT (it prints a headless run)")
	}
	if f.hasResume && f.hasPrompt && f.resume == "" {
		return f, errors.New("--resume needs a session NAME with -p (run harness --resume to list them)")
	}
	return f, nil
}

// mainAgent runs harness with conversation arguments (-p, --json,
// --resume, --system-prompt, or none for the UI) in the current directory:
// it parses them, loads the configuration and calls runAgent.
func mainAgent(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, err := parseAgentFlags(args)
	if err != nil {
		fmt.Fprintf(stderr, "harness: %v\n\n%s", err, usage)
		return exitUsage
	}
	cfg, code := loadConfig(stderr)
	if code != exitOK {
		return code
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "harness: current directory:", err)
		return exitError
	}
	commands = newCommands()
	return runAgent(context.Background(), cfg, f, wd, stdin, stdout, stderr)
}

// commands kills the process groups of run() commands if harness ends
// while they run, even by SIGKILL. It is set for the real program only
// (tests calling runAgent in-process run without one: the test binary
// cannot be the helper there).
var commands *reaper.Reaper

// newCommands returns the reaper of this harness process, makes the
// process a child subreaper, so that what a command leaves behind stays
// below harness, which kills everything below it as it ends (exitCode),
// and hides harness's environment from its /proc entry.
func newCommands() *reaper.Reaper {
	hideEnviron()
	reaper.Subreap()
	return reaper.New(reaperExe)
}

// exitCode is the last step of the real program: with a reaper (the
// agent, acp, repl and replib modes), it kills every process below harness
// (workers, MCP servers, what commands left in the background), so none
// outlives it, and returns code.
func exitCode(code int) int {
	commands.Shutdown()
	return code
}

// reaperExe is the reaper's binary; "" is harness itself.
var reaperExe = ""

// runAgent runs what f asks for after the configuration loaded: the
// session list (--resume alone), a headless turn (-p), or the UI.
func runAgent(ctx context.Context, cfg *config.Config, f agentFlags, launchDir string, stdin io.Reader, stdout, stderr io.Writer) int {
	st := sessions.Store{Dir: cfg.SessionsDir()}
	if f.hasResume && f.resume == "" && !f.hasPrompt {
		if !onTerminal(stdin, stdout) {
			return listSessions(st, stdout, stderr)
		}
		name, code := pickSession(cfg, st, stderr)
		if name == "" {
			return code
		}
		f.resume = name
	}
	go commands.Start() // ready before the first command, without delaying the start
	if !f.hasPrompt {
		return runInteractive(cfg, f, launchDir, stdout, stderr)
	}
	prompt := f.prompt
	if prompt == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintln(stderr, "harness: read the prompt from stdin:", err)
			return exitError
		}
		prompt = string(b)
	}
	if strings.TrimSpace(prompt) == "" {
		fmt.Fprintln(stderr, "harness: the prompt is empty; give it with -p TEXT, or -p - to read it from stdin")
		return exitUsage
	}
	for _, warning := range keyWarnings(cfg) {
		fmt.Fprintf(stderr, "harness: warning: %s\n", warning)
	}
	w, code := wire(cfg, f, launchDir, st, headless.Deny{}, stderr)
	if code != exitOK {
		return code
	}
	defer w.close()
	set := promptSet(cfg, w.dir)
	for _, p := range set.Problems {
		fmt.Fprintf(stderr, "harness: warning: %s\n", p)
	}
	var turner headless.Turner = w.runner
	if name, args, ok := prompts.Split(prompt); ok && (name == "compact" || name == "context") {
		turner = contextTurner{w: w, name: name, focus: strings.TrimSpace(args)}
	} else if msg, ok := set.Resolve(prompt); ok {
		prompt = msg // -p "/review main.go", -p /init
	}
	ctx, sig, stop := interruptible(ctx, stderr)
	defer stop()
	return sig.code(headless.Run(ctx, turner, w.stream, prompt, headless.NewPrinter(f.json, stdout, stderr)))
}

// contextTurner runs -p "/compact [focus]" and -p /context in place of a
// turn: the answer (the report, or what /compact did) is the turn's text.
type contextTurner struct {
	w           *wired
	name, focus string
}

func (c contextTurner) Turn(ctx context.Context, _ string) (rlm.Result, error) {
	root := rlm.Agent{Name: c.w.session.Name()}
	var err error
	text := c.w.runner.ContextReport()
	if c.name == "compact" {
		text = "Compacted: the earlier turns are summarised in the requests; the session file keeps them."
		if err = c.w.runner.Compact(ctx, c.focus); err != nil {
			text = "/compact: " + err.Error()
			c.w.stream.Emit(rlm.Error{Agent: root, Message: text})
		}
	}
	res := rlm.Result{Status: rlm.Done, Text: text}
	if err != nil {
		res.Status = rlm.Failed
	}
	c.w.stream.Emit(rlm.TurnDone{Agent: root, Status: res.Status, Text: text})
	return res, err
}

// onTerminal reports whether stdin and stdout are both terminals, as a
// full-screen picker needs.
func onTerminal(stdin io.Reader, stdout io.Writer) bool {
	return isTerminal(stdin) && isTerminal(stdout)
}

// isTerminal reports whether f is an *os.File on a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// pickSession lets the person choose a saved session full-screen
// (ui.Pick); "" with the exit code when there is none or they quit.
func pickSession(cfg *config.Config, st sessions.Store, stderr io.Writer) (string, int) {
	list, err := st.List()
	if err != nil {
		fmt.Fprintln(stderr, "harness:", err)
		return "", exitError
	}
	if len(list) == 0 {
		fmt.Fprintf(stderr, "harness: no saved sessions in %s; start one with: harness\n", st.Dir)
		return "", exitOK
	}
	home, _ := os.UserHomeDir()
	name, err := ui.Pick(ui.PickOptions{Theme: cfg.Theme, Sessions: list, Home: home,
		InUse: func(name string) (bool, int) { return sessions.InUse(filepath.Join(st.Dir, name)) }})
	if err != nil {
		fmt.Fprint(stderr, uiFailure(err))
		return "", exitError
	}
	return name, exitOK
}

// listSessions prints the saved sessions, least recently updated first.
func listSessions(st sessions.Store, stdout, stderr io.Writer) int {
	list, err := st.List()
	if err != nil {
		fmt.Fprintln(stderr, "harness:", err)
		return exitError
	}
	if len(list) == 0 {
		fmt.Fprintf(stderr, "harness: no saved sessions in %s\n", st.Dir)
		return exitOK
	}
	for _, s := range list {
		fmt.Fprintf(stdout, "%s  %s  %s%s\n", s.Name, s.Updated.Local().Format("2006-01-02 15:04"), inUseMark(s), s.Preview)
	}
	fmt.Fprintln(stderr, "harness: continue one with: harness --resume NAME (add -p PROMPT to run one turn headless)")
	return exitOK
}

// inUseMark marks a listed session another process has open.
func inUseMark(s sessions.Info) string {
	switch {
	case !s.InUse:
		return ""
	case s.PID > 0:
		return fmt.Sprintf("[in use by pid %d]  ", s.PID)
	}
	return "[in use]  "
}

// wired is one session's root agent with what it holds open.
type wired struct {
	*roots
	runner  *rlm.Runner
	stream  *rlm.Stream
	session *sessions.Session
}

// close releases the session (its lock) and the roots.
func (w *wired) close() {
	w.session.Close()
	w.roots.close()
}

// wire builds the root agent: a new session, or the one f.resume names.
// The repository's permission level is the configured one.
func wire(cfg *config.Config, f agentFlags, launchDir string, st sessions.Store, ap rlm.Approver, stderr io.Writer) (*wired, int) {
	level := func() config.Permission { return cfg.REPL.Permission }
	rs, code := openRoots(cfg, launchDir, level, stderr)
	if code != exitOK {
		return nil, code
	}
	w := &wired{roots: rs, stream: rlm.NewStream()}
	red := redactor(cfg)
	// Headless, a server that fails to start or stops is an error line.
	rs.startMCP(cfg, failures.Open(cfg.Home).Redacting(red.String), func(n failures.Note, _ int) {
		if n.Kind == failures.KindMCP {
			w.stream.Emit(rlm.Error{Message: n.Message})
		}
	})
	var conv *sessions.File
	if w.session, conv, code = openSession(st, f.resume, red, rs.dir, stderr); code != exitOK {
		rs.close()
		return nil, code
	}
	var err error
	parts := agentParts{system: systemPrompt(cfg, f), approver: ap, events: w.stream, redactor: red, roomAdvice: headlessRoom}
	if w.runner, err = rs.newRunner(cfg, parts, w.session, conv); err != nil {
		w.session.Close()
		rs.close()
		fmt.Fprintf(stderr, "harness: %v\n", err)
		return nil, exitError
	}
	return w, exitOK
}

// headlessRoom says how to make room when the conversation of session
// name no longer fits the model's context, for a headless run.
func headlessRoom(name string) string {
	return "start a new session (run harness -p without --resume), " +
		"or open this one in the UI (harness --resume " + name + ") and hide earlier turns in its context overlay"
}

// openSession returns a new session when name is "", else the saved session
// name with its root conversation, printing any error to stderr.
func openSession(st sessions.Store, name string, red *redact.Redactor, dir string, stderr io.Writer) (*sessions.Session, *sessions.File, int) {
	if name == "" {
		return st.New(red), nil, exitOK
	}
	s, err := st.Open(name, red)
	if err != nil {
		fmt.Fprintf(stderr, "harness: %v\n", err)
		return nil, nil, exitUsage
	}
	if err := s.LockProblem(); err != nil {
		fmt.Fprintf(stderr, "harness: note: session %s is not protected against a second harness opening it: %v\n", name, err)
	}
	conv, err := s.LoadRoot()
	if err != nil {
		s.Close()
		fmt.Fprintf(stderr, "harness: cannot resume session %s: %v\n", name, err)
		return nil, nil, exitError
	}
	if conv.Local.Repository != dir {
		fmt.Fprintf(stderr, "harness: note: session %s was started in %s; its agents now work in %s\n", name, conv.Local.Repository, dir)
	}
	return s, conv, exitOK
}

// environ is the environment commands and stdio MCP servers start from
// (before [commands] env_filter): see config.Config.Environ.
func environ(cfg *config.Config) func() []string { return cfg.Environ }

// commandEnviron is the environment of run() commands: environ's and the
// reaper's mark, by which it finds what they started once harness is gone.
// MCP servers, which harness waits for itself, do not get it.
func commandEnviron(cfg *config.Config) func() []string {
	mark := commands.Env()
	if mark == "" {
		return cfg.Environ
	}
	return func() []string { return append(cfg.Environ(), mark) }
}
