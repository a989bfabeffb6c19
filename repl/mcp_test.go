// Tests for mcp(), mcp_tools() and help()'s MCP section, against a fake host.

package repl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeMCP is a host with two servers; Call answers from results by tool.
type fakeMCP struct {
	mu      sync.Mutex
	calls   []string // server/tool arguments
	results map[string]MCPResult
	errs    map[string]error
	block   chan struct{} // when set, Call waits for ctx to end
	blocked chan struct{}
}

func newFakeMCP() *fakeMCP {
	return &fakeMCP{results: map[string]MCPResult{
		"sum":   {Text: `{"sum":3}`, Structured: json.RawMessage(`{"sum":3,"terms":[1,2],"ok":true,"none":null}`)},
		"echo":  {Text: "Echo: hi"},
		"fails": {Text: "the disk is on fire", IsError: true},
	}, errs: map[string]error{
		"secret": errors.New("PermissionError: the user refused the call to docs/secret; do not retry it"),
	}}
}

func (f *fakeMCP) Servers(context.Context) []MCPServer {
	return []MCPServer{
		{Name: "docs", Tools: []MCPTool{
			{Name: "echo", Description: "Echo.", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`), Allowed: true},
			{Name: "sum", Description: "Add.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		}},
		{Name: "broken", Err: "failed to start: command \"x\" not found on PATH\nmore"},
		{Name: "paused", Err: "stopped (exit status 3); its stderr is in /h/mcp/paused.log", Tools: []MCPTool{{Name: "t1", InputSchema: json.RawMessage(`{}`)}}},
	}
}

func (f *fakeMCP) Call(ctx context.Context, server, tool string, args json.RawMessage) (MCPResult, error) {
	f.mu.Lock()
	f.calls = append(f.calls, server+"/"+tool+" "+string(args))
	f.mu.Unlock()
	if f.block != nil {
		close(f.blocked)
		<-ctx.Done()
		return MCPResult{}, errors.New("cancelled")
	}
	if err := f.errs[tool]; err != nil {
		return MCPResult{}, err
	}
	return f.results[tool], nil
}

func withMCP(m MCP) envOption { return func(_ *env, o *Options) { o.MCP = m } }

func TestMCPCall(t *testing.T) {
	host := newFakeMCP()
	e := newEnv(t, withMCP(host))
	for _, tc := range []struct{ code, want string }{
		{`r = mcp("docs", "sum", a=1, b=[2, "x"], c={"d": None})` + "\nprint(r['sum'], r['terms'][1], r['ok'], r['none'])", "3 2 True None"},
		{`mcp("docs", "echo", text="hi")`, `'Echo: hi'`},
		{`mcp("docs", "fails")`, "Error in mcp: docs/fails reported an error: the disk is on fire"},
		{`print(try_call(mcp, "docs", "fails").error)`, "docs/fails reported an error: the disk is on fire"},
		{`mcp("docs", "secret")`, "Error in mcp: PermissionError: the user refused the call to docs/secret; do not retry it"},
		{`mcp("docs")`, `mcp: got 1 arguments, want 2; call it as mcp("server", "tool", name=value, ...)`},
		{`mcp("docs", "echo", f=print)`, "mcp: the arguments cannot be sent as JSON"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			if got := e.exec(tc.code); !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	host.mu.Lock()
	defer host.mu.Unlock()
	if host.calls[0] != `docs/sum {"a":1,"b":[2,"x"],"c":{"d":null}}` || host.calls[1] != `docs/echo {"text":"hi"}` || !strings.HasSuffix(host.calls[2], " {}") {
		t.Errorf("calls = %q", host.calls)
	}
}

func TestMCPCallCancelled(t *testing.T) {
	host := newFakeMCP()
	host.block, host.blocked = make(chan struct{}), make(chan struct{})
	e := newEnv(t, withMCP(host))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan string, 1)
	go func() { done <- e.repl.Exec(ctx, `try_call(mcp, "docs", "echo")`) }()
	select {
	case <-host.blocked:
	case <-time.After(10 * time.Second):
		t.Fatal("mcp() never called the host")
	}
	cancel()
	select {
	case got := <-done:
		if !strings.Contains(got, "cancelled") || strings.Contains(got, "struct(") {
			t.Errorf("got %q; want the stop, not caught by try_call", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Exec did not return after Esc")
	}
}

func TestMCPTools(t *testing.T) {
	e := newEnv(t, withMCP(newFakeMCP()))
	for _, tc := range []struct{ code, want string }{
		{`[(t["server"], t["name"], t["allowed"]) for t in mcp_tools()]`, `[('docs', 'echo', True), ('docs', 'sum', False), ('paused', 't1', False)]`},
		{`len(mcp_tools("paused"))`, "1"},
		{`mcp_tools("docs")[0]["input_schema"]["properties"]["text"]["type"]`, `'string'`},
		{`mcp_tools(server="docs")[1]["description"]`, `'Add.'`},
		{`mcp_tools("nope")`, `mcp_tools: there is no MCP server "nope"; the servers are: broken, docs, paused`},
		{`mcp_tools("broken")`, `mcp_tools: MCP server broken is unavailable: failed to start`},
		{`mcp_tools(3)`, "server must be a server name or None, not int"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			if got := e.exec(tc.code); !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMCPHelpAndFunctions(t *testing.T) {
	e := newEnv(t, withMCP(newFakeMCP()))
	help := e.exec("help()")
	want := "\n## MCP servers\nmcp(server, tool, **arguments) calls a tool;"
	if !strings.Contains(help, want) || !strings.Contains(help, "\ndocs: echo*, sum\nbroken: unavailable (failed to start: command \"x\" not found on PATH)\npaused: t1 (stopped (exit status 3); its stderr is in /h/mcp/paused.log)\n") {
		t.Errorf("help() lacks the MCP section:\n%s", help)
	}
	if !strings.Contains(help, "mcp_tools(server=None)") {
		t.Error("help() does not list mcp_tools among the REPL functions")
	}
	if fns := e.repl.Functions(); fns["mcp"] != "mcp(server, tool, **arguments)" || fns["mcp_tools"] == "" {
		t.Errorf("Functions() = %v", fns)
	}

	plain := newEnv(t)
	if h := plain.exec("help()"); strings.Contains(h, "MCP") || strings.Contains(h, "mcp(") {
		t.Errorf("help() without MCP servers mentions them:\n%s", h)
	}
	if got := plain.exec(`mcp("a", "b")`); !strings.Contains(got, "undefined: mcp") {
		t.Errorf("mcp without servers: %q", got)
	}
}

// manyMCP is a server with more tools than are direct.
type manyMCP struct{ fakeMCP }

func (m *manyMCP) Servers(context.Context) []MCPServer {
	s := MCPServer{Name: "big"}
	for i := 0; i < 200; i++ {
		s.Tools = append(s.Tools, MCPTool{Name: fmt.Sprintf("t%03d", i), InputSchema: json.RawMessage(`{}`), Indirect: i >= 128})
	}
	return []MCPServer{s}
}

// TestMCPIndirectTools: help() says how many tools are direct and lists
// at most helpToolNames names a server; mcp_tools() marks the others.
func TestMCPIndirectTools(t *testing.T) {
	e := newEnv(t, withMCP(&manyMCP{*newFakeMCP()}))
	help := e.exec("help()")
	for _, want := range []string{"Of these 200 tools only the first 128 are also direct tools named mcp__<server>__<tool>",
		"the other 72 are reachable only here, with mcp()", `t049, … 150 more (mcp_tools("big") lists them)`} {
		if !strings.Contains(help, want) {
			t.Errorf("help() lacks %q:\n%s", want, help)
		}
	}
	if got := e.exec(`[t["name"] for t in mcp_tools() if not t["direct"]][:2]`); got != `["t128", "t129"]` && got != `['t128', 't129']` {
		t.Errorf("indirect tools: %s", got)
	}
}
