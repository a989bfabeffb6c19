package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/config"
	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

func fg(s tcell.Style) tcell.Color { c, _, _ := s.Decompose(); return c }

func wantColour(t *testing.T, u *uiTest, text, hex string) {
	t.Helper()
	st, ok := u.style(text)
	if !ok {
		t.Fatalf("%q not on screen:\n%s", text, u.text())
	}
	if got, want := fg(st), tcell.GetColor(hex); got != want {
		t.Errorf("colour of %q = %v, want %v (%s)", text, got, want, hex)
	}
}

func reply(f *fakeBackend, a rlm.Agent, reasoning, text string) {
	if reasoning != "" {
		f.events.Emit(rlm.ReasoningDelta{Agent: a, Text: reasoning})
	}
	f.events.Emit(rlm.TextDelta{Agent: a, Text: text})
	m := llm.Message{Role: "assistant", Content: text}
	if reasoning != "" {
		raw, _ := json.Marshal(reasoning)
		m.Set("reasoning_content", raw)
	}
	f.events.Emit(rlm.Usage{Agent: a, Usage: llm.Usage{TotalTokens: 1234}})
	f.add(a, m)
}

func TestSendStreamsReply(t *testing.T) {
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		reply(f, rlm.Agent{Name: f.SessionName()}, "thinking it over", "Hello back")
	}}
	sys := "You are a test."
	u := startUI(t, 60, 16, be, func(o *Options) { o.System = &sys })
	wantColour(t, u, "You are a test.", testTheme.System)
	u.typeText("hi there")
	u.waitText("> hi there")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("Hello back")
	wantColour(t, u, "hi there", testTheme.User)
	wantColour(t, u, "thinking", testTheme.Reasoning) // folded once the turn ended, or its label
	wantColour(t, u, "Hello back", testTheme.Assistant)
	s := u.waitFor("the turn to end", func(s string) bool {
		return regexp.MustCompile(`20260101-120000 │ test-model │ ~\d+ tokens │ read-only\n`).MatchString(s)
	})
	if n := strings.Count(s, "Hello back"); n != 1 {
		t.Errorf("the reply is shown %d times:\n%s", n, s)
	}
	if got := be.sent(); len(got) != 1 || got[0] != "hi there" {
		t.Errorf("prompts = %q", got)
	}
}

func TestEscStopsTurn(t *testing.T) {
	stopped := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		root := rlm.Agent{Name: f.SessionName()}
		f.events.Emit(rlm.TextDelta{Agent: root, Text: "partial"})
		<-ctx.Done()
		close(stopped)
		f.add(root, llm.Message{Role: "assistant", Content: "partial"})
		f.events.Emit(rlm.TurnDone{Agent: root, Status: rlm.Stopped, Text: "partial\n\n" + rlm.StoppedMarker})
	}}
	u := startUI(t, 100, 12, be, nil)
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("working · Esc stops")
	u.waitText("partial")
	u.key(tcell.KeyEscape, 0, 0)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Esc did not cancel the turn")
	}
	u.waitText(rlm.StoppedMarker)
	u.waitFor("the turn to end", func(s string) bool { return !strings.Contains(s, "working") })
}

func TestTypingWhileTurnRuns(t *testing.T) {
	release := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		if prompt == "first" {
			<-release
		}
		reply(f, rlm.Agent{Name: f.SessionName()}, "", "answer to "+prompt)
	}}
	u := startUI(t, 100, 12, be, nil)
	u.typeText("first")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("working")
	u.typeText("second")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("your message waits")
	u.waitText("> second")
	close(release)
	u.waitText("answer to first")
	u.waitFor("the turn to end", func(s string) bool { return !strings.Contains(s, "working") })
	if n := len(be.sent()); n != 1 {
		t.Fatalf("%d prompts sent while the turn ran, want 1", n)
	}
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("answer to second")
}

func TestShiftTabCyclesPermission(t *testing.T) {
	u := startUI(t, 60, 8, nil, nil)
	u.waitText("│ read-only")
	for _, want := range []config.Permission{config.PermReadWrite, config.PermNone, config.PermReadOnly} {
		u.key(tcell.KeyBacktab, 0, 0)
		u.waitText("│ " + want.String())
		select {
		case got := <-u.saved:
			if got != want {
				t.Errorf("saved %v, want %v", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the level was not saved")
		}
		if got := u.app.opts.Level.Get(); got != want {
			t.Errorf("level = %v, want %v", got, want)
		}
	}
}

func TestShiftTabSaveFailureIsShown(t *testing.T) {
	u := startUI(t, 120, 8, nil, func(o *Options) {
		o.SavePermission = func(config.Permission) error { return errors.New("read-only file system") }
	})
	u.key(tcell.KeyBacktab, 0, 0)
	u.waitText("saving it failed: read-only file system")
	u.waitText("│ read-write")
}

func TestRename(t *testing.T) {
	be := &fakeBackend{}
	u := startUI(t, 100, 14, be, nil)
	u.typeText("/rename later")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("Cannot rename the session: the session does not exist yet")

	u.typeText("hello")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("20260101-120000 │")
	u.waitFor("the turn to end", func(s string) bool { return !strings.Contains(s, "working") })

	be.sub.Store(true)
	u.typeText("/rename busy")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("while a subagent is running")
	be.sub.Store(false)

	u.typeText("/rename .hidden")
	u.key(tcell.KeyEnter, 0, 0)
	if s := u.waitText(`Cannot rename: the name ".hidden"`); strings.Contains(s, "cannot rename") {
		t.Errorf("the refusal says cannot rename twice:\n%s", s)
	}

	u.typeText("/rename")
	u.key(tcell.KeyEnter, 0, 0) // the list completes it
	u.waitText("> /rename\n")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("/rename needs a name")

	u.typeText("/rename my-work")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText(" my-work │ test-model")
	if len(be.renamed()) != 1 || be.renamed()[0] != "my-work" {
		t.Errorf("renames = %q", be.renamed())
	}
}

func TestCommandList(t *testing.T) {
	u := startUI(t, 80, 18, nil, nil)
	u.typeText("/")
	s := u.waitText("/tools")
	for _, c := range builtinCommands {
		if !strings.Contains(s, c.name) {
			t.Errorf("list lacks %s:\n%s", c.name, s)
		}
	}
	u.typeText("re")
	s = u.waitFor("a shorter list", func(s string) bool { return !strings.Contains(s, "/tools") })
	if !strings.Contains(s, "/rename <name>") {
		t.Errorf("list lacks /rename:\n%s", s)
	}
	u.key(tcell.KeyEnter, 0, 0)
	u.waitFor("the completed command", func(s string) bool {
		return strings.Contains(s, "> /rename\n") && !strings.Contains(s, "rename this session")
	})
	u.key(tcell.KeyCtrlU, 0, 0)
	u.typeText("/t")
	u.waitText("/tools")
	u.key(tcell.KeyEscape, 0, 0)
	u.waitFor("the list to close", func(s string) bool { return !strings.Contains(s, "show the tools") })
	u.key(tcell.KeyBackspace2, 0, 0)
	u.waitText("show the tools")
	u.key(tcell.KeyDown, 0, 0) // /rename
	u.key(tcell.KeyDown, 0, 0) // /tools
	u.key(tcell.KeyTab, 0, 0)
	u.waitText("> /tools")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("Delegate a task.")
	wantColour(t, u, "Delegate a task.", testTheme.ToolResult)
}

func TestLeadingSpaceSendsSlash(t *testing.T) {
	be := &fakeBackend{}
	u := startUI(t, 80, 10, be, nil)
	u.typeText(" /tools please")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitFor("the turn to end", func(s string) bool {
		return strings.Contains(s, "\n▌ /tools please\n") && strings.Contains(s, "20260101") && !strings.Contains(s, "working")
	})
	if len(be.sent()) != 1 || be.sent()[0] != "/tools please" {
		t.Errorf("prompts = %q", be.sent())
	}
}

func TestNewRefusedWhileRunning(t *testing.T) {
	release := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) { <-release }}
	u := startUI(t, 100, 12, be, nil)
	u.typeText("work")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("working")
	u.typeText("/new")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("A turn is running")
	u.typeText("/clear")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("finish, then /clear.")
	close(release)
	u.waitFor("the turn to end", func(s string) bool { return !strings.Contains(s, "working") })
	u.typeText("/clear")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitFor("an empty session", func(s string) bool {
		return strings.Contains(s, "new session │") && !strings.Contains(s, "work\n")
	})
}

func TestPasteNeverSends(t *testing.T) {
	be := &fakeBackend{}
	u := startUI(t, 60, 10, be, nil)
	u.scr.PostEvent(tcell.NewEventPaste(true))
	u.typeText("line one")
	u.key(tcell.KeyEnter, 0, 0)
	u.typeText("line two")
	u.scr.PostEvent(tcell.NewEventPaste(false))
	s := u.waitText("> line one\n  line two")
	if len(be.sent()) != 0 {
		t.Fatalf("the paste sent %q", be.sent())
	}
	_ = s
	u.key(tcell.KeyEnter, 0, 0)
	u.waitFor("the turn to end", func(s string) bool { return strings.Contains(s, "20260101") && !strings.Contains(s, "working") })
	if len(be.sent()) != 1 || be.sent()[0] != "line one\nline two" {
		t.Errorf("prompts = %q", be.sent())
	}
}

func TestEditingKeys(t *testing.T) {
	u := startUI(t, 60, 10, nil, nil)
	u.typeText("abc")
	u.key(tcell.KeyCtrlJ, 0, 0)
	u.typeText("def")
	u.waitText("> abc\n  def")
	u.key(tcell.KeyLeft, 0, 0)
	u.key(tcell.KeyCtrlK, 0, 0)
	u.waitText("  de\n")
	u.key(tcell.KeyCtrlU, 0, 0)
	u.waitFor("the line killed", func(s string) bool { return strings.Contains(s, "> abc\n\n") })
}

func rootItems(n int, text func(i int) string) []sessions.Item {
	var items []sessions.Item
	for i := 0; i < n; i++ {
		items = append(items, sessions.Item{Message: llm.Message{Role: "user", Content: text(i)}})
	}
	return items
}

func TestScrollHoldsView(t *testing.T) {
	be := &fakeBackend{items: rootItems(60, func(i int) string { return fmt.Sprintf("message %d", i) })}
	u := startUI(t, 100, 12, be, nil)
	u.waitText("message 59")
	u.key(tcell.KeyPgUp, 0, 0)
	u.waitFor("the view to scroll", func(s string) bool { return !strings.Contains(s, "message 59") && strings.Contains(s, "scrolled") })
	be.events.Emit(rlm.MessageAdded{Agent: rlm.Agent{}, Message: llm.Message{Role: "user", Content: "arrived later"}})
	done := make(chan struct{})
	u.onUI(func() {
		if n := len(u.app.root.blocks); n != 61 {
			return
		}
		close(done)
	})
	u.waitFor("the new message", func(string) bool {
		var n int
		u.app.tv.QueueUpdate(func() { n = len(u.app.root.blocks) })
		return n == 61
	})
	if s := u.text(); strings.Contains(s, "arrived later") {
		t.Fatalf("the held view moved:\n%s", s)
	}
	for i := 0; i < 5; i++ {
		u.scr.InjectMouse(5, 3, tcell.WheelDown, 0)
	}
	u.key(tcell.KeyPgDn, 0, 0)
	u.waitFor("the bottom", func(s string) bool { return strings.Contains(s, "arrived later") && !strings.Contains(s, "scrolled") })
	be.events.Emit(rlm.MessageAdded{Agent: rlm.Agent{}, Message: llm.Message{Role: "user", Content: "and more"}})
	u.waitText("and more")
	u.scr.InjectMouse(5, 3, tcell.WheelUp, 0)
	u.waitFor("a line up", func(s string) bool { return !strings.Contains(s, "and more") })
}

func TestWordWrapNarrow(t *testing.T) {
	be := &fakeBackend{items: rootItems(1, func(int) string { return "the quick brown fox jumps over the lazy dog" })}
	u := startUI(t, 12, 12, be, nil)
	s := u.waitText("the quick")
	for _, want := range []string{"\n▌ the quick\n", "\n▌ brown fox\n", "\n▌ jumps over\n", "\n▌ the lazy\n", "\n▌ dog\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

func TestMouseDragCopies(t *testing.T) {
	be := &fakeBackend{items: rootItems(1, func(int) string { return "copy this text please" })}
	u := startUI(t, 40, 10, be, nil)
	s := u.waitText("copy this")
	row := strings.Split(s, "\n")
	y := -1
	for i, r := range row {
		if strings.HasPrefix(r, "▌ copy this") {
			y = i
		}
	}
	u.scr.InjectMouse(7, y, tcell.Button1, 0) // after the message's marker
	u.scr.InjectMouse(11, y, tcell.Button1, 0)
	u.scr.InjectMouse(11, y, tcell.ButtonNone, 0)
	u.waitFor("the copy", func(string) bool {
		var got []byte
		u.app.tv.QueueUpdate(func() { got = u.scr.GetClipboardData() })
		return string(got) == "this "
	})
	st, _ := u.style("this")
	if _, _, attr := st.Decompose(); attr&tcell.AttrReverse == 0 {
		t.Error("the selection is not highlighted")
	}
}

func TestSubagentShownWhileItRuns(t *testing.T) {
	inSub := make(chan struct{})
	release := make(chan struct{})
	be := &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		root := rlm.Agent{Name: f.SessionName()}
		call := llm.ToolCall{ID: "call1", Name: "rlm", Arguments: `{"task":"find it","name":"finder"}`}
		f.add(root, llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call}})
		f.events.Emit(rlm.ToolCall{Agent: root, ID: "call1", Name: "rlm", Arguments: call.Arguments})
		sub := rlm.Agent{Name: "finder", Depth: 1, ID: "call1"}
		f.events.Emit(rlm.AgentStart{Agent: sub, Task: "find it", Tools: []llm.Tool{{Name: "repl", Description: "Run Starlark."}}})
		f.add(sub, llm.Message{Role: "user", Content: "find it"})
		f.events.Emit(rlm.ToolCallStarted{Agent: sub, ID: "s1", Name: "apply_patch"})
		f.events.Emit(rlm.ToolArgsDelta{Agent: sub, ID: "s1", Text: `{"root":"store",`})
		pc := llm.ToolCall{ID: "s1", Name: "apply_patch", Arguments: `{"root":"store","patch":"*** Begin Patch\n*** End Patch"}`}
		f.add(sub, llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{pc}})
		f.events.Emit(rlm.ToolOutput{Agent: sub, ID: "s1", Text: "printing..."})
		f.events.Emit(FailureNote{Message: "denied: writing /etc\nmore detail", Count: 3})
		close(inSub)
		<-release
		f.add(sub, llm.Message{Role: "tool", ToolCallID: "s1", Content: "patched"})
		f.events.Emit(rlm.AgentEnd{Agent: sub, Result: "found"})
		f.add(root, llm.Message{Role: "tool", ToolCallID: "call1", Content: "found"})
		reply(f, root, "", "all done")
	}}
	u := startUI(t, 80, 20, be, nil)
	u.typeText("go")
	u.key(tcell.KeyEnter, 0, 0)
	<-inSub
	s := u.waitText("printing...")
	for _, want := range []string{" finder │ test-model", "● apply_patch\nroot: store\n*** Begin Patch", "⚠ denied: writing /etc (seen 3 times)"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "more detail") {
		t.Errorf("the note shows more than its first line:\n%s", s)
	}
	wantColour(t, u, "⚠ denied", testTheme.Warning)
	wantColour(t, u, "● apply_patch", testTheme.ToolCall)
	u.typeText("/tools")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("Run Starlark.")
	close(release)
	s = u.waitText("all done")
	for _, want := range []string{"20260101-120000 │", "● rlm finder", "\nfind it\n", "found"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "printing") {
		t.Errorf("the subagent's transcript stayed:\n%s", s)
	}
}

// cellOf returns the screen position of the first occurrence of s.
func cellOf(t *testing.T, screen, s string) (int, int) {
	t.Helper()
	for y, row := range strings.Split(screen, "\n") {
		if i := strings.Index(row, s); i >= 0 {
			return len([]rune(row[:i])), y
		}
	}
	t.Fatalf("%q not on screen:\n%s", s, screen)
	return 0, 0
}

func hiddenTurns(items []sessions.Item) []int {
	var out []int
	for i, t := range sessions.Turns(items) {
		if t.Hidden {
			out = append(out, i)
		}
	}
	return out
}

func TestOverlayClickHidesTurn(t *testing.T) {
	var items []sessions.Item
	for i := 0; i < 2; i++ {
		items = append(items,
			sessions.Item{Message: llm.Message{Role: "user", Content: fmt.Sprintf("question %d", i)}},
			sessions.Item{Message: llm.Message{Role: "assistant", Content: fmt.Sprintf("answer %d", i)}})
	}
	be := &fakeBackend{items: items, name: "s1"}
	u := startUI(t, 120, 20, be, nil)
	u.onUI(func() { u.app.main.ov.SetCollapsed(false) })
	s := u.waitText("[Context][s1]")
	u.waitText("Turn 2")
	x, y := cellOf(t, s, "Turn 1")
	click := func() {
		u.scr.InjectMouse(x+2, y, tcell.Button1, 0)
		u.scr.InjectMouse(x+2, y, tcell.ButtonNone, 0)
	}
	click()
	u.waitFor("turn 1 hidden", func(string) bool { return fmt.Sprint(hiddenTurns(be.Conversation())) == "[0]" })
	click()
	u.waitFor("turn 1 restored", func(string) bool { return len(hiddenTurns(be.Conversation())) == 0 })
	if got := u.text(); !strings.Contains(got, "question 0") {
		t.Errorf("the transcript lost a turn:\n%s", got)
	}
	// Collapsing with [-] keeps the header.
	s = u.text()
	cx, cy := cellOf(t, s, "[-]")
	u.scr.InjectMouse(cx+1, cy, tcell.Button1, 0)
	u.scr.InjectMouse(cx+1, cy, tcell.ButtonNone, 0)
	u.waitFor("the overlay collapsed", func(s string) bool { return strings.Contains(s, "[+]") && !strings.Contains(s, "Turn 1") })
}

func TestQuitChannelExits(t *testing.T) {
	quit := make(chan struct{})
	u := startUI(t, 60, 8, nil, func(o *Options) { o.Quit = quit })
	close(quit)
	select {
	case err := <-u.done:
		if err != nil {
			t.Fatal(err)
		}
		u.done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("the UI did not exit")
	}
}

// TestTerminalLost: an input error from the terminal (closed, hung up)
// ends the UI with ErrTerminalLost.
func TestTerminalLost(t *testing.T) {
	u := startUI(t, 60, 8, nil, nil)
	u.scr.PostEvent(tcell.NewEventError(io.EOF))
	select {
	case err := <-u.done:
		if !errors.Is(err, ErrTerminalLost) || !strings.Contains(err.Error(), "EOF") {
			t.Fatalf("err %v", err)
		}
		u.done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("the UI did not exit")
	}
}

func TestMouseDragAcrossBlocks(t *testing.T) {
	be := &fakeBackend{items: []sessions.Item{
		{Message: llm.Message{Role: "user", Content: "first line wraps here"}},
		{Message: llm.Message{Role: "assistant", Content: "second"}},
	}}
	u := startUI(t, 12, 12, be, nil)
	s := u.waitText("second")
	x0, y0 := cellOf(t, s, "wraps")
	x1, y1 := cellOf(t, s, "second")
	u.scr.InjectMouse(x0, y0, tcell.Button1, 0)
	u.scr.InjectMouse(x1+2, y1, tcell.Button1, 0)
	u.scr.InjectMouse(x1+2, y1, tcell.ButtonNone, 0)
	want := "wraps here\n\nsec"
	u.waitFor("the copy", func(string) bool {
		var got []byte
		u.app.tv.QueueUpdate(func() { got = u.scr.GetClipboardData() })
		return string(got) == want
	})
}

// TestSavedReplyTakesLivePlace: /tools output shown while a reply streams
// stays below the reply once it is saved, and a stopped turn whose last
// rlm result already ends with the stop marker does not repeat it.
func TestSavedReplyTakesLivePlace(t *testing.T) {
	a, scr := benchApp(t, nil)
	root := rlm.Agent{}
	a.handle(rlm.TextDelta{Agent: root, Text: "partial"})
	a.root.add(kInfo, "", "TOOLS OUTPUT")
	a.handle(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "assistant", Content: "partial",
		ToolCalls: []llm.ToolCall{{ID: "c1", Name: "rlm", Arguments: `{"task":"t","name":"n"}`}}}})
	a.handle(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "tool", ToolCallID: "c1",
		Content: "half done\n" + rlm.StoppedMarker}})
	a.handle(rlm.TurnDone{Agent: root, Status: rlm.Stopped})
	a.main.Draw(scr)
	var got []string
	for _, b := range a.root.blocks {
		got = append(got, b.String())
	}
	want := []string{"partial", formatCall("rlm", `{"task":"t","name":"n"}`), "TOOLS OUTPUT",
		"half done\n" + rlm.StoppedMarker}
	if !slices.Equal(got, want) {
		t.Errorf("blocks:\n%q\nwant\n%q", got, want)
	}
	a.handle(rlm.TextDelta{Agent: root, Text: "more"})
	a.handle(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "assistant", Content: "more"}})
	a.handle(rlm.TurnDone{Agent: root, Status: rlm.Stopped})
	if b := a.root.blocks[len(a.root.blocks)-1]; b.kind != kNote || b.String() != rlm.StoppedMarker {
		t.Errorf("a stopped reply's note: last block %q", b.String())
	}
}

// TestConversationKeepsNotes: the conversation a turn starts with (earlier
// FYI calls removed) keeps what was shown under the messages still there.
func TestConversationKeepsNotes(t *testing.T) {
	fyi := llm.ToolCall{ID: "fyi1", Name: "FYI", Arguments: "{}"}
	items := []sessions.Item{
		{Message: llm.Message{Role: "user", Content: "hi"}},
		{Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{fyi}}},
		{Message: llm.Message{Role: "tool", ToolCallID: "fyi1", Content: "Date: today"}},
		{Message: llm.Message{Role: "assistant", Content: "hello"}},
	}
	a, _ := benchApp(t, items)
	a.root.add(kInfo, "", "TOOLS OUTPUT")
	a.root.add(kNote, "", rlm.StoppedMarker)
	next := []sessions.Item{items[0], items[3], {Message: llm.Message{Role: "user", Content: "again"}}}
	a.handle(rlm.Conversation{Items: next})
	var got []string
	for _, b := range a.root.blocks {
		got = append(got, b.String())
	}
	want := []string{"hi", "hello", "TOOLS OUTPUT", rlm.StoppedMarker, "again"}
	if !slices.Equal(got, want) {
		t.Errorf("blocks:\n%q\nwant\n%q", got, want)
	}
}

// TestOneRecountAtATime: a turn that ends while the token count of the
// previous one runs does not start a second count; the next count starts
// when the first is done, from its results.
func TestOneRecountAtATime(t *testing.T) {
	type call struct {
		turns   int
		cache   int
		release chan struct{}
	}
	calls := make(chan call, 4)
	var inFlight, most atomic.Int32
	count := func(_ context.Context, turns [][]llm.Message, cache []llm.TurnCount) []llm.TurnCount {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		if n > most.Load() {
			most.Store(n)
		}
		c := call{len(turns), len(cache), make(chan struct{})}
		calls <- c
		<-c.release
		out := make([]llm.TurnCount, len(turns))
		for i, msgs := range turns {
			out[i] = llm.TurnCount{Key: llm.TurnKey(msgs), Tokens: 5, Messages: make([]int, len(msgs))}
		}
		return out
	}
	u := startUI(t, 80, 12, &fakeBackend{}, func(o *Options) { o.CountTurns = count })
	next := func() call {
		t.Helper()
		select {
		case c := <-calls:
			return c
		case <-time.After(5 * time.Second):
			t.Fatal("no count started")
		}
		return call{}
	}
	u.typeText("one")
	u.key(tcell.KeyEnter, 0, 0)
	first := next()
	u.typeText("two")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitFor("the second turn's end", func(s string) bool {
		return strings.Contains(s, "two") && strings.Contains(s, "\n>\n") && !strings.Contains(s, "working")
	})
	close(first.release)
	second := next()
	close(second.release)
	if first.turns != 1 || second.turns != 2 || second.cache != 1 || most.Load() != 1 {
		t.Errorf("first %+v, second %+v, most at once %d", first, second, most.Load())
	}
}

// TestTurnStartCountsEarlierTurns: the conversation a turn starts with
// (earlier FYI calls removed) has the completed turns counted at once; the
// running turn is not sent to the counter.
func TestTurnStartCountsEarlierTurns(t *testing.T) {
	u, _, counted, release := countingUI(t)
	want := func(n int) {
		t.Helper()
		select {
		case got := <-counted:
			if got != n {
				t.Fatalf("counted %d turns, want %d", got, n)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no count of %d turns", n)
		}
	}
	u.typeText("one")
	u.key(tcell.KeyEnter, 0, 0)
	want(1)
	u.typeText("two")
	u.key(tcell.KeyEnter, 0, 0)
	want(1) // while "two" runs: only "one"
	close(release)
	want(2)
}

// countingUI starts a UI whose counter gives every turn 5 tokens and sends
// the number of turns on counted once it has answered; the turn "two"
// stays running, with its conversation emitted, until release is closed.
func countingUI(t *testing.T) (u *uiTest, be *fakeBackend, counted chan int, release chan struct{}) {
	counted, release = make(chan int, 4), make(chan struct{})
	count := func(_ context.Context, turns [][]llm.Message, _ []llm.TurnCount) []llm.TurnCount {
		out := make([]llm.TurnCount, len(turns))
		for i, msgs := range turns {
			out[i] = llm.TurnCount{Key: llm.TurnKey(msgs), Tokens: 5, Messages: make([]int, len(msgs))}
		}
		defer func() { counted <- len(turns) }()
		return out
	}
	be = &fakeBackend{script: func(ctx context.Context, f *fakeBackend, prompt string) {
		if prompt == "two" {
			f.events.Emit(rlm.Conversation{Items: f.Conversation()})
			<-release
		}
	}}
	u = startUI(t, 80, 12, be, func(o *Options) { o.CountTurns = count })
	return u, be, counted, release
}

// TestTurnStartSavesNoSameCounts: the count at a turn's start that finds
// every earlier turn as counted before saves nothing (it would rewrite the
// whole session's file); the count at its end, with the new turn, saves.
func TestTurnStartSavesNoSameCounts(t *testing.T) {
	u, be, counted, release := countingUI(t)
	saves := func(want int) {
		t.Helper()
		select {
		case <-counted:
		case <-time.After(5 * time.Second):
			t.Fatal("no count")
		}
		for deadline := time.Now().Add(5 * time.Second); ; { // taken back after the save
			busy := true
			u.onUI(func() { busy = u.app.recounting })
			if !busy {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the count was never taken")
			}
			time.Sleep(time.Millisecond)
		}
		be.mu.Lock()
		defer be.mu.Unlock()
		if be.saves != want {
			t.Fatalf("%d saves of the counts, want %d", be.saves, want)
		}
	}
	u.typeText("one")
	u.key(tcell.KeyEnter, 0, 0)
	saves(1)
	u.typeText("two")
	u.key(tcell.KeyEnter, 0, 0)
	saves(1) // "one" again, as counted
	close(release)
	saves(2)
}

// TestStatusScrollHintFirst: on a status line too narrow for every hint,
// the scroll hint is not the one cut off.
func TestStatusScrollHintFirst(t *testing.T) {
	a, scr := benchApp(t, rootItems(60, func(i int) string { return fmt.Sprintf("message %d", i) }))
	scr.SetSize(100, 12)
	a.main.SetRect(0, 0, 100, 12)
	a.running, a.waiting = true, true
	a.main.Draw(scr)
	a.do(Action{Cmd: CmdPageUp})
	a.main.Draw(scr)
	scr.Show()
	cells, w, h := scr.GetContents()
	var row strings.Builder
	for x := 0; x < w; x++ {
		row.WriteString(string(cells[(h-1)*w+x].Runes))
	}
	if s := row.String(); !strings.Contains(s, "scrolled") || !strings.Contains(s, "working") {
		t.Errorf("status line %q", s)
	}
}
