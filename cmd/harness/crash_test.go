package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"harness/llmtest"
	"harness/rlm"
)

// NotRunText is the result of a call that never started.
const NotRunText = rlm.NotRun

// TestKilledMidSubagent: harness is SIGKILLed while a subagent that has
// already written a file waits for its next reply. Resuming, the root is
// told the subagent was interrupted (not "[not run]"), with its file and a
// warning that files may have changed. The temporaries a killed writer
// leaves (planted here with the dead process's pid, in the repository,
// the store and the session) are removed by the next writes into those
// folders; a live process's temporary is kept.
func TestKilledMidSubagent(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"write a.txt","name":"writer"}`),
		llmtest.Call("repl", args(map[string]string{"code": "Path('a.txt').write_text('half done')"})),
		llmtest.Reply{Content: "next", Fail: llmtest.FailStall, After: 2},
		// The resumed turn: the root delegates again; the fixer writes into
		// the repository and the store.
		llmtest.Call("rlm", `{"task":"finish","name":"fixer"}`),
		llmtest.Call("repl", args(map[string]string{"code": "Path('b.txt').write_text('x')\nPath('/store/s.txt').write_text('y')"})),
		llmtest.Text("finished"),
		llmtest.Text("all done"),
	)
	p := e.startJSON("--json", "-p", "go")
	name := p.waitFor("the session", isType("session"))["name"].(string)
	call := p.waitFor("the rlm call", func(m map[string]any) bool { return m["type"] == "tool_call" && m["name"] == "rlm" })["id"].(string)
	p.waitFor("the subagent's stalled reply", func(m map[string]any) bool { return m["type"] == "text_delta" && m["depth"] == float64(1) })
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.wait()
	if b, _ := os.ReadFile(filepath.Join(e.repo, "a.txt")); string(b) != "half done" {
		t.Fatalf("a.txt = %q", b)
	}

	dead := p.cmd.Process.Pid
	sess := filepath.Join(e.home, "sessions", name)
	orphan := func(dir, base string) string {
		return filepath.Join(dir, fmt.Sprintf(".%s.harness-%d-0123456789ab", base, dead))
	}
	orphans := []string{orphan(e.repo, "b.txt"), orphan(e.cfg.RLM.StorePath, "s.txt"), orphan(filepath.Join(sess, "library"), "root.json")}
	live := filepath.Join(e.repo, fmt.Sprintf(".c.txt.harness-%d-0123456789ab", os.Getpid()))
	for _, f := range append(orphans, live) {
		if err := os.WriteFile(f, []byte("torn"), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	out, err := e.command("--resume", name, "-p", "continue").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "all done\n") {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	var result string
	for _, m := range e.chat(3).Messages {
		if m.Role == "tool" && m.ToolCallID == call {
			result = m.Content
		}
	}
	t.Logf("after the crash the root is told: %s", result)
	for _, want := range []string{"[interrupted: ", `subagent "writer"`, "1 tool call (repl 1)",
		"files in the repository or the store may have changed", "library/" + call + ".json"} {
		if !strings.Contains(result, want) {
			t.Errorf("the root was told %q; it lacks %q", result, want)
		}
	}
	if strings.Contains(result, "still running") || strings.Contains(result, NotRunText) {
		t.Errorf("the root was told %q", result)
	}
	for _, f := range orphans {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("orphan %s kept", f)
		}
	}
	if _, err := os.Stat(live); err != nil {
		t.Error("a live process's temporary was removed")
	}
}
