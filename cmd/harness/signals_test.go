package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/llmtest"
	"harness/proctest"
	"harness/sessions"
)

// runCommandEnv is an environment whose subagent runs argv with run(),
// with sh and sleep allow-listed.
func runCommandEnv(t *testing.T, argv ...string) *testEnv {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"run it","name":"runner"}`),
		llmtest.Call("repl", args(map[string]string{"code": "run(" + args(argv) + ")"})),
		llmtest.Text("ran"), llmtest.Text("done"),
	)
	e.allow("sh", "/bin/sh")
	e.allow("sleep", "/bin/sleep")
	return e
}

// backgrounded is a command leaving two sleeps, one of them a grandchild
// of harness in the background.
func backgrounded(m string) []string {
	return []string{"sh", "-c", "sleep " + m + " & sleep " + m + "; wait"}
}

// TestStopSignalsHeadless: SIGTERM and SIGHUP stop every agent like Esc:
// the run() process group (the shell and both sleeps) is killed, the
// session is saved with the stop, and harness exits 143 / 129.
func TestStopSignalsHeadless(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			m := proctest.Marker()
			killAll(t, m)
			e := runCommandEnv(t, backgrounded(m)...)
			p := e.startJSON("--json", "-p", "go")
			name := p.waitFor("the session", isType("session"))["name"].(string)
			if n := proctest.WaitCount(m, 3, 30*time.Second); n != 3 {
				t.Fatalf("%d processes started, want 3 (the shell and two sleeps)", n)
			}
			p.cmd.Process.Signal(tc.sig)
			if code := p.wait(); code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, p.stderr.String())
			}
			if n := proctest.WaitCount(m, 0, 5*time.Second); n != 0 {
				t.Errorf("%d processes left running", n)
			}
			if last := p.stdout()[strings.LastIndex(p.stdout(), "\n")+1:]; !strings.Contains(last, `"type":"turn_done"`) || !strings.Contains(last, `"status":"stopped"`) {
				t.Errorf("last line %s", last)
			}
			root, err := sessions.Load(filepath.Join(e.home, "sessions", name, "library", "root.json"))
			if err != nil {
				t.Fatal(err)
			}
			if got := lastMessage(root.Messages()).Content; !strings.HasSuffix(got, "[stopped by user]") {
				t.Errorf("saved root ends with %q", got)
			}
			if !strings.Contains(p.stderr.String(), "stopping every agent and saving the session") {
				t.Errorf("stderr %s", p.stderr.String())
			}
		})
	}
}

// TestSIGKILLLeavesNoCommand: a SIGKILLed harness cannot clean up, yet
// the commands it ran die with it: the command itself by its parent-death
// signal (even without the reaper), and what it started in the background
// with its process group, killed by the reaper.
func TestSIGKILLLeavesNoCommand(t *testing.T) {
	for _, tc := range []struct {
		name     string
		argv     func(m string) []string
		n        int
		noReaper bool
	}{
		{"a command", func(m string) []string { return []string{"sleep", m} }, 1, false},
		{"a command without the reaper", func(m string) []string { return []string{"sleep", m} }, 1, true},
		{"a shell with a background child", backgrounded, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := proctest.Marker()
			killAll(t, m)
			e := runCommandEnv(t, tc.argv(m)...)
			if tc.noReaper {
				t.Setenv("HARNESS_TEST_NO_REAPER", "1")
			}
			p := e.startJSON("--json", "-p", "go")
			if n := proctest.WaitCount(m, tc.n, 30*time.Second); n != tc.n {
				t.Fatalf("%d processes started, want %d", n, tc.n)
			}
			p.cmd.Process.Signal(syscall.SIGKILL)
			p.wait()
			if n := proctest.WaitCount(m, 0, 5*time.Second); n != 0 {
				t.Errorf("%d processes left running after SIGKILL", n)
			}
		})
	}
}
