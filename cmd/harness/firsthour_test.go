//go:build linux

// A newcomer's first session on a real pseudo-terminal: the welcome, ?, a
// fix asked about at read-only, a command refused with a note, Ctrl+C.

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/llmtest"
)

// TestFirstSession: the welcome names the repository and the level; ?
// shows the keys; the subagent's patch at read-only is put to the person
// and y applies it that once (config.toml still says read-only); a
// command's approval leads with its line, t refuses it with a note, and
// the note is what the endpoint receives as the run() call's error; Ctrl+C
// on an empty input asks again, and a second one exits.
func TestFirstSession(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: median.go\n@@\n-return xs[n/2]\n+return (xs[n/2-1] + xs[n/2]) / 2\n*** End Patch\n"
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"Fix Median.","name":"fixer"}`),
		llmtest.Call("apply_patch", args(map[string]string{"patch": patch})),
		llmtest.Call("repl", args(map[string]string{"code": `run(["sh", "-c", "echo hi"])`})),
		llmtest.Text("Fixed."),
		llmtest.Text("Median is fixed."),
	)
	e.setConfig(`permission = "read-write"`, `permission = "read-only"`)
	os.WriteFile(filepath.Join(e.repo, "median.go"), []byte("return xs[n/2]\n"), 0o644)
	u := e.startUI()
	u.waitText(t, "repository "+e.repo)
	u.waitText(t, "read-only: agents can read the repository; a change asks you first")
	u.master.Write([]byte("?"))
	u.waitText(t, "complete the command chosen in the list")
	u.master.Write([]byte("fix the bug in Median\r"))
	u.waitText(t, "write  median.go  in /repository  (permission read-only)")
	u.master.Write([]byte("y"))
	u.waitText(t, "run  sh -c 'echo hi'  in /repository  (not sandboxed)")
	u.master.Write([]byte("t"))
	u.waitText(t, "note for the model>")
	u.master.Write([]byte("use make test instead\r"))
	u.waitText(t, "Median is fixed.")
	if got, _ := os.ReadFile(filepath.Join(e.repo, "median.go")); string(got) != "return (xs[n/2-1] + xs[n/2]) / 2\n" {
		t.Errorf("median.go = %q", got)
	}
	if cfg, _ := os.ReadFile(filepath.Join(e.home, "config.toml")); !strings.Contains(string(cfg), `permission = "read-only"`) {
		t.Error("allowing one write changed the saved level")
	}
	sent := lastMessage(e.chat(3).Messages).Content
	if !strings.Contains(sent, "the user refused to run sh and wrote: use make test instead") {
		t.Errorf("the endpoint received %q as the command's result", sent)
	}
	if applied := lastMessage(e.chat(2).Messages).Content; !strings.HasPrefix(applied, "M median.go") {
		t.Errorf("the patch's result %q", applied)
	}
	u.waitIdle(t)
	u.master.Write([]byte{3}) // Ctrl+C, idle: asks
	u.waitText(t, "Ctrl+C again to exit")
	u.master.Write([]byte{3})
	if code := u.exitCode(t); code != 0 {
		t.Errorf("exit %d", code)
	}
}
