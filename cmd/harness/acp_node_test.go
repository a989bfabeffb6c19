// harness acp against the official TypeScript client,
// @agentclientprotocol/sdk, which .ci/run installs with npm into a cache
// folder outside the repository (skipped, saying why, without node or the
// package).

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"harness/llmtest"
)

// acpSDKVersion is the @agentclientprotocol/sdk version .ci/run installs.
const acpSDKVersion = "2.4.0"

// acpSDK returns node and the SDK's entry file, or skips t saying what is
// missing. HARNESS_ACP_SDK may point at the entry file
// (dist/v1/stable/acp.js) of another installation.
func acpSDK(t *testing.T) (node, entry string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipped: node is not on PATH, so the TypeScript ACP client cannot run")
	}
	entry = os.Getenv("HARNESS_ACP_SDK")
	if entry == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		entry = filepath.Join(cache, "harness-ci", "acp-sdk-"+acpSDKVersion, "node_modules", "@agentclientprotocol", "sdk", "dist", "v1", "stable", "acp.js")
	}
	if _, err := os.Stat(entry); err != nil {
		t.Skipf("skipped: @agentclientprotocol/sdk@%s is not installed at %s (bash .ci/run installs it)", acpSDKVersion, entry)
	}
	return node, entry
}

// TestACPTypeScriptClient runs testdata/acp-client.mjs: the official
// client drives harness acp through a turn with a delegation and one
// approval, with a mentioned file in the prompt, the session list, a mode
// change, session/close and session/load with its replay.
func TestACPTypeScriptClient(t *testing.T) {
	node, entry := acpSDK(t)
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Touch x.","name":"toucher"}`),
		llmtest.Reply{Reasoning: "Running touch.", ToolCalls: []llmtest.ToolCall{{Name: "repl", Arguments: args(map[string]string{"code": `print(run(["touch", "x"])["exit_code"])`})}}},
		llmtest.Text("Touched."),
		llmtest.Text("Touched x."),
	)
	cmd := exec.Command(node, "testdata/acp-client.mjs")
	cmd.Env = append(os.Environ(), "HARNESS_TEST_MAIN=1", "HARNESS_HOME="+e.home,
		"HARNESS_ACP_SDK="+entry, "HARNESS_BIN="+os.Args[0], "REPO="+e.repo)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("acp-client.mjs: %v\n%s", err, stderr.String())
	}
	var summary struct {
		SessionID string   `json:"sessionId"`
		Titles    []string `json:"titles"`
		Thoughts  string   `json:"thoughts"`
	}
	if err := json.Unmarshal(out, &summary); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	want := []string{"FYI", "rlm toucher: Touch x.", "toucher · repl FYI() …", `toucher · repl print(run(["touch", "x"])["exit_code"])`}
	if strings.Join(summary.Titles, "\n") != strings.Join(want, "\n") {
		t.Errorf("titles:\n%s\nwant:\n%s", strings.Join(summary.Titles, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(summary.Thoughts, "toucher: Running touch.") {
		t.Errorf("thoughts %q", summary.Thoughts)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "x")); err != nil {
		t.Errorf("x: %v", err)
	}
	if got := e.chat(0).Messages[0].Content; got != "Touch the file @x" {
		t.Errorf("the prompt sent %q", got)
	}
	if cfg, _ := os.ReadFile(filepath.Join(e.home, "config.toml")); !strings.Contains(string(cfg), `permission = "read-only"`) {
		t.Errorf("session/set_mode did not save the level:\n%s", cfg)
	}
}

// TestCIInstallsACPSDK checks that .ci/run installs acpSDKVersion.
func TestCIInstallsACPSDK(t *testing.T) {
	data, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "acp_sdk_version="+acpSDKVersion+"\n") {
		t.Errorf(".ci/run does not install @agentclientprotocol/sdk@%s; keep the two versions equal", acpSDKVersion)
	}
}
