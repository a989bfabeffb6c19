// Golden screens of a newcomer's first hour: the welcome, /help, the
// folded FYI line, run() values as text, labelled reasoning, a subagent's
// answer as markdown, a patch that did not apply.

package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"harness/config"
	"harness/llm"
	"harness/rlm"
)

// welcomeOpts fills in what the welcome shows.
func welcomeOpts(o *Options) {
	o.Version, o.Repository, o.Endpoint = "v1.2.3", "/home/ada/src/median", "http://localhost:8080/v1"
	o.Model = "qwen3-coder"
}

// TestWelcome: an empty session opens with the welcome (version,
// repository, model and endpoint, the level in words, three hints), at
// 80×24 with the overlay collapsed and at 200×50 with it open; Shift+Tab
// changes its level at once; the first message takes its place, and it is
// never part of the conversation.
func TestWelcome(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
	}{{"welcome-80x24", 80, 24}, {"welcome-200x50", 200, 50}} {
		t.Run(c.name, func(t *testing.T) {
			be := &fakeBackend{events: rlm.NewStream()}
			s := newScreenApp(t, c.w, c.h, be, welcomeOpts)
			s.a.main.ov.chosen = false // as it starts: collapsed only when narrow
			s.check(c.name, "an empty session at "+c.name[len("welcome-"):]+": the welcome, the overlay as it starts")
		})
	}
	be := &fakeBackend{events: rlm.NewStream()}
	s := newScreenApp(t, 80, 24, be, welcomeOpts)
	got := s.draw()
	for _, want := range []string{"Welcome to harness v1.2.3", "repository /home/ada/src/median", "qwen3-coder at http://localhost:8080/v1",
		"read-only: agents can read the repository; a change asks you first", "/ for commands", "? for keys", "Shift+Tab for permissions"} {
		if !strings.Contains(got, want) {
			t.Errorf("the welcome lacks %q:\n%s", want, got)
		}
	}
	s.a.do(Action{Cmd: CmdPermission})
	if got := s.draw(); !strings.Contains(got, "read-write: agents can read and change the repository") {
		t.Errorf("Shift+Tab did not change the welcome's level:\n%s", got)
	}
	root := rlm.Agent{Name: "s1"}
	s.handle(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "user", Content: "fix the bug in Median"}})
	if got := s.draw(); strings.Contains(got, "harness v1.2.3") || !strings.Contains(got, "▌ fix the bug in Median") {
		t.Errorf("the welcome stayed after the first message:\n%s", got)
	}
	for _, it := range be.Conversation() {
		if strings.Contains(it.Message.Content, "harness v1.2.3") {
			t.Error("the welcome is in the conversation")
		}
	}
}

// TestHelp: /help and ? on an empty input show the keys and commands
// (a registered command among them), held at their first line; ? in a
// message is typed.
func TestHelp(t *testing.T) {
	review := Command{Name: "/review", Args: " <what>", Help: "review a change (prompt file review.md)",
		Prompt: func(arg string) (string, error) { return "Review " + arg, nil }}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(llm.Message{Role: "user", Content: "hi"})}
	s := newScreenApp(t, 80, 24, be, func(o *Options) { o.Commands = []Command{review} })
	for _, r := range "/help" {
		s.a.do(Action{Cmd: CmdInsert, Rune: r})
	}
	s.a.do(Action{Cmd: CmdSend}) // runs /help from the list
	s.check("help-80x24", "/help at 80×24: the key table from its start, held there")
	got := s.draw()
	if !strings.Contains(got, "scrolled · PageDown to follow") {
		t.Errorf("the help is not held at its start:\n%s", got)
	}
	for i := 0; i < 6; i++ {
		s.a.do(Action{Cmd: CmdPageDown})
	}
	got = s.draw()
	for _, want := range []string{"/review <what>", "review a change (prompt file review.md)", "/rename <name>"} {
		if !strings.Contains(got, want) {
			t.Errorf("the help's end lacks %q:\n%s", want, got)
		}
	}
	// ? on an empty input shows it again; in a message it is a character.
	n := len(s.a.root.blocks)
	s.a.do(KeyAction(tcell.NewEventKey(tcell.KeyRune, '?', 0), KeyState{EmptyInput: true}))
	if len(s.a.root.blocks) != n+1 || s.a.root.blocks[n].kind != kHelp {
		t.Error("? on an empty input did not show the help")
	}
	s.a.do(Action{Cmd: CmdInsert, Rune: 'w'})
	s.a.do(KeyAction(tcell.NewEventKey(tcell.KeyRune, '?', 0), KeyState{EmptyInput: s.a.in.text == ""}))
	if s.a.in.text != "w?" {
		t.Errorf("? in a message: input %q", s.a.in.text)
	}
}

// fyiItems is a root turn that began with its FYI call.
func fyiItems() []llm.Message {
	return []llm.Message{
		{Role: "user", Content: "fix the bug in Median"},
		{Role: "assistant", ToolCalls: []llm.ToolCall{call("fyi1", "FYI", "{}")}},
		{Role: "tool", ToolCallID: "fyi1", Content: "Date: Tuesday, 2026-03-03 14:02 CET\nPrompt tokens: 527\nModel: qwen3-coder\n"},
	}
}

// TestFoldedFYI: the root's FYI call and its result are one dim line,
// "FYI · 527 tokens · 14:02", expanded by a click and folded by another.
func TestFoldedFYI(t *testing.T) {
	msgs := append(fyiItems(), llm.Message{Role: "assistant", Content: "Looking at it."})
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(msgs...)}
	s := newScreenApp(t, 80, 12, be, nil)
	s.check("fyi-folded", "the root's FYI call folded into one dim line")
	got := s.draw()
	if strings.Contains(got, "Prompt tokens") || !strings.Contains(got, "FYI · 527 tokens · 14:02") {
		t.Errorf("the FYI call is not folded:\n%s", got)
	}
	s.click("FYI · 527 tokens")
	got = s.draw()
	if !strings.Contains(got, "Prompt tokens: 527") || !strings.Contains(got, "▲ FYI · click or Ctrl+O to fold") {
		t.Errorf("a click did not expand the FYI call:\n%s", got)
	}
	s.click("▲ FYI")
	if got := s.draw(); strings.Contains(got, "Prompt tokens") {
		t.Errorf("a second click did not fold it:\n%s", got)
	}
}

// TestRunValuesAsText: a REPL result holding run() values shows each as
// its command, exit code, output and error output; the model's text is
// unchanged.
func TestRunValuesAsText(t *testing.T) {
	value := `{'exit_code': 1, 'stdout': '--- FAIL: TestMedian (0.00s)\n    median_test.go:9: Median([1 2 3 4]) = 2, want 2.5\n', 'stderr': 'exit status 1\n'}`
	msgs := []llm.Message{
		{Role: "user", Content: "Run the tests."},
		{Role: "assistant", ToolCalls: []llm.ToolCall{call("r1", "repl", jsonArgs("code", `print("testing")`+"\n"+`run(["go", "test", "./..."])`))}},
		{Role: "tool", ToolCallID: "r1", Content: "testing\n" + value},
	}
	sub := rlm.Agent{Name: "tester", Depth: 1, ID: "c1"}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 80, 16, be, nil)
	s.handle(rlm.AgentStart{Agent: sub})
	for _, m := range msgs {
		s.handle(rlm.MessageAdded{Agent: sub, Message: m})
	}
	s.check("run-value", "a REPL result with a run() value, shown as the command, its exit code and its output")
	got := s.draw()
	for _, want := range []string{"testing\n$ go test ./... · exit 1\n--- FAIL: TestMedian (0.00s)", "stderr:\nexit status 1"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "'exit_code'") {
		t.Errorf("the value is shown raw:\n%s", got)
	}
	s.wantColour("exit 1", testTheme.Error)
	if v := s.a.top(); v.items[2].Message.Content != "testing\n"+value {
		t.Error("the result's text changed")
	}
}

// TestRunValueParsing: run() values as repr writes them, and what is not one.
func TestRunValueParsing(t *testing.T) {
	for _, c := range []struct {
		line string
		ok   bool
		want runValue
	}{
		{`{'exit_code': 0, 'stdout': 'hi\n', 'stderr': ''}`, true, runValue{0, "hi\n", ""}},
		{`{'stderr': "it's", 'exit_code': -9, 'stdout': '\t\x1b\u00e9\\'}`, true, runValue{-9, "\t\x1bé\\", "it's"}},
		{`{'exit_code': 0, 'stdout': 'a'}`, false, runValue{}},
		{`{'exit_code': 0, 'stdout': 'a', 'stderr': '', 'x': 1}`, false, runValue{}},
		{`{'exit_code': 0, 'stdout': 'a', 'stdout': ''}`, false, runValue{}},
		{`{'exit_code': 'x', 'stdout': '', 'stderr': ''}`, false, runValue{}},
		{`{'exit_code': 0, 'stdout': 'unterminated, 'stderr': ''}`, false, runValue{}},
		{`x = {'exit_code': 0, 'stdout': '', 'stderr': ''}`, false, runValue{}},
	} {
		got, ok := parseRunValue(c.line)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("parseRunValue(%s) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
	if got := codeCommands(`a = run(["go", "test", "./..."])` + "\n" + `subprocess.run(['ls', "-l"])`); len(got) != 2 ||
		strings.Join(got[0], " ") != "go test ./..." || strings.Join(got[1], " ") != "ls -l" {
		t.Errorf("codeCommands = %q", got)
	}
	if got := codeCommands(`run([cmd, "x"])`); len(got) != 0 {
		t.Errorf("codeCommands of a list with a variable = %q", got)
	}
}

// TestThinking: reasoning is labelled "thinking" and dim while its turn
// runs, folded to one line once it ends, and a click expands it.
func TestThinking(t *testing.T) {
	root := rlm.Agent{Name: "s1"}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 70, 12, be, nil)
	s.a.running, s.a.root.open = true, true
	s.handle(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "user", Content: "why?"}},
		rlm.ReasoningDelta{Agent: root, Text: "The median of an even count\nis the mean of the middle two."})
	s.check("thinking-live", "reasoning being streamed: labelled thinking, dim")
	s.handle(rlm.MessageAdded{Agent: root, Message: reasoned(llm.Message{Role: "assistant", Content: "Because."},
		"The median of an even count\nis the mean of the middle two.")})
	if got := s.draw(); !strings.Contains(got, "thinking\nThe median") {
		t.Errorf("reasoning folded while its turn runs:\n%s", got)
	}
	s.a.running = false
	s.a.root.foldReasoning()
	s.check("thinking-folded", "reasoning folded once its turn ended")
	s.click("thinking · 2 lines")
	if got := s.draw(); !strings.Contains(got, "thinking\nThe median") {
		t.Errorf("a click did not expand the reasoning:\n%s", got)
	}
}

// TestSubagentAnswerAsMarkdown: an rlm call's result, the subagent's
// answer, is drawn as markdown.
func TestSubagentAnswerAsMarkdown(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
		llm.Message{Role: "user", Content: "fix it"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("c1", "rlm", jsonArgs("task", "Fix Median.", "name", "fixer"))}},
		llm.Message{Role: "tool", ToolCallID: "c1", Content: "**Fixed** `Median`:\n\n- even counts average the middle two\n- tests pass"},
	)}
	s := newScreenApp(t, 60, 12, be, nil)
	s.check("answer-markdown", "a subagent's answer drawn as markdown in its caller's view")
	if got := s.draw(); strings.Contains(got, "**Fixed**") || !strings.Contains(got, "• even counts") {
		t.Errorf("the answer is not drawn as markdown:\n%s", got)
	}
}

// TestPatchNotApplied: a patch refused by the level is drawn as not
// applied: its header in theme.error saying why, its lines without the
// diff colours.
func TestPatchNotApplied(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: median.go\n@@\n-\treturn xs[len(xs)/2]\n+\treturn (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2\n*** End Patch\n"
	sub := rlm.Agent{Name: "fixer", Depth: 1, ID: "c1"}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 80, 14, be, nil)
	s.handle(rlm.AgentStart{Agent: sub},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "user", Content: "Fix Median."}},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("p1", "apply_patch", jsonArgs("patch", patch))}}},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "tool", ToolCallID: "p1", Content: "apply_patch cannot write here: the person refused the change at permission read-only. Nothing was changed."}})
	s.check("patch-not-applied", "a refused patch: its header in the error colour, its lines without the diff colours")
	s.wantColour("● apply_patch · not applied", testTheme.Error)
	_, styles, legend := styledScreen(s.scr)
	for _, l := range strings.Split(legend, "\n") {
		if strings.Contains(l, config.DefaultDiffAdd[1:]) || strings.Contains(l, config.DefaultDiffRemove[1:]) {
			t.Errorf("a diff colour is on screen: %s\n%s", l, styles)
		}
	}
	// Applied, the same call has its diff colours.
	s2 := newScreenApp(t, 80, 14, &fakeBackend{events: rlm.NewStream(), name: "s1"}, nil)
	s2.handle(rlm.AgentStart{Agent: sub},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("p1", "apply_patch", jsonArgs("patch", patch))}}},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "tool", ToolCallID: "p1", Content: "M median.go\n"}})
	s2.draw()
	if _, _, legend := styledScreen(s2.scr); !strings.Contains(legend, config.DefaultDiffAdd[1:]) {
		t.Errorf("an applied patch lacks its colours:\n%s", legend)
	}
}

// wantColour checks the colour of the first cell showing text.
func (s *screenApp) wantColour(text, hex string) {
	s.t.Helper()
	screen := s.draw()
	cells, w, _ := s.scr.GetContents()
	for y, row := range strings.Split(screen, "\n") {
		if i := strings.Index(row, text); i >= 0 {
			st := cells[y*w+width(row[:i])].Style
			if got, want := fg(st), tcell.GetColor(hex); got != want {
				s.t.Errorf("colour of %q = %v, want %v (%s)", text, got, want, hex)
			}
			return
		}
	}
	s.t.Fatalf("%q not on screen:\n%s", text, screen)
}
