package ui

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/rlm"
)

// fakeClock is a clock whose time moves only with Advance. Every After
// call is reported on asked.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeTimer
	asked  chan time.Duration
}

type fakeTimer struct {
	at time.Time
	c  chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), asked: make(chan time.Duration, 100)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
	} else {
		c.timers = append(c.timers, fakeTimer{c.now.Add(d), ch})
	}
	c.mu.Unlock()
	select {
	case c.asked <- d:
	default: // a benchmark asks for thousands and reads none
	}
	return ch
}

// Advance moves the time by d and fires the timers that are due; it
// reports whether there were any.
func (c *fakeClock) Advance(d time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	fired := false
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.c <- c.now
		fired = true
	}
	c.timers = kept
	return fired
}

// waitAsked waits until the pump asks for a timer and returns its length.
func (c *fakeClock) waitAsked(t testing.TB) time.Duration {
	t.Helper()
	select {
	case d := <-c.asked:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("the pump never waited for the next frame")
		return 0
	}
}

// streamUI starts a UI on a fake clock whose first streamed words, "alpha",
// are on screen: the frame interval starts now.
func streamUI(t testing.TB) (*uiTest, *fakeClock) {
	clk := newFakeClock()
	u := startUIClock(t, 60, 12, nil, nil, clk)
	// Let the start-up batch (the first recount) go through, then a
	// whole interval pass.
	done := make(chan struct{})
	u.app.post(func() { close(done) })
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-clk.asked:
			clk.Advance(frameInterval)
		case <-time.After(5 * time.Second):
			t.Fatal("the start-up batch never ran")
		}
	}
	// The batch's frame is drawn once tview runs what is queued after it:
	// the clock moves after it, not during it (which would make it a
	// costly frame).
	u.app.tv.QueueUpdate(func() {})
	clk.Advance(frameInterval)
	u.be.events.Emit(rlm.TextDelta{Text: "alpha"})
	u.waitText("alpha") // drawn at once: no frame for a while
	if n := len(clk.asked); n != 0 {
		t.Fatalf("the first event after a pause waited for %d timers", n)
	}
	return u, clk
}

// TestFramesCoalesce: every delta, and every posted function, that
// arrives within one frame interval is drawn in one frame at its end; then
// the screen is idle.
func TestFramesCoalesce(t *testing.T) {
	for _, n := range []int{1, 2, 50} {
		t.Run(strings.Repeat("d", min(n, 3)), func(t *testing.T) {
			u, clk := streamUI(t)
			u.be.events.Emit(rlm.TextDelta{Text: " beta"})
			if d := clk.waitAsked(t); d != frameInterval {
				t.Fatalf("waited %v, want %v", d, frameInterval)
			}
			var want strings.Builder
			want.WriteString("alpha beta")
			for i := 1; i < n; i++ {
				u.be.events.Emit(rlm.TextDelta{Text: " w"})
				want.WriteString(" w")
			}
			u.app.post(func() { u.app.root.add(kNote, "", "a posted note") })
			before := u.frames.Load()
			if s := u.text(); strings.Contains(s, "beta") || strings.Contains(s, "posted note") {
				t.Fatalf("drawn before the frame was due:\n%s", s)
			}
			clk.Advance(frameInterval)
			u.waitFor("the frame", func(s string) bool {
				return strings.Contains(strings.ReplaceAll(s, "\n", " "), "posted note")
			})
			if got := u.frames.Load() - before; got != 1 {
				t.Errorf("%d events in one interval drew %d frames, want 1", n+1, got)
			}
			if s := strings.Join(strings.Fields(u.text()), " "); !strings.Contains(s, want.String()) {
				t.Errorf("the frame lacks %q:\n%s", want.String(), s)
			}
			// Idle: nothing asks for a frame, however long it stays.
			clk.Advance(time.Second)
			u.text()
			if got := u.frames.Load() - before; got != 1 || len(clk.asked) != 0 {
				t.Errorf("idle: %d frames, %d timers", got, len(clk.asked))
			}
		})
	}
}

// TestFramesKeyDuringStream: a key typed while deltas wait for their frame
// is drawn at once, without them; they follow when their frame is due.
func TestFramesKeyDuringStream(t *testing.T) {
	u, clk := streamUI(t)
	u.be.events.Emit(rlm.TextDelta{Text: " beta"})
	clk.waitAsked(t)
	u.key(tcell.KeyRune, 'x', 0)
	s := u.waitText("> x")
	if strings.Contains(s, "beta") {
		t.Fatalf("the key waited for the stream's frame:\n%s", s)
	}
	clk.Advance(frameInterval)
	u.waitText("alpha beta")
}

// TestFramesAfterPause: an event arriving a frame interval or more after
// the last frame is drawn at once; one arriving sooner waits only for the
// rest of the interval.
func TestFramesAfterPause(t *testing.T) {
	u, clk := streamUI(t)
	clk.Advance(frameInterval)
	u.be.events.Emit(rlm.TextDelta{Text: " beta"})
	u.waitText("alpha beta")
	clk.Advance(10 * time.Millisecond)
	u.be.events.Emit(rlm.TextDelta{Text: " gamma"})
	if d := clk.waitAsked(t); d != frameInterval-10*time.Millisecond {
		t.Errorf("waited %v, want the rest of the interval, %v", d, frameInterval-10*time.Millisecond)
	}
	clk.Advance(frameInterval)
	u.waitText("alpha beta gamma")
}

// TestFramesCostlyFrame: a frame that takes C (here a posted function
// that moves the clock) puts the next one C×frameShare after its start,
// at most maxFrameInterval; a cheap frame after it brings back the frame
// interval.
func TestFramesCostlyFrame(t *testing.T) {
	for _, tc := range []struct {
		cost, want time.Duration
	}{
		{0, frameInterval},
		{time.Millisecond, frameInterval},
		{3 * time.Millisecond, 3 * time.Millisecond * frameShare},
		{20 * time.Millisecond, maxFrameInterval},
	} {
		t.Run(tc.cost.String(), func(t *testing.T) {
			u, clk := streamUI(t)
			clk.Advance(frameInterval)
			u.app.post(func() { clk.Advance(tc.cost) }) // this frame costs tc.cost
			u.be.events.Emit(rlm.TextDelta{Text: " beta"})
			u.waitText("alpha beta")
			u.be.events.Emit(rlm.TextDelta{Text: " gamma"})
			if d := clk.waitAsked(t); d != tc.want-tc.cost {
				t.Errorf("after a frame of %v, waited %v, want %v", tc.cost, d, tc.want-tc.cost)
			}
			clk.Advance(tc.want)
			u.waitText("alpha beta gamma")
			// That frame was cheap: the next waits a frame interval.
			u.be.events.Emit(rlm.TextDelta{Text: " delta"})
			if d := clk.waitAsked(t); d != frameInterval {
				t.Errorf("after a cheap frame, waited %v, want %v", d, frameInterval)
			}
			clk.Advance(frameInterval)
			u.waitText("gamma delta")
		})
	}
}

func TestFrameGap(t *testing.T) {
	for _, tc := range []struct{ cost, want time.Duration }{
		{0, frameInterval},
		{frameInterval / frameShare, frameInterval},
		{2 * time.Millisecond, 32 * time.Millisecond},
		{3 * time.Millisecond, 48 * time.Millisecond},
		{4 * time.Millisecond, maxFrameInterval},
		{time.Second, maxFrameInterval},
	} {
		if got := frameGap(tc.cost); got != tc.want {
			t.Errorf("frameGap(%v) = %v, want %v", tc.cost, got, tc.want)
		}
	}
}
