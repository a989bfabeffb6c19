// End to end (harness -p, --json) against faulty endpoints: a rate limit
// waited out, a stalled stream retried, errors that need the person.

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"harness/config"
	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
)

// TestRateLimitWaitedOut: a 429 with Retry-After is waited out (on the
// fake clock) and announced by a retry line; the turn then succeeds.
func TestRateLimitWaitedOut(t *testing.T) {
	e := newEnv(t,
		llmtest.Error(429, `{"error":{"message":"Rate limit reached","type":"requests"}}`).WithHeader("Retry-After", "4"),
		llmtest.Text("done after waiting"),
	)
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	lines := jsonLines(t, stdout)
	retries := ofType(lines, "retry")
	name := filepath.Base(e.sessionDir())
	want := `{"type":"retry","schema_version":1,"agent":"` + name + `","depth":0,"attempt":1,"max":4,"delay_s":4.0,"reason":"429 Too Many Requests: requests: Rate limit reached"}`
	if len(retries) != 1 || !strings.Contains(stdout, want+"\n") {
		t.Errorf("retry lines %v; want\n%s\nin\n%s", retries, want, stdout)
	}
	if done := ofType(lines, "turn_done"); len(done) != 1 || done[0]["text"] != "done after waiting" {
		t.Errorf("turn_done %v", done)
	}
	if n, s := len(e.srv.Chats()), e.clock.Sleeps(); n != 2 || len(s) != 1 || s[0] != 4*time.Second {
		t.Errorf("%d requests, waits %v", n, s)
	}
	if errs := ofType(lines, "error"); len(errs) != 0 {
		t.Errorf("errors %v", errs)
	}
}

// TestStalledStreamRetried: a stream that stalls mid-answer ends after
// idle_timeout_s (the fake clock is moved by it), is retried, and nothing
// of the stalled attempt is saved.
func TestStalledStreamRetried(t *testing.T) {
	e := newEnv(t,
		llmtest.Reply{Content: "lost words", Split: 5, Fail: llmtest.FailStall, After: 2},
		llmtest.Text("recovered"),
	)
	// Once the partial text is out, nothing more comes: 300 s pass.
	stalled := func(line string) {
		if strings.Contains(line, `"type":"text_delta"`) && strings.Contains(line, "lost") {
			go e.clock.Advance(300 * time.Second)
		}
	}
	code, stdout, stderr := e.run(context.Background(), stalled, "--json", "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	lines := jsonLines(t, stdout)
	retries := ofType(lines, "retry")
	if len(retries) != 1 || retries[0]["reason"] != "no data for 300 s after 2 chunks" || retries[0]["attempt"] != float64(1) {
		t.Fatalf("retries %v", retries)
	}
	if i, j := strings.Index(stdout, `"text":"lost "`), strings.Index(stdout, `"type":"retry"`); i < 0 || i > j {
		t.Errorf("the stalled attempt's delta should come before the retry line:\n%s", stdout)
	}
	if done := ofType(lines, "turn_done"); len(done) != 1 || done[0]["text"] != "recovered" {
		t.Errorf("turn_done %v", done)
	}
	if n := len(e.srv.Chats()); n != 2 {
		t.Errorf("%d requests", n)
	}
	root, err := sessions.Load(filepath.Join(e.sessionDir(), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range root.Messages() {
		if strings.Contains(m.Content, "lost") {
			t.Errorf("the stalled attempt was saved: %+v", m)
		}
	}
	if last := lastMessage(root.Messages()); last.Content != "recovered" {
		t.Errorf("last saved message %+v", last)
	}
}

// TestMissingKeyWarnedAndAdvised: api_key_env naming a variable set
// nowhere is warned about at start; the server's 401 (which echoes what it
// got) is explained without retrying.
func TestMissingKeyWarnedAndAdvised(t *testing.T) {
	e := newEnv(t, llmtest.Error(401, `{"error":{"message":"You didn't provide an API key."}}`))
	e.setConfig(`# api_key_env = "OPENAI_API_KEY"`, `api_key_env = "HARNESS_TEST_UNSET_KEY"`)
	code, stdout, stderr := e.run(context.Background(), nil, "-p", "go")
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d %q", code, stdout)
	}
	dotenv := filepath.Join(e.home, ".env")
	for _, w := range []string{
		"harness: warning: [endpoint] api_key_env names HARNESS_TEST_UNSET_KEY, which is set in neither the environment nor " + dotenv,
		"401 Unauthorized: You didn't provide an API key.",
		"so no key was sent: add HARNESS_TEST_UNSET_KEY=<key> to " + dotenv,
		"harness doctor",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if strings.Index(stderr, "warning") > strings.Index(stderr, "401") {
		t.Errorf("the warning came after the failure:\n%s", stderr)
	}
	if n := len(e.srv.Chats()); n != 1 {
		t.Errorf("%d requests", n)
	}
}

// TestKeyEchoRedacted: a 401 body echoing the key is never printed or
// saved with it.
func TestKeyEchoRedacted(t *testing.T) {
	const key = "sk-test-echoed-0123456789"
	e := newEnv(t, llmtest.Error(401, `{"error":{"message":"Incorrect API key provided: `+key+`"}}`))
	t.Setenv("HARNESS_TEST_ECHO_KEY", key)
	e.setConfig(`# api_key_env = "OPENAI_API_KEY"`, `api_key_env = "HARNESS_TEST_ECHO_KEY"`)
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "go")
	if code != 1 || strings.Contains(stdout+stderr, key) || !strings.Contains(stdout, "[REDACTED]") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "read from the environment") {
		t.Errorf("the advice does not say where the key came from:\n%s", stdout)
	}
	for _, typ := range []string{"error", "agent_end", "turn_done"} {
		if l := ofType(jsonLines(t, stdout), typ); len(l) != 1 {
			t.Errorf("%d %s lines", len(l), typ)
		}
	}
	files, _ := filepath.Glob(filepath.Join(e.sessionDir(), "*", "*.json"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), key) {
			t.Errorf("%s holds the key", f)
		}
	}
}

// TestContextFullHeadless: a conversation too long for the model fails at
// once with its size and the headless way to make room.
func TestContextFullHeadless(t *testing.T) {
	e := newEnv(t, llmtest.Error(400, `{"error":{"message":"This model's maximum context length is 8192 tokens.","code":"context_length_exceeded"}}`))
	code, _, stderr := e.run(context.Background(), nil, "-p", "go")
	name := filepath.Base(e.sessionDir())
	for _, w := range []string{"the conversation no longer fits the model's context: it is about ", "tokens (the context overlay's count",
		"To make room, start a new session (run harness -p without --resume)", "(harness --resume " + name + ")"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if code != 1 || len(e.srv.Chats()) != 1 {
		t.Errorf("exit %d, %d requests", code, len(e.srv.Chats()))
	}
}

// TestFailedTurnThenResumeAlternates: after a root turn that failed before
// any reply, the next turn's request has no two user messages in a row
// (strict chat templates refuse it) while the file keeps both.
func TestFailedTurnThenResumeAlternates(t *testing.T) {
	e := newEnv(t, llmtest.Error(400, `{"error":{"message":"bad request"}}`), llmtest.Text("second time lucky"))
	if code, _, stderr := e.run(context.Background(), nil, "-p", "first prompt"); code != 1 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	name := filepath.Base(e.sessionDir())
	code, stdout, stderr := e.run(context.Background(), nil, "--resume", name, "-p", "second prompt")
	if code != 0 || stdout != "second time lucky\n" {
		t.Fatalf("exit %d %q %s", code, stdout, stderr)
	}
	sent := e.chat(1).Messages
	if got := llmtest.Roles(sent); got != "user assistant:FYI tool" {
		t.Errorf("sent %s", got)
	}
	if sent[0].Content != "first prompt\n\nsecond prompt" {
		t.Errorf("merged user message %q", sent[0].Content)
	}
	root, _ := sessions.Load(filepath.Join(e.sessionDir(), "library", "root.json"))
	if got := llmtest.Roles(root.Messages()); got != "user user assistant:FYI tool assistant" {
		t.Errorf("saved %s", got)
	}
}

// TestKeyWarnings: each endpoint whose api_key_env is unset or empty
// everywhere gets a start-up warning (stderr headless; the UI shows the
// same text as a ui.Warning).
func TestKeyWarnings(t *testing.T) {
	e := newEnv(t)
	if w := keyWarnings(e.cfg); len(w) != 0 {
		t.Errorf("warnings without api_key_env: %q", w)
	}
	t.Setenv("HARNESS_TEST_EMPTY_KEY", "")
	t.Setenv("HARNESS_TEST_SET_KEY", "k")
	e.cfg.Endpoint.APIKeyEnv = "HARNESS_TEST_UNSET_KEY"
	e.cfg.ApprovalDescription = &config.ApprovalDescription{Prompt: "${command}", Endpoint: config.Endpoint{APIKeyEnv: "HARNESS_TEST_EMPTY_KEY"}}
	w := keyWarnings(e.cfg)
	if len(w) != 2 || !strings.HasPrefix(w[0], "[endpoint] api_key_env names HARNESS_TEST_UNSET_KEY, which is set in neither the environment nor ") ||
		!strings.HasPrefix(w[1], "[approval_description.endpoint] api_key_env names HARNESS_TEST_EMPTY_KEY, which is empty") {
		t.Errorf("warnings %q", w)
	}
	e.cfg.Endpoint.APIKeyEnv = "HARNESS_TEST_SET_KEY"
	e.cfg.ApprovalDescription = nil
	if w := keyWarnings(e.cfg); len(w) != 0 {
		t.Errorf("warnings with the key set: %q", w)
	}
}

// TestInterruptDuringRetryWait: stopping (SIGINT, here the context) while
// a retry waits ends the run at once with 130, after one request.
func TestInterruptDuringRetryWait(t *testing.T) {
	e := newEnv(t, llmtest.Error(503, "busy").WithHeader("Retry-After", "90"), llmtest.Text("unused"))
	clock := llmtest.NewClock() // waits last until the clock moves: it never does
	clientOptions = []llm.Option{llm.WithClock(clock)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code, stdout, _ := e.run(ctx, func(line string) {
		if strings.Contains(line, `"type":"retry"`) {
			cancel()
		}
	}, "--json", "-p", "go")
	if code != 130 || !strings.Contains(stdout, `"delay_s":90.0`) {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if done := ofType(jsonLines(t, stdout), "turn_done"); len(done) != 1 || done[0]["text"] != "[stopped by user]" {
		t.Errorf("turn_done %v", done)
	}
	if n := len(e.srv.Chats()); n != 1 {
		t.Errorf("%d requests", n)
	}
}
