package ui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
	"harness/rlm"
	"harness/sessions"
)

// cpuTime is the CPU the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// streamRate is the benchmark's stream: 500 tokens a second.
const streamRate = 500

// replayStream runs a turn on a 200×50 simulation screen over items whose
// reply is tokens streamed one per event at streamRate on a fake clock, the
// pump pacing frames by it, and returns the frames drawn and the CPU used
// from the turn's start to its last frame.
func replayStream(b *testing.B, items []sessions.Item, tokens []string) (frames int64, cpu time.Duration) {
	clk := newFakeClock()
	be := &fakeBackend{items: items}
	done := make(chan struct{})
	var start time.Duration
	var u *uiTest
	be.script = func(ctx context.Context, f *fakeBackend, prompt string) {
		root := rlm.Agent{Name: f.SessionName()}
		quiet(b, u, clk) // the turn's first events drawn
		start = cpuTime()
		frames = u.frames.Load()
		step := time.Second / streamRate
		// The clock moves only while the pump is idle or waits for its
		// timer, so the frames are those of a real stream at this rate.
		waiting := false
		for _, tok := range tokens {
			f.events.Emit(rlm.TextDelta{Agent: root, Text: tok})
			if !waiting {
				select { // the pump draws at once or waits for the interval's end
				case <-clk.asked:
					waiting = true
				case <-u.drawn:
				case <-time.After(10 * time.Second):
					b.Fatal("the pump neither drew nor waited")
				}
			}
			if clk.Advance(step) {
				waitSignal(b, u.drawn) // the frame that timer was for
				waiting = false
			}
		}
		f.events.Emit(rlm.Usage{Agent: root, Usage: llm.Usage{TotalTokens: 1000 + len(tokens)}})
		f.add(root, llm.Message{Role: "assistant", Content: strings.Join(tokens, "")})
	}
	u = startUIClock(b, 200, 50, be, nil, clk)
	u.app.main.ov.SetCollapsed(false)
	for u.app.root.building { // a large session's first overlay build
		clk.Advance(frameInterval)
		u.text()
	}
	u.app.tv.QueueUpdate(func() {
		u.app.send("Write a long answer.")
		go func() { <-u.app.turnDone; close(done) }()
	})
	<-done
	for !strings.Contains(u.text(), "ok.") || u.app.running { // the turn's end, drawn
		clk.Advance(frameInterval)
		drainSignal(u.drawn)
		time.Sleep(time.Millisecond)
	}
	return u.frames.Load() - frames, cpuTime() - start
}

// quiet lets the pump draw what it has until it stays idle (20 ms of real
// time with no frame and no timer asked for), draining the signals.
func quiet(b testing.TB, u *uiTest, clk *fakeClock) {
	for {
		select {
		case <-clk.asked:
			clk.Advance(frameInterval)
		case <-u.drawn:
		case <-time.After(20 * time.Millisecond):
			return
		}
	}
}

func drainSignal(c chan struct{}) {
	select {
	case <-c:
	default:
	}
}

func waitSignal(b testing.TB, c chan struct{}) {
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		b.Fatal("no frame")
	}
}

// BenchmarkStream20k: a 20,000-token reply streamed at 500 tokens a second
// (40 s on the fake clock) into the App on a 200×50 simulation screen,
// into a new session and into a 20 MB, 10,000-message one (about 100,000
// transcript lines at 200 columns). Reported: frames drawn, CPU per frame,
// and CPU per second of stream (ms/s; 10 ms/s is 1 % of a core).
//
// The paragraph cases stream 20,000 words as one paragraph (131 KB) in
// chunks of 6 bytes at the same rate: nothing a frame costs may depend
// on the transcript's length, nor on the paragraph's.
func BenchmarkStream20k(b *testing.B) {
	prose := llmtest.Prose(20000)
	paragraph := llmtest.Chunks(llmtest.Words(20000, 0)+" ok.", shapeChunk)
	for _, c := range []struct {
		name   string
		tokens []string
		items  func() []sessions.Item
	}{
		{"empty", prose, func() []sessions.Item { return nil }},
		{"resumed", prose, hugeSession},
		{"paragraph-empty", paragraph, func() []sessions.Item { return nil }},
		{"paragraph-resumed", paragraph, hugeSession},
	} {
		tokens := c.tokens
		seconds := float64(len(tokens)) / streamRate
		b.Run(c.name, func(b *testing.B) {
			items := c.items()
			var frames int64
			var cpu time.Duration
			for b.Loop() {
				f, t := replayStream(b, items, tokens)
				frames += f
				cpu += t
			}
			n := float64(b.N)
			b.ReportMetric(float64(frames)/n, "frames")
			b.ReportMetric(float64(cpu.Microseconds())/float64(frames), "cpu-µs/frame")
			b.ReportMetric(float64(cpu.Milliseconds())/n/seconds, "cpu-ms/s")
		})
	}
}

// TestRunningEstimate: while a reply streams, the status line and the
// context overlay's running turn count it (a live row with its preview),
// frame by frame, without rebuilding the overlay's turns; once saved, the
// message's own estimate replaces it, close to what was shown.
func TestRunningEstimate(t *testing.T) {
	items := []sessions.Item{
		{Message: llm.Message{Role: "user", Content: "first question"}},
		{Message: llm.Message{Role: "assistant", Content: "first answer"}},
	}
	a, scr := benchApp(t, items)
	a.main.ov.SetCollapsed(false)
	a.running = true
	root := rlm.Agent{}
	prompt := llm.Message{Role: "user", Content: "Write a long answer."}
	a.handle(rlm.MessageAdded{Agent: root, Message: prompt}) // the view appends it to its items
	a.main.Draw(scr)
	base, _ := a.root.builder.Total()
	var text strings.Builder
	for i := range 50 {
		word := fmt.Sprintf("word%d \"quoted\"\n", i)
		text.WriteString(word)
		a.handle(rlm.TextDelta{Agent: root, Text: word})
		if a.ovDirty {
			t.Fatal("a delta asks for the overlay's turns to be rebuilt")
		}
		a.main.Draw(scr)
		live := a.root.live[0].liveRowTokens()
		if want := fmt.Sprintf("~%d tokens", base+live); !strings.Contains(a.statusText(), want) {
			t.Fatalf("after %d deltas: status %q, want %s", i+1, a.statusText(), want)
		}
		ov := a.main.ov
		last := ov.lines[len(ov.lines)-1]
		if r := ov.row(last); r.Role != contextRoleAssistant || !strings.HasPrefix(r.Preview, "word0 \"quoted\"") || r.Tokens != live {
			t.Fatalf("after %d deltas: last overlay row %+v", i+1, *r)
		}
		if n, est := ov.tokens(int(last.turn)); n != ov.data.Turns[last.turn].Tokens+live || !est {
			t.Fatalf("after %d deltas: running turn %d (%v), want %d", i+1, n, est, ov.data.Turns[last.turn].Tokens+live)
		}
	}
	shown := a.root.liveTokens
	reply := llm.Message{Role: "assistant", Content: text.String()}
	a.handle(rlm.MessageAdded{Agent: root, Message: reply})
	a.main.Draw(scr)
	want := BuildOverlayTurns(a.root.items, nil, 1)
	if got := a.main.ov.Data().Turns; !reflect.DeepEqual(got, want) || len(a.main.ov.live) != 0 {
		t.Fatalf("after the reply was saved: %+v (live %v), want %+v", got, a.main.ov.live, want)
	}
	saved := want[1].Rows[len(want[1].Rows)-1].Tokens
	if d := shown - saved; d < -3 || d > 3 {
		t.Errorf("the streamed reply was estimated at %d tokens, saved at %d", shown, saved)
	}
	total, _ := OverlayTotal(want)
	if s := a.statusText(); !strings.Contains(s, fmt.Sprintf("~%d tokens", total)) {
		t.Errorf("status %q, want ~%d tokens", s, total)
	}
	// The endpoint's usage does not change the figure: it is the visible
	// turns' count, as the overlay and FYI have it.
	a.handle(rlm.Usage{Agent: root, Usage: llm.Usage{TotalTokens: 5000}})
	a.handle(rlm.TextDelta{Agent: root, Text: "more"})
	more := a.root.live[0].liveRowTokens()
	if s := a.statusText(); !strings.Contains(s, fmt.Sprintf("~%d tokens", total+more)) {
		t.Errorf("status %q, want ~%d tokens", s, total+more)
	}
}
