// End-to-end tests of the REPL workers and run()'s sandbox through the
// whole program: a memory bomb and sandboxed writes in headless runs.

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"harness/llmtest"
	"harness/sandbox"
)

// editConfig replaces old with new in the test home's config.toml and
// reloads it.
func (e *testEnv) editConfig(old, new string) {
	e.t.Helper()
	p := filepath.Join(e.home, "config.toml")
	data, _ := os.ReadFile(p)
	if !bytes.Contains(data, []byte(old)) {
		e.t.Fatalf("config.toml lacks %q", old)
	}
	os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o600)
	e.cfg = e.load()
}

// results returns the contents of the tool_result lines of --json output.
func results(t *testing.T, stdout string) []string {
	var out []string
	for _, l := range ofType(jsonLines(t, stdout), "tool_result") {
		out = append(out, l["content"].(string))
	}
	return out
}

// TestMemoryBombThroughHarness runs a doubling string under max_memory_mb
// = 64 as a subagent's REPL call: the call ends with its state lost, the
// next call works, and harness finishes the turn.
func TestMemoryBombThroughHarness(t *testing.T) {
	if raceBuild {
		t.Skip("race-detector builds set no memory ceiling")
	}
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"use memory","name":"bomber"}`),
		llmtest.Call("repl", args(map[string]string{"code": "keep = 1\ns = 'x' * 1000000\nwhile True:\n    s = s + s"})),
		llmtest.Call("repl", args(map[string]string{"code": "print(1 + 1)\nkeep"})),
		llmtest.Text("the REPL lost its state"),
		llmtest.Text("All done."),
	)
	e.editConfig("max_memory_mb = 2048", "max_memory_mb = 64")
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res := results(t, stdout)
	var bomb, next string
	for i, r := range res {
		if strings.Contains(r, "REPL state lost") {
			bomb = r
			if i+1 < len(res) {
				next = res[i+1]
			}
		}
	}
	if !strings.Contains(bomb, "max_memory_mb = 64") {
		t.Fatalf("no state-lost result naming the limit among %q", res)
	}
	if !strings.HasPrefix(next, "2\n") || !strings.Contains(next, "undefined: keep") {
		t.Errorf("the call after the bomb: %q", next)
	}
	if rss := selfPeakRSS(); rss > 512<<20 {
		t.Errorf("harness's peak RSS %d MiB", rss>>20)
	}
}

// TestSandboxThroughHarness allows sh and confines it to the workspace:
// a write in the repository lands, one in $HOME is refused.
func TestSandboxThroughHarness(t *testing.T) {
	if abi := sandbox.ABI(); abi < 3 {
		t.Skipf("needs Landlock ABI 3; this kernel offers %d", abi)
	}
	home, err := os.UserHomeDir()
	if err != nil || strings.HasPrefix(home, os.TempDir()) {
		t.Skip("no home directory outside the temp folder")
	}
	forbidden := filepath.Join(home, ".harness-e2e-sandbox-"+filepath.Base(t.TempDir()))
	t.Cleanup(func() { os.Remove(forbidden) })
	script := "echo in > in.txt; echo out > " + forbidden
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"write files","name":"writer"}`),
		llmtest.Call("repl", args(map[string]string{"code": "r = run(['sh', '-c', " + quote(script) + "])\nprint(r['exit_code'], r['stderr'])"})),
		llmtest.Text("wrote"),
		llmtest.Text("All done."),
	)
	e.editConfig("\n[commands.allow]\n", "\n[commands.allow]\nsh = \"/bin/sh\"\n")
	e.editConfig("\n[commands]\n", "\n[commands]\nsandbox = \"workspace\"\n")
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(e.repo, "in.txt")); string(data) != "in\n" {
		t.Errorf("the write in the repository: %q", data)
	}
	if _, err := os.Stat(forbidden); err == nil {
		t.Errorf("%s was written", forbidden)
	}
	var got string
	for _, r := range results(t, stdout) {
		if strings.Contains(r, "Permission denied") {
			got = r
		}
	}
	if !strings.HasPrefix(got, "2 ") {
		t.Errorf("the command's result does not report the refused write: %q", results(t, stdout))
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// selfPeakRSS returns this process's VmHWM in bytes.
func selfPeakRSS() int64 {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return -1
}
