// The application: options, the event loop, and what each command does.

package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"harness/config"
	"harness/diffview"
	"harness/llm"
	"harness/prompts"
	"harness/rlm"
	"harness/sessions"
)

// Backend is the session's root agent: *rlm.Runner with its session's
// name and rename.
type Backend interface {
	Turn(ctx context.Context, prompt string) (rlm.Result, error)
	Conversation() []sessions.Item
	SetHidden(turn int, hidden bool) error
	Running() bool
	SubagentRunning() bool
	RootTools() []llm.Tool
	// SessionName is "" before the first message creates the session.
	SessionName() string
	// Rename applies the /rename rules (sessions.Session.Rename).
	Rename(name string) error
	// Local and SetTurnTokenCache read and save the context overlay's
	// per-turn token counts.
	Local() sessions.Local
	SetTurnTokenCache(cache []llm.TurnCount) error
}

// Options are what Run needs. Backend, Events, Approvals and Level are
// required.
type Options struct {
	Theme config.Theme
	Model string
	// System and SubagentSystem head the root's and the subagents'
	// transcripts; nil or empty shows none.
	System, SubagentSystem *string

	Backend Backend
	// Window returns the model's context window in tokens, 0 while it is
	// unknown (nil: unknown); CompactAt is [chat] compact_at. The status
	// line and the overlay show the tokens in use against the window.
	Window    func() int
	CompactAt float64
	// NewSession returns the backend of a new, empty session (/new,
	// /clear) sending its events to Events.
	NewSession func() (Backend, error)
	Events     *rlm.Stream
	Approvals  *Approvals

	// Level is the repository permission level; Shift+Tab changes it and
	// calls SavePermission with the new level.
	Level          *Level
	SavePermission func(config.Permission) error

	// Describe, when set, explains a pending approval's operation
	// ([approval_description]); it must return when ctx ends.
	Describe func(ctx context.Context, operation json.RawMessage) (string, error)

	// CountTurns, when set, counts completed turns' tokens (llm.CountTurns
	// with the provider's tokenizer) for the context overlay; turns whose
	// key is in cache cost nothing. Without it every count is estimated.
	CountTurns func(ctx context.Context, turns [][]llm.Message, cache []llm.TurnCount) []llm.TurnCount

	// Prompts, when set, are the commands that send a prompt: /init and
	// the prompt files' /NAME, listed after the built-in commands.
	Prompts *prompts.Set

	// Bases, when set, holds the texts apply_patch's Replace Files
	// replaced, recorded by the wiring just before each patch ran, so the
	// call is drawn as a diff against them.
	Bases *diffview.Bases

	// Quit, when it receives or is closed, exits as /exit does (the
	// wiring connects SIGINT, SIGHUP and SIGTERM to it).
	Quit <-chan struct{}

	// Screen is the terminal; nil opens the real one.
	Screen tcell.Screen

	// What the welcome of an empty session shows: harness's version, the
	// repository's path and the endpoint's base URL (the model is Model).
	Version, Repository, Endpoint string

	// History, when set, returns the messages sent in earlier sessions in
	// this repository, oldest first: Up on an empty input reaches them
	// after this session's. It is called once, on a goroutine of its own,
	// as the UI starts.
	History func() []string

	// Commands are slash commands added to the built-in ones (prompt
	// files): the command list and /help show them.
	Commands []Command
}

// Level is the repository permission level, shared by the UI (which
// changes it) and the jail (which reads it at every operation).
type Level struct{ v atomic.Int32 }

// NewLevel returns a Level holding p.
func NewLevel(p config.Permission) *Level {
	l := &Level{}
	l.Set(p)
	return l
}

// Get returns the current level.
func (l *Level) Get() config.Permission { return config.Permission(l.v.Load()) }

// Set changes the level.
func (l *Level) Set(p config.Permission) { l.v.Store(int32(p)) }

// App is the running UI. Its fields belong to tview's event goroutine.
type App struct {
	opts Options
	tv   *tview.Application
	scr  *frameScreen // the terminal, as the widgets draw on it
	st   styles

	backend Backend
	root    *view
	stack   []*view // running subagent views, in the order they started
	chosen  *view   // the running subagent the person chose to follow (strip.go)
	review  []*view // finished subagents reopened read-only, deepest last (subagents.go)
	reg     *registry
	session string // the root's name, from SessionReady or /rename

	in        input
	cmdSel    int
	cmdClosed bool // Esc closed the command list for the current text

	running  bool
	waiting  bool // Enter was pressed during the turn: the text waits
	cancel   context.CancelFunc
	turnDone chan struct{}

	pending   []*approvalReq
	prompt    approvalPrompt // the oldest pending approval's prompt (approvals.go)
	lastTyped time.Time      // when a character was last typed into the input
	hist      history        // the input history (history.go)
	exitAt    time.Time      // when Ctrl+C on an empty, idle input asked to press it again
	retry     retryState     // retry countdowns (retry.go)
	prog      progress       // the spinner and long commands (progress.go)

	counts       []llm.TurnCount // the root's turn_token_cache
	recounting   bool            // a recount runs (tokens.go)
	recountAgain bool            // a turn ended meanwhile: count again after it
	ovDirty      bool            // the overlay's data must be rebuilt
	ovView       *view           // whose turns the overlay shows (nil: none, or "counting")
	liveShown    liveState       // whose live rows it shows

	main           *mainView
	mouseEv        *tcell.EventMouse // the terminal event being handled
	mouseHeld      bool              // the left button was down
	mouseOnOverlay bool              // mouseEv is the overlay's
	quitting       bool

	postMu sync.Mutex
	posted []func()
	wake   chan struct{}
	clock  clock // paces the frames drawn for events (frames.go)
}

// ErrTerminalLost is the error Run returns (wrapped) when the terminal
// stopped giving input while the UI ran: it was closed or hung up (a
// SIGHUP usually follows).
var ErrTerminalLost = errors.New("the terminal was lost")

// Run shows the UI until the user exits. It restores the terminal before
// returning and waits (a few seconds at most) for a running turn to stop,
// so its partial reply is saved.
func Run(opts Options) error {
	if opts.Backend == nil || opts.Events == nil || opts.Approvals == nil || opts.Level == nil {
		return errors.New("ui.Run: Backend, Events, Approvals and Level are required")
	}
	return newApp(opts).run()
}

// run runs the event loop until the user exits.
func (a *App) run() error {
	if a.scr == nil {
		s, err := tcell.NewScreen()
		if err != nil {
			return err
		}
		a.setScreen(s)
	}
	a.scr.EnableMouse()
	a.scr.EnablePaste()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	a.opts.Approvals.attach(func(f func(*App)) { a.post(func() { f(a) }) })
	go a.pump(ctx)
	a.post(a.recount)
	a.loadHistory()
	err := a.tv.Run()
	if ev := (*tcell.EventError)(nil); errors.As(err, &ev) {
		err = fmt.Errorf("%w: %v", ErrTerminalLost, err) // tcell's only run-time error: the input failed
	}
	a.opts.Approvals.attach(nil)
	stop()
	if a.cancel != nil {
		a.cancel()
		select {
		case <-a.turnDone:
		case <-time.After(5 * time.Second):
		}
	}
	return err
}

func newApp(opts Options) *App {
	a := &App{opts: opts, tv: tview.NewApplication(), st: newStyles(opts.Theme), backend: opts.Backend,
		wake: make(chan struct{}, 1), clock: realClock{}}
	a.reg = newRegistry()
	if l, ok := opts.Backend.(SubagentLoader); ok {
		a.reg.load = l.SubagentConversation
	}
	a.root = a.newView(rlm.Agent{}, opts.System)
	a.root.reset(opts.Backend.Conversation())
	a.root.tools = opts.Backend.RootTools()
	a.session = opts.Backend.SessionName()
	a.counts = opts.Backend.Local().TurnTokenCache
	a.ovDirty = true
	a.main = newMainView(a)
	pages := tview.NewPages().AddPage("main", a.main, true, true)
	a.tv.SetRoot(rootPages{pages}, true).EnableMouse(true).EnablePaste(true)
	a.hist.seed(opts.Backend.Conversation())
	a.tv.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		act := KeyAction(ev, KeyState{Answering: a.answerable(), EmptyInput: a.in.text == "" && !a.noting()})
		if act.Cmd == CmdInsert {
			a.lastTyped = a.clock.Now()
		}
		if a.noting() && a.noteKey(act) {
			return nil
		}
		a.do(act)
		return nil
	})
	a.tv.SetMouseCapture(a.mouse)
	if opts.Screen != nil {
		a.setScreen(opts.Screen)
	}
	return a
}

// setScreen gives tview the terminal s behind a frame buffer (screen.go);
// tview initializes it.
func (a *App) setScreen(s tcell.Screen) {
	a.scr = newFrameScreen(s)
	a.tv.SetScreen(a.scr)
}

// post runs f on the event goroutine soon. It never blocks, so agent
// goroutines can call it even while the UI is stopping.
func (a *App) post(f func()) {
	a.postMu.Lock()
	a.posted = append(a.posted, f)
	a.postMu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// mouse handles the mouse. tview calls it once per action it derives
// from a terminal event (a move, then a press or release, then a click):
// the terminal event itself is mapped once, with MouseAction, while the
// context overlay gets every derived action of the events on it, clicks
// included. It always returns the event with a plain move, so tview keeps
// deriving clicks but the widgets under it never act on them.
func (a *App) mouse(ev *tcell.EventMouse, act tview.MouseAction) (*tcell.EventMouse, tview.MouseAction) {
	if ev == nil {
		return ev, act
	}
	if ev != a.mouseEv {
		a.mouseEv = ev
		held := a.mouseHeld
		a.mouseHeld = ev.Buttons()&tcell.Button1 != 0
		x, y := ev.Position()
		a.mouseOnOverlay = !a.main.tr.sel.dragging && a.main.ov.InRect(x, y)
		if !a.mouseOnOverlay {
			a.do(MouseAction(ev, held))
		}
	}
	// The second of two quick clicks comes as a double click: each one
	// goes back a level.
	click := act == tview.MouseLeftClick || act == tview.MouseLeftDoubleClick
	if a.mouseOnOverlay && len(a.review) > 0 && click && a.main.ov.onHeader(ev.Position()) {
		a.closeReview()
		return ev, tview.MouseMove
	}
	if a.mouseOnOverlay {
		a.main.overlayMouse(ev, act)
	}
	return ev, tview.MouseMove
}

// top is the view on screen: a reviewed subagent, else the running
// subagent followed (strip.go; with one running at a time, the deepest),
// else the root.
func (a *App) top() *view {
	if n := len(a.review); n > 0 {
		return a.review[n-1]
	}
	if v := a.followed(); v != nil {
		return v
	}
	return a.root
}

// newView returns a view sharing the app's registry.
func (a *App) newView(ag rlm.Agent, system *string) *view {
	v := newView(ag, system)
	v.reg = a.reg
	return v
}

// viewOf returns the view of agent ag, or nil when it is not running.
func (a *App) viewOf(ag rlm.Agent) *view {
	if ag.Depth == 0 {
		return a.root
	}
	for i := len(a.stack) - 1; i >= 0; i-- {
		if a.stack[i].agent.ID == ag.ID {
			return a.stack[i]
		}
	}
	return nil
}

// agentName names the view on screen as the status line shows it.
func (a *App) agentName(v *view) string {
	if v.reviewing {
		return v.agent.Name + " · Esc returns"
	}
	if v != a.root {
		return v.agent.Name
	}
	if a.session == "" {
		return "new session"
	}
	return a.session
}

// do runs one command.
func (a *App) do(act Action) {
	switch act.Cmd {
	case CmdInsert:
		a.edit(func() { a.in.insert(string(act.Rune)) })
	case CmdNewline:
		a.edit(func() { a.in.insert("\n") })
	case CmdBackspace:
		a.edit(a.in.backspace)
	case CmdDelete:
		a.edit(a.in.del)
	case CmdKillEnd:
		a.edit(a.in.killEnd)
	case CmdKillStart:
		a.edit(a.in.killStart)
	case CmdLeft:
		a.in.left()
	case CmdRight:
		a.in.right()
	case CmdHome:
		a.in.home()
	case CmdEnd:
		a.in.end()
	case CmdUp, CmdDown:
		a.upDown(act.Cmd)
	case CmdTab:
		a.complete()
	case CmdSend:
		a.enter()
	case CmdEscape:
		a.escape()
	case CmdInterrupt:
		a.interrupt()
	case CmdPermission:
		a.cyclePermission()
	case CmdAllow, CmdAllowSession, CmdDeny, CmdDenyNote, CmdShowJSON:
		a.answerKey(act.Cmd)
	case CmdHelp:
		a.showHelp()
	case CmdPageUp:
		a.main.tr.scrollBy(-max(1, a.main.tr.h-1))
	case CmdPageDown:
		a.main.tr.scrollBy(max(1, a.main.tr.h-1))
	case CmdWheelUp:
		a.main.tr.scrollBy(-wheelLines)
	case CmdWheelDown:
		a.main.tr.scrollBy(wheelLines)
	case CmdPress:
		if v := a.main.stripAt(act.Y); v != nil {
			a.choose(v)
		}
		if a.main.inTranscript(act.X, act.Y) {
			a.main.tr.press(act.X, act.Y)
		} else {
			a.main.tr.sel = selection{}
		}
	case CmdDrag:
		a.main.tr.drag(act.X, act.Y)
	case CmdRelease:
		text, click, p := a.main.tr.release(act.X, act.Y)
		if text != "" {
			a.copy(text)
		}
		if click {
			a.click(p)
		}
	case CmdFold:
		a.foldLast()
	case CmdNextAgent:
		a.chooseNext()
	}
}

// wheelLines is how many lines a turn of the mouse wheel scrolls.
const wheelLines = 3

// edit changes the input and reopens the command list for the new text.
func (a *App) edit(f func()) {
	before := a.in.text
	f()
	if a.in.text != before {
		a.cmdClosed = false
		a.cmdSel = 0
	}
}

// upDown moves through the history (on an empty input, or one the history
// filled), the command list, or the lines of the input.
func (a *App) upDown(c Cmd) {
	d := 1
	if c == CmdUp {
		d = -1
	}
	if a.in.text == "" || a.hist.showing(a.in.text) {
		if text, ok := a.hist.step(d, a.in.text); ok {
			a.edit(func() { a.in.set(text) })
			a.cmdClosed = true // a recalled message is not a command being typed
		}
		return
	}
	if m := a.matches(); len(m) > 0 {
		if c == CmdUp {
			a.cmdSel = (a.cmdSel + len(m) - 1) % len(m)
		} else {
			a.cmdSel = (a.cmdSel + 1) % len(m)
		}
		return
	}
	a.in.upDown(a.main.inputWidth(), d)
}

func (a *App) escape() {
	if len(a.matches()) > 0 {
		a.cmdClosed = true
		return
	}
	if a.closeReview() {
		return
	}
	if a.running {
		a.cancel()
	}
}

// enter runs the chosen command, or sends the input once no turn runs.
func (a *App) enter() {
	if m := a.matches(); len(m) > 0 {
		c := m[min(a.cmdSel, len(m)-1)]
		if c.args != "" {
			a.edit(func() { a.in.set(c.name + " ") })
			return
		}
		a.runCommand(c.name)
		return
	}
	text := a.in.text
	if len(text) > 0 && text[0] == '/' {
		a.runCommand(text)
		return
	}
	if isBlank(text) {
		return
	}
	if a.running {
		a.waiting = true
		return
	}
	a.hist.add(text)
	if len(text) > 1 && text[0] == ' ' && text[1] == '/' {
		text = text[1:]
	}
	a.edit(func() { a.in.set("") })
	a.send(text)
}

// send starts a turn with prompt.
func (a *App) send(prompt string) {
	be := a.backend
	a.start(func(ctx context.Context) {
		be.Turn(ctx, prompt) // failures arrive as Error events
	})
}

// start runs work (a turn, /compact) as the running turn: Esc cancels
// its context.
func (a *App) start(work func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.running, a.cancel, a.turnDone = true, cancel, done
	a.review = nil // a new turn shows the root again
	a.root.open = true
	a.setPhase(phaseWaiting, "")
	a.ovDirty = true
	a.top().scroll = scroll{follow: true}
	go func() {
		work(ctx)
		cancel()
		close(done)
		a.post(func() { a.turnEnded(done) })
	}()
}

// turnEnded runs on the event goroutine after Turn returned.
func (a *App) turnEnded(done chan struct{}) {
	if a.turnDone != done {
		return
	}
	a.running, a.cancel, a.waiting = false, nil, false
	a.stack, a.chosen = nil, nil
	a.prog.phase, a.prog.cmds = phaseIdle, nil
	if a.prog.timer != nil {
		a.prog.timer.Stop()
		a.prog.timer = nil
	}
	a.root.live = nil // a stopped reply's blocks stay, no longer streamed into
	a.root.countLive()
	a.root.foldReasoning()
	a.ovDirty = true
	a.recount()
	if a.quitting {
		a.tv.Stop()
	}
}

func (a *App) quit() {
	a.quitting = true
	if a.running {
		a.cancel()
		return
	}
	a.tv.Stop()
}

// cyclePermission moves the permission to the next level (Shift+Tab); a
// write waiting for an answer that the new level permits goes ahead.
func (a *App) cyclePermission() {
	a.setPermission(a.opts.Level.Get().Next())
	a.settle()
}

// setPermission sets the permission level and saves it to config.toml.
func (a *App) setPermission(p config.Permission) {
	a.opts.Level.Set(p)
	if a.opts.SavePermission == nil {
		return
	}
	if err := a.opts.SavePermission(p); err != nil {
		a.top().add(kError, "", "Permission is "+p.String()+" for this run, but saving it failed: "+err.Error())
	}
}

// copy puts text on the system clipboard with OSC 52.
func (a *App) copy(text string) {
	if s := a.main.screen; s != nil {
		s.SetClipboard([]byte(text))
	}
}
