// harness acp driven by the ACP Go SDK's client, against the fake
// endpoint: a turn with a depth-2 delegation and approvals.

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llmtest"
)

// TestACPTurn: initialize, session/new and a prompt whose root delegates
// to a planner (depth 1), which runs a command twice (one approval,
// answered allow_always, covers the second: the same command with the
// same arguments, as the UI's a), then another (asked again), and
// delegates an edit to an editor (depth 2).
// The editor's tool calls are titled after it, apply_patch comes with its
// diff and both file tools with locations; the reasoning is a thought and
// the answer a message; the stop reason is end_turn. allow_always holds
// for that session only and is never written to config.toml: a second
// session asks again, and the answer reject_once refuses.
func TestACPTurn(t *testing.T) {
	patchText := "*** Begin Patch\n*** Update File: a.txt\n-hello\n+hello world\n*** End Patch\n"
	e := newEnv(t,
		llmtest.Reply{Reasoning: "Delegate.", ToolCalls: []llmtest.ToolCall{{Name: "rlm",
			Arguments: args(map[string]string{"task": "Touch the files, then have a.txt edited.", "name": "planner"})}}},
		llmtest.Call("repl", args(map[string]string{"code": `print(run(["touch", "t1"])["exit_code"])` + "\n" + `print(run(["touch", "t1"])["exit_code"])` + "\n" + `print(run(["touch", "t2"])["exit_code"])`})),
		llmtest.Call("rlm", args(map[string]string{"task": "Change hello to hello world in a.txt.", "name": "editor"})),
		llmtest.Call("apply_patch", args(map[string]string{"patch": patchText})),
		llmtest.Call("read_file", `{"path":"a.txt","start_line":1}`),
		llmtest.Text("Edited a.txt."),
		llmtest.Text("Touched t1 and t2; a.txt edited."),
		llmtest.Reply{Content: "All done.", Reasoning: "The planner reported success."},
		// The second session.
		llmtest.Call("rlm", args(map[string]string{"task": "Touch t3.", "name": "toucher"})),
		llmtest.Call("repl", args(map[string]string{"code": `print(run(["touch", "t3"]))`})),
		llmtest.Text("Refused."),
		llmtest.Text("It was refused."),
	)
	os.WriteFile(filepath.Join(e.repo, "a.txt"), []byte("hello\n"), 0o644)
	configBefore, _ := os.ReadFile(filepath.Join(e.home, "config.toml"))
	p := e.startACP()
	init := p.initialize()
	caps := init.AgentCapabilities
	if init.ProtocolVersion != 1 || !caps.LoadSession || caps.SessionCapabilities.List == nil || !caps.McpCapabilities.Http ||
		!caps.PromptCapabilities.EmbeddedContext || init.AgentInfo == nil || init.AgentInfo.Name != "harness" {
		t.Errorf("initialize = %+v", init)
	}
	s := p.newSession(e.repo)
	if !regexp.MustCompile(`^\d{8}-\d{6}(-\d+)?$`).MatchString(string(s.SessionId)) {
		t.Errorf("sessionId %q is not a session name", s.SessionId)
	}
	if s.Modes == nil || s.Modes.CurrentModeId != "read-write" || len(s.Modes.AvailableModes) != 3 {
		t.Errorf("modes %+v", s.Modes)
	}
	p.answerWith(sdk.PermissionOptionKindAllowAlways)
	resp, err := p.prompt(s.SessionId, "Fix the greeting.")
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v\nstderr:\n%s", resp, err, p.stderr)
	}
	us := p.take(s.SessionId)
	if got := textOf(us, "agent_message_chunk"); got != "All done." {
		t.Errorf("message %q", got)
	}
	thoughts := textOf(us, "agent_thought_chunk")
	for _, want := range []string{"Delegate.", "The planner reported success.", "planner: Touched t1", "editor: Edited a.txt."} {
		if !strings.Contains(thoughts, want) {
			t.Errorf("thoughts lack %q:\n%s", want, thoughts)
		}
	}
	calls := callsOf(t, us)
	var titles []string
	byTitle := map[string]*acpCall{}
	for _, c := range calls {
		if c.meta["synthetic"] == true {
			continue
		}
		titles = append(titles, c.title)
		byTitle[c.title] = c
		if c.statuses[0] != sdk.ToolCallStatusPending || c.statuses[1] != sdk.ToolCallStatusInProgress || c.final() != sdk.ToolCallStatusCompleted {
			t.Errorf("%s: statuses %v", c.title, c.statuses)
		}
	}
	want := []string{
		"rlm planner: Touch the files, then have a.txt edited.",
		`planner · repl print(run(["touch", "t1"])["exit_code"]) …`,
		"planner · rlm editor: Change hello to hello world in a.txt.",
		"editor · apply_patch a.txt",
		"editor · read_file a.txt:1-",
	}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Fatalf("titles:\n%s\nwant:\n%s", strings.Join(titles, "\n"), strings.Join(want, "\n"))
	}
	for i, kind := range []sdk.ToolKind{"think", "execute", "think", "edit", "read"} {
		if c := byTitle[want[i]]; c.kind != kind {
			t.Errorf("%s: kind %s, want %s", c.title, c.kind, kind)
		}
	}
	if m := byTitle[want[1]].meta; m["agent"] != "planner" || m["depth"] != float64(1) {
		t.Errorf("the planner's call has _meta %v", m)
	}
	a := filepath.Join(e.repo, "a.txt")
	edit := byTitle[want[3]]
	if len(edit.locations) != 1 || edit.locations[0].Path != a {
		t.Errorf("apply_patch locations %+v", edit.locations)
	}
	if d := edit.content[0].Diff; d == nil || d.Path != a || d.OldText == nil || *d.OldText != "hello\n" || d.NewText != "hello world\n" {
		t.Errorf("apply_patch content %+v", edit.content)
	}
	if !strings.Contains(edit.resultText(), "M a.txt") {
		t.Errorf("apply_patch result %q", edit.resultText())
	}
	read := byTitle[want[4]]
	if len(read.locations) != 1 || read.locations[0].Path != a || read.locations[0].Line == nil || *read.locations[0].Line != 1 {
		t.Errorf("read_file locations %+v", read.locations)
	}
	if !strings.Contains(read.resultText(), "hello world") {
		t.Errorf("read_file result %q", read.resultText())
	}
	perms := p.permissions()
	if len(perms) != 2 {
		t.Fatalf("%d permission requests, want 2 (allow_always covers the same command again, not touch t2)", len(perms))
	}
	repl := byTitle[want[1]]
	if string(perms[0].ToolCall.ToolCallId) != repl.id || len(perms[0].Options) != 3 {
		t.Errorf("permission request %+v for call %s", perms[0], repl.id)
	}
	if c := perms[0].ToolCall.Content; len(c) == 0 || !strings.Contains(c[0].Content.Content.Text.Text, "Run /usr/bin/touch t1 in /repository") {
		t.Errorf("permission request content %+v", c)
	}
	if !strings.Contains(repl.resultText(), "0\n0\n0") {
		t.Errorf("repl result %q", repl.resultText())
	}
	for _, f := range []string{"t1", "t2"} {
		if _, err := os.Stat(filepath.Join(e.repo, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if got, _ := os.ReadFile(a); string(got) != "hello world\n" {
		t.Errorf("a.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.home, "sessions", string(s.SessionId), "library", "root.json")); err != nil {
		t.Errorf("the session was not saved: %v", err)
	}

	// A second session asks again; reject_once refuses.
	p.answerWith(sdk.PermissionOptionKindRejectOnce)
	s2 := p.newSession(e.repo)
	if resp, err := p.prompt(s2.SessionId, "Touch t3."); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("second prompt: %+v, %v", resp, err)
	}
	if n := len(p.permissions()); n != 3 {
		t.Errorf("%d permission requests in all, want 3", n)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "t3")); err == nil {
		t.Error("t3 was created although refused")
	}
	chats := e.srv.Chats()
	if res := lastMessage(chats[len(chats)-2].MustChat(t).Messages).Content; !strings.Contains(res, "the user refused to run touch") {
		t.Errorf("the refused command's result %q", res)
	}
	if after, _ := os.ReadFile(filepath.Join(e.home, "config.toml")); string(after) != string(configBefore) {
		t.Errorf("config.toml changed:\n%s", after)
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d\nstderr:\n%s", code, p.stderr)
	}
}
