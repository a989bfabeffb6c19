// Runner: the root agent of one session and the turns it runs.

package rlm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"harness/config"
	"harness/jail"
	"harness/llm"
	"harness/redact"
	"harness/sessions"
)

// Options are what a Runner needs. Config, Client, Session, RepoDir,
// Repository, NewREPL and Files are required.
type Options struct {
	// Config gives the model, [repl] tool_description and output_limit,
	// and [rlm] max_depth and subagent_prompt.
	Config *config.Config
	Client Streamer
	// System is this invocation's system message ([chat] prompt, or
	// --system-prompt when given); nil sends none. Never saved.
	System *string

	Session    *sessions.Session
	RepoDir    string     // canonical launch directory, saved as "repository"
	Repository *jail.Root // the repository root for the file tools
	Store      *jail.Root // the store; nil when there is none

	NewREPL NewREPL
	Files   FileTools
	// Instructions finds the instruction files every agent is given at
	// its start (instructions.go); nil gives none.
	Instructions Instructions
	MCP          MCP      // the MCP servers subagents may use; nil for none
	Approver     Approver // the front end's; nil refuses every approval
	// AskWrites: a subagent's write to the repository that the
	// permission level refuses (apply_patch, a REPL write) is put to the
	// Approver as a "write" operation (package approval) instead of being
	// refused at once; allowed, it goes ahead that once. The UI sets it;
	// headless runs and editors keep the refusal.
	AskWrites bool
	Events    *Stream // nil drops events
	Redactor  *redact.Redactor
	// RoomAdvice says how the person makes room when the root's
	// conversation no longer fits the model's context, given the
	// session's name (nil gives DefaultRoomAdvice, the UI's way).
	RoomAdvice func(session string) string

	Now func() time.Time // nil means time.Now (FYI's date)
	// Window is the model's context window, detected by the front end;
	// nil starts from [endpoint] context_window (or unknown) and learns
	// it from refusals that name it.
	Window *llm.Window
}

// Runner runs the turns of one session's root agent. One Turn runs at a
// time (a second concurrent call fails); the other methods are safe from
// any goroutine.
type Runner struct {
	opts      Options
	win       *llm.Window
	root      *agent
	subagents atomic.Int32
	running   atomic.Bool // a turn is running
	slots     *slots      // [rlm] parallel: the subagents that may run at once
	files     fileLocks   // the files apply_patch is writing now

	mu        sync.Mutex
	usage     llm.Usage // summed over the current turn
	announced bool      // SessionReady was emitted
	saveErr   error     // the first save that failed in the current turn
}

// Result is the outcome of a root turn.
type Result struct {
	Status Status
	Text   string    // the final answer; partial text and its marker when stopped or failed
	Usage  llm.Usage // summed over every request of the turn
}

// New returns a Runner continuing conv, the root's saved conversation (nil
// starts a new one). Tool calls a killed process left without a result get
// one, so the conversation is valid for the endpoint and tells the truth:
// an rlm call whose subagent had started gets that subagent's answer when
// its file holds one, else a notice that it was interrupted, naming its
// conversation file and warning that files may have changed; other calls
// get "[not run: turn stopped]" (see crashResult). Arguments that are not a
// JSON object are made one (see sendable).
func New(opts Options, conv *sessions.File) (*Runner, error) {
	switch {
	case opts.Config == nil || opts.Client == nil || opts.Session == nil || opts.Repository == nil:
		return nil, errors.New("rlm: Config, Client, Session and Repository are required")
	case opts.NewREPL == nil:
		return nil, errors.New("rlm: NewREPL is required")
	}
	if conv == nil {
		conv = &sessions.File{Local: sessions.Local{Repository: opts.RepoDir}}
	}
	conv.Items = closeDangling(conv.Items, crashResult(opts.Session, 0, opts.Config.REPL.OutputLimit))
	for i := range conv.Items {
		conv.Items[i].Message = sendable(conv.Items[i].Message)
	}
	r := &Runner{opts: opts, win: opts.Window}
	if r.win == nil {
		r.win = llm.NewWindow(opts.Config.Endpoint.ContextWindow)
	}
	r.slots = newSlots(r.parallel())
	r.root = &agent{r: r, file: conv, tools: []tool{rlmTool(), fyiTool()}}
	return r, nil
}

// SubagentRunning reports whether a subagent is running (/rename refuses then).
func (r *Runner) SubagentRunning() bool { return r.subagents.Load() > 0 }

// Running reports whether a turn is running (/new refuses then).
func (r *Runner) Running() bool { return r.running.Load() }

// Conversation returns a copy of the root's conversation items.
func (r *Runner) Conversation() []sessions.Item {
	r.root.fmu.Lock()
	defer r.root.fmu.Unlock()
	return append([]sessions.Item(nil), r.root.file.Items...)
}

// Local returns the root file's _harness_local object.
func (r *Runner) Local() sessions.Local {
	r.root.fmu.Lock()
	defer r.root.fmu.Unlock()
	l := r.root.file.Local
	l.TurnTokenCache = append([]llm.TurnCount(nil), l.TurnTokenCache...)
	return l
}

// RootTools returns the tools offered to the root.
func (r *Runner) RootTools() []llm.Tool { return r.root.llmTools() }

// SetHidden hides or restores root turn number turn (an index into
// sessions.Turns) in model requests and saves the file. The turn a running
// Turn is working on cannot be hidden until it ends.
func (r *Runner) SetHidden(turn int, hidden bool) error {
	a := r.root
	a.fmu.Lock()
	defer a.fmu.Unlock()
	turns := sessions.Turns(a.file.Items)
	if turn < 0 || turn >= len(turns) {
		return fmt.Errorf("no turn %d (the conversation has %d)", turn, len(turns))
	}
	if r.Running() && turn == len(turns)-1 {
		return errors.New("the active turn cannot be hidden until it ends")
	}
	a.file.Items = sessions.SetHidden(a.file.Items, turn, hidden)
	a.edits++
	if r.opts.Session.Name() == "" {
		return nil // nothing saved yet
	}
	return a.save()
}

// SetTurnTokenCache replaces the root's cached per-turn token counts (kept
// by the context editor) and saves the file.
func (r *Runner) SetTurnTokenCache(cache []llm.TurnCount) error {
	a := r.root
	a.fmu.Lock()
	defer a.fmu.Unlock()
	a.file.Local.TurnTokenCache = append([]llm.TurnCount(nil), cache...)
	if r.opts.Session.Name() == "" {
		return nil
	}
	return a.save()
}

// Turn sends prompt to the root and runs until the root answers without a
// tool call, the user stops it (ctx cancelled), or it fails. The returned
// error is non-nil only for a failed turn.
func (r *Runner) Turn(ctx context.Context, prompt string) (Result, error) {
	if !r.running.CompareAndSwap(false, true) {
		return Result{Status: Failed}, errors.New("a turn is already running; wait for it or stop it first")
	}
	defer r.running.Store(false)
	r.mu.Lock()
	r.usage, r.saveErr = llm.Usage{}, nil
	r.mu.Unlock()
	a := r.root
	// The session is created now, as its first message is sent.
	if _, err := r.opts.Session.Create(); err != nil {
		r.emit(Error{Agent: a.ref(), Message: err.Error()})
		res := Result{Status: Failed, Text: withMarker("", BranchFailed(err))}
		r.emit(TurnDone{Agent: a.ref(), Status: Failed, Text: res.Text})
		return res, err
	}
	r.announce()
	prompt = r.opts.Redactor.String(prompt)
	a.fmu.Lock()
	a.file.Items = removeFYI(a.file.Items)
	a.fmu.Unlock()
	a.startup = a.startupInstructions()
	r.emit(AgentStart{Agent: a.ref(), Task: prompt, Tools: a.llmTools()})
	out := a.begin(ctx, prompt, FYITool, "{}")
	if out.status == Done && out.err == nil {
		out = a.loop(ctx)
	}
	if out.status == Failed && llm.ContextExceeded(out.err) {
		a.hideRefused()
	}
	res := Result{Status: out.status, Text: out.text, Usage: r.turnUsage()}
	if err := r.failedSave(); err != nil && res.Status == Done {
		// A subagent's file could not be written (a full disk): the
		// answer stands, but the session on disk lacks part of the turn,
		// so the turn does not count as done.
		res.Status, out.err = Failed, fmt.Errorf("the session was not saved completely: %w; the answer above is not fully on disk (free space, then continue the session)", err)
		r.emit(Error{Agent: a.ref(), Message: out.err.Error()})
	}
	r.emit(AgentEnd{Agent: a.ref(), Status: res.Status, Result: res.Text})
	r.emit(TurnDone{Agent: a.ref(), Status: res.Status, Text: res.Text, Usage: res.Usage})
	return res, out.err
}

// savedFailed records a failed save of any agent's file in this turn.
func (r *Runner) savedFailed(err error) {
	r.mu.Lock()
	if r.saveErr == nil {
		r.saveErr = err
	}
	r.mu.Unlock()
}

// failedSave returns the first save of this turn that failed, or nil.
func (r *Runner) failedSave() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.saveErr
}

func (r *Runner) emit(e Event) { r.opts.Events.Emit(e) }

func (r *Runner) now() time.Time {
	if r.opts.Now != nil {
		return r.opts.Now()
	}
	return time.Now()
}

func (r *Runner) limit() int { return r.opts.Config.REPL.OutputLimit }

func (r *Runner) addUsage(u llm.Usage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.usage.PromptTokens += u.PromptTokens
	r.usage.CompletionTokens += u.CompletionTokens
	r.usage.TotalTokens += u.TotalTokens
}

func (r *Runner) turnUsage() llm.Usage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.usage
}

// announce emits SessionReady once.
func (r *Runner) announce() {
	r.mu.Lock()
	first := !r.announced
	r.announced = true
	r.mu.Unlock()
	if first {
		r.emit(SessionReady{Name: r.opts.Session.Name(), Dir: r.opts.Session.Dir()})
	}
}

// Markers appended to partial text.
const (
	StoppedMarker = "[stopped by user]"
	NotRun        = "[not run: turn stopped]"
	// InterruptedPrefix opens the marker New gives an rlm call whose
	// subagent a killed process left without an answer (recover.go).
	InterruptedPrefix = "[interrupted: harness stopped"
)

// BranchFailed is the marker of a failed subagent.
func BranchFailed(err error) string { return "[branch failed: " + err.Error() + "]" }

// withMarker appends marker to partial text on a line of its own.
func withMarker(partial, marker string) string {
	partial = strings.TrimRight(partial, " \t\n")
	if partial == "" {
		return marker
	}
	return partial + "\n" + marker
}
