// The mcp check, with this test binary as a stdio MCP server.

package doctor_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/llmtest"
)

func TestMain(m *testing.M) {
	if os.Getenv("DOCTOR_TEST_MCP_SERVER") == "1" {
		s := mcp.NewServer(&mcp.Implementation{Name: "doctor-test", Version: "1"}, nil)
		for _, name := range []string{"lookup", "search"} {
			s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					fmt.Fprintln(os.Stderr, "a tool was called")
					os.Exit(9)
					return nil, nil
				})
		}
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestMCPCheck(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("unused"))
	home, launch := setup(t, srv, false)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	extra := fmt.Sprintf(`
[mcp.servers.good]
command = %q
env = { DOCTOR_TEST_MCP_SERVER = "1" }
allow = ["lookup", "nosuch"]

[mcp.servers.missing]
command = "no-such-mcp-server-for-doctor"
`, exe)
	f, err := os.OpenFile(filepath.Join(home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(extra)
	f.Close()
	out, ok := run(t, home, launch, true)
	if ok {
		t.Errorf("doctor passed with a server that cannot start:\n%s", out)
	}
	var mcpLines []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "mcp" {
			mcpLines = append(mcpLines, l)
		}
	}
	if len(mcpLines) != 3 {
		t.Fatalf("mcp lines:\n%s\nall:\n%s", strings.Join(mcpLines, "\n"), out)
	}
	if !strings.HasPrefix(mcpLines[0], "ok    mcp         good: started in ") || !strings.HasSuffix(mcpLines[0], "; 2 tools: lookup, search") {
		t.Errorf("good: %s", mcpLines[0])
	}
	if !strings.HasPrefix(mcpLines[1], "warn  mcp         good: [mcp.servers.good] allow lists \"nosuch\"") {
		t.Errorf("allow warning: %s", mcpLines[1])
	}
	if !strings.HasPrefix(mcpLines[2], `FAIL  mcp         missing: failed to start: command "no-such-mcp-server-for-doctor" not found on PATH; fix: check command`) {
		t.Errorf("missing: %s", mcpLines[2])
	}
	if log, _ := os.ReadFile(filepath.Join(home, "mcp", "good.log")); strings.Contains(string(log), "a tool was called") {
		t.Error("doctor called a tool")
	}
}
