//go:build linux

// The UI against scripts/faultserver on a real pseudo-terminal.

package main

import (
	"testing"
	"time"
)

// TestFaultServerUIRetryEsc: a 503 asking for 30 s shows the countdown;
// Esc ends the wait at once (the next turn's request goes out long before
// the 30 s), and that request, after a turn that failed before any reply,
// is one a strict chat template accepts.
func TestFaultServerUIRetryEsc(t *testing.T) {
	srv := startFaultServer(t)
	e := faultEnv(t, srv, "ui")
	srv.push("ui", "503-wait 30", "text answered-after-esc")
	u := e.startUI()
	u.waitText(t, "llmtest-model")
	u.master.Write([]byte("go\r"))
	u.waitText(t, "503 Service Unavailable: server_error: Service busy: retrying in 30 s (1 of 2)")
	start := time.Now()
	u.master.Write([]byte("\x1b"))
	u.waitText(t, "[stopped by user]")
	u.master.Write([]byte("again\r"))
	u.waitText(t, "answered-after-esc")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the next turn was answered %v after Esc; the wait was not ended at once", d)
	}
	// The answer is on screen once its stream ended, which can be just
	// before the server records the request's status.
	reqs := srv.requests("ui")
	for deadline := time.Now().Add(5 * time.Second); len(reqs) == 2 && reqs[1].Status == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		reqs = srv.requests("ui")
	}
	if len(reqs) != 2 || reqs[1].Roles != "user assistant tool" || reqs[1].Status != 200 {
		t.Errorf("requests %+v", reqs)
	}
	u.master.Write([]byte("/exit\r"))
	if code := u.exitCode(t); code != 0 {
		t.Errorf("exit %d", code)
	}
}
