// Instruction files and prompt files through the whole program: headless
// runs against the fake endpoint, and harness acp.

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"harness/instructions"
	"harness/llmtest"
)

const (
	globalMark = "GLOBAL-MARK-a1"
	topMark    = "TOP-MARK-b2"
	nestedMark = "NESTED-MARK-c3"
)

// writeFile writes data to p, creating its folders.
func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// withAgentsFiles makes e's repository a git top with an AGENTS.md, a
// nested pkg/AGENTS.md and a global one in HARNESS_HOME.
func withAgentsFiles(t *testing.T, e *testEnv) {
	writeFile(t, filepath.Join(e.home, "AGENTS.md"), "Global rules: "+globalMark+"\n")
	writeFile(t, filepath.Join(e.repo, "AGENTS.md"), "# Build\nmake all ("+topMark+")\n")
	writeFile(t, filepath.Join(e.repo, "pkg", "AGENTS.md"), "Tests here: go test ./pkg ("+nestedMark+")\n")
	writeFile(t, filepath.Join(e.repo, "pkg", "a.go"), "package pkg\n")
	writeFile(t, filepath.Join(e.repo, "pkg", "b.go"), "package pkg\n")
	if err := os.Mkdir(filepath.Join(e.repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func instructionsScript() []llmtest.Reply {
	return []llmtest.Reply{
		llmtest.Call("rlm", args(map[string]string{"task": "Look at pkg.", "name": "looker"})),
		llmtest.Call("read_file", `{"path":"pkg/a.go"}`),
		llmtest.Call("repl", args(map[string]string{"code": "print(Path('pkg/b.go').read_text())"})),
		llmtest.Text("pkg has two files."),
		llmtest.Text("Done."),
	}
}

// startup is the start-up call's result in a request: its first tool message.
func startup(b llmtest.ChatBody) string {
	for _, m := range b.Messages {
		if m.Role == "tool" {
			return m.Content
		}
	}
	return ""
}

func countIn(b llmtest.ChatBody, s string) int {
	n := 0
	for _, m := range b.Messages {
		n += strings.Count(m.Content, s)
	}
	return n
}

// TestInstructionFilesHeadless: with a global, a top-level and a nested
// AGENTS.md, the root's and the subagent's first requests hold the global
// and top-level texts once, in order; the subagent's request after its
// read_file in pkg/ holds the nested text once (and its REPL call there
// adds nothing); no request holds a file twice; the system message and the
// task are byte-identical to a run without the files.
func TestInstructionFilesHeadless(t *testing.T) {
	plain := newEnv(t, instructionsScript()...)
	plain.setConfig("[chat]\n", "[chat]\nprompt = \"Be careful.\"\n")
	if code, _, stderr := plain.run(context.Background(), nil, "-p", "Look at pkg."); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	e := newEnv(t, instructionsScript()...)
	e.setConfig("[chat]\n", "[chat]\nprompt = \"Be careful.\"\n")
	withAgentsFiles(t, e)
	code, stdout, stderr := e.run(context.Background(), nil, "-p", "Look at pkg.")
	if code != 0 || stdout != "Done.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	want := [][3]int{{1, 1, 0}, {1, 1, 0}, {1, 1, 1}, {1, 1, 1}, {1, 1, 0}}
	for i, w := range want {
		b, p := e.chat(i), plain.chat(i)
		if got := [3]int{countIn(b, globalMark), countIn(b, topMark), countIn(b, nestedMark)}; got != w {
			t.Errorf("request %d holds the global, top and nested files %v times, want %v", i, got, w)
		}
		if b.Messages[0].Role != "system" || b.Messages[0].Content != "Be careful." || b.Messages[1].Content != p.Messages[1].Content ||
			b.Messages[1].Role != "user" || (i == 1 || i == 2) && b.Messages[1].Content != "Look at pkg." {
			t.Errorf("request %d: the system message %q or the task %q differs from a run without the files", i, b.Messages[0].Content, b.Messages[1].Content)
		}
	}
	for _, i := range []int{0, 1} {
		start := startup(e.chat(i))
		if g, tp := strings.Index(start, globalMark), strings.Index(start, topMark); g < 0 || tp < g {
			t.Errorf("request %d's start-up result does not give the global file, then the top-level one:\n%s", i, start)
		}
	}
	nested := lastMessage(e.chat(2).Messages).Content
	if !strings.HasPrefix(nested, "     1\tpackage pkg\n") || !strings.Contains(nested, "\n\nInstructions for pkg/ from its instruction file") ||
		!strings.Contains(nested, "<instructions file=\"pkg/AGENTS.md\">\nTests here: go test ./pkg ("+nestedMark+")\n</instructions>") {
		t.Errorf("the read_file result:\n%s", nested)
	}
	if repl := lastMessage(e.chat(3).Messages).Content; strings.Contains(repl, nestedMark) {
		t.Errorf("the REPL call in pkg/ gave the nested file again:\n%s", repl)
	}
}

// TestNestedInstructionsFromTheREPL: a REPL file function below pkg/ (in
// the worker process) brings pkg/AGENTS.md into that call's result.
func TestNestedInstructionsFromTheREPL(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", args(map[string]string{"task": "Count the lines of pkg/a.go.", "name": "counter"})),
		llmtest.Call("repl", args(map[string]string{"code": "print(len(Path('pkg/a.go').read_text().splitlines()))"})),
		llmtest.Text("1 line."),
		llmtest.Text("It has 1 line."),
	)
	withAgentsFiles(t, e)
	if code, _, stderr := e.run(context.Background(), nil, "-p", "Count."); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res := lastMessage(e.chat(2).Messages).Content
	if !strings.HasPrefix(res, "1\n") || strings.Count(res, nestedMark) != 1 {
		t.Errorf("the REPL result:\n%s", res)
	}
}

// TestInstructionFileChangedNextTurn: a file changed between two headless
// turns of one session reaches the second; the first turn's text stays.
func TestInstructionFileChangedNextTurn(t *testing.T) {
	e := newEnv(t, llmtest.Text("one"), llmtest.Text("two"))
	withAgentsFiles(t, e)
	if code, _, stderr := e.run(context.Background(), nil, "-p", "first"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	writeFile(t, filepath.Join(e.repo, "AGENTS.md"), "# Build\nmake all ("+topMark+"), then make check\n")
	name := filepath.Base(e.sessionDir())
	if code, _, stderr := e.run(context.Background(), nil, "--resume", name, "-p", "second"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b := e.chat(1)
	if countIn(b, "then make check") != 1 || countIn(b, topMark) != 2 || countIn(b, globalMark) != 1 {
		t.Errorf("the second turn's request: new text %d, top %d, global %d times", countIn(b, "then make check"), countIn(b, topMark), countIn(b, globalMark))
	}
}

// TestInstructionFileProblems: an oversized file is cut with a note; one
// that is not UTF-8 is skipped with a note and a warning on stderr.
func TestInstructionFileProblems(t *testing.T) {
	e := newEnv(t, llmtest.Text("ok"))
	withAgentsFiles(t, e)
	e.setConfig("[chat]\n", "[chat]\ninstructions_max_bytes = 40\n")
	writeFile(t, filepath.Join(e.repo, "AGENTS.md"), strings.Repeat("long line\n", 10))
	code, _, stderr := e.run(context.Background(), nil, "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	start := startup(e.chat(0))
	if !strings.Contains(start, globalMark) || !strings.Contains(start, "[instructions cut to 40 bytes ([chat] instructions_max_bytes); left out: the last ") {
		t.Errorf("the cut start-up result:\n%s", start)
	}
	e2 := newEnv(t, llmtest.Text("ok"))
	writeFile(t, filepath.Join(e2.repo, "AGENTS.md"), "\xff not text")
	code, _, stderr = e2.run(context.Background(), nil, "-p", "go")
	if code != 0 || !strings.Contains(stderr, "instruction file AGENTS.md skipped: it is not UTF-8 text") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if start := startup(e2.chat(0)); !strings.Contains(start, "[instruction file AGENTS.md skipped: it is not UTF-8 text]") {
		t.Errorf("the start-up result:\n%s", start)
	}
}

// withPromptFiles writes a person's and a repository's review.md (the
// repository's wins), a person's plain.md and a tools.md that clashes
// with the built-in /tools.
func withPromptFiles(t *testing.T, e *testEnv) {
	writeFile(t, filepath.Join(e.home, "prompts", "review.md"), "Mine: review $1.")
	writeFile(t, filepath.Join(e.repo, ".harness", "prompts", "review.md"), "---\ndescription: Review a file\n---\nReview $1 for bugs; focus: $ARGUMENTS.")
	writeFile(t, filepath.Join(e.home, "prompts", "plain.md"), "Say hello.")
	writeFile(t, filepath.Join(e.home, "prompts", "tools.md"), "clash")
}

// TestPromptFilesHeadless: -p "/review main.go" sends the repository's
// expanded prompt, -p /init the fixed /init prompt, and the clash with
// /tools is reported on stderr.
func TestPromptFilesHeadless(t *testing.T) {
	e := newEnv(t, llmtest.Text("reviewed"), llmtest.Text("written"))
	withPromptFiles(t, e)
	code, _, stderr := e.run(context.Background(), nil, "-p", "/review main.go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := e.chat(0).Messages[0].Content; got != "Review main.go for bugs; focus: main.go." {
		t.Errorf("sent %q", got)
	}
	if !strings.Contains(stderr, "harness: warning: prompt file "+filepath.Join(e.home, "prompts", "tools.md")+": /tools is a built-in command, so this file is not used; rename it") {
		t.Errorf("stderr lacks the clash:\n%s", stderr)
	}
	if code, _, stderr := e.run(context.Background(), nil, "-p", "/init"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := e.chat(1).Messages[0].Content; got != instructions.InitPrompt("AGENTS.md") {
		t.Errorf("/init sent %q", got)
	}
}

// TestPromptFilesACP: session/new is followed by available_commands_update
// with /init and the prompt files; a prompt "/review main.go" sends the
// expanded text; the clash is logged on stderr.
func TestPromptFilesACP(t *testing.T) {
	e := newEnv(t, llmtest.Text("reviewed"))
	withPromptFiles(t, e)
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	var cmds []sdk.AvailableCommand
	p.waitFor(t, "available_commands_update", func(us []sdk.SessionNotification, _ []sdk.RequestPermissionRequest) bool {
		for _, n := range us {
			if u := n.Update.AvailableCommandsUpdate; n.SessionId == s.SessionId && u != nil {
				cmds = u.AvailableCommands
				return true
			}
		}
		return false
	})
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
		if c.Name == "review" && (c.Description != "Review a file (repository)" || c.Input == nil || c.Input.Unstructured == nil) {
			t.Errorf("review %+v", c)
		}
	}
	if strings.Join(names, " ") != "init plain review compact context" {
		t.Errorf("commands %q", names)
	}
	if resp, err := p.prompt(s.SessionId, "/review main.go"); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	if got := e.chat(0).Messages[0].Content; got != "Review main.go for bugs; focus: main.go." {
		t.Errorf("sent %q", got)
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
	if !strings.Contains(p.stderr.String(), "/tools is a built-in command") {
		t.Errorf("stderr lacks the clash:\n%s", p.stderr)
	}
}
