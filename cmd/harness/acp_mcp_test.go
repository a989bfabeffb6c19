// harness acp with the editor's MCP servers: a Streamable HTTP server in
// the test process and the stdio reference server (skipped without node).

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/llmtest"
	"harness/mcpclient/mcptest"
)

// TestACPEditorMCPServers: the mcpServers of session/new reach the
// session's subagents beside the configured one: an HTTP server (with
// its headers) and a stdio server, each tool offered as mcp__NAME__TOOL.
// A call off the allow list asks the editor; allow_always covers the same
// call again in that session (the same tool with the same arguments, as
// the UI's a), not another; the credential in a header is never saved.
func TestACPEditorMCPServers(t *testing.T) {
	node, nodeArgs := mcptest.Everything(t)
	srv := mcp.NewServer(&mcp.Implementation{Name: "web", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "shout", Description: "Shout the text."}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(a.Text)}}}, nil, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var mu sync.Mutex
	var auth []string
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	// Registered before harness starts, so it runs after harness stopped
	// (Close waits for harness's open stream).
	t.Cleanup(web.Close)

	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Use the editor's servers.","name":"user"}`),
		llmtest.Call("mcp__web__shout", `{"text":"hi"}`),
		llmtest.Call("mcp__web__shout", `{"text":"hi"}`),
		llmtest.Call("mcp__web__shout", `{"text":"again"}`),
		llmtest.Call("mcp__everything__echo", `{"message":"from stdio"}`),
		llmtest.Call("mcp__configured__echo", `{"message":"from config"}`),
		llmtest.Text("Shouted and echoed."),
		llmtest.Text("Done."),
	)
	e.withMCP(fmt.Sprintf("\n[mcp.servers.configured]\ncommand = %q\nargs = [%q, %q]\nallow = [\"echo\"]\n", node, nodeArgs[0], nodeArgs[1]))
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo,
		sdk.McpServer{Http: &sdk.McpServerHttpInline{Type: "http", Name: "web", Url: web.URL,
			Headers: []sdk.HttpHeader{{Name: "Authorization", Value: "Bearer editor-secret-123"}}}},
		sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "everything", Command: node, Args: nodeArgs, Env: []sdk.EnvVariable{}}},
	)
	p.answerWith(sdk.PermissionOptionKindAllowAlways)
	resp, err := p.prompt(s.SessionId, "Use them. The key is editor-secret-123.")
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v\nstderr:\n%s", resp, err, p.stderr)
	}
	tools := e.chat(1).ToolNames()
	for _, want := range []string{"mcp__web__shout", "mcp__everything__echo", "mcp__configured__echo"} {
		if !strings.Contains(" "+strings.Join(tools, " ")+" ", " "+want+" ") {
			t.Errorf("the subagent's tools %v lack %s", tools, want)
		}
	}
	var results []string
	for _, c := range callsOf(t, p.take(s.SessionId)) {
		if strings.HasPrefix(c.title, "user · MCP ") {
			results = append(results, c.title+" = "+c.resultText())
		}
	}
	want := []string{"user · MCP web shout = HI", "user · MCP web shout = HI", "user · MCP web shout = AGAIN", "user · MCP everything echo = Echo: from stdio",
		"user · MCP configured echo = Echo: from config"}
	if strings.Join(results, "\n") != strings.Join(want, "\n") {
		t.Errorf("MCP calls:\n%s\nwant:\n%s", strings.Join(results, "\n"), strings.Join(want, "\n"))
	}
	if n := len(p.permissions()); n != 3 {
		t.Errorf("%d permission requests, want 3 (allow_always covers the same shout again, not another; the configured echo is allowed)", n)
	}
	mu.Lock()
	for _, a := range auth {
		if a != "Bearer editor-secret-123" {
			t.Errorf("a request to the HTTP server had Authorization %q", a)
		}
	}
	mu.Unlock()
	for _, r := range e.srv.Chats() {
		if strings.Contains(string(r.Body), "editor-secret-123") {
			t.Fatalf("the header's credential reached the endpoint: %s", r.Body)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(e.home, "sessions", string(s.SessionId), "library", "root.json")); !strings.Contains(string(data), "The key is [REDACTED].") {
		t.Errorf("the saved prompt is not redacted:\n%s", data)
	}
}

// TestACPSecretsInMCPFiles: an editor's MCP URL with ?access_token=… and a
// stdio server's --token=… argument, neither known to harness as a
// secret, are kept out of failures.jsonl and mcp/NAME.log.
func TestACPSecretsInMCPFiles(t *testing.T) {
	e := newEnv(t)
	p := e.startACP()
	p.initialize()
	p.newSession(e.repo,
		sdk.McpServer{Http: &sdk.McpServerHttpInline{Type: "http", Name: "web", Url: "http://127.0.0.1:1/mcp?access_token=tok-secret-url", Headers: []sdk.HttpHeader{}}},
		sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "local", Command: "/bin/sh", Args: []string{"-c", "exit 3", "--token=tok-secret-arg"}, Env: []sdk.EnvVariable{}}},
	)
	fails := filepath.Join(e.home, "failures.jsonl")
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ := os.ReadFile(fails)
		if strings.Contains(string(data), "MCP server web") && strings.Contains(string(data), "MCP server local") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no failure notes for both servers:\n%s\nstderr:\n%s", data, p.stderr)
		}
		time.Sleep(20 * time.Millisecond) // the servers fail in the background
	}
	p.stop()
	for _, f := range []string{fails, filepath.Join(e.home, "mcp", "local.log"), filepath.Join(e.home, "workers.log")} {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), "tok-secret") {
			t.Errorf("%s holds a secret:\n%s", f, data)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(e.home, "mcp", "local.log")); !strings.Contains(string(data), "--token=[REDACTED]") {
		t.Errorf("local.log:\n%s", data)
	}
}
