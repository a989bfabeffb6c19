package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llmtest"
	"harness/sessions"
)

// words is n bytes of distinct words, tagged.
func words(tag string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s-%d ", tag, i)
	}
	return b.String()[:n]
}

// answerSummaries answers summary requests with a summary, others with
// answer.
func answerSummaries(srv *llmtest.Server, answer func() llmtest.Reply) {
	srv.Respond(func(req llmtest.Request) llmtest.Reply {
		if strings.Contains(string(req.Body), "You summarise part of a conversation") {
			return llmtest.Text("The person pasted texts; the agent read each.")
		}
		return answer()
	})
}

// TestHeadlessTurnsFitTheWindow: ten headless turns of long pasted text,
// each in a process of its own resuming the session, against a llama.cpp
// whose /props says its window holds about three of them: every turn
// answers, no request is refused, root.json keeps all ten messages
// verbatim, and --json prints the compactions.
func TestHeadlessTurnsFitTheWindow(t *testing.T) {
	e := newEnv(t)
	e.srv.SetWindow(4500, llmtest.AdvertProps, llmtest.RefuseLlama)
	answerSummaries(e.srv, func() llmtest.Reply { return llmtest.Text("read it") })
	var pastes []string
	contextLines := 0
	for i := range 10 {
		pastes = append(pastes, words(fmt.Sprintf("paste%d", i), 4000))
		args := []string{"--json", "-p", pastes[i]}
		if i > 0 {
			args = append([]string{"--resume", filepath.Base(e.sessionDir())}, args...)
		}
		code, stdout, stderr := e.run(context.Background(), nil, args...)
		if code != 0 {
			t.Fatalf("turn %d: exit %d\n%s", i+1, code, stderr)
		}
		contextLines += strings.Count(stdout, `{"type":"context"`)
	}
	if ref := e.srv.Refused(); len(ref) > 0 {
		t.Errorf("refused requests of %v tokens", ref)
	}
	if contextLines == 0 {
		t.Error("--json printed no context line")
	}
	root, err := sessions.Load(filepath.Join(e.sessionDir(), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, m := range root.Messages() {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if strings.Join(users, "|") != strings.Join(pastes, "|") {
		t.Errorf("root.json keeps %d user messages, not the ten pastes verbatim", len(users))
	}
	t.Logf("prompts %v", e.srv.Prompts())
}

// TestHeadlessSubagentReadsTwiceItsWindow: a subagent reads eight files
// that add up to twice its window (vLLM's max_model_len says it): it
// completes with no refused request, its last request holds the newest
// file whole, and its conversation file keeps every output in full.
func TestHeadlessSubagentReadsTwiceItsWindow(t *testing.T) {
	replies := []llmtest.Reply{llmtest.Call("rlm", `{"task":"survey the eight files","name":"surveyor"}`)}
	for i := range 8 {
		replies = append(replies, llmtest.Call("read_file", fmt.Sprintf(`{"path":"f%d.txt"}`, i)))
	}
	replies = append(replies, llmtest.Text("surveyed"), llmtest.Text("done"))
	e := newEnv(t, replies...)
	e.srv.SetWindow(12288, llmtest.AdvertVLLM, llmtest.RefuseOpenAI)
	files := map[string]string{}
	for i := range 8 {
		name := fmt.Sprintf("f%d.txt", i)
		files[name] = words(name, 11000) // about 3,000 tokens with line numbers: twice the window in all
		if err := os.WriteFile(filepath.Join(e.repo, name), []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := e.run(context.Background(), nil, "-p", "survey")
	if code != 0 || stdout != "done\n" {
		t.Fatalf("exit %d, %q\n%s", code, stdout, stderr)
	}
	if ref := e.srv.Refused(); len(ref) > 0 {
		t.Errorf("refused requests of %v tokens", ref)
	}
	chats := e.srv.Chats()
	last := string(chats[len(chats)-2].Body)
	if !strings.Contains(last, files["f7.txt"][:200]) || !strings.Contains(last, files["f7.txt"][len(files["f7.txt"])-200:]) {
		t.Error("the subagent's last request lacks the newest file whole")
	}
	if !strings.Contains(stderr, "oldest tool outputs left out of the request") {
		t.Errorf("stderr does not say outputs were left out:\n%s", stderr)
	}
	subs, _ := filepath.Glob(filepath.Join(e.sessionDir(), "library", "*.json"))
	all := ""
	for _, p := range subs {
		data, _ := os.ReadFile(p)
		all += string(data)
	}
	for name, text := range files {
		if !strings.Contains(all, text[:500]) || !strings.Contains(all, text[len(text)-500:]) {
			t.Errorf("the conversation files lack %s in full", name)
		}
	}
}

// TestFitDescribed: an operation too long for the description model's
// window loses its middle, with a note; an unknown window keeps it whole.
func TestFitDescribed(t *testing.T) {
	op := `{"operation":"write","patch":"` + strings.Repeat("é", 5000) + `"}`
	if got := fitDescribed(op, "Explain: ${command}", 0); got != op {
		t.Error("an unknown window cut the operation")
	}
	got := fitDescribed(op, "Explain: ${command}", 1000)
	if !strings.HasPrefix(got, `{"operation":"write"`) || !strings.HasSuffix(got, `"}`) || !strings.Contains(got, "bytes cut to fit the description model's context window") {
		t.Errorf("cut = %.120q…", got)
	}
	if len(got) > 1600 || !utf8.ValidString(got) {
		t.Errorf("cut to %d bytes (valid UTF-8: %v)", len(got), utf8.ValidString(got))
	}
}

// TestContextCommandsACP: an editor's "/context" answers with what the
// next request holds, and "/compact" summarises the earlier turns, saying
// so in a thought and a message.
func TestContextCommandsACP(t *testing.T) {
	e := newEnv(t)
	answerSummaries(e.srv, func() llmtest.Reply { return llmtest.Text("fine") })
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	for _, prompt := range []string{"one", "two", "/compact the numbers", "/context"} {
		if resp, err := p.prompt(s.SessionId, prompt); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
			t.Fatalf("%s: %+v, %v", prompt, resp, err)
		}
	}
	var said []string
	p.waitFor(t, "the /context answer", func(us []sdk.SessionNotification, _ []sdk.RequestPermissionRequest) bool {
		said = nil
		for _, n := range us {
			if c := n.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
				said = append(said, c.Content.Text.Text)
			}
			if c := n.Update.AgentThoughtChunk; c != nil && c.Content.Text != nil {
				said = append(said, "thought: "+c.Content.Text.Text)
			}
		}
		return strings.Contains(strings.Join(said, "\n"), "Next request: about")
	})
	all := strings.Join(said, "\n")
	for _, want := range []string{"thought: context: turn 1 summarised by /compact", "Compacted: the earlier turns are summarised", "summary of turn 1: ~", "Hidden: turn 1 (by compaction)"} {
		if !strings.Contains(all, want) {
			t.Errorf("the editor was not told %q:\n%s", want, all)
		}
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestContextCommandsHeadless: -p "/compact FOCUS" on a resumed session
// compacts it, -p /context prints what the next request holds.
func TestContextCommandsHeadless(t *testing.T) {
	e := newEnv(t)
	var asked string
	e.srv.Respond(func(req llmtest.Request) llmtest.Reply {
		if strings.Contains(string(req.Body), "You summarise part of a conversation") {
			asked = string(req.Body)
			return llmtest.Text("They said one and two.")
		}
		return llmtest.Text("fine")
	})
	if code, _, stderr := e.run(context.Background(), nil, "-p", "one"); code != 0 {
		t.Fatal(stderr)
	}
	name := filepath.Base(e.sessionDir())
	if code, _, stderr := e.run(context.Background(), nil, "--resume", name, "-p", "two"); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := e.run(context.Background(), nil, "--resume", name, "-p", "/compact the numbers")
	if code != 0 || !strings.HasPrefix(stdout, "Compacted:") || !strings.Contains(stderr, "context: turn 1 summarised by /compact") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(asked, "Focus on: the numbers") {
		t.Error("the focus did not reach the summary request")
	}
	code, stdout, _ = e.run(context.Background(), nil, "--resume", name, "--json", "-p", "/context")
	if code != 0 || !strings.Contains(stdout, `"type":"turn_done"`) || !strings.Contains(stdout, "summary of turn 1: ~") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
	if code, _, stderr := e.run(context.Background(), nil, "--resume", name, "-p", "/compact"); code != 1 || !strings.Contains(stderr, "nothing to compact") {
		t.Errorf("a second /compact: exit %d\n%s", code, stderr)
	}
}
