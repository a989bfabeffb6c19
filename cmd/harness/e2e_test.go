package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"harness/llmtest"
	"harness/rlm"
	"harness/sessions"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func args(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestDelegationDepth2 runs root → planner (depth 1) → editor (depth 2):
// the planner writes /store/note.txt and cannot see /library; the editor
// edits a.txt with apply_patch, writes b.txt from the note with Path, and
// reads /library; rlm is not offered at max_depth. The saved files are
// compared with testdata/delegation.txtar.
func TestDelegationDepth2(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", args(map[string]string{"task": "Leave a note in /store/note.txt, then have it applied.", "name": "planner"})),
		llmtest.Call("repl", args(map[string]string{"code": "Path('/store/note.txt').write_text('from depth 1\\n')\nprint(Path('/library/root.json').exists())"})),
		llmtest.Call("read_file", `{"path":"root.json","root":"library"}`),
		llmtest.Call("rlm", args(map[string]string{"task": "Change hello to hello world in a.txt and copy /store/note.txt to b.txt.", "name": "editor"})),
		llmtest.Call("apply_patch", args(map[string]string{"patch": "*** Begin Patch\n*** Update File: a.txt\n-hello\n+hello world\n*** End Patch\n"})),
		llmtest.Call("repl", args(map[string]string{"code": "Path('b.txt').write_text(Path('/store/note.txt').read_text())\nprint(Path('/library/root.json').read_text()[:13])"})),
		llmtest.Call("read_file", `{"path":"root.json","root":"library","end_line":1}`),
		llmtest.Text("Edited a.txt and wrote b.txt."),
		llmtest.Text("The editor says: edited a.txt and wrote b.txt."),
		llmtest.Reply{Content: "All done.", Reasoning: "The planner reported success."},
	)
	os.WriteFile(filepath.Join(e.repo, "a.txt"), []byte("hello\n"), 0o644)
	code, stdout, stderr := e.run(context.Background(), nil, "-p", "Fix the greeting.")
	if code != 0 || stdout != "All done.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(e.repo, "a.txt")); string(got) != "hello world\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(e.repo, "b.txt")); string(got) != "from depth 1\n" {
		t.Errorf("b.txt = %q (data passed through /store)", got)
	}
	if got := toolNames(e.chat(0)); got != "rlm FYI" {
		t.Errorf("root tools %s", got)
	}
	if got := toolNames(e.chat(1)); got != "repl read_file apply_patch grep list rlm" {
		t.Errorf("depth-1 tools %s", got)
	}
	if got := toolNames(e.chat(4)); got != "repl read_file apply_patch grep list" {
		t.Errorf("depth-2 tools %s (rlm must not be offered at max_depth 2)", got)
	}
	d1 := e.chat(3).Messages
	if got := d1[len(d1)-3].Content; strings.Contains(got, "True") {
		t.Errorf("/library exists at depth 1: %q", got)
	}
	if got := lastMessage(d1).Content; !strings.Contains(got, `"root" is "library"; it must be one of repository, store`) {
		t.Errorf("depth-1 read_file of the library: %q", got)
	}
	d2 := e.chat(7).Messages
	if got := d2[len(d2)-3].Content; !strings.Contains(got, `{"messages":[`) {
		t.Errorf("depth-2 REPL read of /library: %q", got)
	}
	if got := lastMessage(d2).Content; !strings.Contains(got, `{"messages":[`) {
		t.Errorf("depth-2 read_file of the library: %q", got)
	}
	checkGolden(t, e, "testdata/delegation.txtar")
}

// checkGolden compares the session's files, normalized, with a txtar file.
func checkGolden(t *testing.T, e *testEnv, golden string) {
	t.Helper()
	dir := e.sessionDir()
	ids := map[string]string{}
	got := &txtar.Archive{Comment: []byte("Saved conversation files, normalized by env_test.go's normalized.\n")}
	got.Files = append(got.Files, txtar.File{Name: "library/root.json", Data: []byte(e.normalized(filepath.Join(dir, "library", "root.json"), ids))})
	for _, sub := range []string{"library", "deep"} {
		files, _ := filepath.Glob(filepath.Join(dir, sub, "*.json"))
		var names []string
		for _, f := range files {
			if filepath.Base(f) != "root.json" {
				names = append(names, f)
			}
		}
		for _, f := range names {
			data := e.normalized(f, ids)
			name := sub + "/$" + ids[strings.TrimSuffix(filepath.Base(f), ".json")] + ".json"
			got.Files = append(got.Files, txtar.File{Name: name, Data: []byte(data)})
		}
	}
	if *update {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		if err := os.WriteFile(golden, txtar.Format(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := txtar.ParseFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if len(want.Files) != len(got.Files) {
		t.Fatalf("%d files, golden has %d", len(got.Files), len(want.Files))
	}
	for i := range got.Files {
		if got.Files[i].Name != want.Files[i].Name || string(got.Files[i].Data) != string(want.Files[i].Data) {
			t.Errorf("%s differs from %s in %s:\n%s", got.Files[i].Name, want.Files[i].Name, golden, got.Files[i].Data)
		}
	}
}

// TestStopEveryLevel cancels the run while the depth-2 agent streams; the
// --json output and the files show its partial text and [stopped by user]
// at every level, the depth-1 list call that never ran gets its tool_call
// and [not run: turn stopped], and the exit code is 130.
func TestStopEveryLevel(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"A","name":"one"}`),
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "rlm", Arguments: `{"task":"B","name":"two"}`}, {Name: "list", Arguments: `{}`}}},
		llmtest.Reply{Content: "half of it", Split: 5, Fail: llmtest.FailStall, After: 3},
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := ""
	code, stdout, _ := e.run(ctx, func(line string) {
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		if m["type"] == "text_delta" && m["depth"] == float64(2) {
			seen += m["text"].(string)
			if seen == "half of it" {
				cancel()
			}
		}
	}, "--json", "-p", "go")
	want := "half of it\n" + rlm.StoppedMarker
	if code != 130 {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	lines := jsonLines(t, stdout)
	results := ofType(lines, "tool_result")
	var rlmResults []string
	for _, r := range results {
		if r["name"] == "rlm" {
			rlmResults = append(rlmResults, r["content"].(string))
		}
	}
	if len(rlmResults) != 2 || rlmResults[0] != want || rlmResults[1] != want {
		t.Errorf("rlm results %q, want %q at both levels", rlmResults, want)
	}
	if r := results[len(results)-2]; r["name"] != "list" || r["content"] != rlm.NotRun {
		t.Errorf("the list call's result %v", r)
	}
	done := ofType(lines, "turn_done")
	if len(done) != 1 || done[0]["text"] != want || done[0]["status"] != "stopped" || done[0]["agent"] == "" {
		t.Errorf("turn_done %v", done)
	}
	if s := ofType(lines, "session"); len(s) != 1 || lines[0]["type"] != "session" {
		t.Errorf("session line %v", s)
	}
	root, err := sessions.Load(filepath.Join(e.sessionDir(), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	if last := lastMessage(root.Messages()); last.Content != want {
		t.Errorf("root's saved rlm result %q", last.Content)
	}
}

// TestBranchFailed: an endpoint error in a subagent becomes its rlm result
// and the root carries on.
func TestBranchFailed(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"A","name":"one"}`),
		llmtest.Error(400, `{"error":{"message":"prompt is too long"}}`),
		llmtest.Text("The helper failed; nothing changed."),
	)
	code, stdout, stderr := e.run(context.Background(), nil, "-p", "go")
	if code != 0 || stdout != "The helper failed; nothing changed.\n" {
		t.Fatalf("exit %d %q %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, `subagent "one" (depth 1)`) || !strings.Contains(stderr, "prompt is too long") {
		t.Errorf("stderr %q", stderr)
	}
	res := e.chat(2).Messages
	if got := lastMessage(res).Content; !strings.HasPrefix(got, "[branch failed: ") || !strings.Contains(got, "prompt is too long") {
		t.Errorf("rlm result %q", got)
	}
}

// TestRootFailureExit1: the root's endpoint failing exits 1 and saves the
// partial reply.
func TestRootFailureExit1(t *testing.T) {
	e := newEnv(t)
	e.srv.Respond(func(llmtest.Request) llmtest.Reply { return llmtest.Error(500, "boom") })
	code, stdout, stderr := e.run(context.Background(), nil, "-p", "go")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "500") || !strings.Contains(stderr, "gave up after 5 attempts") {
		t.Fatalf("exit %d %q %q", code, stdout, stderr)
	}
	if n := len(e.srv.Chats()); n != 5 {
		t.Errorf("%d requests, want 1 + max_retries (4)", n)
	}
	// A jittered wait that rounds to nothing says "retrying now".
	if n := strings.Count(stderr, "500 Internal Server Error: boom: retrying "); n != 4 {
		t.Errorf("%d retry lines:\n%s", n, stderr)
	}
}

// TestResumeSendsTheSameMessages: a second run with --resume sends, before
// its new user message, exactly the messages of the first run's last
// request (minus the FYI call the new turn replaces) and the first run's
// final answer, byte for byte, reasoning fields included; and the
// --system-prompt of each run is used but never saved.
func TestResumeSendsTheSameMessages(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"look","name":"looker"}`),
		llmtest.Text("looked"),
		llmtest.Reply{Content: "First answer.", Reasoning: "thinking…", ReasoningFields: []string{"reasoning_content", "reasoning"}},
	)
	code, _, stderr := e.run(context.Background(), nil, "--system-prompt", "first system", "-p", "one")
	if code != 0 {
		t.Fatal(code, stderr)
	}
	name := filepath.Base(e.sessionDir())
	first := e.srv.Chats()[2].MustChat(t).RawMessages()
	root, err := sessions.Load(filepath.Join(e.sessionDir(), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	final, _ := lastMessage(root.Messages()).MarshalJSON()

	e.srv.Push(llmtest.Text("Second answer."))
	code, stdout, stderr := e.run(context.Background(), nil, "--resume", name, "--system-prompt", "", "-p", "two")
	if code != 0 || stdout != "Second answer.\n" {
		t.Fatal(code, stdout, stderr)
	}
	second := e.srv.Chats()[3].MustChat(t).RawMessages()
	// first: system, user, FYI call, FYI result, rlm call, rlm result.
	// second: system, user, rlm call, rlm result, final, user, FYI call, FYI result.
	if len(first) != 6 || len(second) != 8 {
		t.Fatalf("%d and %d messages", len(first), len(second))
	}
	if string(first[0]) != `{"role":"system","content":"first system"}` || string(second[0]) != `{"role":"system","content":""}` {
		t.Errorf("system messages %s / %s", first[0], second[0])
	}
	same := [][2]int{{1, 1}, {4, 2}, {5, 3}}
	for _, p := range same {
		if string(first[p[0]]) != string(second[p[1]]) {
			t.Errorf("message %d changed on resume:\n%s\n%s", p[0], first[p[0]], second[p[1]])
		}
	}
	if string(second[4]) != string(final) || !strings.Contains(string(final), `"reasoning_content":"thinking…"`) {
		t.Errorf("final answer sent back as\n%s\nsaved as\n%s", second[4], final)
	}
	if !strings.Contains(string(second[6]), `"name":"FYI"`) {
		t.Errorf("new turn does not start with FYI: %s", second[6])
	}
	data, _ := os.ReadFile(filepath.Join(e.sessionDir(), "library", "root.json"))
	if strings.Contains(string(data), "first system") || strings.Contains(string(data), `"system"`) {
		t.Error("the system prompt was saved")
	}
}

// TestFYIRemovedFromFile: each turn's FYI replaces the earlier ones in the
// saved file too.
func TestFYIRemovedFromFile(t *testing.T) {
	e := newEnv(t, llmtest.Text("one"), llmtest.Text("two"))
	e.run(context.Background(), nil, "-p", "first")
	name := filepath.Base(e.sessionDir())
	e.run(context.Background(), nil, "--resume", name, "-p", "second")
	root, err := sessions.Load(filepath.Join(e.sessionDir(), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fyi int
	for _, m := range root.Messages() {
		for _, c := range m.ToolCalls {
			if c.Name == "FYI" {
				fyi++
			}
		}
	}
	if fyi != 1 || len(root.Messages()) != 6 {
		t.Errorf("%d FYI calls in %d messages", fyi, len(root.Messages()))
	}
}

// TestPromptFromStdinAndSecrets: -p - reads the prompt from stdin; the API
// key never reaches the session file, the requests' messages, or the
// environment of commands.
func TestPromptFromStdinAndSecrets(t *testing.T) {
	e := newEnv(t, llmtest.Text("noted"))
	t.Setenv("HARNESS_TEST_KEY", "sk-live-4242")
	p := filepath.Join(e.home, "config.toml")
	data, _ := os.ReadFile(p)
	data = []byte(strings.Replace(string(data), "[endpoint]\n", "[endpoint]\napi_key_env = \"HARNESS_TEST_KEY\"\n", 1))
	os.WriteFile(p, data, 0o600)
	e.cfg = e.load()
	f, _ := parseAgentFlags([]string{"-p", "-"})
	var stdout, stderr strings.Builder
	code := runAgent(context.Background(), e.cfg, f, e.repo, strings.NewReader("remember sk-live-4242 please\n"), &stdout, &stderr)
	if code != 0 || stdout.String() != "noted\n" {
		t.Fatalf("exit %d %q %s", code, stdout.String(), stderr.String())
	}
	body := e.chat(0)
	if got := body.Messages[0].Content; got != "remember [REDACTED] please\n" {
		t.Errorf("user message sent as %q", got)
	}
	file, _ := os.ReadFile(filepath.Join(e.sessionDir(), "library", "root.json"))
	if strings.Contains(string(file), "sk-live") {
		t.Errorf("the key reached the session file:\n%s", file)
	}
	for _, kv := range environ(e.cfg)() {
		if strings.Contains(kv, "sk-live") {
			t.Errorf("command environment holds the key: %s", kv)
		}
	}
}

// TestResumeErrors: an unknown session is a usage error (2); a session file
// with an unknown field fails with a message naming the file and the field (1).
func TestResumeErrors(t *testing.T) {
	e := newEnv(t, llmtest.Text("one"))
	if code, _, stderr := e.run(context.Background(), nil, "--resume", "nope", "-p", "x"); code != 2 || !strings.Contains(stderr, `no session named "nope"`) {
		t.Errorf("unknown session: exit %d, %s", code, stderr)
	}
	e.run(context.Background(), nil, "-p", "first")
	path := filepath.Join(e.sessionDir(), "library", "root.json")
	data, _ := os.ReadFile(path)
	data = []byte(strings.Replace(string(data), `"depth":0`, `"depth":0,"model":"x"`, 1))
	os.WriteFile(path, data, 0o600)
	code, _, stderr := e.run(context.Background(), nil, "--resume", filepath.Base(e.sessionDir()), "-p", "x")
	if code != 1 || !strings.Contains(stderr, path) || !strings.Contains(stderr, `"model"`) {
		t.Errorf("bad file: exit %d, %s", code, stderr)
	}
}

func TestParseAgentFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // error substring, "" for success
	}{
		{[]string{"-p", "hi", "--json"}, ""},
		{[]string{"-p", "hi", "-json", "-resume", "s", "-system-prompt", "x"}, ""},
		{[]string{"-p=hi", "--resume", "s1", "--system-prompt", ""}, ""},
		{[]string{"--resume"}, ""},
		{[]string{"--resume", "-p", "x"}, "needs a session NAME"},
		{[]string{"--json"}, "--json needs -p"},
		{[]string{"-p"}, "-p needs a value"},
		{[]string{"--system-prompt"}, "needs a value"},
		{[]string{"--frobnicate"}, "unknown argument"},
	} {
		_, err := parseAgentFlags(tc.args)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
	f, _ := parseAgentFlags([]string{"--resume", "s1", "--system-prompt", "", "-p", "-"})
	if f.resume != "s1" || f.system == nil || *f.system != "" || f.prompt != "-" {
		t.Errorf("%+v", f)
	}
}

func TestListSessions(t *testing.T) {
	e := newEnv(t, llmtest.Text("a"), llmtest.Text("b"))
	e.run(context.Background(), nil, "-p", "first prompt")
	code, stdout, _ := e.run(context.Background(), nil, "--resume")
	if code != 0 || !strings.Contains(stdout, filepath.Base(e.sessionDir())) || !strings.Contains(stdout, "first prompt") {
		t.Errorf("exit %d, list %q", code, stdout)
	}
	if code, _, stderr := e.run(context.Background(), nil, "-p", "  "); code != 2 || !strings.Contains(stderr, "empty") {
		t.Errorf("empty prompt: exit %d %s", code, stderr)
	}
}

// TestHeadlessApprovalDenied: a command that needs approval is refused with
// a message the model can act on, shown as an approval line; REPL prints
// appear as tool_output lines while the call runs.
func TestHeadlessApprovalDenied(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"list files","name":"lister"}`),
		llmtest.Call("repl", args(map[string]string{"code": "print('about to run')\nr = run(['ls'])"})),
		llmtest.Call("store_summary", `{}`),
		llmtest.Text("could not run ls"),
		llmtest.Text("done"),
	)
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	ap := ofType(lines, "approval")
	if len(ap) != 1 || ap[0]["decision"] != "denied" || ap[0]["agent"] != "lister" || ap[0]["depth"] != float64(1) {
		t.Fatalf("approval lines %v", ap)
	}
	if op, ok := ap[0]["operation"].(map[string]any); !ok || len(op) == 0 {
		t.Errorf("operation %v", ap[0]["operation"])
	}
	var printed string
	for _, o := range ofType(lines, "tool_output") {
		printed += o["text"].(string)
	}
	if !strings.Contains(printed, "about to run") {
		t.Errorf("tool_output %q", printed)
	}
	d1 := e.chat(3).Messages
	res := d1[len(d1)-3].Content
	if !strings.Contains(res, "headless") || !strings.Contains(res, "[commands.allow]") {
		t.Errorf("the model got %q", res)
	}
	if got := lastMessage(d1).Content; !strings.HasPrefix(got, "Unknown tool: store_summary\nstore_summary is a REPL function, not a tool: call it in code sent to the repl tool. Signature: store_summary()") {
		t.Errorf("unknown tool naming a REPL function: %q", got)
	}
}

// TestSecondSignalExits: the first signal cancels the turn; a second one,
// while the turn is still winding down, exits at once with its own code.
func TestSecondSignalExits(t *testing.T) {
	for _, tc := range []struct {
		first, second os.Signal
		code, second2 int // the run's code after the first; exit code at the second
	}{
		{os.Interrupt, os.Interrupt, 130, 130},
		{syscall.SIGTERM, syscall.SIGTERM, 143, 143},
		{syscall.SIGHUP, os.Interrupt, 129, 130},
	} {
		t.Run(signalName(tc.first), func(t *testing.T) {
			ch := make(chan os.Signal, 2)
			exited := make(chan int, 1)
			var stderr strings.Builder
			ctx, sig, stop := onSignals(context.Background(), ch, &stderr, func(code int) { exited <- code })
			defer stop()
			ch <- tc.first
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("the first signal did not cancel the turn")
			}
			if got := sig.code(130); got != tc.code {
				t.Errorf("run code %d, want %d", got, tc.code)
			}
			ch <- tc.second
			select {
			case code := <-exited:
				if code != tc.second2 {
					t.Errorf("exit %d", code)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the second signal did not exit")
			}
		})
	}
}
