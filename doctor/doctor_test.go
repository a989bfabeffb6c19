// Tests of every doctor check against the fake endpoint.

package doctor_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/config"
	"harness/doctor"
	"harness/llmtest"
	"harness/sandbox"
)

const keyVar = "HARNESS_DOCTOR_TEST_KEY"
const secret = "sk-doctor-secret-4242"

// setup writes a starter home pointing at srv (keyed when key is set) and
// returns home and a launch directory.
func setup(t *testing.T, srv *llmtest.Server, key bool) (home, launch string) {
	t.Helper()
	home, launch = t.TempDir(), t.TempDir()
	opts := config.SetupOptions{BaseURL: srv.URL, Model: srv.Model}
	if key {
		opts.APIKeyEnv = keyVar
		if err := os.WriteFile(filepath.Join(home, ".env"), []byte(keyVar+"="+secret+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := config.Setup(home, opts); err != nil {
		t.Fatal(err)
	}
	replib := filepath.Join(home, "replib")
	os.MkdirAll(replib, 0o755)
	os.WriteFile(filepath.Join(replib, "a.star"), []byte("def f(x):\n    \"\"\"doc\"\"\"\n    while x > 0:\n        x -= 1\n    return x\n"), 0o644)
	return home, launch
}

func run(t *testing.T, home, launch string, full bool) (string, bool) {
	t.Helper()
	var out bytes.Buffer
	ok := doctor.Run(context.Background(), home, launch, full, &out)
	if strings.Contains(out.String(), secret) {
		t.Errorf("doctor printed the API key:\n%s", out.String())
	}
	return out.String(), ok
}

// lines returns the status and check of each output line, e.g. "ok config".
func lines(out string) []string {
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 {
			got = append(got, f[0]+" "+f[1])
		}
	}
	return got
}

func TestAllGood(t *testing.T) {
	os.Unsetenv(keyVar)
	srv := llmtest.New(t, llmtest.Reply{Reasoning: "call it", ToolCalls: []llmtest.ToolCall{{Name: "echo", Arguments: `{"text":"ok"}`}}, Split: 4})
	srv.SetWindow(12288, llmtest.AdvertProps, llmtest.RefuseLlama)
	home, launch := setup(t, srv, true)
	out, ok := run(t, home, launch, true)
	if !ok {
		t.Fatalf("doctor failed:\n%s", out)
	}
	want := []string{"ok config", "ok .env", "ok .env", "ok store", "ok endpoint", "ok tokenize", "ok window", "ok completion", "ok rules", "ok prompts", "ok replib", sandboxStatus() + " sandbox"}
	if got := lines(out); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %v, want %v\n%s", got, want, out)
	}
	for _, w := range []string{"llama.cpp dialect", "12288 tokens (from llama.cpp's /props", `echo({"text":"ok"})`, "1 of 1 helper files", "is set (from " + filepath.Join(home, ".env")} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	chat := srv.Chats()[0]
	if chat.Header.Get("Authorization") != "Bearer "+secret {
		t.Errorf("the completion did not send the key")
	}
	if names := chat.MustChat(t).ToolNames(); len(names) != 1 || names[0] != "echo" {
		t.Errorf("tools = %v", names)
	}
}

func TestFailures(t *testing.T) {
	os.Unsetenv(keyVar)
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string)
		full    bool
		want    []string // substrings of FAIL/warn lines
	}{
		{"no config", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			return t.TempDir(), launch
		}, false, []string{"FAIL  config", "does not exist; fix: run `harness setup`", "skip  endpoint"}},
		{"bad config", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			p := filepath.Join(home, "config.toml")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(data, []byte(`permission = "read-only"`), []byte(`permission = "rw"`), 1), 0o600)
			return home, launch
		}, false, []string{"FAIL  config", "config.toml:", "repl.permission"}},
		{"key missing", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			os.Remove(filepath.Join(home, ".env"))
			return home, launch
		}, false, []string{"FAIL  .env", keyVar + ", which is unset or empty; fix: add " + keyVar + "=<your key>"}},
		{"env readable", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			os.Chmod(filepath.Join(home, ".env"), 0o644)
			return home, launch
		}, false, []string{"warn  .env", "chmod 600"}},
		{"store inside launch dir", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			return home, filepath.Dir(home)
		}, false, []string{"FAIL  store"}},
		{"model not served", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			srv.SetModels("other-a", "other-b")
			return home, launch
		}, false, []string{"FAIL  endpoint", `does not list model "llmtest-model" (served: other-a, other-b)`, "fix: set model", "skip  tokenize"}},
		{"models error echoing the key", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			r := llmtest.Error(401, `{"error":{"message":"Incorrect API key provided: `+secret+`"}}`)
			srv.FailModels(&r)
			return home, launch
		}, false, []string{"FAIL  endpoint", "401 Unauthorized", "[REDACTED]"}},
		{"base_url redirects", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			// The common http→https setup: the old address answers 301.
			old := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, srv.URL+strings.TrimPrefix(r.URL.Path, "/v1"), http.StatusMovedPermanently)
			}))
			t.Cleanup(old.Close)
			p := filepath.Join(home, "config.toml")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(data, []byte(srv.URL), []byte(old.URL+"/v1"), 1), 0o600)
			return home, launch
		}, false, []string{"FAIL  endpoint", "was redirected (301 Moved Permanently) to http://", "/v1/models; harness does not follow a redirect to another origin", "fix: set [endpoint] base_url = \"http://"}},
		{"tokenize missing", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			srv.SetTokenize(llmtest.TokenizeMissing)
			return home, launch
		}, false, []string{"ok    tokenize", "estimates"}},
		{"no tool call", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			srv.Push(llmtest.Text("I cannot call tools."))
			return home, launch
		}, true, []string{"FAIL  completion", "without calling the echo tool", "--jinja"}},
		{"completion error", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			srv.Push(llmtest.Error(500, "model crashed"))
			return home, launch
		}, true, []string{"FAIL  completion", "500 Internal Server Error: model crashed"}},
		{"bad replib file", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			os.WriteFile(filepath.Join(home, "replib", "b.star"), []byte("def g(:\n  pass\n"), 0o644)
			return home, launch
		}, false, []string{"FAIL  replib", "b.star:1:8: got ':', want ')'", "fix: correct the file", "1 of 2 helper files"}},
		{"no replib", func(t *testing.T, srv *llmtest.Server, home, launch string) (string, string) {
			os.RemoveAll(filepath.Join(home, "replib"))
			return home, launch
		}, false, []string{"warn  replib", "install.sh"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t)
			home, launch := setup(t, srv, true)
			home, launch = tc.prepare(t, srv, home, launch)
			out, _ := run(t, home, launch, tc.full)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// sandboxStatus is the sandbox line's status on this kernel.
func sandboxStatus() string {
	if sandbox.ABI() == 0 {
		return "warn"
	}
	return "ok"
}

func TestSandboxAndWorker(t *testing.T) {
	os.Unsetenv(keyVar)
	srv := llmtest.New(t)
	home, launch := setup(t, srv, false)
	var asked int
	probe := func(h string, mb int) (string, error) {
		if h != home || mb != 2048 {
			t.Errorf("probe(%q, %d)", h, mb)
		}
		asked++
		return "a REPL worker started and answered in 3ms", nil
	}
	var out bytes.Buffer
	if !doctor.Run(context.Background(), home, launch, false, &out, probe) || asked != 1 ||
		!strings.Contains(out.String(), "ok    worker      a REPL worker started and answered in 3ms") {
		t.Errorf("worker check (asked %d):\n%s", asked, out.String())
	}
	p := filepath.Join(home, "config.toml")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(data, []byte("[rlm]\n"), []byte("[rlm]\nparallel = 4\n"), 1), 0o600)
	out.Reset()
	if !doctor.Run(context.Background(), home, launch, false, &out, probe) ||
		!strings.Contains(out.String(), "answered in 3ms; [rlm] parallel = 4: up to 4 subagents run at once, each with its own worker of up to 2048 MB") {
		t.Errorf("worker check with [rlm] parallel:\n%s", out.String())
	}
	os.WriteFile(p, data, 0o600)
	out.Reset()
	failing := func(string, int) (string, error) { return "", errors.New("a REPL worker ended before its handshake") }
	if doctor.Run(context.Background(), home, launch, false, &out, failing) ||
		!strings.Contains(out.String(), "FAIL  worker      a REPL worker ended before its handshake; fix: reinstall harness") {
		t.Errorf("failing worker:\n%s", out.String())
	}

	os.WriteFile(p, bytes.Replace(data, []byte("[commands]\n"), []byte("[commands]\nsandbox = \"workspace\"\nnetwork = false\n"), 1), 0o600)
	for _, tt := range []struct {
		abi  int
		ok   bool
		want string
	}{
		{0, false, "FAIL  sandbox     [commands] sandbox = \"workspace\" with network = false needs Landlock ABI 4"},
		{0, false, "warn  sandbox     no Landlock"},
		{7, true, "ok    sandbox     run() commands run confined: they write only in the repository, the store, the temp folder and 0 writable directories"},
	} {
		restore := sandbox.OverrideABI(tt.abi)
		got, ok := run(t, home, launch, false)
		restore()
		if ok != tt.ok || !strings.Contains(got, tt.want) {
			t.Errorf("ABI %d: ok %v, want %v and %q:\n%s", tt.abi, ok, tt.ok, tt.want, got)
		}
	}
}

func TestExitStatus(t *testing.T) {
	os.Unsetenv(keyVar)
	srv := llmtest.New(t)
	home, launch := setup(t, srv, false)
	if out, ok := run(t, home, launch, false); !ok || strings.Contains(out, "FAIL") {
		t.Errorf("ok = %v:\n%s", ok, out)
	}
	srv.SetModels("x")
	if out, ok := run(t, home, launch, false); ok {
		t.Errorf("a failing check returned ok:\n%s", out)
	}
}

func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	home, launch := t.TempDir(), t.TempDir()
	if _, err := config.Setup(home, config.SetupOptions{BaseURL: "http://" + addr + "/v1", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	out, ok := run(t, home, launch, true)
	if ok {
		t.Errorf("unreachable endpoint passed")
	}
	for _, w := range []string{"FAIL  endpoint", "http://" + addr + "/v1/models", "connection refused", "skip  completion"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestTokenizeLine: the tokenize line names the URL once and says why it
// is unavailable, without advice meant for the chat endpoint.
func TestTokenizeLine(t *testing.T) {
	os.Unsetenv(keyVar)
	for _, tc := range []struct {
		mode llmtest.TokenizeMode
		why  string
	}{
		{llmtest.TokenizeMissing, "unavailable (answered 404 Not Found: 404 page not found); context counts use estimates"},
		{llmtest.TokenizeFail, "unavailable (answered 500 Internal Server Error: server_error: llmtest: tokenize failed); context counts use estimates"},
	} {
		srv := llmtest.New(t)
		srv.SetTokenize(tc.mode)
		home, launch := setup(t, srv, true)
		out, _ := run(t, home, launch, false)
		want := "ok    tokenize    " + srv.Root + "/tokenize " + tc.why
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestLlamaCppModelName: llama.cpp lists its one model by path and answers
// requests for any model name with it, so another name is a warning with
// the fix, not a failure.
func TestLlamaCppModelName(t *testing.T) {
	os.Unsetenv(keyVar)
	srv := llmtest.New(t)
	home, launch := setup(t, srv, true)
	list := llmtest.Reply{ContentType: "application/json", Raw: `{"models":[{"name":"/m/qwen3-8b.gguf","model":"/m/qwen3-8b.gguf","type":"model"}],"object":"list","data":[{"id":"/m/qwen3-8b.gguf","object":"model","created":1,"owned_by":"llamacpp","meta":{"n_ctx_train":40960}}]}`}
	srv.FailModels(&list)
	out, ok := run(t, home, launch, false)
	if !ok {
		t.Errorf("a llama.cpp model name mismatch failed the doctor:\n%s", out)
	}
	want := `warn  endpoint    llama.cpp serves only "/m/qwen3-8b.gguf" and answers requests for "llmtest-model" with it`
	if !strings.Contains(out, want) || !strings.Contains(out, "ok    tokenize") {
		t.Errorf("output lacks %q and the tokenize check:\n%s", want, out)
	}
	// Any other server with one model: the name must match.
	list.Raw = strings.ReplaceAll(list.Raw, "llamacpp", "vllm")
	srv.FailModels(&list)
	if out, ok := run(t, home, launch, false); ok || !strings.Contains(out, "FAIL  endpoint") {
		t.Errorf("a mismatch on another server passed:\n%s", out)
	}
}
