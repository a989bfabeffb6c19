// A newcomer's first hour, key by key: approvals answered once, for the
// session or with a note; permission asks; Ctrl+C in each state; the
// input history; the overlay that never covers what matters; the one
// token count.

package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/approval"
	"harness/config"
	"harness/llm"
	"harness/llmtest"
	"harness/rlm"
)

// runOp is the operation run() asks about for argv.
func runOp(argv ...string) json.RawMessage {
	raw, _ := json.Marshal(map[string]any{"operation": "run", "executable": "/usr/local/go/bin/" + argv[0],
		"arguments": argv[1:], "working_directory": "/repository", "sandbox": "none"})
	return raw
}

// asker is a backend script that asks Approve about each operation it is
// given and reports the answers.
type asker struct {
	ops     chan json.RawMessage
	answers chan error // nil: allowed; errRefused, or the Approver's error
}

var errRefused = errors.New("refused")

func newAsker() *asker {
	return &asker{ops: make(chan json.RawMessage, 8), answers: make(chan error, 8)}
}

func (k *asker) script(ctx context.Context, f *fakeBackend, _ string) {
	root := rlm.Agent{Name: f.SessionName()}
	for {
		select {
		case op := <-k.ops:
			if op == nil {
				return
			}
			f.events.Emit(rlm.ApprovalRequested{Agent: root, ID: "c1", Operation: op})
			ok, err := f.ap.Approve(ctx, op)
			f.events.Emit(rlm.ApprovalAnswered{Agent: root, ID: "c1", Operation: op, Allowed: ok && err == nil})
			switch {
			case err != nil:
				k.answers <- err
			case !ok:
				k.answers <- errRefused
			default:
				k.answers <- nil
			}
		case <-ctx.Done():
			return
		}
	}
}

func (k *asker) answer(t *testing.T) error {
	t.Helper()
	select {
	case err := <-k.answers:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("no answer")
		return nil
	}
}

// TestApprovalLine: the prompt leads with the operation in words, the
// keys after it and the JSON one key away; y allows once, n refuses.
func TestApprovalLine(t *testing.T) {
	k := newAsker()
	u := startUI(t, 120, 20, &fakeBackend{script: k.script}, nil)
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	k.ops <- runOp("go", "test", "./...")
	s := u.waitText("run  go test ./...  in /repository  (not sandboxed)\n")
	checkScreen(t, "testdata/screens/approval-line.txtar", "an approval led by its line in words, the answers after it", s, *update, "-update")
	for _, want := range []string{"y allow once · a allow go test ./... for this session · n refuse · t refuse with a note · j show the JSON",
		"│ y once · a session · n refuse · t note"} {
		if !strings.Contains(s, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, `"executable"`) {
		t.Errorf("the JSON shows before j:\n%s", s)
	}
	u.key(tcell.KeyRune, 'j', 0)
	u.waitText(`"executable": "/usr/local/go/bin/go",`)
	u.key(tcell.KeyRune, 'j', 0)
	u.waitFor("the JSON hidden", func(s string) bool { return !strings.Contains(s, `"executable"`) })
	u.key(tcell.KeyRune, 'y', 0)
	if err := k.answer(t); err != nil {
		t.Errorf("y: %v", err)
	}
	u.waitText("Allowed: run  go test ./...")
	k.ops <- runOp("go", "test", "./...")
	u.waitText("y allow once")
	u.key(tcell.KeyRune, 'n', 0)
	if err := k.answer(t); err != errRefused {
		t.Errorf("n: %v", err)
	}
	u.waitText("Refused: run  go test ./...")
	k.ops <- nil
}

// TestApprovalForTheSession: a allows the same executable with the same
// arguments for the rest of the session without asking again (/tools says
// so); different arguments still ask; nothing is saved.
func TestApprovalForTheSession(t *testing.T) {
	k := newAsker()
	saved := make(chan config.Permission, 4)
	u := startUI(t, 110, 20, &fakeBackend{script: k.script}, func(o *Options) {
		o.SavePermission = func(p config.Permission) error { saved <- p; return nil }
	})
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	k.ops <- runOp("go", "test", "./...")
	u.waitText("a allow go test ./... for this session")
	u.key(tcell.KeyRune, 'a', 0)
	if err := k.answer(t); err != nil {
		t.Fatalf("a: %v", err)
	}
	k.ops <- runOp("go", "test", "./...") // the same: not asked
	if err := k.answer(t); err != nil {
		t.Fatalf("the same command again: %v", err)
	}
	u.waitFor("two answers", func(s string) bool {
		return strings.Count(s, "Allowed for this session: run  go test ./...") == 2 && !strings.Contains(s, "y allow once")
	})
	k.ops <- runOp("go", "test", "./median") // other arguments: asked
	u.waitText("run  go test ./median  in /repository")
	select {
	case err := <-k.answers:
		t.Fatalf("other arguments were answered without asking: %v", err)
	default:
	}
	u.key(tcell.KeyRune, 'n', 0)
	if err := k.answer(t); err != errRefused {
		t.Errorf("n: %v", err)
	}
	k.ops <- nil
	u.waitFor("the turn to end", func(s string) bool { return !strings.Contains(s, "working") })
	u.typeText("/tools")
	u.key(tcell.KeyEnter, 0, 0)
	s := u.waitText("Allowed for this session (a), never written to config.toml:")
	_, allowed, _ := strings.Cut(s, "never written to config.toml:\n")
	allowed, _, _ = strings.Cut(allowed, "───")
	if strings.TrimSpace(allowed) != "run  go test ./...  in /repository  (not sandboxed)" {
		t.Errorf("/tools lists as allowed for the session:\n%s", allowed)
	}
	select {
	case p := <-saved:
		t.Errorf("a saved the permission %v", p)
	default:
	}
	if !u.app.opts.Approvals.Session.Allowed(approval.Parse(runOp("go", "test", "./..."))) {
		t.Error("the allowance is not the session's")
	}
}

// TestApprovalNote: t types a note for the model; Enter refuses with it
// (the Approver's error carries it), Esc goes back to the prompt.
func TestApprovalNote(t *testing.T) {
	k := newAsker()
	u := startUI(t, 100, 20, &fakeBackend{script: k.script}, nil)
	u.typeText("draft kept")
	u.key(tcell.KeyCtrlU, 0, 0)
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	k.ops <- runOp("go", "test", "./...")
	u.waitText("y allow once")
	u.typeText("t")
	u.waitText("note for the model>")
	u.typeText("yes no") // typed, not answers
	u.waitText("note for the model> yes no")
	u.key(tcell.KeyEscape, 0, 0)
	s := u.waitFor("the prompt again", func(s string) bool { return !strings.Contains(s, "note for the model>") })
	if !strings.Contains(s, "y allow once") {
		t.Fatalf("Esc left the prompt:\n%s", s)
	}
	u.typeText("t")
	u.waitText("note for the model> yes no")
	u.key(tcell.KeyCtrlU, 0, 0)
	u.typeText("run make test instead")
	u.key(tcell.KeyEnter, 0, 0)
	err := k.answer(t)
	var r *approval.Refusal
	if !errors.As(err, &r) || r.Note != "run make test instead" {
		t.Fatalf("the refusal is %v, want the note", err)
	}
	u.waitText("Refused: run  go test ./...")
	if s := u.text(); !strings.Contains(s, "\n>\n") {
		t.Errorf("the note stayed in the input:\n%s", s)
	}
	k.ops <- nil
}

// TestPermissionAsk: a write the level refuses is put to the person: y
// allows it once (the level stays), a switches to read-write and saves it,
// n refuses, and Shift+Tab to read-write answers it too.
func TestPermissionAsk(t *testing.T) {
	write := approval.WriteOp("apply_patch", "write", "repository", []string{"median.go"}, "read-only")
	for _, c := range []struct {
		key   func(u *uiTest)
		name  string
		err   error
		level config.Permission
		saved bool
	}{
		{func(u *uiTest) { u.key(tcell.KeyRune, 'y', 0) }, "y", nil, config.PermReadOnly, false},
		{func(u *uiTest) { u.key(tcell.KeyRune, 'a', 0) }, "a", nil, config.PermReadWrite, true},
		{func(u *uiTest) { u.key(tcell.KeyRune, 'n', 0) }, "n", errRefused, config.PermReadOnly, false},
		{func(u *uiTest) { u.key(tcell.KeyBacktab, 0, tcell.ModShift) }, "Shift+Tab", nil, config.PermReadWrite, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := newAsker()
			u := startUI(t, 90, 20, &fakeBackend{script: k.script}, nil)
			u.typeText("fix it")
			u.key(tcell.KeyEnter, 0, 0)
			k.ops <- write
			s := u.waitText("write  median.go  in /repository  (permission read-only)\n")
			for _, want := range []string{"The permission read-only lets agents read the repository, not change it",
				"y allow this write once · a switch to read-write (saved, as Shift+Tab) · n refuse"} {
				if !strings.Contains(s, want) {
					t.Errorf("the ask lacks %q:\n%s", want, s)
				}
			}
			if c.name == "y" {
				checkScreen(t, "testdata/screens/permission-ask.txtar", "a write the level refuses, put to the person", s, *update, "-update")
			}
			c.key(u)
			if err := k.answer(t); err != c.err {
				t.Errorf("answer %v, want %v", err, c.err)
			}
			if got := u.app.opts.Level.Get(); got != c.level {
				t.Errorf("level %v, want %v", got, c.level)
			}
			select {
			case p := <-u.saved:
				if !c.saved || p != config.PermReadWrite {
					t.Errorf("saved %v", p)
				}
			case <-time.After(time.Duration(map[bool]int{true: 5000, false: 50}[c.saved]) * time.Millisecond):
				if c.saved {
					t.Error("the level was not saved")
				}
			}
			k.ops <- nil
		})
	}
}

// TestCtrlC: with text in the input Ctrl+C clears it (Up brings it back);
// during a turn it stops it as Esc does; on an empty, idle input it asks
// for a second press, which exits within 2 s and not after.
func TestCtrlC(t *testing.T) {
	stopped := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		<-ctx.Done()
		close(stopped)
	}}
	u := startUI(t, 100, 10, be, nil)
	clock := llmtest.NewClock()
	u.onUI(func() { u.app.retry.clock = clock })
	u.typeText("a four-line draft")
	u.key(tcell.KeyCtrlJ, 0, 0)
	u.typeText("second line")
	u.waitText("  second line")
	u.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	u.waitFor("the input cleared", func(s string) bool { return strings.Contains(s, "\n>\n") })
	u.key(tcell.KeyUp, 0, 0)
	u.waitText("> a four-line draft\n  second line")
	u.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	u.waitFor("the input cleared", func(s string) bool { return strings.Contains(s, "\n>\n") })
	if len(be.sent()) != 0 {
		t.Fatalf("Ctrl+C sent %q", be.sent())
	}

	u.typeText("work")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("working")
	u.key(tcell.KeyCtrlC, 0, tcell.ModCtrl) // stops the turn, keeps the UI
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Ctrl+C did not stop the turn")
	}
	u.waitFor("the turn to end", func(s string) bool { return !strings.Contains(s, "working") })

	u.key(tcell.KeyCtrlC, 0, tcell.ModCtrl) // idle, empty: asks again
	u.waitText("│ Ctrl+C again to exit")
	clock.Advance(exitWindow + time.Millisecond)
	u.waitFor("the hint to go", func(s string) bool { return !strings.Contains(s, "Ctrl+C again") })
	select {
	case <-u.done:
		t.Fatal("one Ctrl+C exited")
	default:
	}
	u.key(tcell.KeyCtrlC, 0, tcell.ModCtrl) // too late for the first: asks again
	u.waitText("Ctrl+C again to exit")
	clock.Advance(exitWindow - 100*time.Millisecond)
	u.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	select {
	case err := <-u.done:
		if err != nil {
			t.Fatal(err)
		}
		u.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("a second Ctrl+C within 2 s did not exit")
	}
}

// TestHistory: Up on an empty input walks the messages sent, this
// session's (a resumed one's too) then older sessions' in the repository;
// Down comes back to an empty input; an edited entry is a message of its
// own, where Up and Down move between lines.
func TestHistory(t *testing.T) {
	be := &fakeBackend{items: items(llm.Message{Role: "user", Content: "resumed one"})}
	u := startUI(t, 100, 12, be, func(o *Options) {
		o.History = func() []string { return []string{"older one", "older two"} }
	})
	u.typeText("mine")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitFor("the turn to end", func(s string) bool { return strings.Contains(s, "▌ mine") && !strings.Contains(s, "working") })
	var seen []string
	for _, want := range []string{"mine", "resumed one", "older two", "older one", "older one"} {
		u.key(tcell.KeyUp, 0, 0)
		u.waitText("> " + want + "\n")
		seen = append(seen, want)
	}
	for _, want := range []string{"older two", "resumed one", "mine"} {
		u.key(tcell.KeyDown, 0, 0)
		u.waitText("> " + want + "\n")
	}
	u.key(tcell.KeyDown, 0, 0)
	u.waitFor("an empty input", func(s string) bool { return strings.Contains(s, "\n>\n") })
	u.key(tcell.KeyUp, 0, 0)
	u.waitText("> mine\n")
	u.typeText("!") // edited: no longer the entry
	u.waitText("> mine!\n")
	u.key(tcell.KeyUp, 0, 0)
	u.typeText("?")
	u.waitText("> mine!?\n") // Up moved the cursor (one line: nowhere), not the history
	if len(seen) != 5 {
		t.Fatal(seen)
	}
}

// TestOverlayStartsCollapsedWhenNarrow: on a transcript narrower than 120
// columns the overlay starts as its header; opened by the person it stays
// open; at 200 columns it starts open, within 9/16 of the transcript.
func TestOverlayStartsCollapsedWhenNarrow(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
		llm.Message{Role: "user", Content: strings.Repeat("a long line of the person's own message ", 4)},
		llm.Message{Role: "assistant", Content: "Error: the end of an error line matters too, and it is long enough to reach the right edge"},
	)}
	s := newScreenApp(t, 80, 24, be, nil)
	s.a.main.ov.chosen = false
	s.check("overlay-narrow", "at 80 columns the overlay starts collapsed: nothing of the transcript is covered")
	if !s.a.main.ov.Collapsed() {
		t.Fatal("the overlay is open at 80 columns")
	}
	x, y, w, _ := s.a.main.ov.GetRect()
	s.a.main.ov.click(x+w-3, y)
	s.draw()
	if s.a.main.ov.Collapsed() {
		t.Fatal("a click on [+] did not open it")
	}
	s.w = 90
	s.draw()
	if s.a.main.ov.Collapsed() {
		t.Error("the person's choice to open it was not kept")
	}
	wide := newScreenApp(t, 200, 50, be, nil)
	wide.a.main.ov.chosen = false
	wide.draw()
	_, _, ow, oh := wide.a.main.ov.GetRect()
	if wide.a.main.ov.Collapsed() || ow > 200*9/16 || oh > (50-3)*9/16 {
		t.Errorf("at 200×50 the overlay is %d×%d, collapsed %v", ow, oh, wide.a.main.ov.Collapsed())
	}
}

// TestOverlayNeverCoversTheEnd: while a reply streams into a short
// transcript, its last lines sit at the bottom of the transcript, under
// the open overlay; the input and the status line are never under it.
func TestOverlayNeverCoversTheEnd(t *testing.T) {
	root := rlm.Agent{Name: "s1"}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 200, 50, be, nil)
	s.a.main.ov.chosen = false
	s.a.running = true
	s.handle(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "user", Content: "explain"}})
	for i := 0; i < 8; i++ {
		s.handle(rlm.TextDelta{Agent: root, Text: fmt.Sprintf("streamed line %d of a reply long enough to pass under the overlay if it were at the top of the transcript, where it would be\n\n", i)})
		got := s.draw()
		rows := strings.Split(got, "\n")
		last := -1
		for y, r := range rows {
			if strings.Contains(r, fmt.Sprintf("streamed line %d", i)) {
				last = y
			}
		}
		_, oy, _, oh := s.a.main.ov.GetRect()
		if last < 0 || last < oy+oh {
			t.Fatalf("after %d lines the newest is at row %d, under the overlay (rows %d to %d):\n%s", i+1, last, oy, oy+oh-1, got)
		}
		if !strings.HasPrefix(rows[50-2], ">") || !strings.Contains(rows[50-1], "s1 │") {
			t.Fatalf("the input or the status line moved:\n%s", got)
		}
	}
	s.check("overlay-streaming", "a reply streaming into a short transcript at 200×50: its end at the bottom, the overlay above")
}

// TestOneCount: the status line, the overlay's total and FYI show one
// figure, the visible turns' tokens; hiding a turn lowers it at once.
func TestOneCount(t *testing.T) {
	turn := func(user, answer string) []llm.Message {
		return []llm.Message{{Role: "user", Content: user}, {Role: "assistant", Content: answer}}
	}
	msgs := append(turn("first question", "first answer"), turn("second question", "second answer")...)
	its := items(msgs...)
	counts := tokenizedCounts(its, func(i int, c *llm.TurnCount) {
		c.Tokens, c.Messages = 300*(i+1), []int{100 * (i + 1), 200 * (i + 1)}
	})
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: its, cache: counts}
	s := newScreenApp(t, 120, 20, be, nil)
	s.a.main.ov.SetCollapsed(false)
	got := s.draw()
	if !strings.Contains(got, "│ 900 tokens │") || !strings.Contains(got, "─ 900 tokens ─") {
		t.Fatalf("the status line and the overlay's total should both be 900 tokens:\n%s", got)
	}
	s.a.toggleHidden(0)
	got = s.draw()
	if !strings.Contains(got, "│ 600 tokens │") || !strings.Contains(got, "─ 600 tokens ─") {
		t.Errorf("after hiding the first turn (300) both should be 600 tokens:\n%s", got)
	}
	s.check("count-hidden", "the first turn hidden: the status line and the overlay's total both drop to 600")
	s.a.toggleHidden(0)
	if got := s.draw(); !strings.Contains(got, "│ 900 tokens │") {
		t.Errorf("restoring the turn did not bring the count back:\n%s", got)
	}
}
