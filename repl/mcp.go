// mcp() and mcp_tools(): the session's MCP servers, through Options.MCP.

package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	ljson "go.starlark.net/lib/json"
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// MCP is the host side of mcp() and mcp_tools(): the session's MCP
// servers, with the allow lists, approvals, progress and failure notes
// handled there (rlm). Its methods take and return plain data, so a REPL
// in another process can forward each call to its parent.
type MCP interface {
	// Servers returns every server with its tools.
	Servers(ctx context.Context) []MCPServer
	// Call calls a tool. arguments is a JSON object. The error is a refusal
	// or failure whose text is written for the model.
	Call(ctx context.Context, server, tool string, arguments json.RawMessage) (MCPResult, error)
}

// MCPServer is one server and its tools.
type MCPServer struct {
	Name  string
	Err   string // why it is not running ("" when it runs); Tools may still list what it had
	Tools []MCPTool
}

// MCPTool is one tool of a server.
type MCPTool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	Allowed     bool // runs without asking
	Indirect    bool // not a direct tool (past [mcp] max_direct_tools): reachable with mcp() only
}

// MCPResult is a tool's result.
type MCPResult struct {
	Text       string          // the content as text
	Structured json.RawMessage // the structured content; nil when there is none
	IsError    bool            // the tool reported an error
}

// mcpNeeds marks the REPL functions that exist only with Options.MCP.
const mcpNeeds = "mcp"

func (r *interp) mcpCall(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var server, tool string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, nil, 2, &server, &tool); err != nil {
		return nil, fmt.Errorf(`%v; call it as mcp("server", "tool", name=value, ...)`, err)
	}
	d := starlark.NewDict(len(kw))
	for _, kv := range kw {
		d.SetKey(kv[0], kv[1])
	}
	encoded, err := starlark.Call(&starlark.Thread{}, ljson.Module.Members["encode"], starlark.Tuple{d}, nil)
	if err != nil {
		return nil, fmt.Errorf("mcp: the arguments cannot be sent as JSON: %v", err)
	}
	c := callOf(r)
	res, err := r.opts.MCP.Call(c.ctx, server, tool, json.RawMessage(encoded.(starlark.String)))
	if err != nil {
		if c.ctx.Err() != nil {
			c.stop(pyrt.StopCancel) // now, so try_call sees the stop and lets it through
			return nil, fmt.Errorf("cancelled: the call was stopped by the user (Esc)")
		}
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("%s/%s reported an error: %s", server, tool, res.Text)
	}
	if n := len(res.Text) + len(res.Structured); n > pyrt.BigAlloc && int64(n)*4 > c.budget() {
		return nil, fmt.Errorf("%s/%s returned %d bytes, too many for this REPL's memory limit (max_memory_mb = %d); ask the tool for less", server, tool, n, r.opts.MaxMemoryMB)
	}
	if res.Structured != nil {
		return decodeJSON(res.Structured)
	}
	return starlark.String(res.Text), nil
}

func (r *interp) mcpTools(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var only starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kw, "server?", &only); err != nil {
		return nil, err
	}
	name, isStr := starlark.AsString(only)
	if only != starlark.None && !isStr {
		return nil, fmt.Errorf("mcp_tools: server must be a server name or None, not %s", only.Type())
	}
	servers := r.opts.MCP.Servers(callOf(r).ctx)
	var out []starlark.Value
	found := false
	for _, s := range servers {
		if only != starlark.None && s.Name != name {
			continue
		}
		found = true
		if only != starlark.None && s.Err != "" && len(s.Tools) == 0 {
			return nil, fmt.Errorf("mcp_tools: MCP server %s is unavailable: %s", s.Name, s.Err)
		}
		for _, t := range s.Tools {
			schema, err := decodeJSON(t.InputSchema)
			if err != nil {
				schema = starlark.None
			}
			d := starlark.NewDict(5)
			d.SetKey(starlark.String("server"), starlark.String(s.Name))
			d.SetKey(starlark.String("name"), starlark.String(t.Name))
			d.SetKey(starlark.String("description"), starlark.String(t.Description))
			d.SetKey(starlark.String("input_schema"), schema)
			d.SetKey(starlark.String("allowed"), starlark.Bool(t.Allowed))
			d.SetKey(starlark.String("direct"), starlark.Bool(!t.Indirect))
			out = append(out, d)
		}
	}
	if only != starlark.None && !found {
		return nil, fmt.Errorf("mcp_tools: there is no MCP server %q; the servers are: %s", name, strings.Join(serverNames(servers), ", "))
	}
	return starlark.NewList(out), nil
}

func serverNames(servers []MCPServer) []string {
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = s.Name
	}
	sort.Strings(out)
	return out
}

// decodeJSON turns JSON into Starlark values with json.decode.
func decodeJSON(b json.RawMessage) (starlark.Value, error) {
	return starlark.Call(&starlark.Thread{}, ljson.Module.Members["decode"], starlark.Tuple{starlark.String(b)}, nil)
}

// helpMCP is help()'s section on the MCP servers: one line per server.
// helpToolNames is how many tool names help() lists per server.
const helpToolNames = 50

func (r *interp) helpMCP(sb *strings.Builder) {
	if r.opts.MCP == nil {
		return
	}
	servers := r.opts.MCP.Servers(callOf(r).ctx)
	if len(servers) == 0 {
		return
	}
	sb.WriteString("\n## MCP servers\n")
	sb.WriteString("mcp(server, tool, **arguments) calls a tool; it returns the structured content as values, else the text, " +
		"and a tool error fails the call (try_call catches it). mcp_tools(server=None) lists the tools with their input schemas. ")
	total, indirect := 0, 0
	for _, s := range servers {
		for _, t := range s.Tools {
			total++
			if t.Indirect {
				indirect++
			}
		}
	}
	if indirect == 0 {
		sb.WriteString("The same tools are direct tools named mcp__<server>__<tool>. ")
	} else {
		fmt.Fprintf(sb, "Of these %d tools only the first %d are also direct tools named mcp__<server>__<tool> (direct tools are capped; [mcp] max_direct_tools); "+
			"the other %d are reachable only here, with mcp() (mcp_tools() marks them direct=False). ", total, total-indirect, indirect)
	}
	sb.WriteString("Tools marked * run without asking; the others need the user's approval each call.\n")
	for _, s := range servers {
		if s.Err != "" && len(s.Tools) == 0 {
			fmt.Fprintf(sb, "%s: unavailable (%s)\n", s.Name, firstLine(s.Err))
			continue
		}
		names := make([]string, 0, min(len(s.Tools), helpToolNames+1))
		for i, t := range s.Tools {
			if i == helpToolNames {
				names = append(names, fmt.Sprintf("… %d more (mcp_tools(%q) lists them)", len(s.Tools)-i, s.Name))
				break
			}
			name := t.Name
			if t.Allowed {
				name += "*"
			}
			names = append(names, name)
		}
		note := ""
		if s.Err != "" { // stopped; the next call starts it again
			note = " (" + firstLine(s.Err) + ")"
		}
		fmt.Fprintf(sb, "%s: %s%s\n", s.Name, listOrNone(names), note)
	}
}

// mcpCallRequest is mcp()'s call of the "mcp_call" host service.
type mcpCallRequest struct {
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// The host services behind a worker's mcp() and mcp_tools(): the parent's
// Options.MCP, with the running call's context (Esc cancels a call).
func serveMCPServers(in *interp, c *callState, _ struct{}) ([]MCPServer, error) {
	if in.opts.MCP == nil {
		return nil, fmt.Errorf("internal error: no MCP servers")
	}
	return in.opts.MCP.Servers(c.ctx), nil
}

func serveMCPCall(in *interp, c *callState, req mcpCallRequest) (MCPResult, error) {
	if in.opts.MCP == nil {
		return MCPResult{}, fmt.Errorf("internal error: no MCP servers")
	}
	return in.opts.MCP.Call(c.ctx, req.Server, req.Tool, req.Arguments)
}

// remoteMCP is a worker's Options.MCP: each method is a host call to the
// parent, which makes it on its own MCP.
type remoteMCP struct{ link hostLink }

var _ MCP = remoteMCP{}

func (m remoteMCP) Servers(context.Context) []MCPServer {
	out, _, err := m.link.call("mcp_servers", json.RawMessage("{}"))
	var servers []MCPServer
	if err == nil {
		json.Unmarshal(out, &servers)
	}
	return servers
}

func (m remoteMCP) Call(_ context.Context, server, tool string, arguments json.RawMessage) (MCPResult, error) {
	req, _ := json.Marshal(mcpCallRequest{Server: server, Tool: tool, Arguments: arguments})
	out, _, err := m.link.call("mcp_call", req)
	if err != nil {
		return MCPResult{}, err
	}
	var res MCPResult
	if err := json.Unmarshal(out, &res); err != nil {
		return MCPResult{}, fmt.Errorf("internal error: bad mcp_call reply: %v", err)
	}
	if string(res.Structured) == "null" {
		res.Structured = nil // none, as the parent had it
	}
	return res, nil
}
