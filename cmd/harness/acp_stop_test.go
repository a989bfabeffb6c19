// harness acp: session/cancel mid-stream and during an approval, a
// permission request answered cancelled, and the other stop reasons.

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llmtest"
	"harness/sessions"
)

// TestACPCancelMidStream: session/cancel while the root streams its answer
// stops the turn as Esc does: the answer is cancelled, and the partial
// reply is saved.
func TestACPCancelMidStream(t *testing.T) {
	e := newEnv(t, llmtest.Reply{Content: "partial answer", Split: 4, Fail: llmtest.FailStall, After: 3})
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	type result struct {
		resp sdk.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := p.prompt(s.SessionId, "Go.")
		done <- result{resp, err}
	}()
	p.waitFor(t, "the streamed text", func(us []sdk.SessionNotification, _ []sdk.RequestPermissionRequest) bool {
		var upd []sdk.SessionUpdate
		for _, n := range us {
			upd = append(upd, n.Update)
		}
		return textOf(upd, "agent_message_chunk") == "partial "
	})
	if err := p.conn.Cancel(p.ctx(), sdk.CancelNotification{SessionId: s.SessionId}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("prompt: %+v, %v\nstderr:\n%s", r.resp, r.err, p.stderr)
	}
	root, err := sessions.Load(filepath.Join(e.home, "sessions", string(s.SessionId), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	if last := lastMessage(root.Messages()); last.Role != "assistant" || last.Content != "partial " {
		t.Errorf("saved answer %+v", last)
	}
}

// TestACPCancelApproval: session/cancel while a permission request waits
// stops the turn; the editor's pending request is cancelled with it and
// the command never runs.
func TestACPCancelApproval(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Touch x.","name":"toucher"}`),
		llmtest.Call("repl", args(map[string]string{"code": `run(["touch", "x"])`})),
	)
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	asked := make(chan struct{})
	requestEnded := make(chan error, 1)
	p.setAnswer(func(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		close(asked)
		<-ctx.Done() // harness cancels the request ($/cancel_request)
		requestEnded <- ctx.Err()
		return cancelled(), nil
	})
	done := make(chan sdk.PromptResponse, 1)
	go func() {
		resp, err := p.prompt(s.SessionId, "Touch x.")
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		done <- resp
	}()
	<-asked
	p.conn.Cancel(p.ctx(), sdk.CancelNotification{SessionId: s.SessionId})
	if resp := <-done; resp.StopReason != sdk.StopReasonCancelled {
		t.Errorf("stop reason %q", resp.StopReason)
	}
	if err := <-requestEnded; err == nil {
		t.Error("the permission request was not cancelled")
	}
	if _, err := os.Stat(filepath.Join(e.repo, "x")); err == nil {
		t.Error("x was created")
	}
}

// TestACPPermissionCancelledDenies: a client answering "cancelled" (without
// session/cancel) denies: the model is told, and the turn goes on.
func TestACPPermissionCancelledDenies(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Touch x.","name":"toucher"}`),
		llmtest.Call("repl", args(map[string]string{"code": `run(["touch", "x"])`})),
		llmtest.Text("Not allowed."),
		llmtest.Text("It was not allowed."),
	)
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	p.setAnswer(func(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		return cancelled(), nil
	})
	resp, err := p.prompt(s.SessionId, "Touch x.")
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "x")); err == nil {
		t.Error("x was created")
	}
	res := lastMessage(e.chat(2).Messages).Content
	if !strings.Contains(res, "touch was not approved: the editor cancelled the permission request") {
		t.Errorf("the REPL result %q", res)
	}
	found := false
	for _, c := range callsOf(t, p.take(s.SessionId)) {
		if strings.HasPrefix(c.title, "toucher · repl run(") {
			found = true
			if c.final() != sdk.ToolCallStatusFailed {
				t.Errorf("%s: %v (a call that raised is failed)", c.title, c.statuses)
			}
		}
	}
	if !found {
		t.Error("no repl call")
	}
}

// TestACPStopReasons: a root reply cut at the token limit ends the turn
// with max_tokens, a refusal with refusal (its text shown as the
// message), and a failed request is the prompt's error; the session goes
// on after each.
func TestACPStopReasons(t *testing.T) {
	e := newEnv(t,
		llmtest.Reply{Content: "The answer is cut", Finish: "length"},
		llmtest.Reply{Chunks: []string{
			`{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"refusal":"I cannot help with that."}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		}},
		llmtest.Reply{Chunks: []string{
			`{"choices":[{"index":0,"delta":{"role":"assistant","content":"Sorry."}}]}`,
			`{"choices":[{"index":0,"delta":{"refusal":"I will not."}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		}},
		llmtest.Reply{Content: "Here is how to", Finish: "content_filter"},
		llmtest.Error(400, `{"error":{"message":"the model is unavailable"}}`),
		llmtest.Text("Fine again."),
	)
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	for _, tc := range []struct {
		want sdk.StopReason
		text string
	}{
		{sdk.StopReasonMaxTokens, "The answer is cut"},
		{sdk.StopReasonRefusal, "I cannot help with that."},
		// A refusal after some content is a paragraph of its own.
		{sdk.StopReasonRefusal, "Sorry.\n\nI will not."},
		// The server's content filter stopped the reply: a refusal too.
		{sdk.StopReasonRefusal, "Here is how to"},
	} {
		resp, err := p.prompt(s.SessionId, "Go.")
		if err != nil || resp.StopReason != tc.want {
			t.Errorf("prompt: %+v, %v; want %s", resp, err, tc.want)
		}
		if got := textOf(p.take(s.SessionId), "agent_message_chunk"); got != tc.text {
			t.Errorf("%s: message %q", tc.want, got)
		}
	}
	_, err := p.prompt(s.SessionId, "Go.")
	if err == nil || !strings.Contains(err.Error(), "the model is unavailable") {
		t.Errorf("failed turn: %v", err)
	}
	if resp, err := p.prompt(s.SessionId, "Again."); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("after the failure: %+v, %v", resp, err)
	}
}

// TestACPSignal: SIGTERM during a turn stops it as Esc does, saves the
// partial reply and exits 143.
func TestACPSignal(t *testing.T) {
	e := newEnv(t, llmtest.Reply{Content: "half of it", Split: 5, Fail: llmtest.FailStall, After: 2})
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	go p.prompt(s.SessionId, "Go.")
	p.waitFor(t, "the streamed text", func(us []sdk.SessionNotification, _ []sdk.RequestPermissionRequest) bool {
		return len(us) > 0 && us[len(us)-1].Update.AgentMessageChunk != nil
	})
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.stop(); code != 143 {
		t.Errorf("exit %d, want 143\nstderr:\n%s", code, p.stderr)
	}
	root, err := sessions.Load(filepath.Join(e.home, "sessions", string(s.SessionId), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	if last := lastMessage(root.Messages()); last.Role != "assistant" || last.Content != "half " {
		t.Errorf("saved answer %+v", last)
	}
}

// TestACPApprovalDescription: with [approval_description], the pending
// request's call gets the description endpoint's explanation, and the
// operation goes to that endpoint only.
func TestACPApprovalDescription(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Touch x.","name":"toucher"}`),
		llmtest.Call("repl", args(map[string]string{"code": `run(["touch", "x"])`})),
		llmtest.Text("Touched."),
		llmtest.Text("Touched x."),
	)
	desc := llmtest.New(t, llmtest.Text("Creates the empty file x."))
	e.withMCP(fmt.Sprintf("\n[approval_description]\nenabled = true\nprompt = \"Explain: ${command}\"\n\n[approval_description.endpoint]\nbase_url = %q\nmodel = \"small\"\n", desc.URL))
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	p.setAnswer(func(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		p.waitFor(t, "the description", func(us []sdk.SessionNotification, _ []sdk.RequestPermissionRequest) bool {
			for _, n := range us {
				if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == req.ToolCall.ToolCallId && len(u.Content) == 2 &&
					u.Content[0].Content.Content.Text.Text == "Creates the empty file x." {
					return true
				}
			}
			return false
		})
		return choose(optionOf(req, sdk.PermissionOptionKindAllowOnce)), nil
	})
	if resp, err := p.prompt(s.SessionId, "Touch x."); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "x")); err != nil {
		t.Error(err)
	}
	if got := desc.Chats()[0].MustChat(t).Messages[0].Content; !strings.HasPrefix(got, `Explain: {"arguments":["x"]`) {
		t.Errorf("the description request %q", got)
	}
}

// TestACPPromptDuringPrompt: a prompt sent while another runs stops that
// one (cancelled), then runs to its end.
func TestACPPromptDuringPrompt(t *testing.T) {
	e := newEnv(t, llmtest.Reply{Content: "first and", Split: 6, Fail: llmtest.FailStall, After: 2}, llmtest.Text("second"))
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	first := make(chan sdk.PromptResponse, 1)
	go func() {
		resp, err := p.prompt(s.SessionId, "one")
		if err != nil {
			t.Errorf("first prompt: %v", err)
		}
		first <- resp
	}()
	p.waitFor(t, "the first answer streaming", func(us []sdk.SessionNotification, _ []sdk.RequestPermissionRequest) bool {
		return len(us) > 0 && us[len(us)-1].Update.AgentMessageChunk != nil
	})
	resp, err := p.prompt(s.SessionId, "two")
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("second prompt: %+v, %v", resp, err)
	}
	if r := <-first; r.StopReason != sdk.StopReasonCancelled {
		t.Errorf("first prompt: %+v", r)
	}
	var users []string
	for _, m := range e.chat(1).Messages {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if strings.Join(users, "|") != "one|two" {
		t.Errorf("the second request's user messages %q", users)
	}
}
