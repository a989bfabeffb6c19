package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"harness/config"
	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
)

// testEnv is a HARNESS_HOME with a config pointing at a fake endpoint, and
// a repository directory to run in.
type testEnv struct {
	t    *testing.T
	home string
	repo string
	srv  *llmtest.Server
	cfg  *config.Config
	// clock is the endpoint clients' time in in-process runs: waits
	// before retries pass at once (and are recorded), idle timers fire
	// when a test advances it.
	clock *llmtest.Clock
}

func newEnv(t *testing.T, replies ...llmtest.Reply) *testEnv {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HARNESS_HOME", home)
	srv := llmtest.New(t, replies...)
	if _, err := config.Setup(home, config.SetupOptions{BaseURL: srv.URL, Model: "llmtest-model"}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(home, "config.toml")
	data, _ := os.ReadFile(p)
	data = bytes.Replace(data, []byte(`permission = "read-only"`), []byte(`permission = "read-write"`), 1)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{t: t, home: home, repo: repo, srv: srv, clock: llmtest.NewClock().AutoSleep()}
	e.cfg = e.load()
	clientOptions = []llm.Option{llm.WithClock(e.clock)}
	t.Cleanup(func() { clientOptions = nil })
	return e
}

func (e *testEnv) load() *config.Config {
	cfg, err := config.Load(e.home, e.repo)
	if err != nil {
		e.t.Fatal(err)
	}
	return cfg
}

// setConfig replaces old by new in the config file and reloads it.
func (e *testEnv) setConfig(old, new string) {
	e.t.Helper()
	p := filepath.Join(e.home, "config.toml")
	data, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(data), old) {
		e.t.Fatalf("config lacks %q (%v)", old, err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o600); err != nil {
		e.t.Fatal(err)
	}
	e.cfg = e.load()
}

// run runs harness in-process with args; out, if set, receives stdout as it
// is written.
func (e *testEnv) run(ctx context.Context, out func(line string), args ...string) (int, string, string) {
	e.t.Helper()
	f, err := parseAgentFlags(args)
	if err != nil {
		e.t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	w := &lineWriter{buf: &stdout, fn: out}
	code := runAgent(ctx, e.cfg, f, e.repo, strings.NewReader(""), w, &stderr)
	return code, stdout.String(), stderr.String()
}

// lineWriter keeps stdout and calls fn with each complete line.
type lineWriter struct {
	mu      sync.Mutex
	buf     *bytes.Buffer
	partial string
	fn      func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.fn == nil {
		return len(p), nil
	}
	w.partial += string(p)
	for {
		i := strings.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.fn(w.partial[:i])
		w.partial = w.partial[i+1:]
	}
	return len(p), nil
}

// jsonLines decodes --json output.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		if m["schema_version"] != float64(1) || m["type"] == nil {
			t.Fatalf("line without type or schema_version 1: %s", sc.Text())
		}
		_, named := m["agent"].(string)
		if _, deep := m["depth"].(float64); m["type"] != "session" && (!named || !deep) {
			t.Fatalf("line about an agent without agent and depth: %s", sc.Text())
		}
		lines = append(lines, m)
	}
	checkCallsBeforeResults(t, lines)
	return lines
}

// checkCallsBeforeResults checks that every tool_result follows a tool_call
// with its id and name, and has content.
func checkCallsBeforeResults(t *testing.T, lines []map[string]any) {
	t.Helper()
	calls := map[any]any{}
	for _, l := range lines {
		switch l["type"] {
		case "tool_call":
			if _, ok := l["arguments"].(string); !ok {
				t.Errorf("tool_call without arguments text: %v", l)
			}
			calls[l["id"]] = l["name"]
		case "tool_result":
			if name, ok := calls[l["id"]]; !ok || name != l["name"] {
				t.Errorf("tool_result without its tool_call before it: %v", l)
			}
			if _, ok := l["content"].(string); !ok {
				t.Errorf("tool_result without content: %v", l)
			}
		}
	}
}

func ofType(lines []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["type"] == typ {
			out = append(out, l)
		}
	}
	return out
}

// sessionDir returns the only session's directory.
func (e *testEnv) sessionDir() string {
	e.t.Helper()
	list, err := sessions.Store{Dir: filepath.Join(e.home, "sessions")}.List()
	if err != nil || len(list) != 1 {
		e.t.Fatalf("sessions %v %v", list, err)
	}
	return filepath.Join(e.home, "sessions", list[0].Name)
}

func (e *testEnv) chat(i int) llmtest.ChatBody {
	e.t.Helper()
	chats := e.srv.Chats()
	if i >= len(chats) {
		e.t.Fatalf("only %d chat requests", len(chats))
	}
	return chats[i].MustChat(e.t)
}

var (
	idPattern     = regexp.MustCompile(`[A-Za-z0-9_-]{32}`)
	datePattern   = regexp.MustCompile(`Date: [^\n]*`)
	tokensPattern = regexp.MustCompile(`Prompt tokens: [^\n]*`)
)

// normalized re-encodes a conversation file with stable IDs, paths, dates
// and token counts, and the (long, evolving) output of the synthetic
// startup REPL call replaced by a placeholder.
func (e *testEnv) normalized(path string, ids map[string]string) string {
	e.t.Helper()
	f, err := sessions.Load(path)
	if err != nil {
		e.t.Fatal(err)
	}
	startup := map[string]bool{}
	for i, it := range f.Items {
		m := &f.Items[i].Message
		for _, c := range it.Message.ToolCalls {
			if strings.Contains(c.Arguments, `FYI()\nhelp()`) {
				startup[c.ID] = true
			}
		}
		if m.Role == "tool" && startup[m.ToolCallID] {
			if !strings.Contains(m.Content, "Date: ") || !strings.Contains(m.Content, "/store") {
				e.t.Errorf("startup output lacks FYI or /store:\n%s", m.Content)
			}
			m.Content = "$STARTUP_OUTPUT"
		}
		m.Content = datePattern.ReplaceAllString(m.Content, "Date: $$DATE")
		m.Content = tokensPattern.ReplaceAllString(m.Content, "Prompt tokens: $$N")
	}
	var b bytes.Buffer
	if err := f.Encode(&b); err != nil {
		e.t.Fatal(err)
	}
	s := b.String()
	s = strings.ReplaceAll(s, e.repo, "$REPO")
	s = strings.ReplaceAll(s, e.cfg.RLM.StorePath, "$STORE")
	return idPattern.ReplaceAllStringFunc(s, func(id string) string {
		if _, ok := ids[id]; !ok {
			ids[id] = "ID" + string(rune('A'+len(ids)))
		}
		return "$" + ids[id]
	})
}

func toolNames(b llmtest.ChatBody) string { return strings.Join(b.ToolNames(), " ") }

func lastMessage(msgs []llm.Message) llm.Message { return msgs[len(msgs)-1] }
