package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
	"harness/rlm"
)

// replaySiblings is replayStream for n subagents streaming at once: on
// each step of the fake clock every one of them gets a token, so each
// streams at streamRate. It returns the frames drawn and the CPU used.
func replaySiblings(b *testing.B, n int, tokens []string) (frames int64, cpu time.Duration) {
	clk := newFakeClock()
	be := &fakeBackend{}
	done := make(chan struct{})
	var start time.Duration
	var u *uiTest
	be.script = func(ctx context.Context, f *fakeBackend, prompt string) {
		var names []string
		for i := range n {
			names = append(names, fmt.Sprintf("agent%d", i))
		}
		subs := parallelStart(f, names...)
		quiet(b, u, clk)
		start = cpuTime()
		frames = u.frames.Load()
		step := time.Second / streamRate
		waiting := false
		for _, tok := range tokens {
			for _, s := range subs {
				f.events.Emit(rlm.TextDelta{Agent: s, Text: tok})
			}
			if !waiting {
				select {
				case <-clk.asked:
					waiting = true
				case <-u.drawn:
				case <-time.After(10 * time.Second):
					b.Fatal("the pump neither drew nor waited")
				}
			}
			if clk.Advance(step) {
				waitSignal(b, u.drawn)
				waiting = false
			}
		}
		for _, s := range subs {
			f.events.Emit(rlm.Usage{Agent: s, Usage: llm.Usage{TotalTokens: 1000 + len(tokens)}})
			f.add(s, llm.Message{Role: "assistant", Content: strings.Join(tokens, "")})
			f.events.Emit(rlm.AgentEnd{Agent: s, Result: "done"})
		}
		reply(f, rlm.Agent{Name: f.SessionName()}, "", "all siblings ok.")
	}
	u = startUIClock(b, 200, 50, be, nil, clk)
	u.app.main.ov.SetCollapsed(false)
	u.app.tv.QueueUpdate(func() {
		u.app.send("Delegate.")
		go func() { <-u.app.turnDone; close(done) }()
	})
	<-done
	for !strings.Contains(u.text(), "all siblings ok.") || u.app.running {
		clk.Advance(frameInterval)
		drainSignal(u.drawn)
		time.Sleep(time.Millisecond)
	}
	return u.frames.Load() - frames, cpuTime() - start
}

// BenchmarkStreamSiblings: 5,000 tokens streamed at 500 tokens a second
// (10 s on the fake clock) by one subagent, then by four at once, each at
// that rate, the transcript following one of them and the strip shown.
// Reported as BenchmarkStream20k reports; the goal for four is within
// 1.5× the CPU of one.
func BenchmarkStreamSiblings(b *testing.B) {
	tokens := llmtest.Prose(5000)
	seconds := float64(len(tokens)) / streamRate
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var frames int64
			var cpu time.Duration
			for b.Loop() {
				f, t := replaySiblings(b, n, tokens)
				frames += f
				cpu += t
			}
			k := float64(b.N)
			b.ReportMetric(float64(frames)/k, "frames")
			b.ReportMetric(float64(cpu.Microseconds())/float64(frames), "cpu-µs/frame")
			b.ReportMetric(float64(cpu.Milliseconds())/k/seconds, "cpu-ms/s")
		})
	}
}
