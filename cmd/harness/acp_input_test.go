// harness acp on bad input: a bad configuration, a bad cwd, malformed
// JSON-RPC, and what it writes on stdout.

package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llmtest"
)

// TestACPBadConfig: initialize answers a bad config.toml with an error
// naming the file and line; harness keeps serving, and once the file is
// fixed initialize and session/new succeed. A cwd that is relative or
// missing is refused, saying so.
func TestACPBadConfig(t *testing.T) {
	e := newEnv(t)
	path := filepath.Join(e.home, "config.toml")
	good, _ := os.ReadFile(path)
	lines := strings.Split(string(good), "\n")
	os.WriteFile(path, []byte(strings.Join(lines[:3], "\n")+"\nfrobnicate = 1\n"+strings.Join(lines[3:], "\n")), 0o600)
	p := e.startACP()
	_, err := p.conn.Initialize(p.ctx(), sdk.InitializeRequest{ProtocolVersion: 1})
	if err == nil || !strings.Contains(err.Error(), path+":4:") || !strings.Contains(err.Error(), "frobnicate") {
		t.Fatalf("initialize with a bad config: %v", err)
	}
	_, err = p.conn.NewSession(p.ctx(), sdk.NewSessionRequest{Cwd: e.repo, McpServers: []sdk.McpServer{}})
	if err == nil || !strings.Contains(err.Error(), path+":4:") {
		t.Errorf("session/new with a bad config: %v", err)
	}
	os.WriteFile(path, good, 0o600)
	p.initialize()
	p.newSession(e.repo)
	// The reason is in the error's message, which editors show, not only
	// in its data.
	for _, tc := range []struct {
		cwd, want string
		code      int
	}{
		{"relative/dir", "is not an absolute path", -32602},
		{filepath.Join(e.repo, "missing"), "missing does not exist", -32602},
		{filepath.Join(e.home, "config.toml"), "is not a directory", -32602},
		{e.home, "cannot be a session's repository: " + path + ":", -32602},
	} {
		_, err := p.conn.NewSession(p.ctx(), sdk.NewSessionRequest{Cwd: tc.cwd, McpServers: []sdk.McpServer{}})
		var re *sdk.RequestError
		if !errors.As(err, &re) || re.Code != tc.code || !strings.Contains(re.Message, tc.want) {
			t.Errorf("cwd %s: %v, want %d %q", tc.cwd, err, tc.code, tc.want)
		}
	}
	_, err = p.conn.LoadSession(p.ctx(), sdk.LoadSessionRequest{SessionId: "../elsewhere", Cwd: e.repo, McpServers: []sdk.McpServer{}})
	if re := (*sdk.RequestError)(nil); !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, `sessionId: the name "../elsewhere" contains "/"`) {
		t.Errorf("session/load of a bad name: %v", err)
	}
	p.stop() // stderr is complete once harness exited
	if !strings.Contains(p.stderr.String(), path+":4:") {
		t.Errorf("stderr lacks the error:\n%s", p.stderr)
	}
}

// TestACPMalformedInput: lines that are not JSON-RPC messages get an error
// response each (parse error, invalid request, invalid params, method not
// found) on stdout, which holds nothing but JSON-RPC messages; harness
// goes on serving.
func TestACPMalformedInput(t *testing.T) {
	e := newEnv(t, llmtest.Text("fine"))
	cmd := e.command("acp")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() map[string]any {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed\nstderr:\n%s", stderr)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("stdout line is not a JSON-RPC message: %q", l)
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer\nstderr:\n%s", stderr)
		}
		return nil
	}
	for _, tc := range []struct {
		line string
		id   any
		code float64
	}{
		{"this is not json", nil, -32700},
		{`{"jsonrpc":"2.0","id":1,"method":"initialize"`, nil, -32700},
		{`[{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}]`, nil, -32600},
		{`"a string"`, nil, -32600},
		{`{"jsonrpc":"2.0"}`, nil, -32600},
		{`{"jsonrpc":"2.0","id":3,"method":7}`, float64(3), -32600},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"initialize"}`, nil, -32600},
		{`{"jsonrpc":"2.0","id":4,"method":"initialize","params":"protocolVersion"}`, float64(4), -32602},
		{`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":42}}`, float64(5), -32602},
		{`{"jsonrpc":"2.0","id":6,"method":"no/such/method","params":{}}`, float64(6), -32601},
		{`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}`, float64(7), -32002},
		// Too long: refused, under its id so the client is not left waiting.
		{`{"jsonrpc":"2.0","id":"8","method":"initialize","params":{"protocolVersion":1}}` + strings.Repeat(" ", 9<<20), "8", -32600},
	} {
		stdin.Write([]byte(tc.line + "\n"))
		m := next()
		errObj, _ := m["error"].(map[string]any)
		if m["id"] != tc.id || errObj == nil || errObj["code"] != tc.code {
			t.Errorf("%.80s: answer %v, want id %v code %v", tc.line, m, tc.id, tc.code)
		}
		// The filter's answers say what is wrong in the message itself.
		if msg, _ := errObj["message"].(string); (tc.code == -32700 || tc.code == -32600) && !strings.Contains(msg, ": ") {
			t.Errorf("%.80s: the message %q does not say what is wrong", tc.line, msg)
		}
	}
	stdin.Write([]byte(`{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":1}}` + "\n"))
	if m := next(); m["id"] != float64(9) || m["result"] == nil {
		t.Errorf("initialize after the bad lines: %v", m)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v\nstderr:\n%s", err, stderr)
	}
	for l := range lines {
		t.Errorf("more on stdout: %q", l)
	}
	for _, want := range []string{"input line 1: not JSON", "input line 3: a JSON array"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
