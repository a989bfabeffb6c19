// Tests with a real stdio server process: this test binary, re-executed
// with MCPCLIENT_TEST_SERVER=1, serves tools that report its environment,
// crash, and start a child.

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/failures"
	"harness/proctest"
)

func TestMain(m *testing.M) {
	if os.Getenv("MCPCLIENT_TEST_SERVER") == "1" {
		os.Exit(serveStdio())
	}
	os.Exit(m.Run())
}

// serveStdio is the stdio test server.
func serveStdio() int {
	fmt.Fprintln(os.Stderr, "test server starting")
	if os.Getenv("MCPCLIENT_TEST_EXIT_AT_START") == "1" {
		fmt.Fprintln(os.Stderr, "fatal: bad config")
		return 4
	}
	if f := os.Getenv("MCPCLIENT_TEST_COUNTER"); f != "" {
		b, _ := os.ReadFile(f)
		n, _ := strconv.Atoi(string(b))
		os.WriteFile(f, []byte(strconv.Itoa(n+1)), 0o600)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	add := func(name string, h func() *mcp.CallToolResult) {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return h(), nil })
	}
	add("env", func() *mcp.CallToolResult {
		env := os.Environ()
		slices.Sort(env)
		return text(strings.Join(env, "\n"))
	})
	add("cwd", func() *mcp.CallToolResult {
		wd, _ := os.Getwd()
		return text(wd)
	})
	add("crash", func() *mcp.CallToolResult {
		fmt.Fprintln(os.Stderr, "crashing on purpose")
		os.Exit(3)
		return nil
	})
	add("junk", func() *mcp.CallToolResult {
		fmt.Fprintln(os.Stdout, "not json at all")
		fmt.Fprintln(os.Stdout, `{"json":"but not JSON-RPC"}`)
		return text("after junk")
	})
	add("big", func() *mcp.CallToolResult { return text(strings.Repeat("x", 20<<20)) })
	add("spawn", func() *mcp.CallToolResult {
		cmd := exec.Command("sleep", "300")
		if err := cmd.Start(); err != nil {
			return text("error: " + err.Error())
		}
		return text(strconv.Itoa(cmd.Process.Pid))
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		return 1
	}
	return 0
}

// stdioSpec runs this test binary as a stdio server.
func stdioSpec(t *testing.T, name string, env map[string]string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{"MCPCLIENT_TEST_SERVER": "1"}
	for k, v := range env {
		e[k] = v
	}
	return Spec{Name: name, Command: exe, Env: e, Allow: []string{"env", "cwd", "crash", "spawn", "junk", "big"}}
}

// startStdio starts specs with a log directory and the given environment.
func startStdio(t *testing.T, environ []string, filter []string, specs ...Spec) (*Set, *notes, string) {
	t.Helper()
	ns, logs, repo := newNotes(), t.TempDir(), t.TempDir()
	s := Start(specs, Options{RepoDir: repo, Environ: func() []string { return environ }, EnvFilter: filter,
		LogDir: logs, Clock: newFakeClock(), OnFailure: ns.add})
	t.Cleanup(s.Close)
	return s, ns, repo
}

func call(t *testing.T, s *Set, server, tool string) (Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	return s.Call(ctx, Call{Server: server, Tool: tool})
}

func TestStdioEnvironment(t *testing.T) {
	sp := stdioSpec(t, "envtest", map[string]string{"FROM_SPEC": "${TOKEN_VAR}", "KEEP": "overridden"})
	sp.Expand = func(s string) (string, error) { return strings.ReplaceAll(s, "${TOKEN_VAR}", "tok-123"), nil }
	environ := []string{"PATH=" + os.Getenv("PATH"), "KEEP=original", "FILTERED_TOKEN=secret", "HOME=/home/x", "LANG=C"}
	s, _, repo := startStdio(t, environ, []string{"FILTERED_TOKEN", "LANG"}, sp)
	res, err := call(t, s, "envtest", "env")
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Split(res.Text, "\n")
	for _, want := range []string{"FROM_SPEC=tok-123", "KEEP=overridden", "HOME=/home/x", "MCPCLIENT_TEST_SERVER=1", "PATH=" + os.Getenv("PATH")} {
		if !slices.Contains(env, want) {
			t.Errorf("the server's environment lacks %s:\n%s", want, res.Text)
		}
	}
	for _, name := range []string{"FILTERED_TOKEN", "LANG", "KEEP=original"} {
		if strings.Contains(res.Text, name) {
			t.Errorf("the server's environment holds %s:\n%s", name, res.Text)
		}
	}
	res, err = call(t, s, "envtest", "cwd")
	if real, _ := filepath.EvalSymlinks(repo); err != nil || (res.Text != repo && res.Text != real) {
		t.Errorf("cwd = %q, %v; want the repository %s", res.Text, err, repo)
	}
}

func TestStdioCrashRestarts(t *testing.T) {
	counter := filepath.Join(t.TempDir(), "starts")
	sp := stdioSpec(t, "crashy", map[string]string{"MCPCLIENT_TEST_COUNTER": counter})
	s, ns, _ := startStdio(t, []string{"PATH=" + os.Getenv("PATH")}, nil, sp)
	_, err := call(t, s, "crashy", "crash")
	if err == nil || !strings.Contains(err.Error(), "MCP server crashy stopped during the call (exit status 3); it is started again on the next call") {
		t.Fatalf("crash: %v", err)
	}
	n := ns.wait(t)
	log := s.Servers(context.Background())[0].Log
	if n.Kind != failures.KindMCP || n.Message != "MCP server crashy stopped (exit status 3); it is started again on its next call; its stderr is in "+log {
		t.Errorf("note = %+v", n)
	}
	if len(ns.ch) != 0 {
		t.Errorf("a second note for the same crash: %+v", <-ns.ch)
	}
	res, err := call(t, s, "crashy", "cwd")
	if err != nil || res.IsError {
		t.Fatalf("after the crash: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(counter); string(b) != "2" {
		t.Errorf("started %s times, want 2", b)
	}
	data, _ := os.ReadFile(log)
	if strings.Count(string(data), "test server starting") != 2 || !strings.Contains(string(data), "crashing on purpose") || strings.Count(string(data), "--- ") != 2 {
		t.Errorf("log %s:\n%s", log, data)
	}
}

func TestStdioStartFailures(t *testing.T) {
	exitSpec := stdioSpec(t, "exits", map[string]string{"MCPCLIENT_TEST_EXIT_AT_START": "1"})
	missing := Spec{Name: "missing", Command: "no-such-mcp-server-anywhere"}
	unset := stdioSpec(t, "unset", map[string]string{"T": "${NOPE}"})
	unset.Expand = func(s string) (string, error) {
		if strings.Contains(s, "${NOPE}") {
			return "", errors.New("${NOPE} is not set in the environment or in .env")
		}
		return s, nil
	}
	s, _, _ := startStdio(t, []string{"PATH=/usr/bin:/bin"}, nil, exitSpec, missing, unset)
	infos := s.Servers(context.Background())
	want := map[string]string{
		"exits":   "failed to start: it exited (exit status 4) before it answered; its stderr is in ",
		"missing": `failed to start: command "no-such-mcp-server-anywhere" not found on PATH`,
		"unset":   "failed to start: env.T: ${NOPE} is not set in the environment or in .env",
	}
	for _, i := range infos {
		if !strings.HasPrefix(i.Err, want[i.Name]) {
			t.Errorf("%s: %q, want %q", i.Name, i.Err, want[i.Name])
		}
	}
	data, _ := os.ReadFile(infos[0].Log)
	if !strings.Contains(string(data), "fatal: bad config") {
		t.Errorf("the log lacks the server's stderr:\n%s", data)
	}
}

func TestStdioCloseKillsGroup(t *testing.T) {
	s, _, _ := startStdio(t, []string{"PATH=" + os.Getenv("PATH")}, nil, stdioSpec(t, "spawner", nil))
	res, err := call(t, s, "spawner", "spawn")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(res.Text)
	if err != nil {
		t.Fatalf("spawn: %s", res.Text)
	}
	if !proctest.Alive(pid) {
		t.Fatal("the child is not running")
	}
	s.Close()
	if !proctest.WaitGone(pid, waitTimeout) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the server's child outlived Close")
	}
	if _, err := call(t, s, "spawner", "cwd"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a call after Close: %v", err)
	}
}

func TestStdioSchemaAndLogName(t *testing.T) {
	s, _, _ := startStdio(t, []string{"PATH=" + os.Getenv("PATH")}, nil, stdioSpec(t, "named", nil))
	info := s.Servers(context.Background())[0]
	if filepath.Base(info.Log) != "named.log" || len(info.Tools) != 6 {
		t.Fatalf("info = %+v", info)
	}
	var schema map[string]any
	if json.Unmarshal(info.Tools[0].InputSchema, &schema) != nil || schema["type"] != "object" {
		t.Errorf("schema = %s", info.Tools[0].InputSchema)
	}
}

// TestStdioBadFrames: lines on stdout that are not JSON-RPC are skipped
// and logged, and a result over MaxFrameBytes fails that call alone, three
// times over, without the connection (or a restart) going.
func TestStdioBadFrames(t *testing.T) {
	counter := filepath.Join(t.TempDir(), "starts")
	sp := stdioSpec(t, "noisy", map[string]string{"MCPCLIENT_TEST_COUNTER": counter})
	s, ns, _ := startStdio(t, []string{"PATH=" + os.Getenv("PATH")}, nil, sp)
	res, err := call(t, s, "noisy", "junk")
	if err != nil || res.Text != "after junk" {
		t.Fatalf("junk: %+v, %v", res, err)
	}
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 6*waitTimeout) // 20 MiB under -race
		_, err := s.Call(ctx, Call{Server: "noisy", Tool: "big"})
		cancel()
		if err == nil || !strings.Contains(err.Error(), "MCP server noisy: result too large (20 MB, limit 16 MB); the server is still connected") {
			t.Fatalf("big %d: %v", i, err)
		}
	}
	if res, err := call(t, s, "noisy", "cwd"); err != nil || res.IsError {
		t.Fatalf("after the big results: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(counter); string(b) != "1" {
		t.Errorf("started %s times, want 1", b)
	}
	select {
	case n := <-ns.ch:
		t.Errorf("a failure note: %+v", n)
	default:
	}
	data, _ := os.ReadFile(s.Servers(context.Background())[0].Log)
	for _, want := range []string{`harness: skipped a line on stdout that is not a JSON-RPC message: "not json at all"`,
		`harness: skipped a line on stdout that is not a JSON-RPC message: "{\"json\":\"but not JSON-RPC\"}"`,
		"passed the 16777216-byte limit and was dropped (id "} {
		if !strings.Contains(string(data), want) {
			t.Errorf("log lacks %q:\n%s", want, data)
		}
	}
}
