// The time source of retry waits and idle timeouts, injectable for tests.

package llm

import (
	"context"
	"math/rand/v2"
	"time"
)

// Clock is the time the client waits by: the pause before a retry (Sleep)
// and the idle timer of each attempt (AfterFunc). Tests pass a fake one
// (llmtest.Clock) so that no test sleeps.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed, unless
	// the returned Timer is stopped first.
	AfterFunc(d time.Duration, f func()) Timer
	// Sleep waits for d, or until ctx ends (then it returns ctx's error).
	Sleep(ctx context.Context, d time.Duration) error
}

// Timer is a pending AfterFunc (*time.Timer satisfies it).
type Timer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// WithClock makes the client wait by c instead of the system clock.
func WithClock(c Clock) Option { return func(cl *Client) { cl.clock = c } }

// WithRand sets the random source of the backoff jitter: a function
// returning numbers in [0, 1).
func WithRand(f func() float64) Option { return func(cl *Client) { cl.rand = f } }

// SystemClock returns the real time as a Clock.
func SystemClock() Clock { return systemClock{} }

// systemClock is the real time.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

func (systemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

var _ Clock = systemClock{}

func defaultRand() float64 { return rand.Float64() }
