package main

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/llmtest"
	"harness/proctest"
)

// leaveBehind is a shell script that starts n background sleeps, one
// more in a session of its own (setsid) and one more by a double fork,
// all carrying the marker m, and then either returns at once or, with
// wait, sleeps in the foreground too: n+2 processes, or n+4 with the
// shell (whose script names the marker) and its foreground sleep.
func leaveBehind(m string, n int, wait bool) string {
	s := fmt.Sprintf("for i in $(seq %d); do sleep %s >/dev/null 2>&1 & done; setsid sleep %s >/dev/null 2>&1 & (sleep %s >/dev/null 2>&1 &); ", n, m, m, m)
	if wait {
		return s + "sleep " + m
	}
	return s + "exit 0"
}

// TestNothingOutlivesHarness runs a command that leaves processes behind
// (background children, a setsid one, a double fork) and ends harness
// each way it can end: when the turn is done, by SIGINT, SIGTERM, SIGHUP
// and SIGKILL, while the command runs or after it returned. No process
// carrying the marker may be left.
func TestNothingOutlivesHarness(t *testing.T) {
	const n = 20
	for _, tc := range []struct {
		name    string
		sig     syscall.Signal // 0: the turn ends by itself
		running bool           // the command is still running when the signal comes
	}{
		{"turn done", 0, false},
		{"SIGINT after the command", syscall.SIGINT, false},
		{"SIGTERM after the command", syscall.SIGTERM, false},
		{"SIGHUP after the command", syscall.SIGHUP, false},
		{"SIGKILL after the command", syscall.SIGKILL, false},
		{"SIGTERM while it runs", syscall.SIGTERM, true},
		{"SIGKILL while it runs", syscall.SIGKILL, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := proctest.Marker()
			killAll(t, m)
			next := []llmtest.Reply{llmtest.Text("ran"), llmtest.Text("done")}
			if tc.sig != 0 {
				next = []llmtest.Reply{{Fail: llmtest.FailStall}} // harness waits there for the signal
			}
			e := newEnv(t, append([]llmtest.Reply{
				llmtest.Call("rlm", `{"task":"run it","name":"runner"}`),
				llmtest.Call("repl", args(map[string]string{"code": "run(" + args([]string{"sh", "-c", leaveBehind(m, n, tc.running)}) + ")"})),
			}, next...)...)
			e.allow("sh", "/bin/sh")
			p := e.startJSON("--json", "-p", "go")
			want := n + 2
			if tc.running {
				want += 2 // the shell and its foreground sleep
			}
			if got := proctest.WaitCount(m, want, 30*time.Second); got != want {
				t.Fatalf("%d processes started, want %d", got, want)
			}
			if tc.sig != 0 {
				if !tc.running {
					<-e.srv.Stalled() // the command returned; the subagent waits for its next reply
				}
				p.cmd.Process.Signal(tc.sig)
			}
			code := p.wait()
			if tc.sig == 0 && code != 0 {
				t.Errorf("exit %d\n%s", code, p.stderr.String())
			}
			if left := proctest.WaitCount(m, 0, 5*time.Second); left != 0 {
				t.Errorf("%d of %d processes outlived harness", left, want)
			}
		})
	}
}

// TestEnvironHidden: a command cannot read harness's environment through
// its parent's /proc entry (which root can read of any process), a
// variable env_filter removes from its own environment included.
func TestEnvironHidden(t *testing.T) {
	const secret = "s3cret-env-value-20"
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"look","name":"looker"}`),
		llmtest.Call("repl", args(map[string]string{"code": `r = run(["sh", "-c", "tr '\\0' '\\n' < /proc/$PPID/environ; echo; env; echo read-ok"])` + "\nprint(r['stdout'], r['stderr'])"})),
		llmtest.Text("looked"), llmtest.Text("done"))
	e.allow("sh", "/bin/sh")
	e.setConfig(`env_filter = [`, `env_filter = ["HARNESS_TEST_HIDDEN", `)
	cmd := e.command("--json", "-p", "go")
	cmd.Env = append(cmd.Env, "HARNESS_TEST_HIDDEN="+secret)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	res := results(t, string(out))
	if len(res) != 1 || !strings.Contains(res[0], "read-ok") {
		t.Fatalf("results %q", res)
	}
	if strings.Contains(res[0], secret) {
		t.Errorf("the command read harness's environment:\n%s", res[0])
	}
}

// TestFailedSaveExits1: when a subagent's conversation file cannot be
// written (the file-size limit stands in for a full disk), harness -p
// says so and exits 1, although the root answered.
func TestFailedSaveExits1(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"print a lot","name":"printer"}`),
		llmtest.Call("repl", args(map[string]string{"code": `print("x" * 90000)`})),
		llmtest.Text("the root answered anyway"))
	cmd := e.command("-p", "go")
	cmd.Env = append(cmd.Env, "HARNESS_TEST_FSIZE=60000")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "the session was not saved completely") || !strings.Contains(stderr.String(), "file too large") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}
