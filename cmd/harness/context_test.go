package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
