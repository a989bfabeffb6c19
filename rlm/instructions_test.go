package rlm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/config"
	"harness/instructions"
	"harness/jail"
	"harness/llm"
	"harness/llmtest"
)

// Markers of the instruction files the tests write.
const (
	globalMark = "GLOBAL-RULES-7f3a"
	topMark    = "TOP-RULES-19c2"
	nestedMark = "NESTED-RULES-55e1"
)

// withInstructions writes a global, a top-level and a nested (pkg/)
// AGENTS.md into the rig's home and repository and gives the rig a Finder.
func withInstructions(t *testing.T, r *rig, max int) {
	t.Helper()
	write(t, filepath.Join(r.cfg.Home, "AGENTS.md"), "Global: "+globalMark+"\n")
	write(t, filepath.Join(r.opts.RepoDir, "AGENTS.md"), "Top: "+topMark+"\n")
	write(t, filepath.Join(r.opts.RepoDir, "pkg", "AGENTS.md"), "Nested: "+nestedMark+"\n")
	write(t, filepath.Join(r.opts.RepoDir, "pkg", "a.go"), "package pkg\n")
	r.opts.Instructions = instructions.New(instructions.Options{Home: r.cfg.Home, Names: []string{"AGENTS.md"}, MaxBytes: max}, r.opts.RepoDir)
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// count is how often s occurs in a request's messages.
func count(b llmtest.ChatBody, s string) int {
	n := 0
	for _, m := range b.Messages {
		n += strings.Count(m.Content, s)
	}
	return n
}

// delegationScript: the root delegates; the subagent reads pkg/a.go twice
// and answers; the root answers.
func delegationScript() []llmtest.Reply {
	return []llmtest.Reply{
		llmtest.Call("rlm", `{"task":"Read pkg/a.go.","name":"reader"}`),
		llmtest.Call("read_file", `{"path":"pkg/a.go"}`),
		llmtest.Call("read_file", `{"path":"pkg/a.go","start_line":1}`),
		llmtest.Text("read it"),
		llmtest.Text("done"),
	}
}

// TestInstructionsReachEveryAgentOnce: the root's and the subagent's first
// requests hold the global and top-level texts once, in that order, in
// their start-up call's result; the subagent's request after its first
// read_file in pkg/ holds the nested text once, in that result, and later
// requests still once; no request holds a file twice; the system message
// and the task are byte-identical to a run without the files.
func TestInstructionsReachEveryAgentOnce(t *testing.T) {
	plain := newRig(t, delegationScript()...)
	if _, err := plain.turn(context.Background(), "Read it.", nil); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, delegationScript()...)
	withInstructions(t, r, 0)
	if _, err := r.turn(context.Background(), "Read it.", nil); err != nil {
		t.Fatal(err)
	}
	chats := r.srv.Chats()
	if len(chats) != 5 {
		t.Fatalf("%d requests", len(chats))
	}
	for i, want := range []struct{ global, top, nested int }{{1, 1, 0}, {1, 1, 0}, {1, 1, 1}, {1, 1, 1}, {1, 1, 0}} {
		b := r.chat(i)
		if got := [3]int{count(b, globalMark), count(b, topMark), count(b, nestedMark)}; got != [3]int{want.global, want.top, want.nested} {
			t.Errorf("request %d holds global, top, nested %v times, want %v", i, got, want)
		}
		p := plain.chat(i)
		if b.Messages[0].Role != "system" || b.Messages[0].Content != p.Messages[0].Content || b.Messages[1].Content != p.Messages[1].Content {
			t.Errorf("request %d: system %q and first message %q differ from a run without the files (%q, %q)",
				i, b.Messages[0].Content, b.Messages[1].Content, p.Messages[0].Content, p.Messages[1].Content)
		}
		if i == 1 && b.Messages[1].Content != "Read pkg/a.go." {
			t.Errorf("the task %q", b.Messages[1].Content)
		}
	}
	root := r.chat(0).Messages
	if fyi := root[3].Content; !strings.Contains(fyi, "Date: ") || strings.Index(fyi, globalMark) > strings.Index(fyi, topMark) ||
		!strings.HasPrefix(fyi[strings.Index(fyi, instructions.Preamble)-2:], "\n\n"+instructions.Preamble) || !strings.Contains(fyi, rootInstructionsNote) {
		t.Errorf("the root's start-up result:\n%s", fyi)
	}
	sub := r.chat(1).Messages
	if startup := sub[3].Content; !strings.Contains(startup, "ran: FYI()") || strings.Index(startup, globalMark) > strings.Index(startup, topMark) ||
		strings.Contains(startup, rootInstructionsNote) {
		t.Errorf("the subagent's start-up result:\n%s", startup)
	}
	read := lastMessage(r.chat(2).Messages).Content
	if want := "read repository:pkg/a.go 0-0\n\nInstructions for pkg/ from its instruction file"; !strings.HasPrefix(read, want) ||
		!strings.Contains(read, "<instructions file=\"pkg/AGENTS.md\">\nNested: "+nestedMark+"\n</instructions>") {
		t.Errorf("the first read_file result:\n%s", read)
	}
	if again := lastMessage(r.chat(3).Messages).Content; again != "read repository:pkg/a.go 1-0" {
		t.Errorf("the second read_file result: %q", again)
	}
	// Saved as sent.
	var saved []string
	for _, m := range r.file(1, r.chat(4).Messages[4].ToolCalls[0].ID).Messages() {
		saved = append(saved, m.Content)
	}
	if all := strings.Join(saved, "\n"); strings.Count(all, globalMark) != 1 || strings.Count(all, nestedMark) != 1 {
		t.Errorf("the subagent's file:\n%s", all)
	}
}

// TestInstructionsFollowTheFiles runs three root turns on one Runner: the
// second gives nothing again; after the top-level file changed, the third
// gives its new text marked as replacing the old one, which stays where it
// was (in the request and in the saved file); hiding the turn that gave
// the files gives them again.
func TestInstructionsFollowTheFiles(t *testing.T) {
	r := newRig(t, llmtest.Text("one"), llmtest.Text("two"), llmtest.Text("three"), llmtest.Text("four"))
	withInstructions(t, r, 0)
	s := NewStream()
	r.opts.Events = s
	go func() {
		for {
			if _, ok := s.Next(context.Background()); !ok {
				return
			}
		}
	}()
	defer s.Close()
	runner, err := New(r.opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	turn := func(p string) {
		t.Helper()
		if _, err := runner.Turn(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	turn("first")
	turn("second")
	if b := r.chat(1); count(b, topMark) != 1 || count(b, instructions.Preamble) != 1 || strings.Contains(b.Messages[len(b.Messages)-1].Content, instructions.Preamble) {
		t.Errorf("the second turn gave the files again: %d, %d", count(b, topMark), count(b, instructions.Preamble))
	}
	write(t, filepath.Join(r.opts.RepoDir, "AGENTS.md"), "Top: "+topMark+" and now also CHANGED-9e\n")
	turn("third")
	b := r.chat(2)
	last := b.Messages[len(b.Messages)-1].Content
	if !strings.Contains(last, `<instructions file="AGENTS.md" replaces="the text of this file given earlier">`) || !strings.Contains(last, "CHANGED-9e") ||
		strings.Contains(last, globalMark) {
		t.Errorf("the third turn's start-up result:\n%s", last)
	}
	if count(b, topMark) != 2 || count(b, globalMark) != 1 {
		t.Errorf("the third request holds the top-level file %d times, the global one %d", count(b, topMark), count(b, globalMark))
	}
	if n := strings.Count(msgsText(r.file(0, "").Messages()), "Top: "+topMark+"\n</instructions>"); n != 1 {
		t.Errorf("the old text is kept %d times in the saved file, want 1", n)
	}
	if err := runner.SetHidden(0, true); err != nil {
		t.Fatal(err)
	}
	turn("fourth")
	if b := r.chat(3); count(b, globalMark) != 1 {
		t.Errorf("after the turn that gave it was hidden, the global file is in the request %d times", count(b, globalMark))
	}
}

func lastMessage(msgs []llm.Message) llm.Message { return msgs[len(msgs)-1] }

func msgsText(msgs []llm.Message) string {
	var parts []string
	for _, m := range msgs {
		parts = append(parts, m.Content)
	}
	return strings.Join(parts, "\n")
}

// TestInstructionsCutAndSkipped: over instructions_max_bytes the text is
// cut with a note; a file that is not UTF-8 is skipped with a note to the
// model and a Notice to the person.
func TestInstructionsCutAndSkipped(t *testing.T) {
	r := newRig(t, llmtest.Text("ok"))
	withInstructions(t, r, 30)
	write(t, filepath.Join(r.opts.RepoDir, "AGENTS.md"), "Top: "+topMark+strings.Repeat(" long", 20)+"\n")
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	fyi := r.chat(0).Messages[3].Content
	if !strings.Contains(fyi, globalMark) || strings.Contains(fyi, topMark) ||
		!strings.Contains(fyi, "[instructions cut to 30 bytes ([chat] instructions_max_bytes); left out: the last ") {
		t.Errorf("the cut start-up result:\n%s", fyi)
	}

	r = newRig(t, llmtest.Text("ok"))
	withInstructions(t, r, 0)
	write(t, filepath.Join(r.opts.RepoDir, "AGENTS.md"), "\xff\xfe\x00 not text")
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	fyi = r.chat(0).Messages[3].Content
	if !strings.Contains(fyi, globalMark) || !strings.Contains(fyi, "[instruction file AGENTS.md skipped: it is not UTF-8 text]") {
		t.Errorf("the start-up result with a skipped file:\n%s", fyi)
	}
	notices := eventsOf[Notice](r)
	if len(notices) != 1 || notices[0].Message != "instruction file AGENTS.md skipped: it is not UTF-8 text" {
		t.Errorf("notices %+v", notices)
	}
}

// TestNestedInstructions: the REPL's touched paths, apply_patch's files and
// list's directory bring a nested file once; reading the nested file itself
// does not append it again; another root, or a permission level that
// forbids reading, reads nothing.
func TestNestedInstructions(t *testing.T) {
	cases := []struct {
		name  string
		calls []llmtest.Reply
		want  []bool // whether each call's result holds the nested text
		level config.Permission
	}{
		{"repl touch", []llmtest.Reply{llmtest.Call("repl", `{"code":"touch pkg/a.go"}`), llmtest.Call("read_file", `{"path":"pkg/a.go"}`)}, []bool{true, false}, config.PermReadWrite},
		{"apply_patch", []llmtest.Reply{llmtest.Call("apply_patch", `{"patch":"*** Begin Patch\n*** Add File: pkg/sub/new.go\n+x\n*** End Patch\n"}`)}, []bool{true}, config.PermReadWrite},
		{"list of the directory", []llmtest.Reply{llmtest.Call("list", `{"path":"pkg"}`)}, []bool{true}, config.PermReadWrite},
		{"list of the repository", []llmtest.Reply{llmtest.Call("list", `{}`), llmtest.Call("grep", `{"pattern":"x","path":"."}`)}, []bool{false, false}, config.PermReadWrite},
		{"the file itself", []llmtest.Reply{llmtest.Call("read_file", `{"path":"pkg/AGENTS.md"}`), llmtest.Call("read_file", `{"path":"pkg/a.go"}`)}, []bool{false, false}, config.PermReadWrite},
		{"another root", []llmtest.Reply{llmtest.Call("read_file", `{"path":"pkg/a.go","root":"store"}`)}, []bool{false}, config.PermReadWrite},
		{"no reads allowed", []llmtest.Reply{llmtest.Call("read_file", `{"path":"pkg/a.go"}`)}, []bool{false}, config.PermNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			replies := append([]llmtest.Reply{llmtest.Call("rlm", `{"task":"t","name":"n"}`)}, c.calls...)
			r := newRig(t, append(replies, llmtest.Text("sub done"), llmtest.Text("done"))...)
			withInstructions(t, r, 0)
			repo, err := jail.Open(jail.Repository, r.opts.RepoDir, func() config.Permission { return c.level })
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			r.opts.Repository = repo
			newREPL := r.opts.NewREPL
			r.opts.NewREPL = func(env REPLEnv) (REPL, error) {
				rp, err := newREPL(env)
				return touchingREPL{rp, env}, err
			}
			if _, err := r.turn(context.Background(), "go", nil); err != nil {
				t.Fatal(err)
			}
			for i, want := range c.want {
				res := lastMessage(r.chat(2 + i).Messages).Content
				if got := strings.Contains(res, nestedMark); got != want {
					t.Errorf("call %d's result holds the nested text: %v, want %v:\n%s", i+1, got, want, res)
				}
			}
			if n := count(r.chat(1+len(c.calls)), nestedMark); n > 1 {
				t.Errorf("the last request holds the nested text %d times", n)
			}
		})
	}
}

// touchingREPL reports "touch PATH" code's path as touched.
type touchingREPL struct {
	REPL
	env REPLEnv
}

func (t touchingREPL) Exec(ctx context.Context, code string) string {
	if p, ok := strings.CutPrefix(code, "touch "); ok && t.env.Touched != nil {
		t.env.Touched(p)
	}
	return t.REPL.Exec(ctx, code)
}
