// A fake clock for retry waits and idle timeouts: time moves only when told.

package llmtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"harness/llm"
)

// Clock is a fake llm.Clock. Its time moves only with Advance (or, with
// AutoSleep, with every Sleep); timers fire, in their own goroutines, when
// the time reaches them. It records every Sleep, so tests assert the
// waits without waiting. All methods are safe for concurrent use.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	auto    bool
	timers  []*fakeTimer
	sleeps  []time.Duration
	resets  int
	changed chan struct{} // closed and replaced at every change
}

var _ llm.Clock = (*Clock)(nil)

// NewClock returns a clock at 2026-01-02 03:04:05 UTC.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), changed: make(chan struct{})}
}

// AutoSleep makes every Sleep advance the time by its duration and return
// at once (timers due meanwhile fire), and returns c.
func (c *Clock) AutoSleep() *Clock {
	c.mu.Lock()
	c.auto = true
	c.mu.Unlock()
	return c
}

// Now implements llm.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements llm.Clock.
func (c *Clock) AfterFunc(d time.Duration, f func()) llm.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, f: f, at: c.now.Add(d), active: true}
	c.timers = append(c.timers, t)
	c.changedLocked()
	return t
}

// Sleep implements llm.Clock: it records d and waits until the time has
// advanced by d (at once with AutoSleep), or ctx ends.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	if c.auto {
		c.mu.Unlock()
		c.Advance(d)
		return ctx.Err()
	}
	done := make(chan struct{})
	t := &fakeTimer{c: c, f: func() { close(done) }, at: c.now.Add(d), active: true, sleep: true}
	c.timers = append(c.timers, t)
	c.changedLocked()
	c.mu.Unlock()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		t.Stop()
		return ctx.Err()
	}
}

// Advance moves the time by d and fires the timers now due, in order.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	keep := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case !t.active:
		case !t.at.After(c.now):
			t.active = false
			due = append(due, t)
		default:
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.changedLocked()
	c.mu.Unlock()
	for _, t := range due {
		if t.sleep {
			t.f()
		} else {
			go t.f()
		}
	}
}

// Sleeps returns the duration of every Sleep so far, in order.
func (c *Clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// Resets returns how often a timer was reset (the idle timer restarts
// with every read that brought bytes).
func (c *Clock) Resets() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.resets
}

// Pending returns the number of timers and sleeps waiting to fire.
func (c *Clock) Pending() (timers, sleeps int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.timers {
		if t.active && t.sleep {
			sleeps++
		} else if t.active {
			timers++
		}
	}
	return timers, sleeps
}

// WaitFor waits (at most 10 s, then fails the test) until cond holds;
// cond is checked at every change of the clock.
func (c *Clock) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("llmtest.Clock: timed out waiting for %s", what)
		}
	}
}

// WaitSleeping waits until a Sleep is waiting and returns the durations
// of every Sleep so far.
func (c *Clock) WaitSleeping(t testing.TB) []time.Duration {
	t.Helper()
	c.WaitFor(t, "a Sleep", func() bool { _, s := c.Pending(); return s > 0 })
	return c.Sleeps()
}

func (c *Clock) changedLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

type fakeTimer struct {
	c      *Clock
	f      func()
	at     time.Time
	active bool
	sleep  bool
}

// Reset implements llm.Timer.
func (t *fakeTimer) Reset(d time.Duration) bool {
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	was := t.active
	t.at = c.now.Add(d)
	c.resets++
	if !t.active {
		t.active = true
		c.timers = append(c.timers, t)
	}
	c.changedLocked()
	return was
}

// Stop implements llm.Timer.
func (t *fakeTimer) Stop() bool {
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	was := t.active
	t.active = false
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			break
		}
	}
	c.changedLocked()
	return was
}
