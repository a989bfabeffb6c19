// The interactive terminal UI: the real packages wired into ui.Run.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"harness/config"
	"harness/diffview"
	"harness/failures"
	"harness/llm"
	"harness/rlm"
	"harness/sessions"
	"harness/ui"
)

// uiBackend is one session's root agent as the UI sees it.
type uiBackend struct {
	*rlm.Runner
	session *sessions.Session
}

func (b uiBackend) SessionName() string { return b.session.Name() }

// SubagentConversation reads the saved conversation of a finished
// subagent, for the UI to show it again (ui.SubagentLoader).
func (b uiBackend) SubagentConversation(depth int, id string) ([]sessions.Item, error) {
	if depth < 1 {
		return nil, errors.New("not a subagent")
	}
	p := b.session.Path(depth, id)
	if p == "" {
		return nil, errors.New("the session has not been saved yet")
	}
	f, err := sessions.Load(p)
	if err != nil {
		return nil, err
	}
	return f.Items, nil
}

func (b uiBackend) Rename(name string) error {
	return b.session.Rename(name, b.Runner.SubagentRunning())
}

// uiWiring holds what every session of one interactive run shares: the
// roots, the permission level, the event stream and the approver.
type uiWiring struct {
	*roots
	cfg   *config.Config
	level *ui.Level
	ap    *ui.Approvals
	parts agentParts
	st    sessions.Store
}

// runInteractive runs the full-screen UI in launchDir: a new session, or
// the one f.resume names. It returns the exit code.
func runInteractive(cfg *config.Config, f agentFlags, launchDir string, stdout, stderr io.Writer) int {
	w, code := openUIWiring(cfg, f, launchDir, stderr)
	if code != exitOK {
		return code
	}
	defer w.close()
	sess, conv, code := openSession(w.st, f.resume, w.parts.redactor, w.dir, stderr)
	if code != exitOK {
		return code
	}
	be, err := w.backend(sess, conv)
	if err != nil {
		sess.Close()
		fmt.Fprintf(stderr, "harness: %v\n", err)
		return exitError
	}
	made := &backends{list: []uiBackend{be}, newBackend: func() (uiBackend, error) { return w.backend(nil, nil) }}
	defer made.close()
	win := w.window(cfg, endpointClient(cfg, cfg.Endpoint, "endpoint"))
	opts := ui.Options{
		Theme: cfg.Theme, Model: cfg.Endpoint.Model,
		System: w.parts.system, SubagentSystem: cfg.RLM.SubagentPrompt,
		Backend:    be,
		NewSession: made.newSession,
		Events:     w.parts.events, Approvals: w.ap, Level: w.level,
		SavePermission: func(p config.Permission) error { return config.SavePermission(cfg.Path, p) },
		Describe:       describer(cfg),
		CountTurns:     turnCounter(cfg),
		Bases:          w.parts.bases,
		Prompts:        promptSet(cfg, w.dir),
		Version:        version(), Repository: w.dir, Endpoint: cfg.Endpoint.BaseURL,
		History: func() []string { return w.st.History(w.dir, f.resume, historyLimit) },
		Window: func() int {
			n, _ := win.Tokens()
			return n
		},
		CompactAt: cfg.Chat.CompactAt,
	}
	for _, w := range keyWarnings(cfg) {
		opts.Events.Emit(ui.Warning{Message: w})
	}
	for _, p := range opts.Prompts.Problems {
		opts.Events.Emit(ui.Warning{Message: p.String()})
	}
	quit, sig, stop := quitOnSignal()
	defer stop()
	opts.Quit = quit
	if err := ui.Run(opts); err != nil {
		// A closed terminal ends the UI with a read error, and the
		// SIGHUP that says why follows at once, unless a wrapper that
		// outlives the terminal is its session leader and gets it
		// instead: the terminal hung up either way.
		if errors.Is(err, ui.ErrTerminalLost) {
			if sig.within(200 * time.Millisecond) {
				return sig.exit()
			}
			return signalCode(syscall.SIGHUP)
		}
		fmt.Fprint(stderr, uiFailure(err))
		return exitError
	}
	fmt.Fprint(stdout, made.exitMessage())
	return sig.exit()
}

// historyLimit is how many messages of earlier sessions Up reaches.
const historyLimit = 500

// backends remembers the sessions of one run (/new and /clear start
// another), so the exit message is about the session the person was in,
// not the one the run started with. Starting another closes the one left, so
// its lock is released: another harness may resume it at once. The UI
// calls newSession on its event goroutine (never during a turn); exitMessage
// and close are called after the UI has stopped.
type backends struct {
	list       []uiBackend
	newBackend func() (uiBackend, error)
}

func (b *backends) newSession() (ui.Backend, error) {
	be, err := b.newBackend()
	if err != nil {
		return nil, err
	}
	b.list[len(b.list)-1].session.Close()
	b.list = append(b.list, be)
	return be, nil
}

// close releases every session of the run.
func (b *backends) close() {
	for _, be := range b.list {
		be.session.Close()
	}
}

// exitMessage says how to continue: the current session when it was saved;
// when it is still empty (after /new or /clear), that nothing was saved of
// it, and how to continue the latest one that was; "" when no message was
// ever sent.
func (b *backends) exitMessage() string {
	for i := len(b.list) - 1; i >= 0; i-- {
		name := b.list[i].SessionName()
		switch {
		case name == "":
			continue
		case i == len(b.list)-1:
			return fmt.Sprintf("harness: session saved; continue it with: harness --resume %s\n", name)
		}
		return fmt.Sprintf("harness: the last session was empty, so nothing of it was saved; "+
			"continue the one before it with: harness --resume %s\n", name)
	}
	return ""
}

// openUIWiring opens the repository and store roots. The repository reads
// its permission level from the UI's Level at every operation, so Shift+Tab
// applies at once, even during a call.
func openUIWiring(cfg *config.Config, f agentFlags, launchDir string, stderr io.Writer) (*uiWiring, int) {
	level := ui.NewLevel(cfg.REPL.Permission)
	rs, code := openRoots(cfg, launchDir, level.Get, stderr)
	if code != exitOK {
		return nil, code
	}
	stream, ap := rlm.NewStream(), ui.NewApprovals()
	w := &uiWiring{roots: rs, cfg: cfg, level: level, ap: ap, st: sessions.Store{Dir: cfg.SessionsDir()},
		parts: agentParts{
			system: systemPrompt(cfg, f), approver: ap, events: stream,
			redactor: redactor(cfg),
			onFailure: func(n failures.Note, count int) {
				stream.Emit(ui.FailureNote{Message: n.Message, Count: count})
			},
			bases:     new(diffview.Bases),
			askWrites: true,
		}}
	// In the background: the first frame never waits for a server.
	rs.startMCP(cfg, w.parts.failures(cfg), w.parts.onFailure)
	return w, exitOK
}

// backend builds a root agent continuing conv in sess; a nil sess is a
// new session, created when its first message is sent.
func (w *uiWiring) backend(sess *sessions.Session, conv *sessions.File) (uiBackend, error) {
	if sess == nil {
		sess = w.st.New(w.parts.redactor)
	}
	r, err := w.newRunner(w.cfg, w.parts, sess, conv)
	if err != nil {
		return uiBackend{}, err
	}
	return uiBackend{Runner: r, session: sess}, nil
}

// describer returns the approval-description function of an enabled
// [approval_description], or nil: it sends the prompt, with ${command}
// replaced by the operation's JSON, to the description endpoint and
// returns the reply's text.
func describer(cfg *config.Config) func(context.Context, json.RawMessage) (string, error) {
	ad := cfg.ApprovalDescription
	if ad == nil {
		return nil
	}
	client := endpointClient(cfg, ad.Endpoint, "approval_description.endpoint")
	win := llm.NewWindow(ad.Endpoint.ContextWindow)
	win.DetectInBackground(context.Background(), client)
	return func(ctx context.Context, op json.RawMessage) (string, error) {
		win.Wait(ctx)
		n, _ := win.Tokens()
		prompt := strings.ReplaceAll(ad.Prompt, "${command}", fitDescribed(string(op), ad.Prompt, n))
		m, err := client.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: prompt}}})
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(m.Content) == "" {
			return "", errors.New("the description endpoint sent an empty reply")
		}
		return m.Content, nil
	}
}

// fitDescribed cuts the middle out of an operation's text so that the
// description prompt fills at most half of a known window (the rest is
// the answer's); a window of 0 (unknown) keeps it whole.
func fitDescribed(op, prompt string, window int) string {
	room := (window/2 - llm.Estimate(prompt)) * 3
	if window == 0 || len(op) <= room || room < 200 {
		return op
	}
	head := room * 2 / 3
	tail := len(op) - (room - head)
	for !utf8.RuneStart(op[head]) {
		head--
	}
	for tail < len(op) && !utf8.RuneStart(op[tail]) {
		tail++
	}
	return op[:head] + fmt.Sprintf(" […%d bytes cut to fit the description model's context window…] ", tail-head) + op[tail:]
}

// turnCounter counts turns with the chat endpoint's /tokenize, giving a
// request up after [endpoint] idle_timeout_s (a /tokenize answer is small:
// the whole request is timed), after which the turns are estimated.
func turnCounter(cfg *config.Config) func(context.Context, [][]llm.Message, []llm.TurnCount) []llm.TurnCount {
	tok := llm.NewTokenizer(cfg.Endpoint.BaseURL, cfg.APIKey(cfg.Endpoint)).
		WithHTTPClient(&http.Client{Timeout: cfg.Endpoint.IdleTimeout})
	return func(ctx context.Context, turns [][]llm.Message, cache []llm.TurnCount) []llm.TurnCount {
		return llm.CountTurns(ctx, tok, turns, cache)
	}
}

// uiFailure is the message for a UI that could not run; without a terminal
// it points to headless mode.
func uiFailure(err error) string {
	msg := fmt.Sprintf("harness: the terminal UI failed: %v\n", err)
	if strings.Contains(err.Error(), "/dev/tty") {
		msg += "harness: the UI needs a terminal; without one, run a turn with harness -p PROMPT\n"
	}
	return msg
}
