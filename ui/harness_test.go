// Test scaffolding: a fake backend and a UI on a simulation screen.

package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/approval"
	"harness/config"
	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

var testTheme = config.Theme{
	System: "#8a8a8a", User: "#5fafff", Assistant: "#e4e4e4", Reasoning: "#808080",
	ToolCall: "#d7af5f", ToolResult: "#87af87", Approval: "#ffaf00", Warning: "#ffd75f",
	Error: "#ff5f5f", Status: "#a8a8a8", Input: "#ffffff",
	ContextTurn: "#5fafd7", ContextTokens: "#d7d787", ContextRole: "#af87d7", ContextMessageTokens: "#87afaf",
}

// fakeBackend runs turns with a script that emits events like rlm.Runner.
type fakeBackend struct {
	events  *rlm.Stream
	ap      rlm.Approver
	script  func(ctx context.Context, f *fakeBackend, prompt string)
	running atomic.Bool
	sub     atomic.Bool

	mu      sync.Mutex
	items   []sessions.Item
	name    string
	prompts []string
	renames []string
	cache   []llm.TurnCount
	saves   int // SetTurnTokenCache calls
}

func (f *fakeBackend) Turn(ctx context.Context, prompt string) (rlm.Result, error) {
	if !f.running.CompareAndSwap(false, true) {
		return rlm.Result{}, errors.New("a turn is already running")
	}
	defer f.running.Store(false)
	f.mu.Lock()
	f.prompts = append(f.prompts, prompt)
	if f.name == "" {
		f.name = "20260101-120000"
	}
	f.mu.Unlock()
	root := rlm.Agent{Name: f.SessionName()}
	f.events.Emit(rlm.SessionReady{Name: f.SessionName()})
	f.events.Emit(rlm.AgentStart{Agent: root, Task: prompt})
	f.add(root, llm.Message{Role: "user", Content: prompt})
	if f.script != nil {
		f.script(ctx, f, prompt)
	}
	st := rlm.Done // as the runner says it
	if ctx.Err() != nil {
		st = rlm.Stopped
	}
	f.events.Emit(rlm.AgentEnd{Agent: root, Status: st})
	f.events.Emit(rlm.TurnDone{Agent: root, Status: st})
	return rlm.Result{}, nil
}

// add saves m (for the root) and emits MessageAdded.
func (f *fakeBackend) add(a rlm.Agent, m llm.Message) {
	if a.Depth == 0 {
		f.mu.Lock()
		f.items = append(f.items, sessions.Item{Message: m})
		f.mu.Unlock()
	}
	f.events.Emit(rlm.MessageAdded{Agent: a, Message: m})
}

func (f *fakeBackend) Conversation() []sessions.Item {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sessions.Item(nil), f.items...)
}

func (f *fakeBackend) SetHidden(turn int, hidden bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.items = sessions.SetHidden(f.items, turn, hidden)
	return nil
}

func (f *fakeBackend) Local() sessions.Local {
	f.mu.Lock()
	defer f.mu.Unlock()
	return sessions.Local{TurnTokenCache: f.cache}
}

func (f *fakeBackend) SetTurnTokenCache(c []llm.TurnCount) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cache = c
	f.saves++
	return nil
}

func (f *fakeBackend) Running() bool         { return f.running.Load() }
func (f *fakeBackend) SubagentRunning() bool { return f.sub.Load() }
func (f *fakeBackend) RootTools() []llm.Tool {
	return []llm.Tool{{Name: "rlm", Description: "Delegate a task."}, {Name: "FYI", Description: "Situational awareness."}}
}

func (f *fakeBackend) SessionName() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.name
}

func (f *fakeBackend) Rename(name string) error {
	if err := sessions.CheckName(name); err != nil {
		return fmt.Errorf("cannot rename: %w", err) // as sessions.Session.Rename says it
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.name == "" {
		return errors.New("the session does not exist yet")
	}
	f.name = name
	f.renames = append(f.renames, name)
	return nil
}

// uiTest is a running UI on a simulation screen.
type uiTest struct {
	t      testing.TB
	scr    tcell.SimulationScreen
	app    *App
	be     *fakeBackend
	drawn  chan struct{}
	frames atomic.Int64 // frames drawn
	done   chan error
	saved  chan config.Permission
}

// startUI runs the UI at w×h with a fake backend; edit may change the
// options first.
func startUI(t testing.TB, w, h int, be *fakeBackend, edit func(*Options)) *uiTest {
	t.Helper()
	return startUIClock(t, w, h, be, edit, nil)
}

// startUIClock is startUI with the frame pacer on clk (nil: the real
// clock).
func startUIClock(t testing.TB, w, h int, be *fakeBackend, edit func(*Options), clk clock) *uiTest {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if be == nil {
		be = &fakeBackend{}
	}
	if be.events == nil {
		be.events = rlm.NewStream()
	}
	u := &uiTest{t: t, scr: scr, be: be, drawn: make(chan struct{}, 1), done: make(chan error, 1),
		saved: make(chan config.Permission, 10)}
	opts := Options{
		Theme: testTheme, Model: "test-model", Backend: be, Events: be.events,
		Approvals: NewApprovals(), Level: NewLevel(config.PermReadOnly),
		SavePermission: func(p config.Permission) error { u.saved <- p; return nil },
		NewSession:     func() (Backend, error) { return &fakeBackend{events: be.events}, nil },
	}
	if edit != nil {
		edit(&opts)
	}
	be.ap = opts.Approvals
	opts.Screen = scr
	u.app = newApp(opts)
	if clk != nil {
		u.app.clock = clk
	}
	u.app.main.ov.SetCollapsed(true) // most tests look under it
	scr.SetSize(w, h)                // after newApp, whose SetScreen inits the screen and so resets its size
	u.app.tv.SetAfterDrawFunc(func(tcell.Screen) {
		u.frames.Add(1)
		select {
		case u.drawn <- struct{}{}:
		default:
		}
	})
	go func() { u.done <- u.app.run() }()
	t.Cleanup(func() {
		u.app.tv.Stop()
		select {
		case <-u.done:
		case <-time.After(5 * time.Second):
			t.Error("the UI did not stop")
		}
	})
	u.waitFor("the first frame", func(string) bool { return true })
	return u
}

// text returns the screen's rows joined by newlines, trailing spaces cut.
func (u *uiTest) text() string {
	var out string
	u.app.tv.QueueUpdate(func() {
		cells, w, h := u.scr.GetContents()
		var sb strings.Builder
		for y := 0; y < h; y++ {
			var row strings.Builder
			for x := 0; x < w; x++ {
				c := cells[y*w+x]
				if len(c.Runes) == 0 {
					row.WriteByte(' ')
				} else {
					row.WriteString(string(c.Runes))
				}
			}
			sb.WriteString(strings.TrimRight(row.String(), " "))
			sb.WriteByte('\n')
		}
		out = sb.String()
	})
	return out
}

// style returns the style of the first cell showing s.
func (u *uiTest) style(s string) (tcell.Style, bool) {
	var st tcell.Style
	found := false
	u.app.tv.QueueUpdate(func() {
		cells, w, h := u.scr.GetContents()
		for y := 0; y < h && !found; y++ {
			var row []rune
			for x := 0; x < w; x++ {
				if len(cells[y*w+x].Runes) > 0 {
					row = append(row, cells[y*w+x].Runes[0])
				} else {
					row = append(row, ' ')
				}
			}
			if i := strings.Index(string(row), s); i >= 0 {
				x := len([]rune(string(row)[:i]))
				st, found = cells[y*w+x].Style, true
			}
		}
	})
	return st, found
}

// waitFor waits, frame by frame, until cond holds for the screen text.
func (u *uiTest) waitFor(what string, cond func(string) bool) string {
	u.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		if s := u.text(); cond(s) {
			return s
		}
		select {
		case <-u.drawn:
		case <-deadline:
			u.t.Fatalf("timed out waiting for %s; screen:\n%s", what, u.text())
		}
	}
}

func (u *uiTest) waitText(sub string) string {
	u.t.Helper()
	return u.waitFor(sub, func(s string) bool { return strings.Contains(s, sub) })
}

func (u *uiTest) key(k tcell.Key, r rune, mod tcell.ModMask) { u.scr.InjectKey(k, r, mod) }

func (u *uiTest) typeText(s string) {
	for _, r := range s {
		u.scr.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
}

// onUI runs f on the UI's goroutine and waits for it.
func (u *uiTest) onUI(f func()) { u.app.tv.QueueUpdateDraw(f) }

// newApprovalReq is a pending approval of raw, as Approvals.Approve makes it.
func newApprovalReq(raw json.RawMessage) *approvalReq {
	return &approvalReq{raw: raw, op: approval.Parse(raw), answer: make(chan approvalAnswer, 1)}
}

// sent returns the prompts sent so far.
func (f *fakeBackend) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.prompts...)
}

// renamed returns the names given by /rename.
func (f *fakeBackend) renamed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.renames...)
}
