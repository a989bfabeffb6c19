// Golden screens, with styles, of what makes the transcript readable:
// diffs, markdown, folding, the start-up call, reopened subagents.

package ui

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"harness/config"
	"harness/diffview"
	"harness/instructions"
	"harness/llm"
	"harness/llmtest"
	"harness/rlm"
	"harness/sessions"
)

// loaderBackend is a fakeBackend whose finished subagents can be reopened.
type loaderBackend struct {
	*fakeBackend
	subs map[string][]sessions.Item
}

func (l loaderBackend) SubagentConversation(depth int, id string) ([]sessions.Item, error) {
	if items, ok := l.subs[id]; ok {
		return items, nil
	}
	return nil, errors.New("no such subagent")
}

// screenApp is an App drawn without its event loop on a simulation screen.
type screenApp struct {
	t   *testing.T
	a   *App
	scr tcell.SimulationScreen
	w   int
	h   int
}

func newScreenApp(t *testing.T, w, h int, be Backend, edit func(*Options)) *screenApp {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(w, h)
	var events *rlm.Stream
	switch b := be.(type) {
	case *fakeBackend:
		events = b.events
	case loaderBackend:
		events = b.events
	case depthLoader:
		events = b.events
	}
	opts := Options{Theme: testTheme, Model: "model-x", Backend: be, Events: events,
		Approvals: NewApprovals(), Level: NewLevel(config.PermReadOnly)}
	if edit != nil {
		edit(&opts)
	}
	a := newApp(opts)
	a.main.ov.SetCollapsed(true)
	return &screenApp{t: t, a: a, scr: scr, w: w, h: h}
}

func (s *screenApp) handle(evs ...rlm.Event) {
	for _, e := range evs {
		s.a.handle(e)
	}
}

func (s *screenApp) draw() string {
	s.a.main.SetRect(0, 0, s.w, s.h)
	s.scr.Clear()
	s.a.main.Draw(s.scr)
	s.scr.Show()
	text, _, _ := styledScreen(s.scr)
	return text
}

// click clicks the first cell showing text.
func (s *screenApp) click(text string) {
	s.t.Helper()
	screen := s.draw()
	for y, row := range strings.Split(screen, "\n") {
		if x := strings.Index(row, text); x >= 0 {
			x = width(row[:x])
			s.a.do(Action{Cmd: CmdPress, X: x, Y: y})
			s.a.do(Action{Cmd: CmdRelease, X: x, Y: y})
			return
		}
	}
	s.t.Fatalf("no %q on screen:\n%s", text, screen)
}

func (s *screenApp) check(name, about string) {
	s.t.Helper()
	s.draw()
	checkStyled(s.t, filepath.Join("testdata", "screens", name+".txtar"), about, s.scr)
}

func call(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: args}
}

func jsonArgs(kv ...string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func items(msgs ...llm.Message) []sessions.Item {
	out := make([]sessions.Item, len(msgs))
	for i, m := range msgs {
		out[i] = sessions.Item{Message: m}
	}
	return out
}

const allOpsPatch = `*** Begin Patch
*** Add File: docs/new.md
+# New
+text
*** Delete File: old.txt
*** Update File: main.go
@@ func main() {
-	fmt.Println("hello")
+	fmt.Println("hello, world")
 	return
*** Update File: a.go
*** Move to: b.go
*** End Patch`

func TestScreenPatchDiff(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
		llm.Message{Role: "user", Content: "tidy up"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("p1", "apply_patch", jsonArgs("root", "store", "patch", allOpsPatch))}},
		llm.Message{Role: "tool", ToolCallID: "p1", Content: "A docs/new.md\nD old.txt\nM main.go\nR a.go -> b.go"},
	)}
	s := newScreenApp(t, 60, 22, be, nil)
	s.check("patch-diff", "an apply_patch call with every operation, drawn as a diff under its root: line")
}

func TestScreenReplaceFile(t *testing.T) {
	bases := new(diffview.Bases)
	patch := "*** Begin Patch\n*** Replace File: notes.txt\n+one\n+two, changed\n+three\n+four\n*** End Patch"
	old := "one\ntwo\nthree\nfour\n"
	bases.Record("repository", patch, func(string) ([]byte, error) { return []byte(old), nil })
	root := rlm.Agent{Name: "s1"}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 50, 12, be, func(o *Options) { o.Bases = bases })
	c := call("p1", "apply_patch", jsonArgs("patch", patch))
	s.handle(
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "user", Content: "fix two"}},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{c}}},
	)
	if got := s.draw(); !strings.Contains(got, "the old text was not kept") {
		t.Errorf("before the result, without the old text:\n%s", got)
	}
	s.handle(rlm.ToolResult{Agent: root, ID: "p1", Name: "apply_patch", Content: "M notes.txt"},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "tool", ToolCallID: "p1", Content: "M notes.txt"}})
	s.check("replace-file", "Replace File diffed against the text the file had before the patch")
}

const markdownReply = "# Plan\n\nWe **must** fix *two* things in `parse.go` ([issue](https://example.com/12)):\n\n" +
	"1. the cut-short patch\n2. the error text\n   - nested point\n\n> Quoted advice that runs long enough to wrap.\n\n" +
	"| file | change |\n|------|-------:|\n| parse.go | +12 |\n| doc.go | +3 |\n\n```go\nfunc f() error { return nil } // done\n```\n\n---\nDone."

func TestScreenMarkdown(t *testing.T) {
	for _, w := range []int{80, 40} {
		t.Run(map[int]string{80: "wide", 40: "narrow"}[w], func(t *testing.T) {
			be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
				llm.Message{Role: "user", Content: "what now?"},
				reasoned(llm.Message{Role: "assistant", Content: markdownReply}, "Think about **both** parts."),
			)}
			s := newScreenApp(t, w, 40, be, nil)
			s.check("markdown-"+map[int]string{80: "80", 40: "40"}[w], "markdown in a reply and its reasoning: every construct")
		})
	}
}

func TestScreenStreamedOpenFence(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 50, 10, be, nil)
	root := rlm.Agent{Name: "s1"}
	s.handle(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "user", Content: "show me"}})
	for _, d := range []string{"Here:\n\n```py", "thon\ndef f(x):\n", "    return x + 1"} {
		s.handle(rlm.TextDelta{Agent: root, Text: d})
		s.draw()
	}
	s.check("streamed-open-fence", "a reply streaming inside an open code fence is drawn as the code block it will be")
}

// longOutput is a result of n numbered lines.
func longOutput(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			sb.WriteByte('\n')
		}
		sb.WriteString("line " + strings.Repeat("x", i%7) + " " + itoa(i))
	}
	return sb.String()
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func foldedApp(t *testing.T) *screenApp {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
		llm.Message{Role: "user", Content: "list"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("c1", "list", `{"path":"."}`)}},
		llm.Message{Role: "tool", ToolCallID: "c1", Content: longOutput(30)},
		llm.Message{Role: "assistant", Content: "Thirty lines."},
	)}
	return newScreenApp(t, 60, 20, be, nil)
}

func TestScreenFolded(t *testing.T) {
	s := foldedApp(t)
	s.check("folded", "a 30-line result folded to its first and last four lines")
	s.click("more lines")
	s.draw()
	s.a.main.tr.scrollBy(-100)
	s.check("expanded", "the same result after a click on its marker, scrolled to the top")
	s.a.top().scroll = scroll{follow: true}
	s.click("click or Ctrl+O to fold")
	if got := s.draw(); !strings.Contains(got, "… 22 more lines") {
		t.Errorf("a click on the fold line did not fold it again:\n%s", got)
	}
	s.a.do(KeyAction(tcell.NewEventKey(tcell.KeyCtrlO, 0, tcell.ModCtrl), false))
	if got := s.draw(); strings.Contains(got, "more lines") {
		t.Errorf("Ctrl+O did not unfold:\n%s", got)
	}
}

// TestStreamedPatchShowsNoPartialMarkers: an apply_patch call streamed a
// few bytes at a time never shows a marker line as it stands ("*** Begin
// Pat") nor a header from half a marker ("M a" for "*** Update File:
// a.txt"): a marker line shows once it is whole.
func TestStreamedPatchShowsNoPartialMarkers(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 70, 24, be, nil)
	root := rlm.Agent{Name: "s1"}
	s.handle(rlm.AgentStart{Agent: root}, rlm.ToolCallStarted{Agent: root, ID: "p1", Name: "apply_patch"})
	args := jsonArgs("patch", "*** Begin Patch\n*** Add File: d.txt\n+a new file\n*** Update File: a.txt\n*** Move to: moved/a.txt\n@@\n one\n-two\n+2\n*** End Patch")
	for i := 0; i < len(args); i += 3 {
		s.handle(rlm.ToolArgsDelta{Agent: root, ID: "p1", Text: args[i:min(i+3, len(args))]})
		got := s.draw()
		for _, bad := range []string{"**", "M a\n", "M a.\n", "M a.t\n", "A d\n", "A d.\n", "A d.t\n", "R a.txt -> m\n"} {
			if strings.Contains(got, bad) {
				t.Fatalf("after %d bytes of arguments, %q on screen:\n%s", i+3, bad, got)
			}
		}
	}
	if got := s.draw(); !strings.Contains(got, "A d.txt (+1)") || !strings.Contains(got, "R a.txt -> moved/a.txt (+1 -1)") {
		t.Errorf("the whole patch:\n%s", got)
	}
}

// TestFoldKeepsClickedPlace: expanding a folded result at the bottom of
// a long transcript leaves what is above it where it was and reads down
// from the marker, with a click or with Ctrl+O; folding a result whose
// start is above the screen brings its start to the top.
func TestFoldKeepsClickedPlace(t *testing.T) {
	for _, how := range []string{"click", "Ctrl+O"} {
		t.Run(how, func(t *testing.T) {
			var msgs []llm.Message
			for i := 0; i < 10; i++ {
				msgs = append(msgs, llm.Message{Role: "user", Content: "q" + itoa(i)}, llm.Message{Role: "assistant", Content: "a" + itoa(i)})
			}
			msgs = append(msgs, llm.Message{Role: "user", Content: "list"},
				llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("c1", "list", `{"path":"."}`)}},
				llm.Message{Role: "tool", ToolCallID: "c1", Content: longOutput(30)})
			be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(msgs...)}
			s := newScreenApp(t, 60, 20, be, nil)
			before := strings.Split(s.draw(), "\n")
			marker := slices.IndexFunc(before, func(l string) bool { return strings.Contains(l, "more lines") })
			if marker < 0 {
				t.Fatalf("no fold marker:\n%s", strings.Join(before, "\n"))
			}
			if how == "click" {
				s.click("more lines")
			} else {
				s.a.do(KeyAction(tcell.NewEventKey(tcell.KeyCtrlO, 0, tcell.ModCtrl), false))
			}
			after := strings.Split(s.draw(), "\n")
			if !slices.Equal(after[1:marker], before[1:marker]) || after[marker] != "line xxxxx 5" {
				t.Errorf("the lines above the marker moved, or the expansion does not start at it:\nbefore:\n%s\nafter:\n%s",
					strings.Join(before, "\n"), strings.Join(after, "\n"))
			}
			// Scrolled to the expanded result's end, its fold line folds it
			// again, and its start comes to the top.
			s.a.main.tr.scrollBy(100)
			s.click("click or Ctrl+O to fold")
			if got := s.draw(); !strings.Contains(got, "\nline x 1\n") || !strings.Contains(got, "more lines") {
				t.Errorf("folded from its end:\n%s", got)
			}
		})
	}
}

func TestScreenStartupCall(t *testing.T) {
	sub := rlm.Agent{Name: "fixer", Depth: 1, ID: "r1"}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 70, 14, be, nil)
	help := longOutput(45)
	s.handle(
		rlm.AgentStart{Agent: rlm.Agent{Name: "s1"}},
		rlm.AgentStart{Agent: sub, Task: "Fix the typo."},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "user", Content: "Fix the typo."}},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{
			call("st", "repl", jsonArgs("code", "FYI()\nhelp()\nstore_summary()"))}}},
		rlm.ToolCall{Agent: sub, ID: "st", Name: "repl", Synthetic: true},
		rlm.ToolOutput{Agent: sub, ID: "st", Text: help},
	)
	if got := s.draw(); !strings.Contains(got, "● start-up: FYI · help() · store · running") || strings.Contains(got, "line x 1") {
		t.Errorf("while it runs:\n%s", got)
	}
	s.handle(
		rlm.ToolResult{Agent: sub, ID: "st", Name: "repl", Content: help},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "tool", ToolCallID: "st", Content: help}},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", Content: "Reading README.md now."}},
	)
	s.check("startup-folded", "a subagent's automatic first call folded to one line with its size")
	s.click("start-up")
	// It expands downwards from where it was clicked, the view held there.
	if got := s.draw(); !strings.Contains(got, "Fix the typo.\n\n● repl\nFYI()") || !strings.Contains(got, "line x 1\n") {
		t.Errorf("expanded:\n%s", got)
	}
	s.a.main.tr.scrollBy(100)
	if got := s.draw(); !strings.Contains(got, "line x 43") || !strings.Contains(got, "▲ start-up") {
		t.Errorf("expanded, at its end:\n%s", got)
	}
}

func TestScreenReopenedSubagent(t *testing.T) {
	var turns []llm.Message
	turns = append(turns, llm.Message{Role: "user", Content: "fix the typo"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("r1", "rlm", jsonArgs("task", "Fix the typo in README.md.", "name", "fixer"))}},
		llm.Message{Role: "tool", ToolCallID: "r1", Content: "Fixed."},
		llm.Message{Role: "assistant", Content: "Done: the typo is fixed."})
	for i := 0; i < 20; i++ {
		turns = append(turns, llm.Message{Role: "user", Content: "filler " + itoa(i)}, llm.Message{Role: "assistant", Content: "ok " + itoa(i)})
	}
	subItems := items(
		llm.Message{Role: "user", Content: "Fix the typo in README.md."},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("st", "repl", jsonArgs("code", "FYI()\nhelp()"))}},
		llm.Message{Role: "tool", ToolCallID: "st", Content: "help text"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("p1", "apply_patch", jsonArgs("patch", "*** Begin Patch\n*** Update File: README.md\n@@\n-teh\n+the\n*** End Patch"))}},
		llm.Message{Role: "tool", ToolCallID: "p1", Content: "M README.md"},
		llm.Message{Role: "assistant", Content: "Fixed."},
	)
	be := loaderBackend{&fakeBackend{events: rlm.NewStream(), name: "s1", items: items(turns...)}, map[string][]sessions.Item{"r1": subItems}}
	s := newScreenApp(t, 70, 16, be, func(o *Options) {})
	s.draw()
	s.a.main.tr.scrollBy(-100) // the top: the rlm call
	before := s.draw()
	if !strings.Contains(before, "● rlm fixer · 1 tool call · ~") || !strings.Contains(before, "click to review") {
		t.Fatalf("the rlm call lacks its figures:\n%s", before)
	}
	top := s.a.root.scroll
	s.click("click to review")
	s.check("subagent-reopened", "a finished subagent reopened from its rlm call: read-only, named with · Esc returns")
	s.a.do(Action{Cmd: CmdEscape})
	if got := s.draw(); got != before || s.a.root.scroll != top {
		t.Errorf("Esc did not return to the same place:\n%s\nwant\n%s", got, before)
	}
	// A click on the overlay's header returns too.
	s.click("click to review")
	s.draw()
	ox, oy, _, _ := s.a.main.ov.GetRect()
	if !s.a.main.ov.onHeader(ox+2, oy) {
		t.Fatal("the header is not where the overlay is")
	}
	s.a.mouse(tcell.NewEventMouse(ox+2, oy, tcell.ButtonNone, 0), tview.MouseLeftClick)
	if len(s.a.review) != 0 {
		t.Error("a click on the overlay's header did not return")
	}
	if got := s.draw(); got != before {
		t.Errorf("the header click did not return to the same place:\n%s", got)
	}
}

func TestScreenNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
		llm.Message{Role: "user", Content: "hi"},
		llm.Message{Role: "assistant", Content: "Some **bold**, `code` and:\n\n```go\nx := 1\n```"},
	)}
	s := newScreenApp(t, 40, 10, be, nil)
	s.check("no-color", "NO_COLOR: no colour anywhere, attributes kept")
}

func TestCopyAsShown(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1", items: items(
		llm.Message{Role: "assistant", Content: "Use **bold** words and `code` in a paragraph long enough to wrap.\n\n- item one\n- item two"},
	)}
	s := newScreenApp(t, 30, 12, be, nil)
	screen := s.draw()
	rows := strings.Split(screen, "\n")
	last := 0
	for i, r := range rows {
		if strings.Contains(r, "item two") {
			last = i
		}
	}
	s.a.main.tr.press(0, 1) // the gap row is 0
	s.a.main.tr.drag(29, last)
	text, click, _ := s.a.main.tr.release(29, last)
	if click {
		t.Fatal("a drag taken for a click")
	}
	want := "Use bold words and code in a paragraph long enough to wrap.\n\n• item one\n• item two"
	if text != want {
		t.Errorf("copied %q, want %q", text, want)
	}
}

func TestFailureNoteShownOnce(t *testing.T) {
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 80, 12, be, nil)
	sub := rlm.Agent{Name: "w", Depth: 1, ID: "r1"}
	s.handle(rlm.AgentStart{Agent: rlm.Agent{Name: "s1"}}, rlm.AgentStart{Agent: sub, Task: "t"},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("c1", "repl", jsonArgs("code", "x("))}}},
		FailureNote{Agent: sub, Message: "syntax error: unexpected EOF\n  at line 1", Count: 3},
		rlm.ToolResult{Agent: sub, ID: "c1", Name: "repl", Content: "Error: syntax error: unexpected EOF\n  at line 1"},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "tool", ToolCallID: "c1", Content: "Error: syntax error: unexpected EOF\n  at line 1"}},
	)
	got := s.draw()
	if n := strings.Count(got, "unexpected EOF"); n != 1 {
		t.Errorf("the failure is shown %d times:\n%s", n, got)
	}
	if !strings.Contains(got, "at line 1\n⚠ this failure: seen 3 times") {
		t.Errorf("the count is not under the result:\n%s", got)
	}
	s.handle(rlm.AgentEnd{Agent: sub, Status: rlm.Done, Result: "done"})
	if got := s.draw(); !strings.Contains(got, "w: ⚠ syntax error: unexpected EOF (seen 3 times)") {
		t.Errorf("the note, with its failure, was lost when the view returned to the root:\n%s", got)
	}
}

func TestProgress(t *testing.T) {
	clock := llmtest.NewClock()
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 90, 10, be, nil)
	s.a.retry.clock = clock
	s.a.running = true
	sub := rlm.Agent{Name: "w", Depth: 1, ID: "r1"}
	s.handle(rlm.AgentStart{Agent: rlm.Agent{Name: "s1"}})
	clock.Advance(3 * time.Second)
	if got := s.a.statusText(); !strings.Contains(got, " working 3 s · Esc stops") {
		t.Errorf("waiting for the first token: %q", got)
	}
	s.handle(rlm.TextDelta{Agent: rlm.Agent{Name: "s1"}, Text: "hm"})
	if got := s.a.statusText(); !strings.Contains(got, "│ working · Esc stops") {
		t.Errorf("streaming: %q", got)
	}
	s.handle(rlm.AgentStart{Agent: sub, Task: "t"},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("c1", "repl", jsonArgs("code", `run(["go", "test", "./..."])`))}}},
		rlm.ToolCall{Agent: sub, ID: "c1", Name: "repl"},
		rlm.CommandStarted{Agent: sub, ID: "c1", Argv: []string{"go", "test", "./..."}})
	clock.Advance(12 * time.Second)
	s.a.showCommands()
	got := s.draw()
	if !strings.Contains(got, "$ go test ./... · 12 s") || !strings.Contains(s.a.statusText(), "working 12 s") {
		t.Errorf("a long command:\n%s", got)
	}
	s.handle(rlm.CommandEnded{Agent: sub, ID: "c1"})
	if got := s.draw(); strings.Contains(got, "$ go test") {
		t.Errorf("the command's line stayed after it ended:\n%s", got)
	}
}

// TestReviewDeeper: a reopened subagent's own rlm call opens the deeper
// subagent the same way, and Esc goes back one level at a time.
func TestReviewDeeper(t *testing.T) {
	var depths []int
	root := items(
		llm.Message{Role: "user", Content: "go"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("r1", "rlm", jsonArgs("task", "outer task", "name", "outer"))}},
		llm.Message{Role: "tool", ToolCallID: "r1", Content: "outer done"},
	)
	outer := items(
		llm.Message{Role: "user", Content: "outer task"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("r2", "rlm", jsonArgs("task", "inner task", "name", "inner"))}},
		llm.Message{Role: "tool", ToolCallID: "r2", Content: "inner done"},
	)
	inner := items(llm.Message{Role: "user", Content: "inner task"}, llm.Message{Role: "assistant", Content: "inner answer"})
	fb := &fakeBackend{events: rlm.NewStream(), name: "s1", items: root}
	be := depthLoader{loaderBackend{fb, map[string][]sessions.Item{"r1": outer, "r2": inner}}, &depths}
	s := newScreenApp(t, 60, 12, be, nil)
	s.click("● rlm outer")
	s.click("● rlm inner")
	if got := s.draw(); !strings.Contains(got, "inner answer") || !strings.Contains(got, "inner · Esc returns") {
		t.Errorf("the deeper subagent is not shown:\n%s", got)
	}
	if len(depths) < 2 || depths[len(depths)-1] != 2 {
		t.Errorf("loaded depths %v, want the inner one at depth 2", depths)
	}
	s.a.do(Action{Cmd: CmdEscape})
	if got := s.draw(); !strings.Contains(got, "● rlm inner") || !strings.Contains(got, "outer · Esc returns") {
		t.Errorf("Esc did not go back to the outer subagent:\n%s", got)
	}
	s.a.do(Action{Cmd: CmdEscape})
	if len(s.a.review) != 0 {
		t.Error("a second Esc did not return to the root")
	}
	// Two quick clicks on the header go back two levels: tview makes the
	// second one a double click.
	s.click("● rlm outer")
	s.click("● rlm inner")
	s.draw()
	ox, oy, _, _ := s.a.main.ov.GetRect()
	s.a.mouse(tcell.NewEventMouse(ox+2, oy, tcell.ButtonNone, 0), tview.MouseLeftClick)
	s.draw()
	s.a.mouse(tcell.NewEventMouse(ox+2, oy, tcell.ButtonNone, 0), tview.MouseLeftDoubleClick)
	if len(s.a.review) != 0 {
		t.Errorf("two quick clicks on the header left %d subagents open, want none", len(s.a.review))
	}
}

// TestReviewedTurnNotRunning: the overlay of a finished subagent reopened
// for review does not call its turn running, as it does while the
// subagent works.
func TestReviewedTurnNotRunning(t *testing.T) {
	root := items(
		llm.Message{Role: "user", Content: "go"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("r1", "rlm", jsonArgs("task", "the task", "name", "worker"))}},
		llm.Message{Role: "tool", ToolCallID: "r1", Content: "done"},
	)
	sub := items(llm.Message{Role: "user", Content: "the task"}, llm.Message{Role: "assistant", Content: "the answer"})
	be := loaderBackend{&fakeBackend{events: rlm.NewStream(), name: "s1", items: root}, map[string][]sessions.Item{"r1": sub}}
	s := newScreenApp(t, 100, 12, be, nil)
	s.a.main.ov.SetCollapsed(false)
	s.click("● rlm worker")
	got := s.draw()
	if !strings.Contains(got, "worker · Esc returns") || !strings.Contains(got, "Turn 1") {
		t.Fatalf("the subagent is not under review:\n%s", got)
	}
	if strings.Contains(got, "running") {
		t.Errorf("a finished subagent's turn is shown running:\n%s", got)
	}
}

// TestRlmCallTokensWithoutUsage: a subagent seen running whose server
// reported no usage shows its tokens estimated on its rlm call, as one
// read from its saved conversation does; reported usage wins.
func TestRlmCallTokensWithoutUsage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		usage *llm.Usage
		want  string
	}{
		{"no usage", nil, "● rlm w · 1 tool call · 0 ms · ~"},
		{"usage", &llm.Usage{PromptTokens: 1200, CompletionTokens: 34, TotalTokens: 1234}, "● rlm w · 1 tool call · 0 ms · 1.2k tokens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
			s := newScreenApp(t, 100, 12, be, nil)
			s.a.reg.now = func() time.Time { return time.Unix(0, 0) }
			root, sub := rlm.Agent{Name: "s1"}, rlm.Agent{Name: "w", Depth: 1, ID: "r1"}
			s.handle(rlm.AgentStart{Agent: root},
				rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("r1", "rlm", jsonArgs("task", "t", "name", "w"))}}},
				rlm.AgentStart{Agent: sub, Task: "t"},
				rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "user", Content: "t"}},
				rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call("c1", "repl", jsonArgs("code", "print(1)"))}}},
				rlm.ToolCall{Agent: sub, ID: "c1", Name: "repl"},
				rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "tool", ToolCallID: "c1", Content: strings.Repeat("output ", 200)}},
			)
			if tc.usage != nil {
				s.handle(rlm.Usage{Agent: sub, Usage: *tc.usage})
			}
			s.handle(rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", Content: "done"}},
				rlm.AgentEnd{Agent: sub, Status: rlm.Done, Result: "done"},
				rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "tool", ToolCallID: "r1", Content: "done"}})
			got := s.draw()
			if !strings.Contains(got, tc.want) {
				t.Errorf("want %q on the rlm call:\n%s", tc.want, got)
			}
		})
	}
}

// depthLoader records the depths it is asked for.
type depthLoader struct {
	loaderBackend
	depths *[]int
}

func (d depthLoader) SubagentConversation(depth int, id string) ([]sessions.Item, error) {
	*d.depths = append(*d.depths, depth)
	return d.loaderBackend.SubagentConversation(depth, id)
}

// TestScreenStartupInstructions: a start-up call that also gave instruction
// files says so on its folded line.
func TestScreenStartupInstructions(t *testing.T) {
	sub := rlm.Agent{Name: "fixer", Depth: 1, ID: "r1"}
	be := &fakeBackend{events: rlm.NewStream(), name: "s1"}
	s := newScreenApp(t, 90, 10, be, nil)
	result := "help text\n\n" + instructions.Preamble + "\n\n<instructions file=\"AGENTS.md\">\nrules\n</instructions>"
	s.handle(
		rlm.AgentStart{Agent: rlm.Agent{Name: "s1"}},
		rlm.AgentStart{Agent: sub, Task: "Fix the typo."},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "user", Content: "Fix the typo."}},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{
			call("st", "repl", jsonArgs("code", "FYI()\nhelp()"))}}},
		rlm.ToolCall{Agent: sub, ID: "st", Name: "repl", Synthetic: true},
		rlm.ToolResult{Agent: sub, ID: "st", Name: "repl", Content: result},
		rlm.MessageAdded{Agent: sub, Message: llm.Message{Role: "tool", ToolCallID: "st", Content: result}},
	)
	if got := s.draw(); !strings.Contains(got, "● start-up: FYI · help() · instructions · 7 lines") || strings.Contains(got, "rules") {
		t.Errorf("the folded start-up line:\n%s", got)
	}
}
