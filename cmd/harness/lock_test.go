package main

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/llmtest"
)

// TestTwoProcessesOneSession: while one harness works in a session (a new
// one: it is locked from its creation), a second process resuming it,
// headless or in the UI, is refused at once with exit 2 naming the session
// and the holder's pid, and sends nothing; the list marks the session in
// use. Once the holder is SIGKILLed, the session resumes: no stale lock.
func TestTwoProcessesOneSession(t *testing.T) {
	e := newEnv(t, llmtest.Reply{Content: "thinking", Fail: llmtest.FailStall, After: 2}, llmtest.Text("resumed"))
	first := e.startJSON("--json", "-p", "go")
	name := first.waitFor("the session line", isType("session"))["name"].(string)
	first.waitFor("the stalled reply", isType("text_delta"))
	holder := fmt.Sprintf("pid %d", first.cmd.Process.Pid)
	requests := len(e.srv.Chats())

	for _, args := range [][]string{{"--resume", name, "-p", "hi"}, {"--resume", name, "--json", "-p", "hi"}, {"--resume", name}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			start := time.Now()
			out, err := e.command(args...).CombinedOutput()
			code := -1
			if ee, ok := err.(interface{ ExitCode() int }); ok {
				code = ee.ExitCode()
			} else if err == nil {
				code = 0
			}
			if code != 2 {
				t.Fatalf("exit %d, want 2\n%s", code, out)
			}
			for _, want := range []string{"session " + name + " is in use", holder} {
				if !strings.Contains(string(out), want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("refused after %v", d)
			}
		})
	}
	if n := len(e.srv.Chats()); n != requests {
		t.Errorf("the refused processes sent %d requests", n-requests)
	}
	list, err := e.command("--resume").Output()
	if err != nil || !strings.Contains(string(list), name+"  ") || !strings.Contains(string(list), "[in use by "+holder+"]") {
		t.Errorf("list (%v):\n%s", err, list)
	}

	first.cmd.Process.Signal(syscall.SIGKILL)
	first.wait()
	if list, _ := e.command("--resume").Output(); strings.Contains(string(list), "in use") {
		t.Errorf("list after the holder died:\n%s", list)
	}
	code, stdout, stderr := e.run(context.Background(), nil, "--resume", name, "-p", "continue")
	if code != 0 || stdout != "resumed\n" {
		t.Fatalf("resume after SIGKILL: exit %d %q %s", code, stdout, stderr)
	}
}
