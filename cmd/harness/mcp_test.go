// The whole program with MCP servers: headless turns against the reference
// server @modelcontextprotocol/server-everything (skipped, saying why,
// without node or the package), and the server's life with harness's.

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/llmtest"
	"harness/mcpclient/mcptest"
	"harness/proctest"
)

// withMCP appends text (one or more [mcp.servers] tables) to e's config.
func (e *testEnv) withMCP(text string) {
	e.t.Helper()
	p := filepath.Join(e.home, "config.toml")
	data, err := os.ReadFile(p)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, append(data, text...), 0o600); err != nil {
		e.t.Fatal(err)
	}
	e.cfg = e.load()
}

// everythingTable is a [mcp.servers.everything] table running the
// reference server.
func everythingTable(t *testing.T, extra string) string {
	node, args := mcptest.Everything(t)
	return fmt.Sprintf("\n[mcp.servers.everything]\ncommand = %q\nargs = [%q, %q]\n%s", node, args[0], args[1], extra)
}

func TestMCPEverythingHeadless(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", args(map[string]string{"task": "Use the everything server.", "name": "mcpuser"})),
		llmtest.Call("mcp__everything__echo", `{"message":"hello"}`),
		llmtest.Call("repl", args(map[string]string{"code": "s = mcp('everything', 'get-sum', a=2, b=40)\nprint(s)\n" +
			"env = json.decode(mcp('everything', 'get-env'))\nprint(env.get('FROM_DOTENV'), env.get('OTHER_DOTENV'), env.get('HARNESS_E2E_KEY'), env.get('FILTERED'))"})),
		llmtest.Call("mcp__everything__trigger-long-running-operation", `{"duration":0.3,"steps":3}`),
		llmtest.Call("mcp__everything__get-structured-content", `{"location":"Chicago"}`),
		llmtest.Call("repl", args(map[string]string{"code": "print(try_call(mcp, 'everything', 'get-tiny-image').error)"})),
		llmtest.Text("The sum is 42."),
		llmtest.Text("All done: 42."),
	)
	t.Setenv("HARNESS_E2E_KEY", "sk-e2e-secret-77")
	t.Setenv("FILTERED", "should-not-pass")
	os.WriteFile(filepath.Join(e.home, ".env"), []byte("DOTENV_ONLY=from-dotenv\nOTHER_DOTENV=hidden\n"), 0o600)
	p := filepath.Join(e.home, "config.toml")
	data, _ := os.ReadFile(p)
	data = []byte(strings.Replace(string(data), "[endpoint]\n", "[endpoint]\napi_key_env = \"HARNESS_E2E_KEY\"\n", 1))
	data = []byte(strings.Replace(string(data), `env_filter = [`, `env_filter = ["FILTERED", `, 1))
	os.WriteFile(p, data, 0o600)
	e.withMCP(everythingTable(t, `allow = ["echo", "get-sum", "get-env", "trigger-long-running-operation"]
env = { FROM_DOTENV = "${DOTENV_ONLY}" }
`))
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "What is 2 + 40?")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	lines := jsonLines(t, stdout)
	if got := toolNames(e.chat(0)); strings.Contains(got, "mcp__") {
		t.Errorf("the root is offered MCP tools: %s", got)
	}
	if got := toolNames(e.chat(1)); !strings.Contains(got, "rlm mcp__everything__echo") || !strings.Contains(got, "mcp__everything__get-sum") {
		t.Errorf("subagent tools: %s", got)
	}
	results := map[string]string{}
	callIDs := map[string]string{}
	for _, l := range ofType(lines, "tool_call") {
		callIDs[l["id"].(string)] = l["name"].(string) + " " + l["arguments"].(string)
	}
	var order []string
	for _, l := range ofType(lines, "tool_result") {
		order = append(order, l["id"].(string))
		results[l["id"].(string)] = l["content"].(string)
	}
	want := []struct{ call, result string }{
		{"mcp__everything__echo", "Echo: hello"},
		// The .env value reached the server through its env, and is redacted
		// like an API key; other .env values, the key and filtered names never
		// reach it.
		{"repl {\"code\":\"s = mcp(", "The sum of 2 and 40 is 42.\n[REDACTED] None None None"},
		{"mcp__everything__trigger-long-running-operation", "Long running operation completed. Duration: 0.3 seconds, Steps: 3."},
		{"mcp__everything__get-structured-content", "PermissionError: everything/get-structured-content was not approved: denied: harness runs headless (-p)"},
		{"repl {\"code\":\"print(try_call(", "PermissionError: everything/get-tiny-image was not approved: denied: harness runs headless"},
	}
	var progress string
	for _, w := range want {
		found := false
		for _, id := range order {
			if strings.HasPrefix(callIDs[id], w.call) {
				found = true
				if !strings.HasPrefix(results[id], w.result) {
					t.Errorf("%s: result %q, want %q", w.call, results[id], w.result)
				}
				if strings.HasPrefix(w.call, "mcp__everything__trigger") {
					for _, o := range ofType(lines, "tool_output") {
						if o["id"] == id {
							progress += o["text"].(string)
						}
					}
				}
			}
		}
		if !found {
			t.Errorf("no call %s", w.call)
		}
	}
	if !strings.HasPrefix(progress, "progress 1/3\nprogress 2/3\n") {
		t.Errorf("progress under the call: %q", progress)
	}
	approvals := ofType(lines, "approval")
	if len(approvals) != 2 || approvals[0]["decision"] != "denied" || !strings.Contains(fmt.Sprint(approvals[0]["operation"]), "get-structured-content") {
		t.Errorf("approvals: %v", approvals)
	}
	if !strings.Contains(stdout, `"type":"turn_done"`) || !strings.Contains(stdout, "All done: 42.") {
		t.Errorf("turn_done missing:\n%s", stdout)
	}
	filepath.WalkDir(e.sessionDir(), func(p string, d os.DirEntry, err error) error {
		if data, _ := os.ReadFile(p); err == nil && !d.IsDir() && strings.Contains(string(data), "from-dotenv") {
			t.Errorf("%s holds the server's .env credential", p)
		}
		return nil
	})
	notes, _ := os.ReadFile(filepath.Join(e.home, "failures.jsonl"))
	if strings.Count(string(notes), `"kind":"denied"`) != 2 || !strings.Contains(string(notes), "get-tiny-image") {
		t.Errorf("failure notes:\n%s", notes)
	}
	if log, err := os.ReadFile(filepath.Join(e.home, "mcp", "everything.log")); err != nil || !strings.Contains(string(log), "--- ") {
		t.Errorf("the server's log: %v\n%s", err, log)
	}
}

func TestMCPBrokenServerNeverStopsHarness(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", args(map[string]string{"task": "Try the tracker.", "name": "t"})),
		llmtest.Call("repl", args(map[string]string{"code": "print(mcp_tools())\nprint(try_call(mcp, 'tracker', 'x').error)"})),
		llmtest.Text("It is broken."),
		llmtest.Text("The tracker is broken."),
	)
	e.withMCP("\n[mcp.servers.tracker]\ncommand = \"no-such-tracker-server\"\n")
	code, stdout, stderr := e.run(context.Background(), nil, "-p", "Use the tracker.")
	if code != 0 || stdout != "The tracker is broken.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, `harness: MCP server tracker failed to start: command "no-such-tracker-server" not found on PATH`) {
		t.Errorf("stderr lacks the failure:\n%s", stderr)
	}
	msgs := e.chat(2).Messages
	got := lastMessage(msgs).Content
	if !strings.Contains(got, "[]\nMCP server tracker failed to start again") {
		t.Errorf("REPL result: %q", got)
	}
	startup := msgs[2].Content
	if !strings.Contains(startup, "## MCP servers") || !strings.Contains(startup, "tracker: unavailable (failed to start: command \"no-such-tracker-server\" not found on PATH)") {
		t.Errorf("help() in the startup call:\n%s", startup)
	}
}

// TestMCPServerEndsWithHarness runs harness as a process: its stdio server
// is stopped when harness exits, and killed by the kernel when harness is
// killed. The server is a shell that outlives the real server by 300 s
// (as a server that ignores the end of its stdin would).
func TestMCPServerEndsWithHarness(t *testing.T) {
	node, args := mcptest.Everything(t)
	for _, kill := range []bool{false, true} {
		t.Run(fmt.Sprintf("killed=%v", kill), func(t *testing.T) {
			reply := llmtest.Text("done")
			if kill {
				reply = llmtest.Reply{Content: "partial", Fail: llmtest.FailStall}
			}
			e := newEnv(t, llmtest.Call("rlm", `{"task":"wait","name":"w"}`), reply, llmtest.Text("done"))
			pidFile := filepath.Join(t.TempDir(), "pid")
			e.withMCP(fmt.Sprintf("\n[mcp.servers.everything]\ncommand = \"/bin/sh\"\nargs = [\"-c\", %q]\n",
				fmt.Sprintf("echo $$ > %s; %s %s stdio; sleep 300", pidFile, node, args[0])))
			cmd := e.command("-p", "go")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := waitPid(t, pidFile)
			if kill {
				waitRequests(t, e.srv, 2)
				cmd.Process.Signal(syscall.SIGKILL)
			}
			cmd.Wait()
			if !proctest.WaitGone(pid, 10*time.Second) {
				syscall.Kill(-pid, syscall.SIGKILL) // its whole group
				t.Fatalf("the MCP server (pid %d) outlived harness", pid)
			}
		})
	}
}

func waitPid(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err == nil {
				return pid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the MCP server never started")
	return 0
}

func waitRequests(t *testing.T, srv *llmtest.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.Chats()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d requests", len(srv.Chats()))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMCPStartsInBackground: the UI's wiring returns while a server is
// still starting (the first frame never waits for one), and closing it
// stops that server.
func TestMCPStartsInBackground(t *testing.T) {
	e := newEnv(t)
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	e.withMCP(fmt.Sprintf("\n[mcp.servers.hang]\ncommand = %q\nargs = [\"300\"]\n", sleep))
	f, _ := parseAgentFlags(nil)
	var stderr strings.Builder
	w, code := openUIWiring(e.cfg, f, e.repo, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // answer at once
	if infos := w.mcp.Servers(ctx); len(infos) != 1 || infos[0].Err != "still starting" {
		t.Fatalf("servers = %+v", infos)
	}
	done := make(chan struct{})
	go func() { w.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("closing did not stop a server that never answered")
	}
}
