// End to end against a real server process: scripts/faultserver, built
// from this repository, serves each fault to its own harness -p --json
// process, all at once, in real time (a short idle_timeout_s), and refuses
// what a strict chat template refuses.

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
)

// faultServer is a running scripts/faultserver -strict.
type faultServer struct {
	t    *testing.T
	root string // http://127.0.0.1:PORT
}

// startFaultServer builds scripts/faultserver and starts it; the test is
// skipped when the go command is not available.
func startFaultServer(t *testing.T) *faultServer {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build scripts/faultserver")
	}
	bin := filepath.Join(t.TempDir(), "faultserver")
	build := exec.Command(goCmd, "build", "-o", bin, "harness/scripts/faultserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build scripts/faultserver: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-strict")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("faultserver's log:\n%s", log.String())
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "faultserver: listening on ")
	if err != nil || !ok {
		t.Fatalf("faultserver said %q (%v)", line, err)
	}
	return &faultServer{t: t, root: strings.TrimSuffix(url, "/v1")}
}

// push queues faults for queue q.
func (s *faultServer) push(q string, faults ...string) {
	s.t.Helper()
	resp, err := http.Post(s.root+"/q/"+q+"/faults", "text/plain", strings.NewReader(strings.Join(faults, "\n")))
	if err != nil {
		s.t.Fatal(err)
	}
	resp.Body.Close()
}

// faultRequest is one chat request the server recorded.
type faultRequest struct {
	Fault  string `json:"fault"`
	Roles  string `json:"roles"`
	Status int    `json:"status"`
}

func (s *faultServer) requests(q string) []faultRequest {
	s.t.Helper()
	resp, err := http.Get(s.root + "/q/" + q + "/requests")
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []faultRequest
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		s.t.Fatal(err)
	}
	return out
}

// faultKey is the API key the fault environments send (from .env); the
// 401 fault echoes it.
const faultKey = "sk-faultserver-test-0123456789"

// faultEnv is a harness home whose endpoint is queue q of s, with
// max_retries 2 and idle_timeout_s 0.75.
func faultEnv(t *testing.T, s *faultServer, q string) *testEnv {
	t.Helper()
	e := newEnv(t)
	e.setConfig(`base_url = "`+e.srv.URL+`"`, fmt.Sprintf("base_url = %q\nmax_retries = 2\nidle_timeout_s = 0.75\napi_key_env = \"HARNESS_FAULT_KEY\"", s.root+"/q/"+q+"/v1"))
	if err := os.WriteFile(filepath.Join(e.home, ".env"), []byte("HARNESS_FAULT_KEY="+faultKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

// faultCase is one fault replayed headless, and what harness must do.
type faultCase struct {
	name     string
	faults   []string
	code     int
	requests int
	retries  int
	want     []string // in stdout or stderr
	text     string   // turn_done's text, when the turn succeeded
}

var faultCases = []faultCase{
	{name: "429 Retry-After seconds", faults: []string{"429-seconds"}, requests: 2, retries: 1,
		want: []string{`"delay_s":1.0,"reason":"429 Too Many Requests: rate_limit_exceeded: Rate limit reached for requests"`}},
	{name: "429 Retry-After date", faults: []string{"429-date"}, requests: 2, retries: 1, want: []string{`"reason":"429 Too Many Requests: requests: Rate limit reached"`}},
	{name: "429 retry-after-ms", faults: []string{"429-ms"}, requests: 2, retries: 1, want: []string{`"delay_s":0.7,`}},
	{name: "429 asking more than 120 s", faults: []string{"429-long"}, code: 1, requests: 1,
		want: []string{"the server asks to wait 5 min, until ", "longer than harness waits on its own (2 min): try again then"}},
	{name: "429 out of quota", faults: []string{"429-quota"}, code: 1, requests: 1, want: []string{"out of quota or credit"}},
	{name: "500 JSON", faults: []string{"500-json"}, requests: 2, retries: 1, want: []string{`"reason":"500 Internal Server Error: server_error: The server had an error`}},
	{name: "503 HTML", faults: []string{"503-html"}, requests: 2, retries: 1, want: []string{`"reason":"503 Service Unavailable: 503 Service Temporarily Unavailable"`}},
	{name: "502 HTML", faults: []string{"502-html"}, requests: 2, retries: 1, want: []string{`"reason":"502 Bad Gateway"`}},
	{name: "529 overloaded", faults: []string{"529"}, requests: 2, retries: 1, want: []string{`"reason":"529 Site Overloaded: overloaded_error: Overloaded"`}},
	{name: "401 echoing the key", faults: []string{"401-echo"}, code: 1, requests: 1,
		want: []string{"Incorrect API key provided: [REDACTED]", "HARNESS_FAULT_KEY ([endpoint] api_key_env; read from ", "harness doctor"}},
	{name: "404 unknown model", faults: []string{"404-model"}, code: 1, requests: 1, want: []string{`The model 'llmtest-model' does not exist`, `[endpoint] model = \"llmtest-model\"`, "`harness doctor` lists the models"}},
	{name: "context OpenAI", faults: []string{"ctx-openai"}, code: 1, requests: 1, want: []string{"no longer fits the model's context", "context_length_exceeded"}},
	{name: "context vLLM", faults: []string{"ctx-vllm"}, code: 1, requests: 1, want: []string{"no longer fits the model's context", "maximum context length is 4096"}},
	{name: "context llama.cpp", faults: []string{"ctx-llama"}, code: 1, requests: 1, want: []string{"no longer fits the model's context", "exceeds the available context size"}},
	{name: "context prompt is too long", faults: []string{"ctx-anthropic"}, code: 1, requests: 1, want: []string{"no longer fits the model's context", "prompt is too long"}},
	{name: "context 413", faults: []string{"413"}, code: 1, requests: 1, want: []string{"no longer fits the model's context", "413 Request Entity Too Large", "start a new session"}},
	{name: "stall before headers", faults: []string{"stall-headers"}, requests: 2, retries: 1, want: []string{`"reason":"no data for 0.75 s before the response headers"`}},
	{name: "stall before the first chunk", faults: []string{"stall-first"}, requests: 2, retries: 1, want: []string{`"reason":"no data for 0.75 s before the first chunk"`}},
	{name: "stall mid-stream", faults: []string{"stall-mid lost words"}, requests: 2, retries: 1, want: []string{`"reason":"no data for 0.75 s after 2 chunks"`}},
	{name: "keep-alive comments are not progress", faults: []string{"keepalive 3 after comments"}, requests: 2, retries: 1,
		want: []string{`"reason":"no progress for 0.75 s before the first chunk, only keep-alives or empty chunks"`}},
	{name: "cut", faults: []string{"cut lost words"}, requests: 2, retries: 1, want: []string{`"reason":"the stream broke off"`}},
	{name: "malformed chunk", faults: []string{"malformed lost words"}, requests: 2, retries: 1, want: []string{`"reason":"the endpoint sent a malformed chunk"`}},
	{name: "error event first", faults: []string{"error-event"}, requests: 2, retries: 1, want: []string{`"reason":"the endpoint reported an error (overloaded_error): The server is overloaded, please try again later"`}},
	{name: "connection dropped", faults: []string{"drop"}, requests: 2, retries: 1, want: []string{`"reason":"the server closed the connection without answering"`}},
	{name: "finish_reason length", faults: []string{"length a cut reply"}, requests: 1, text: "a cut reply",
		want: []string{`{"type":"notice"`, "The reply was cut at the server's token limit: set [endpoint.parameters] max_tokens"}},
	{name: "stalls exhaust the retries", faults: []string{"stall-mid lost words", "stall-mid lost words", "stall-mid lost words"}, code: 1, requests: 3, retries: 2,
		want: []string{"the endpoint sent nothing for 0.75 s after 2 chunks", "(gave up after 3 attempts)"}},
}

// TestFaultServerHeadless replays each fault of faultCases against
// scripts/faultserver: the exit code, the requests made, the retry lines,
// the messages; nothing of a failed attempt saved, no key printed or
// saved, and every request one a strict chat template accepts.
func TestFaultServerHeadless(t *testing.T) {
	srv := startFaultServer(t)
	type run struct {
		e              *testEnv
		cmd            *exec.Cmd
		stdout, stderr bytes.Buffer
	}
	runs := make([]*run, len(faultCases))
	for i, tc := range faultCases {
		q := fmt.Sprintf("case%d", i)
		r := &run{e: faultEnv(t, srv, q)}
		srv.push(q, tc.faults...)
		r.cmd = r.e.command("--json", "-p", "go")
		r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
		if err := r.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		runs[i] = r
	}
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Go(func() {
			timer := time.AfterFunc(60*time.Second, func() { r.cmd.Process.Kill() })
			r.cmd.Wait()
			timer.Stop()
		})
	}
	wg.Wait()
	for i, tc := range faultCases {
		r := runs[i]
		t.Run(tc.name, func(t *testing.T) {
			out := r.stdout.String() + r.stderr.String()
			if code := r.cmd.ProcessState.ExitCode(); code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			reqs := srv.requests(fmt.Sprintf("case%d", i))
			if len(reqs) != tc.requests {
				t.Errorf("%d requests, want %d: %+v", len(reqs), tc.requests, reqs)
			}
			for _, q := range reqs {
				if q.Status == 400 && q.Fault == "" {
					t.Errorf("a strict template refused the request (%s)", q.Roles)
				}
			}
			lines := jsonLines(t, r.stdout.String())
			if n := len(ofType(lines, "retry")); n != tc.retries {
				t.Errorf("%d retry lines, want %d", n, tc.retries)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			done := ofType(lines, "turn_done")
			if len(done) != 1 {
				t.Fatalf("%d turn_done lines\n%s", len(done), out)
			}
			want := tc.text
			if want == "" {
				want = fmt.Sprintf("ok %d", tc.requests)
			}
			if tc.code == 0 && done[0]["text"] != want {
				t.Errorf("turn_done text %q, want %q", done[0]["text"], want)
			}
			if strings.Contains(out, faultKey) {
				t.Errorf("the key was printed:\n%s", out)
			}
			checkSavedAfterFault(t, r.e, tc)
			if t.Failed() {
				t.Logf("output:\n%s", out)
			}
		})
	}
}

// checkSavedAfterFault checks the session: no key, nothing of a failed
// attempt but the last one's partial text when every attempt failed.
func checkSavedAfterFault(t *testing.T, e *testEnv, tc faultCase) {
	t.Helper()
	dir := e.sessionDir()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); bytes.Contains(data, []byte(faultKey)) {
			t.Errorf("%s holds the key", f)
		}
	}
	root, err := sessions.Load(filepath.Join(dir, "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	lost := 0
	for _, m := range root.Messages() {
		if strings.Contains(m.Content, "lost") {
			lost++
		}
	}
	switch {
	case tc.code == 0 && lost > 0:
		t.Errorf("a failed attempt's partial text was saved: %+v", root.Messages())
	case tc.code != 0 && lost > 1:
		t.Errorf("%d failed attempts' partial text saved, want the last one's at most", lost)
	}
}

// TestFaultServerStrictTemplate: after a turn that failed before any reply
// (a 404 and a context error that names no window, so nothing can be
// learnt or compacted, and the refused turn is left out of later
// requests), the next turns, resumed in new processes, send requests a
// strict chat template accepts (one merged user message), while the file
// keeps every user message.
func TestFaultServerStrictTemplate(t *testing.T) {
	srv := startFaultServer(t)
	e := faultEnv(t, srv, "strict")
	srv.push("strict", "404-model", "413")
	prompts := []string{"first", "second", "third"}
	for i, p := range prompts {
		args := []string{"-p", p}
		if i > 0 {
			args = append([]string{"--resume", filepath.Base(e.sessionDir())}, args...)
		}
		cmd := e.command(args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Stdout = io.Discard
		err := cmd.Run()
		if want := map[bool]int{true: 0, false: 1}[i == 2]; cmd.ProcessState.ExitCode() != want {
			t.Fatalf("turn %d: exit %d (%v), want %d\n%s", i+1, cmd.ProcessState.ExitCode(), err, want, stderr.String())
		}
	}
	reqs := srv.requests("strict")
	if len(reqs) != 3 {
		t.Fatalf("%d requests: %+v", len(reqs), reqs)
	}
	for i, r := range reqs {
		if r.Roles != "user assistant tool" {
			t.Errorf("request %d sent %s", i+1, r.Roles)
		}
	}
	if last := reqs[2]; last.Status != 200 {
		t.Errorf("the strict server refused the last request: %+v", last)
	}
	root, err := sessions.Load(filepath.Join(e.sessionDir(), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := llmtest.Roles(root.Messages()); got != "user user user assistant:FYI tool assistant" {
		t.Errorf("saved %s", got)
	}
}

// TestTurnCounterGivesUpOnAStalledTokenizer: the UI's token counts ask the
// chat endpoint's /tokenize; a server that stops answering there is given
// up after [endpoint] idle_timeout_s (the turns estimated), instead of
// freezing the context overlay's counts for the rest of the run.
func TestTurnCounterGivesUpOnAStalledTokenizer(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	e := newEnv(t)
	e.cfg.Endpoint.BaseURL, e.cfg.Endpoint.IdleTimeout = srv.URL+"/v1", 100*time.Millisecond
	turns := [][]llm.Message{{{Role: "user", Content: "hi"}, {Role: "assistant", Content: "hello"}}}
	done := make(chan []llm.TurnCount, 1)
	go func() { done <- turnCounter(e.cfg)(context.Background(), turns, nil) }()
	select {
	case got := <-done:
		if len(got) != 1 || !got[0].Estimated {
			t.Errorf("counts %+v, want one estimate", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the count never ended against a stalled /tokenize")
	}
}
