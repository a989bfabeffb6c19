// Tests that the shipped example is complete, valid and identical to the root copy.

package config

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// exampleWithStore returns the example with its store path set to store.
func exampleWithStore(t *testing.T, store string) string {
	t.Helper()
	text, err := setString(Example, "rlm.store.path", store)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func TestExampleIsTheRootFile(t *testing.T) {
	root, err := os.ReadFile("../config.toml.example")
	if err != nil {
		t.Fatal(err)
	}
	if string(root) != Example {
		t.Fatal("config.toml.example and config/example.toml differ; copy config/example.toml to the repository root")
	}
}

func TestExampleLoads(t *testing.T) {
	d := newDirs(t)
	writeConfig(t, d.home, exampleWithStore(t, d.store))
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ApprovalDescription != nil || cfg.Endpoint.Parameters != nil || cfg.Endpoint.APIKeyEnv != "" {
		t.Errorf("commented-out options are active: %+v", cfg)
	}
	if cfg.REPL.ToolDescription == "" || strings.Contains(cfg.REPL.ToolDescription, "\\") {
		t.Errorf("tool_description = %q", cfg.REPL.ToolDescription)
	}
}

// commentedSetting matches a commented-out table heading or key = value
// line, which the example uses for every optional setting.
var commentedSetting = regexp.MustCompile(`^# (\[[a-z_.]+\]|[a-z_]+ = .*)$`)

// TestExampleOptionsUncommented enables every commented-out setting in the
// example and checks that the result is valid and uses them all.
func TestExampleOptionsUncommented(t *testing.T) {
	d := newDirs(t)
	lines := strings.Split(exampleWithStore(t, d.store), "\n")
	n := 0
	for i, l := range lines {
		if commentedSetting.MatchString(l) {
			lines[i] = strings.TrimPrefix(l, "# ")
			n++
		}
	}
	writeConfig(t, d.home, strings.Join(lines, "\n"))
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatalf("with %d settings uncommented: %v", n, err)
	}
	switch {
	case cfg.Endpoint.APIKeyEnv == "", len(cfg.Endpoint.Parameters) == 0, cfg.Chat.Prompt == nil,
		cfg.RLM.SubagentPrompt == nil, len(cfg.Commands.Allow) == 0, cfg.ApprovalDescription == nil,
		len(cfg.ApprovalDescription.Endpoint.Parameters) == 0:
		t.Errorf("an optional setting stayed inactive: %+v", cfg)
	}
	if len(cfg.MCP) != 2 || cfg.MCP[0].Command == "" || len(cfg.MCP[0].Env) == 0 || len(cfg.MCP[0].Allow) == 0 ||
		cfg.MCP[0].Timeout == 0 || cfg.MCP[1].URL == "" || len(cfg.MCP[1].Headers) == 0 {
		t.Errorf("an [mcp.servers] setting stayed inactive: %+v", cfg.MCP)
	}
}

// TestExampleShowsEveryKey checks that every key of the schema appears in
// the example, active or commented out.
func TestExampleShowsEveryKey(t *testing.T) {
	for key, kind := range schema {
		if kind != leaf {
			continue
		}
		name := key[strings.LastIndexByte(key, '.')+1:]
		if !exampleShows(name) {
			t.Errorf("the example does not show %s", key)
		}
	}
	for _, name := range mcpKeys {
		if !exampleShows(name) {
			t.Errorf("the example does not show mcp.servers.NAME.%s", name)
		}
	}
}

func exampleShows(name string) bool {
	return regexp.MustCompile(`(?m)^(# )?` + name + ` = `).MatchString(Example)
}
