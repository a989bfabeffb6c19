package rlm

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/llmtest"
	"harness/mcpclient"
)

// TestMCPDirectToolsCapped: a server with 10,001 tools gets only the first
// mcpclient.DefaultMaxDirectTools of them offered as direct tools; the
// REPL's view has them all, the others marked indirect.
func TestMCPDirectToolsCapped(t *testing.T) {
	const n = 10001
	r := newRig(t, subagent(llmtest.Call("mcp__big__t00127", `{}`))...)
	s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("t%05d", i)
		s.AddTool(&mcp.Tool{Name: name, Description: "Tool " + name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran " + name}}}, nil
			})
	}
	set := mcpclient.Start([]mcpclient.Spec{{Name: "big", Allow: []string{"t00127"}, Dial: func(ctx context.Context) (mcp.Transport, error) {
		c, sv := mcp.NewInMemoryTransports()
		if _, err := s.Connect(ctx, sv, nil); err != nil {
			return nil, err
		}
		return c, nil
	}}}, mcpclient.Options{})
	t.Cleanup(set.Close)
	r.opts.MCP = set
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	direct := 0
	for _, name := range r.chat(1).ToolNames() {
		if strings.HasPrefix(name, "mcp__") {
			direct++
		}
	}
	if direct != mcpclient.DefaultMaxDirectTools {
		t.Errorf("%d direct MCP tools, want %d", direct, mcpclient.DefaultMaxDirectTools)
	}
	if got := lastTool(r, 2); got != "ran t00127" {
		t.Errorf("the last direct tool: %q", got)
	}
	view := replMCP{m: set}.Servers(context.Background())
	if len(view) != 1 || len(view[0].Tools) != n || view[0].Tools[127].Indirect || !view[0].Tools[128].Indirect {
		t.Errorf("the REPL's view: %d servers", len(view))
	}
}
