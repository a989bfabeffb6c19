//go:build linux

package main

import (
	"os"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
	"harness/proctest"
	"harness/sessions/sessiontest"
)

// writeBigSession writes session name in e's home as scripts/uicost
// session does (package sessiontest): turns turns of about 50 transcript
// lines (2,000 turns are 9.6 MB). It returns the file's size.
func writeBigSession(t *testing.T, e *testEnv, name string, turns int) int64 {
	t.Helper()
	path, err := sessiontest.WriteBig(e.home, e.repo, name, turns, 50)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// uiPeakRSS runs the UI with args, streams one 20,000-word paragraph into
// it, waits for the turn's end (saved and counted) and returns harness's
// peak RSS.
func uiPeakRSS(t *testing.T, e *testEnv, args ...string) int64 {
	t.Helper()
	u := e.startUI(args...)
	u.waitText(t, "tokens")
	time.Sleep(500 * time.Millisecond) // the first overlay build and count
	u.master.Write([]byte("Write a long answer.\r"))
	u.waitText(t, "[stream end]")
	u.waitIdle(t)
	pid := u.cmd.Process.Pid
	// The turn's end (saving, counting its tokens) done: RSS steady for
	// a second.
	last := int64(-1)
	for range 30 {
		time.Sleep(time.Second)
		n := proctest.StatusBytes(pid, "VmRSS")
		if n == last {
			break
		}
		last = n
	}
	return proctest.StatusBytes(pid, "VmHWM")
}

// TestResumedSessionRSS: opening a 100,000-line session (2,000 turns,
// 9.6 MB) and streaming a long paragraph into it stays within a bounded
// multiple of the same stream into a new session. Before issue 22's work
// on it, the resumed case peaked at 155 MiB against 41 (uicost.sh, the
// built binary); the request body held through the stream, the turn
// counter's prefix grown by doubling and its /tokenize bodies were most of
// the difference.
func TestResumedSessionRSS(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector multiplies memory use")
	}
	if testing.Short() {
		t.Skip("writes and opens a 9.6 MB session")
	}
	e := newEnv(t)
	long := llmtest.Reply{Content: llmtest.Words(20000, 0) + "\n\n[stream end]", Split: 64,
		Usage: &llm.Usage{PromptTokens: 1000, CompletionTokens: 20000, TotalTokens: 21000}}
	e.srv.Respond(func(r llmtest.Request) llmtest.Reply {
		if b, _ := r.Chat(); len(b.ToolNames()) == 0 {
			return llmtest.Text("Streaming test") // a title
		}
		return long
	})
	size := writeBigSession(t, e, "big", 2000)
	empty := uiPeakRSS(t, e)
	resumed := uiPeakRSS(t, e, "--resume", "big")
	mib := func(n int64) float64 { return float64(n) / (1 << 20) }
	t.Logf("peak RSS: empty %.1f MiB, resumed %.1f MiB (session %.1f MB)", mib(empty), mib(resumed), float64(size)/1e6)
	if empty <= 0 || resumed <= 0 {
		t.Fatal("no VmHWM")
	}
	// The resumed case holds the session decoded (its text, the UI's
	// blocks, the overlay's rows), about 3 times its size, and the
	// garbage collector lets the heap grow to twice what is live.
	// Measured on 2 busy cores: empty 43-58, resumed 100-123 MiB (main
	// before: 46 and 166); the stream is not paced, and how far the heap
	// overshoots depends on how much CPU the collector gets.
	if limit := empty + 10*size; resumed > limit {
		t.Errorf("resumed session peak RSS %.1f MiB, over %.1f MiB (empty %.1f + 10 × the session's %.1f MB)",
			mib(resumed), mib(limit), mib(empty), float64(size)/1e6)
	}
}
