// harness acp sessions: load with replay, the lock against other
// processes, list, close, and permission levels as modes.

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llmtest"
	"harness/proctest"
	"harness/sessions"
)

// TestACPLoadReplay: a session made of two turns, the first delegating and
// then hidden in its file, is loaded by a new harness acp: the replay,
// sent before the answer, shows both prompts, the answers, the rlm call
// with the subagent's own calls between it and its result, and marks
// every update of the hidden turn. A prompt then continues the session,
// sending the second turn but not the hidden one.
func TestACPLoadReplay(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Read a.txt.","name":"reader"}`),
		llmtest.Reply{Reasoning: "Reading it.", ToolCalls: []llmtest.ToolCall{{Name: "read_file", Arguments: `{"path":"a.txt"}`}}},
		llmtest.Text("It says hello."),
		llmtest.Text("a.txt says hello."),
		llmtest.Reply{Content: "Second answer.", Reasoning: "Easy."},
		llmtest.Text("Third answer."),
	)
	os.WriteFile(filepath.Join(e.repo, "a.txt"), []byte("hello\n"), 0o644)
	p := e.startACP()
	p.initialize()
	id := p.newSession(e.repo).SessionId
	for _, prompt := range []string{"What does a.txt say?", "And now?"} {
		if _, err := p.prompt(id, prompt); err != nil {
			t.Fatal(err)
		}
	}
	live := callsOf(t, p.take(id))
	if code := p.stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	rootPath := filepath.Join(e.home, "sessions", string(id), "library", "root.json")
	f, err := sessions.Load(rootPath)
	if err != nil {
		t.Fatal(err)
	}
	f.Items = sessions.SetHidden(f.Items, 0, true)
	if err := sessions.WriteFile(rootPath, f); err != nil {
		t.Fatal(err)
	}

	p = e.startACP()
	p.initialize()
	resp, err := p.conn.LoadSession(p.ctx(), sdk.LoadSessionRequest{SessionId: id, Cwd: e.repo, McpServers: []sdk.McpServer{}})
	if err != nil || resp.Modes == nil || resp.Modes.CurrentModeId != "read-write" {
		t.Fatalf("session/load: %+v, %v\nstderr:\n%s", resp, err, p.stderr)
	}
	us := p.take(id)
	if got := textOf(us, "user_message_chunk"); got != "What does a.txt say?And now?" {
		t.Errorf("user messages %q", got)
	}
	if got := textOf(us, "agent_message_chunk"); got != "a.txt says hello.Second answer." {
		t.Errorf("answers %q", got)
	}
	thoughts := textOf(us, "agent_thought_chunk")
	for _, want := range []string{"reader: Reading it.", "This turn is hidden", "Easy."} {
		if !strings.Contains(thoughts, want) {
			t.Errorf("thoughts lack %q:\n%s", want, thoughts)
		}
	}
	calls := callsOf(t, us)
	var titles []string
	for _, c := range calls {
		titles = append(titles, c.title)
		if c.final() != sdk.ToolCallStatusCompleted {
			t.Errorf("%s: %v", c.title, c.statuses)
		}
	}
	// The first turn's FYI call was removed when the second began.
	want := []string{"rlm reader: Read a.txt.", "reader · repl FYI() …", "reader · read_file a.txt", "FYI"}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replayed calls:\n%s\nwant:\n%s", strings.Join(titles, "\n"), strings.Join(want, "\n"))
	}
	if calls[0].id != live[1].id || calls[0].resultText() != "It says hello." || !strings.Contains(calls[2].resultText(), "hello") {
		t.Errorf("rlm call %s result %q (live %s); read_file %q", calls[0].id, calls[0].resultText(), live[1].id, calls[2].resultText())
	}
	first, second := 0, 0
	for _, u := range us {
		if metaOf(u)["hidden"] == true {
			first++
		} else if textOf([]sdk.SessionUpdate{u}, "user_message_chunk") == "And now?" {
			second = first
		}
	}
	if second == 0 || first != second {
		t.Errorf("%d updates marked hidden, %d before the second turn: the whole first turn and only it must be", first, second)
	}
	if _, err := p.prompt(id, "Once more?"); err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, m := range e.chat(5).Messages {
		if m.Role == "user" {
			sent = append(sent, m.Content)
		}
	}
	if strings.Join(sent, "|") != "And now?|Once more?" {
		t.Errorf("the continued session sent the user messages %q", sent)
	}
}

// TestACPSessionLock: a session another harness holds (a headless run) is
// refused by session/load, naming that process; a session harness acp
// holds is refused to --resume, and released by session/close.
func TestACPSessionLock(t *testing.T) {
	e := newEnv(t, llmtest.Reply{Content: "thinking", Fail: llmtest.FailStall, After: 2}, llmtest.Text("hi"), llmtest.Text("resumed"))
	holder := e.startJSON("--json", "-p", "go")
	name := holder.waitFor("the session line", isType("session"))["name"].(string)
	holder.waitFor("the stalled reply", isType("text_delta"))
	p := e.startACP()
	p.initialize()
	_, err := p.conn.LoadSession(p.ctx(), sdk.LoadSessionRequest{SessionId: sdk.SessionId(name), Cwd: e.repo, McpServers: []sdk.McpServer{}})
	if err == nil || !strings.Contains(err.Error(), "session "+name+" is in use by another harness process (pid "+fmt.Sprint(holder.cmd.Process.Pid)+")") {
		t.Fatalf("session/load of a session in use: %v", err)
	}
	holder.cmd.Process.Signal(syscall.SIGKILL)
	holder.wait()
	if _, err := p.conn.LoadSession(p.ctx(), sdk.LoadSessionRequest{SessionId: sdk.SessionId(name), Cwd: e.repo, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load once the holder is gone: %v", err)
	}
	p.take(sdk.SessionId(name))
	if _, err := p.prompt(sdk.SessionId(name), "hello"); err != nil {
		t.Fatal(err)
	}
	out, err := e.command("--resume", name, "-p", "x").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "session "+name+" is in use") {
		t.Errorf("--resume of a session harness acp holds: %v\n%s", err, out)
	}
	if _, err := p.conn.CloseSession(p.ctx(), sdk.CloseSessionRequest{SessionId: sdk.SessionId(name)}); err != nil {
		t.Fatal(err)
	}
	if out, err := e.command("--resume", name, "-p", "continue").CombinedOutput(); err != nil || !strings.Contains(string(out), "resumed") {
		t.Errorf("--resume after session/close: %v\n%s", err, out)
	}
	if _, err := p.prompt(sdk.SessionId(name), "hello"); err == nil || !strings.Contains(err.Error(), "no open session") {
		t.Errorf("prompt in a closed session: %v", err)
	}
}

// TestACPListAndClose: session/list lists the saved sessions of a cwd,
// most recent first, with their titles; a session closed without a
// prompt leaves no folder, and an unknown session cannot be loaded.
func TestACPListAndClose(t *testing.T) {
	e := newEnv(t, llmtest.Text("one"), llmtest.Text("two"))
	p := e.startACP()
	p.initialize()
	a := p.newSession(e.repo).SessionId
	p.prompt(a, "First session")
	b := p.newSession(e.repo).SessionId
	p.prompt(b, "Second\nsession")
	unused := p.newSession(e.repo).SessionId
	if _, err := os.Stat(filepath.Join(e.home, "sessions", string(unused))); err != nil {
		t.Fatalf("the new session's folder: %v", err)
	}
	p.conn.CloseSession(p.ctx(), sdk.CloseSessionRequest{SessionId: unused})
	if _, err := os.Stat(filepath.Join(e.home, "sessions", string(unused))); !os.IsNotExist(err) {
		t.Errorf("an unused session left its folder: %v", err)
	}
	// A session whose file cannot be read is left out: it has no cwd, and
	// session/load refuses it.
	broken := filepath.Join(e.home, "sessions", "20200101-000000", "library")
	os.MkdirAll(broken, 0o700)
	os.WriteFile(filepath.Join(broken, "root.json"), []byte(`{"messages":[garbage`), 0o600)
	all, err := p.conn.ListSessions(p.ctx(), sdk.ListSessionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all.Sessions {
		if s.SessionId == "20200101-000000" || s.Cwd == "" {
			t.Errorf("listed %+v", s)
		}
	}
	list, err := p.conn.ListSessions(p.ctx(), sdk.ListSessionsRequest{Cwd: &e.repo})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range list.Sessions {
		got = append(got, fmt.Sprintf("%s %s %s", s.SessionId, s.Cwd, *s.Title))
		if s.UpdatedAt == nil {
			t.Errorf("%s: no updatedAt", s.SessionId)
		}
	}
	want := []string{fmt.Sprintf("%s %s Second session", b, e.repo), fmt.Sprintf("%s %s First session", a, e.repo)}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("list:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	other := t.TempDir()
	if list, err := p.conn.ListSessions(p.ctx(), sdk.ListSessionsRequest{Cwd: &other}); err != nil || len(list.Sessions) != 0 {
		t.Errorf("list for another cwd: %+v, %v", list, err)
	}
	_, err = p.conn.LoadSession(p.ctx(), sdk.LoadSessionRequest{SessionId: "no-such-session", Cwd: e.repo, McpServers: []sdk.McpServer{}})
	if re, ok := err.(*sdk.RequestError); !ok || re.Code != -32602 || !strings.Contains(re.Message, `no session named "no-such-session"`) {
		t.Errorf("load of an unknown session: %v", err)
	}
}

// TestACPModes: session/set_mode changes the permission level at once and
// saves it to config.toml; a write is then refused, new sessions start in
// the saved mode, and an unknown mode is an error.
func TestACPModes(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Add b.txt.","name":"writer"}`),
		llmtest.Call("apply_patch", args(map[string]string{"patch": "*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch\n"})),
		llmtest.Text("Refused."),
		llmtest.Text("Could not write."),
	)
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	if _, err := p.conn.SetSessionMode(p.ctx(), sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "read-only"}); err != nil {
		t.Fatal(err)
	}
	if cfg, _ := os.ReadFile(filepath.Join(e.home, "config.toml")); !strings.Contains(string(cfg), `permission = "read-only"`) {
		t.Errorf("config.toml does not say read-only:\n%s", cfg)
	}
	if _, err := p.prompt(s.SessionId, "Add b.txt."); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "b.txt")); err == nil {
		t.Error("b.txt was written in read-only mode")
	}
	found := false
	for _, c := range callsOf(t, p.take(s.SessionId)) {
		if c.title == "writer · apply_patch b.txt" {
			found = true
			if c.final() != sdk.ToolCallStatusFailed || c.kind != sdk.ToolKindEdit || !strings.Contains(c.resultText(), "read-only") {
				t.Errorf("%s: %v, kind %s: %s", c.title, c.statuses, c.kind, c.resultText())
			}
		}
	}
	if !found {
		t.Error("no apply_patch call")
	}
	if m := p.newSession(e.repo).Modes; m == nil || m.CurrentModeId != "read-only" {
		t.Errorf("a new session's modes %+v", m)
	}
	_, err := p.conn.SetSessionMode(p.ctx(), sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "everything"})
	if err == nil || !strings.Contains(err.Error(), `unknown mode \"everything\"`) {
		t.Errorf("unknown mode: %v", err)
	}
}

// TestACPResume: session/resume reopens a saved session without replaying
// it (only its commands are sent), and the next prompt continues the conversation; authenticate has
// nothing to do.
func TestACPResume(t *testing.T) {
	e := newEnv(t, llmtest.Text("first"), llmtest.Text("second"))
	p := e.startACP()
	p.initialize()
	id := p.newSession(e.repo).SessionId
	if _, err := p.prompt(id, "one"); err != nil {
		t.Fatal(err)
	}
	p.stop()
	p = e.startACP()
	p.initialize()
	if _, err := p.conn.Authenticate(p.ctx(), sdk.AuthenticateRequest{MethodId: "none"}); err != nil {
		t.Errorf("authenticate: %v", err)
	}
	resp, err := p.conn.ResumeSession(p.ctx(), sdk.ResumeSessionRequest{SessionId: id, Cwd: e.repo})
	if err != nil || resp.Modes == nil {
		t.Fatalf("session/resume: %+v, %v", resp, err)
	}
	for _, u := range p.take(id) {
		if u.AvailableCommandsUpdate == nil { // the commands, not a replay
			t.Errorf("session/resume sent an update of the history: %+v", u)
		}
	}
	if _, err := p.prompt(id, "two"); err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, m := range e.chat(1).Messages {
		if m.Role == "user" || m.Role == "assistant" && m.Content != "" {
			sent = append(sent, m.Content)
		}
	}
	if strings.Join(sent, "|") != "one|first|two" {
		t.Errorf("the resumed session sent %q", sent)
	}
}

// TestACPLoadInterrupted: a session whose harness was killed while its
// subagent worked (the root's rlm call has no result, the subagent's file
// no answer) is repaired when loaded; the replay shows that rlm call as
// failed, with the interrupted notice as its result, and marks the
// subagent's startup repl call synthetic as the live turn did.
func TestACPLoadInterrupted(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Read a.txt.","name":"reader"}`),
		llmtest.Call("read_file", `{"path":"a.txt"}`),
		llmtest.Text("It says hello."),
		llmtest.Text("a.txt says hello."),
	)
	os.WriteFile(filepath.Join(e.repo, "a.txt"), []byte("hello\n"), 0o644)
	p := e.startACP()
	p.initialize()
	id := p.newSession(e.repo).SessionId
	if _, err := p.prompt(id, "What does a.txt say?"); err != nil {
		t.Fatal(err)
	}
	live := callsOf(t, p.take(id))
	if code := p.stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	// As a kill leaves it: the root without the rlm result and the
	// answer, the subagent without its answer.
	lib := filepath.Join(e.home, "sessions", string(id), "library")
	cut := func(path string, n int) {
		t.Helper()
		f, err := sessions.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Items = f.Items[:len(f.Items)-n]
		if err := sessions.WriteFile(path, f); err != nil {
			t.Fatal(err)
		}
	}
	cut(filepath.Join(lib, "root.json"), 2)
	cut(filepath.Join(lib, live[1].id+".json"), 1)

	p = e.startACP()
	p.initialize()
	if _, err := p.conn.LoadSession(p.ctx(), sdk.LoadSessionRequest{SessionId: id, Cwd: e.repo, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v\nstderr:\n%s", err, p.stderr)
	}
	var got []string
	for _, c := range callsOf(t, p.take(id)) {
		got = append(got, fmt.Sprintf("%s %s synthetic=%v", c.title, c.final(), c.meta["synthetic"] == true))
		if c.title == "rlm reader: Read a.txt." && !strings.Contains(c.resultText(), "[interrupted: harness stopped") {
			t.Errorf("the rlm call's result %q", c.resultText())
		}
	}
	want := []string{
		"FYI completed synthetic=true",
		"rlm reader: Read a.txt. failed synthetic=false",
		"reader · repl FYI() … completed synthetic=true",
		"reader · read_file a.txt completed synthetic=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replayed calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// children counts the running processes whose parent is pid.
func children(pid int) int {
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, d := range entries {
		data, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[0] != "Z" && f[1] == fmt.Sprint(pid) {
			n++
		}
	}
	return n
}

// TestACPLoadEmptyOrUnknown: session/load and session/resume with an empty
// or unknown sessionId are refused with -32602 before anything starts: 30
// of them, each with an editor's MCP server, leave no process behind (no
// server, no worker) and no session open.
func TestACPLoadEmptyOrUnknown(t *testing.T) {
	e := newEnv(t)
	p := e.startACP()
	p.initialize()
	m := proctest.Marker()
	killAll(t, m)
	servers := []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Name: "x", Command: "/bin/sleep", Args: []string{m}, Env: []sdk.EnvVariable{}}}}
	before := children(p.cmd.Process.Pid)
	for i := 0; i < 30; i++ {
		id := sdk.SessionId("")
		if i%3 == 2 {
			id = "20990101-000000"
		}
		var err error
		if i%2 == 0 {
			_, err = p.conn.LoadSession(p.ctx(), sdk.LoadSessionRequest{SessionId: id, Cwd: e.repo, McpServers: servers})
		} else {
			_, err = p.conn.ResumeSession(p.ctx(), sdk.ResumeSessionRequest{SessionId: id, Cwd: e.repo, McpServers: servers})
		}
		var re *sdk.RequestError
		if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "sessionId") {
			t.Fatalf("load %d of %q: %v", i, id, err)
		}
	}
	if n := len(proctest.WithArg(m)); n != 0 {
		t.Errorf("%d MCP server processes started", n)
	}
	if after := children(p.cmd.Process.Pid); after > before {
		t.Errorf("harness acp has %d children after the loads, %d before", after, before)
	}
	if list, err := p.conn.ListSessions(p.ctx(), sdk.ListSessionsRequest{}); err != nil || len(list.Sessions) != 0 {
		t.Errorf("sessions: %+v, %v", list, err)
	}
}
