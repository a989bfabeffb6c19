// MCP tools: each tool of a running MCP server as a subagent's direct tool
// mcp__<server>__<tool>, and the same servers for REPL code (repl.MCP).

package rlm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"harness/mcpclient"
	"harness/repl"
)

// mcpTool offers one server tool directly, with the server's description
// and input schema. Arguments sent as null are left out (servers often
// refuse null for an optional argument).
func mcpTool(t mcpclient.Tool) tool {
	return tool{
		name: t.Exposed, description: t.Description, schemaJSON: t.InputSchema,
		run: func(ctx context.Context, a *agent, args map[string]json.RawMessage) (string, Status) {
			raw, _ := json.Marshal(args)
			res, err := a.r.opts.MCP.Call(ctx, a.mcpCall(t.Server, t.Name, raw))
			if err != nil {
				return err.Error(), Failed
			}
			text, st := res.Text, Done
			if res.IsError {
				text, st = "The tool reported an error:\n"+text, Failed
			}
			return capWith(text, a.r.limit(), "MCP result"), st
		},
	}
}

// mcpCall is a call made for agent a: its approvals (with events), its
// progress shown under the call running now, and its failure notes.
func (a *agent) mcpCall(server, tool string, args json.RawMessage) mcpclient.Call {
	return mcpclient.Call{
		Server: server, Tool: tool, Arguments: args, Approver: approvals{a}, Session: a.id,
		Progress: func(p mcpclient.Progress) {
			a.emit(ToolOutput{Agent: a.ref(), ID: a.currentCall(), Text: a.r.opts.Redactor.String(p.String()) + "\n"})
		},
	}
}

// refreshMCP offers the tools of the MCP servers running now; the first
// call waits for servers still starting (see MCP). It reports whether the
// tools changed since the last call. Only subagents have MCP tools.
func (a *agent) refreshMCP(ctx context.Context) bool {
	if a.depth == 0 || a.r.opts.MCP == nil {
		return false
	}
	var tools []tool
	for _, s := range a.r.opts.MCP.Servers(ctx) {
		for _, t := range s.Tools {
			if !t.Indirect { // past [mcp] max_direct_tools: the REPL's mcp() only
				tools = append(tools, mcpTool(t))
			}
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	changed := len(tools) != len(a.mcp)
	for i := 0; !changed && i < len(tools); i++ {
		x, y := tools[i], a.mcp[i]
		changed = x.name != y.name || x.description != y.description || !bytes.Equal(x.schemaJSON, y.schemaJSON)
	}
	a.mcp = tools
	return changed
}

// mcpTools returns the MCP tools offered now.
func (a *agent) mcpTools() []tool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mcp
}

// replMCP is a repl.MCP over the session's servers: REPL code reaches
// them with the calls call builds (a subagent's: the same approvals,
// progress and notes as its direct tools).
type replMCP struct {
	m    MCP
	call func(server, tool string, args json.RawMessage) mcpclient.Call
}

var _ repl.MCP = replMCP{}

// REPLMCP gives REPL code outside an agent (harness repl) the servers of
// m: each call asks ap unless the tool is allowed (nil refuses), sends
// progress lines to progress (may be nil), and names session in failure
// notes.
func REPLMCP(m MCP, ap Approver, session string, progress func(line string)) repl.MCP {
	return replMCP{m: m, call: func(server, tool string, args json.RawMessage) mcpclient.Call {
		c := mcpclient.Call{Server: server, Tool: tool, Arguments: args, Session: session}
		if ap != nil {
			c.Approver = ap
		}
		if progress != nil {
			c.Progress = func(p mcpclient.Progress) { progress(p.String()) }
		}
		return c
	}}
}

func (m replMCP) Servers(ctx context.Context) []repl.MCPServer {
	var out []repl.MCPServer
	for _, s := range m.m.Servers(ctx) {
		rs := repl.MCPServer{Name: s.Name, Err: s.Err}
		for _, t := range s.Tools {
			rs.Tools = append(rs.Tools, repl.MCPTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Allowed: t.Allowed, Indirect: t.Indirect})
		}
		out = append(out, rs)
	}
	return out
}

func (m replMCP) Call(ctx context.Context, server, tool string, args json.RawMessage) (repl.MCPResult, error) {
	res, err := m.m.Call(ctx, m.call(server, tool, args))
	return repl.MCPResult{Text: res.Text, Structured: res.Structured, IsError: res.IsError}, err
}

// capWith cuts s to limit bytes on a UTF-8 boundary with a notice naming
// what was cut.
func capWith(s string, limit int, what string) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	notice := func(n int) string {
		return fmt.Sprintf("\n[%s cut: %d bytes omitted (output_limit is %d bytes)]", what, n, limit)
	}
	keep := max(limit-len(notice(len(s))), 0)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + notice(len(s)-keep)
}
