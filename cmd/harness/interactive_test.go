package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/config"
	"harness/jail"
	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
	"harness/ui"
)

func TestDescriber(t *testing.T) {
	e := newEnv(t, llmtest.Text("It lists the files."), llmtest.Text("  "))
	if describer(e.cfg) != nil {
		t.Fatal("a describer without [approval_description]")
	}
	e.cfg.ApprovalDescription = &config.ApprovalDescription{Prompt: "Explain ${command} briefly", Endpoint: e.srv.Endpoint()}
	d := describer(e.cfg)
	op := json.RawMessage(`{"executable":"/usr/bin/ls"}`)
	got, err := d(context.Background(), op)
	if err != nil || got != "It lists the files." {
		t.Fatalf("describe = %q, %v", got, err)
	}
	body := e.srv.Chats()[0].MustChat(t)
	if len(body.Messages) != 1 || body.Messages[0].Content != `Explain {"executable":"/usr/bin/ls"} briefly` {
		t.Errorf("sent %+v", body.Messages)
	}
	if len(body.Tools) != 0 {
		t.Errorf("sent tools %v", body.ToolNames())
	}
	if _, err := d(context.Background(), op); err == nil {
		t.Error("an empty reply is not an error")
	}
}

func TestUIWiringLevelAndBackend(t *testing.T) {
	e := newEnv(t, llmtest.Text("hello"))
	if err := os.WriteFile(filepath.Join(e.repo, "f.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	w, code := openUIWiring(e.cfg, agentFlags{}, e.repo, &stderr)
	if code != exitOK {
		t.Fatalf("openUIWiring: %d %s", code, stderr.String())
	}
	defer w.close()
	// The repository reads the level the UI changes, at each operation.
	w.level.Set(config.PermNone)
	if _, err := w.repo.ReadFile("f.txt"); jail.KindOf(err) != jail.KindPermission {
		t.Errorf("read at none: %v", err)
	}
	w.level.Set(config.PermReadOnly)
	if _, err := w.repo.ReadFile("f.txt"); err != nil {
		t.Errorf("read at read-only: %v", err)
	}

	be, err := w.backend(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if be.SessionName() != "" {
		t.Errorf("a new session has a name before its first message: %q", be.SessionName())
	}
	if err := be.Rename("early"); err == nil {
		t.Error("renamed a session that does not exist yet")
	}
	if _, err := be.Turn(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if err := be.Rename("named"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.cfg.SessionsDir(), "named", "library", "root.json")); err != nil {
		t.Error(err)
	}
	if be.SessionName() != "named" {
		t.Errorf("name = %q", be.SessionName())
	}
}

func TestUIWiringFailureNotes(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"write a file","name":"writer"}`),
		llmtest.Call("repl", `{"code":"Path('x.txt').write_text('hi')"}`),
		llmtest.Text("could not write"),
		llmtest.Text("done"),
	)
	var stderr bytes.Buffer
	w, code := openUIWiring(e.cfg, agentFlags{}, e.repo, &stderr)
	if code != exitOK {
		t.Fatalf("openUIWiring: %d %s", code, stderr.String())
	}
	defer w.close()
	w.level.Set(config.PermReadOnly)
	be, err := w.backend(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := be.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var notes []ui.FailureNote
	for _, ev := range w.parts.events.Drain() {
		if n, ok := ev.(ui.FailureNote); ok {
			notes = append(notes, n)
		}
	}
	if len(notes) != 1 || notes[0].Count != 1 || notes[0].Message == "" {
		t.Fatalf("failure notes = %+v", notes)
	}
}

func TestRunInteractiveUnknownSession(t *testing.T) {
	e := newEnv(t)
	var stdout, stderr bytes.Buffer
	code := runInteractive(e.cfg, agentFlags{resume: "nope", hasResume: true}, e.repo, &stdout, &stderr)
	if code != exitUsage || stderr.Len() == 0 {
		t.Errorf("code %d, stderr %q", code, stderr.String())
	}
}

// TestExitNamesLatestSession: after /new or /clear, the exit message is
// about the session the user was in, not the one the run started with; /rename keeps
// the session locked, /new releases the one left, and the end of the run
// releases the rest.
func TestExitNamesLatestSession(t *testing.T) {
	e := newEnv(t, llmtest.Text("one"), llmtest.Text("two"))
	var stderr bytes.Buffer
	w, code := openUIWiring(e.cfg, agentFlags{}, e.repo, &stderr)
	if code != exitOK {
		t.Fatalf("openUIWiring: %d %s", code, stderr.String())
	}
	defer w.close()
	first, err := w.backend(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	made := &backends{list: []uiBackend{first}, newBackend: func() (uiBackend, error) { return w.backend(nil, nil) }}
	inUse := func(name string) bool {
		in, pid := sessions.InUse(filepath.Join(w.st.Dir, name))
		if in && pid != os.Getpid() {
			t.Errorf("%s held by pid %d", name, pid)
		}
		return in
	}
	if got := made.exitMessage(); got != "" {
		t.Errorf("before any message: %q", got)
	}
	if _, err := first.Turn(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if err := first.Rename("first"); err != nil {
		t.Fatal(err)
	}
	if got, want := made.exitMessage(), "harness: session saved; continue it with: harness --resume first\n"; got != want {
		t.Errorf("before /new: %q, want %q", got, want)
	}
	if !inUse("first") {
		t.Error("the renamed session is not locked")
	}
	second, err := made.newSession()
	if err != nil {
		t.Fatal(err)
	}
	if inUse("first") {
		t.Error("/new kept the lock of the session it left")
	}
	want := "harness: the last session was empty, so nothing of it was saved; continue the one before it with: harness --resume first\n"
	if got := made.exitMessage(); got != want {
		t.Errorf("after /new, before its first message: %q, want %q", got, want)
	}
	if _, err := second.Turn(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}
	if err := second.Rename("second"); err != nil {
		t.Fatal(err)
	}
	want = "harness: session saved; continue it with: harness --resume second\n"
	if got := made.exitMessage(); got != want {
		t.Errorf("after the new session's first message: %q, want %q", got, want)
	}
	if !inUse("second") {
		t.Error("the new session is not locked")
	}
	made.close()
	if inUse("second") {
		t.Error("the end of the run kept a lock")
	}
}

func TestUIFailure(t *testing.T) {
	for _, tc := range []struct {
		err      error
		headless bool
	}{
		{errors.New("open /dev/tty: no such device or address"), true},
		{errors.New("terminal entry not found"), false},
	} {
		msg := uiFailure(tc.err)
		if !strings.Contains(msg, tc.err.Error()) || strings.Contains(msg, "harness -p") != tc.headless {
			t.Errorf("uiFailure(%v) = %q", tc.err, msg)
		}
	}
}

// TestSubagentConversation: the UI reads a finished subagent's saved
// conversation through the backend.
func TestSubagentConversation(t *testing.T) {
	st := sessions.Store{Dir: t.TempDir()}
	s := st.New(nil)
	defer s.Close()
	be := uiBackend{session: s}
	if _, err := be.SubagentConversation(1, "c1"); err == nil {
		t.Error("read a subagent of a session not saved yet")
	}
	root := &sessions.File{Local: sessions.Local{Repository: "/r"}}
	root.Append(llm.Message{Role: "user", Content: "go"})
	if err := s.Save(0, "", root); err != nil {
		t.Fatal(err)
	}
	sub := &sessions.File{Local: sessions.Local{Repository: "/r", Depth: 1, Parent: sessions.RootParent}}
	sub.Append(llm.Message{Role: "user", Content: "the task"})
	if err := s.Save(1, "c1", sub); err != nil {
		t.Fatal(err)
	}
	items, err := be.SubagentConversation(1, "c1")
	if err != nil || len(items) != 1 || items[0].Message.Content != "the task" {
		t.Errorf("got %v, %v", items, err)
	}
	if _, err := be.SubagentConversation(0, ""); err == nil {
		t.Error("read the root as a subagent")
	}
}
