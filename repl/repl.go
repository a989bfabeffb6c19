// REPL construction, the Exec round trip and state resets.

package repl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/config"
	"harness/failures"
	"harness/jail"
	"harness/repl/modslots"
	"harness/repl/pyrt"
	"harness/repl/pystr"
	"harness/repl/rewrite"
	"harness/sandbox"
	"harness/worker"
)

// Approver decides whether a host operation may go ahead. operation is a JSON
// object {"operation", "executable", "arguments", "working_directory", …}
// (see run.go). The UI asks the user; headless mode denies. A non-nil error
// is treated as a refusal and its text is shown to the model.
type Approver interface {
	Approve(ctx context.Context, operation json.RawMessage) (bool, error)
}

// WorkerSource hands out started worker processes (*worker.Pool).
type WorkerSource interface {
	Get() (*worker.Process, error)
}

// Options are what one REPL needs. Repository is required; the getters may be
// nil (FYI then prints "unknown").
type Options struct {
	Depth      int
	Repository *jail.Root // always present
	Store      *jail.Root // nil when there is no store
	Library    *jail.Root // non-nil at depth >= 2

	Home        string // $HARNESS_HOME: replib/, repl-notes.md
	OutputLimit int    // bytes of result per call; 0 means no cap
	MaxMemoryMB int    // 0 means no memory limit
	Commands    config.Commands

	RepoDir  string          // host path of the repository, used by run() only, never shown
	Environ  func() []string // environment for children before env_filter (default os.Environ)
	Approver Approver        // nil denies every operation that needs approval
	// AskWrites: a write to the repository that the permission level
	// refuses is put to the Approver first (an "write" operation, see
	// package approval), which may let it through once; without it, or
	// when the Approver says no, it is refused as always. The UI sets it;
	// headless runs and editors do not.
	AskWrites bool
	// Siblings: other subagents may run at the same time ([rlm] parallel
	// > 1); help()'s Files section then says how their writes to /store
	// meet.
	Siblings bool
	// Watch, when set, is told the process group of each run() command once
	// it started, and the returned function is called once the command was
	// waited for (cmd/harness gives a reaper.Reaper's Watch, so the group
	// dies with harness even when harness is SIGKILLed).
	Watch func(pgid int) (release func())
	// OnCommand, when set, is told each run() command as it starts (its
	// arguments, the first its name as written); the function it returns
	// is called when the command has ended. The UI shows a long command
	// under its call with it.
	OnCommand func(argv []string) (ended func())

	Model        func() string
	PromptTokens func() (n int, estimated bool)
	// Window is the model's context window in tokens, 0 while unknown
	// (FYI then leaves its line out). May be nil.
	Window func() int

	// MCP, when set, gives REPL code mcp() and mcp_tools() and help() its
	// "MCP servers" section.
	MCP MCP

	// OnTouch, when set, is told the repository-relative path ("." for the
	// repository itself) of every repository path the code of a call
	// resolved: opened, listed, tested, written or removed, through Path,
	// open(), os and the other file functions. Each path is told once per
	// call, in the order first touched, after the call ran and before
	// Exec returns, on the goroutine calling Exec (at most 4096 a call).
	OnTouch func(path string)

	// Output receives printed text as it is printed, so a UI can show it
	// while the call runs. It is called, one call at a time, from the
	// goroutine running the call while Exec waits, never after Exec returns.
	Output func(string)

	Failures *failures.Log // may be nil
	Session  string        // session field of failure notes
	// OnFailure, when set, is told about each failure note recorded during a
	// call, with its occurrence count across sessions (0 when the log could
	// not be read).
	OnFailure func(note failures.Note, count int)

	// Sandbox, when set ([commands] sandbox = "workspace"), confines every
	// command run() starts: the caller fills in the host directories it may
	// write (the repository, the store, the temp folder, [commands]
	// writable). Commands.Sandbox, Writable and Network describe it in help().
	Sandbox *sandbox.Policy

	// Workers, when set, runs the interpreter in a worker process taken from
	// it (a *worker.Pool; see the package documentation, Workers);
	// otherwise it runs in this process.
	Workers WorkerSource

	link       hostLink // in a worker: host calls cross to the parent
	protection string   // in a worker: help()'s Protection line
	testHooks  bool     // in a test binary's worker: predeclare testBuiltins
}

// interp is one generation of a REPL's Starlark state: the thread, the
// globals and everything builtins reach. A REPL replaces its interp when
// the state is lost; an abandoned interp is never touched again by the
// REPL, and its builtins reach only their own interp.
type interp struct {
	*pyrt.Interp // the runtime's state (package pyrt)

	opts Options

	helpers    []helper  // public helper functions, in load order
	loadErrors []string  // files that failed to load, one message each
	helperLog  helperLog // each helper file as it loaded (helperfiles.go)
	loadReport string    // shown at the start of the next result, then cleared
	info       atomic.Pointer[loadInfo]

	onStepsCount int                       // calls of onSteps, for spacing memory checks
	retained     int64                     // bytes held by globals after the last call (an upper bound)
	walked       int64                     // retained as of the last walk of the globals
	walks        int                       // walks of the globals, for tests
	call         atomic.Pointer[callState] // the running call, nil between calls
	resets       int                       // state resets, so a worker can tell its parent

	// remote is set on the parent's side of a worker: this interp then
	// holds only the options, the call in progress and the helpers'
	// description; the interpreter runs in remote's process.
	remote *remote

	predeclared map[string]bool // names bound before REPL code ran: read directly in functions
}

// newInterp builds an interpreter and loads the helper files.
func newInterp(opts Options) *interp {
	r := &interp{opts: opts, Interp: &pyrt.Interp{FileOpts: rewrite.FileOptions(), ReCache: pyrt.NewRegexpCache()}}
	r.Interp.Host = pyrtHost{r}
	if opts.AskWrites && opts.Repository != nil {
		r.opts.Repository = opts.Repository.Asking(r.askWrite)
	}
	r.reset()
	return r
}

// reset discards all state and starts a fresh interpreter with the helpers
// loaded again.
func (r *interp) reset() {
	r.CloseGenerators()
	r.Thread = &starlark.Thread{Name: "repl", Print: r.print}
	r.Thread.OnMaxSteps = r.onSteps
	r.Thread.SetLocal(pyrt.ThreadInterp, r.Interp)
	r.Thread.SetMaxExecutionSteps(pyrt.StepInterval)
	r.Cwd = "/" + jail.Repository
	r.Modules, r.Slots, r.Handling, r.OpenFiles, r.Dt = map[string]starlark.Value{}, map[*starlark.Module]*modslots.Slots{}, nil, nil, nil
	r.Globals = r.builtins()
	r.retained, r.walked = 0, 0
	r.resets++
	r.helperLog = newHelperLog(r.Globals)
	r.loadHelpers()
	r.predeclared = make(map[string]bool, len(r.Globals))
	for name := range r.Globals {
		r.predeclared[name] = true
	}
}

// begin installs a call of code; it runs on the goroutine calling Exec.
func (r *interp) begin(ctx context.Context, code string) *callState {
	r.Thread.Uncancel()
	r.IterErr, r.IterThread = nil, nil
	c := newCall(r, ctx, code)
	r.setCall(c)
	return c
}

// runCall evaluates the call installed by begin and returns its result and
// whether it failed. It runs on a goroutine of its own; when the REPL has
// abandoned the call meanwhile, the result is dropped unbuilt.
func (r *interp) runCall(c *callState) (string, bool) {
	value, err := r.evaluate(c, c.code)
	err = r.IterError(err)
	if pyrt.QuietExit(err) {
		value, err = nil, nil // sys.exit(0): the program ended as a script ends
	}
	r.CloseGenerators()
	unwound := c.phase.CompareAndSwap(phaseRunning, phaseUnwound)
	c.finish() // no stop can arrive after this
	if !unwound {
		return "", true // abandoned: nobody reads the result
	}
	out := r.result(c, value, err)
	r.setCall(nil)
	return out, err != nil || c.stopped()
}

// evaluate rewrites, parses and executes code, recovering Go panics.
func (r *interp) evaluate(c *callState, code string) (value starlark.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.crash = fmt.Sprintf("%v\n%s", p, debug.Stack())
			c.stop(pyrt.StopCrash)
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	r.ReprErr = nil // an earlier call's, never taken
	pre, perr := rewrite.Prepass(code)
	if perr != nil {
		c.refused = true
		return nil, refusal(code, perr)
	}
	c.pm = pre.PM
	f, err := r.FileOpts.Parse("repl", pre.Text, 0)
	if err != nil {
		return nil, err
	}
	if r.SetAttrNames == nil {
		r.SetAttrNames = map[string]bool{}
	}
	if err := rewrite.ASTPass(f, rewrite.ASTOptions{Loads: pre.Loads, Marks: pre.Marks, LiveGlobal: r.isLive, Methods: pyrt.PyMethods, SetAttrs: r.SetAttrNames}); err != nil {
		return nil, err
	}
	pyrt.GuardRepeats(f)
	var last syntax.Expr
	if n := len(f.Stmts); n > 0 {
		if es, ok := f.Stmts[n-1].(*syntax.ExprStmt); ok {
			if _, marker := rewrite.MarkerCall(es.X); !pyrt.StmtMarkers[marker] {
				last = es.X
				f.Stmts = f.Stmts[:n-1]
			}
		}
	}
	if len(f.Stmts) > 0 {
		if err := r.RunStmts(f, f.Stmts); err != nil {
			return nil, err
		}
	}
	if last == nil {
		return starlark.None, nil
	}
	v, err := starlark.EvalExprOptions(r.FileOpts, r.Thread, last, r.Globals)
	if err != nil || v == starlark.None {
		return v, err
	}
	// The repr is written now, while the call runs: a class's __repr__
	// is REPL code, under the call's limits, and its error is the call's.
	text, err := r.TextWithMethods(func() string { return pyrt.PyRepr(v) })
	if err != nil {
		return nil, err
	}
	return shownValue(text), nil
}

// shownValue is a call's trailing value as its repr, written while the
// call ran.
type shownValue string

func (s shownValue) String() string        { return string(s) }
func (s shownValue) ReprPy() string        { return string(s) }
func (s shownValue) Type() string          { return "repr" }
func (s shownValue) Freeze()               {}
func (s shownValue) Truth() starlark.Bool  { return true }
func (s shownValue) Hash() (uint32, error) { return starlark.String(s).Hash() }

// isLive reports whether a global read in a function is looked up when it
// runs: names bound by REPL code are; predeclared names are read directly.
func (r *interp) isLive(name string) bool {
	return !r.predeclared[name] && !starlark.Universe.Has(name)
}

// refusal is the error for a form the pre-pass refuses, at the user's
// line and column.
func refusal(code string, err error) error {
	pe := err.(*rewrite.Error)
	line, col := rewrite.LineCol(code, rewrite.LineStarts(code), pe.Pos)
	name := "repl"
	return &syntax.Error{Pos: syntax.MakePosition(&name, int32(line), int32(col)), Msg: pe.Msg}
}

// result turns the outcome of a call into the model's text, resetting the
// interpreter when the call was stopped for memory or crashed.
func (r *interp) result(c *callState, value starlark.Value, err error) string {
	var sb strings.Builder
	if err == nil && value != nil && value != starlark.None {
		sb.WriteString(pyrt.PyRepr(value))
	}
	if note := r.FlushFiles(); note != "" {
		c.write(note + "\n")
	}
	pystr.Cache.Reset()
	clear(r.Slots)
	reason := c.reason()
	lost := reason == pyrt.StopMemory || reason == pyrt.StopCrash
	if !lost && r.opts.MaxMemoryMB > 0 {
		if r.updateRetained(c.mem.allocated()); r.retained > r.limitBytes() {
			lost, reason = true, pyrt.StopMemory
		}
	}
	switch {
	case lost:
		if sb.Len() > 0 {
			sb.WriteString("\n")
		}
		sb.WriteString(r.stateLostText(reason, c))
		r.setCall(nil) // each helper file loads as a call of its own
		r.reset()
		// The next call's budget counts from the live heap of the last
		// collection: collect the discarded state now, or it would count
		// as that base and the budget would be too large by its size.
		runtime.GC()
	case err != nil:
		if sb.Len() > 0 {
			sb.WriteString("\n")
		}
		text := c.errorText(err, reason)
		sb.WriteString(text)
		if row, ok := matchUseInstead(c.code, err); ok {
			hint := row.hint()
			sb.WriteString("\n" + hint)
			c.note(failures.KindUnsupported, hint+"\n"+firstLine(pyrt.ErrorMessage(err)))
		} else if gap := r.gap(c, err); gap != "" {
			c.note(failures.KindUnsupported, gap+"\n"+firstLine(pyrt.ErrorMessage(err)))
		}
	}
	t := tail{text: sb.String(), isError: err != nil || lost}
	out := assemble(r.takeLoadReport(), c.out.String(), c.out.omitted, t, r.opts.OutputLimit)
	c.flushNotes()
	return out
}

// takeLoadReport returns the pending helper load report once.
func (r *interp) takeLoadReport() string {
	s := r.loadReport
	r.loadReport = ""
	return s
}

// stateLostText says plainly what a memory stop or a crash discarded.
func (r *interp) stateLostText(reason pyrt.StopKind, c *callState) string {
	var why string
	if reason == pyrt.StopMemory {
		why = fmt.Sprintf("The call was stopped because this REPL passed its memory limit (max_memory_mb = %d).", r.opts.MaxMemoryMB)
	} else {
		why = "The call crashed the interpreter (" + firstLine(c.crash) + ")."
	}
	return stateLost(why, "Work on smaller pieces (read files in parts, keep fewer results in memory).")
}

// stateLost is the notice of a state reset: why, what is gone, advice.
func stateLost(why, advice string) string {
	return "REPL state lost: " + why + " Every variable and function defined by earlier calls is gone, " +
		strings.TrimSpace("the helper functions were reloaded, and the next call starts fresh. "+advice)
}

// cancelledText is the result of a call the user stopped.
const cancelledText = "cancelled: the call was stopped by the user (Esc)"

// errorText formats an error the way the model sees it, with positions in
// rewritten code given as the user's lines and columns.
func (c *callState) errorText(err error, reason pyrt.StopKind) string {
	if reason == pyrt.StopCancel {
		return cancelledText
	}
	var itf *pyrt.IterFailure
	if errors.As(err, &itf) {
		return itf.Text(c.mapPos)
	}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		return c.r.Backtrace(ee.CallStack, ee.Msg, ee, c.mapPos)
	}
	var se syntax.Error
	if errors.As(err, &se) {
		se.Pos = c.mapPos(se.Pos)
		return se.Error()
	}
	var pse *syntax.Error
	if errors.As(err, &pse) {
		e := *pse
		e.Pos = c.mapPos(e.Pos)
		return e.Error()
	}
	var rl resolve.ErrorList
	if errors.As(err, &rl) {
		var lines []string
		for _, e := range rl {
			e.Pos = c.mapPos(e.Pos)
			lines = append(lines, e.Error())
		}
		return strings.Join(lines, "\n")
	}
	return err.Error()
}

// mapPos maps a position in the code Starlark ran to the user's code.
func (c *callState) mapPos(p syntax.Position) syntax.Position {
	if c == nil || c.pm == nil || p.Filename() != "repl" {
		return p
	}
	line, col := c.pm.Position(int(p.Line), int(p.Col))
	name := "repl"
	return syntax.MakePosition(&name, int32(line), int32(col))
}

func (r *interp) setCall(c *callState)    { r.call.Store(c) }
func (r *interp) currentCall() *callState { return r.call.Load() }

// print is the thread's print hook.
func (r *interp) print(_ *starlark.Thread, msg string) {
	c := r.call.Load()
	if c == nil {
		return // top-level prints of helper files while loading
	}
	c.write(msg + "\n")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func backtrace(e *starlark.EvalError, pos func(syntax.Position) syntax.Position) string {
	return pyrt.BacktraceOf(e.CallStack, e.Msg, e, pos)
}
