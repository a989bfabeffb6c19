// Retry notices with a live countdown, and warnings from the wiring.

package ui

import (
	"fmt"
	"math"
	"time"

	"harness/llm"
	"harness/rlm"
)

// Warning is a warning from the wiring about the setup (for example an
// api_key_env variable set nowhere): the wiring emits it on the Stream
// before Run, and it is shown, never saved, under the agent on screen.
type Warning struct {
	Message string
}

// Of implements rlm.Event.
func (Warning) Of() rlm.Agent { return rlm.Agent{} }

// retryState is the App's running retry countdowns. Its clock (nil: the
// system's) is what tests replace.
type retryState struct {
	clock llm.Clock
	notes []*retryNote
}

// retryNote is one retry notice: a note block that counts down to the
// retry, then says it happened (or that the turn stopped first).
type retryNote struct {
	b     *block
	e     rlm.Retry
	until time.Time
	done  bool
}

func (a *App) retryClock() llm.Clock {
	if a.retry.clock == nil {
		a.retry.clock = llm.SystemClock()
	}
	return a.retry.clock
}

// showRetry replaces the failed attempt's streamed blocks by a notice
// counting down to the retry.
func (a *App) showRetry(e rlm.Retry) {
	v := a.viewOf(e.Agent)
	if v == nil {
		return
	}
	v.dropLive()
	// A new failure means the agent's earlier retries were sent, whether
	// or not their countdown's last tick was drawn.
	for _, n := range a.retry.notes {
		if n.e.Agent == e.Agent {
			a.retried(n)
		}
	}
	a.dropDoneRetries()
	v.add(kNote, "", "")
	v.setApart() // where the failed attempt's reply was
	n := &retryNote{b: v.blocks[len(v.blocks)-1], e: e, until: a.retryClock().Now().Add(e.Delay)}
	a.retry.notes = append(a.retry.notes, n)
	a.tickRetry(n)
}

// tickRetry shows the seconds left and schedules the next change.
func (a *App) tickRetry(n *retryNote) {
	if n.done {
		return
	}
	left := n.until.Sub(a.retryClock().Now())
	if left <= 0 {
		a.retried(n)
		a.dropDoneRetries()
		return
	}
	secs := math.Ceil(left.Seconds())
	n.b.set(fmt.Sprintf("%s: retrying in %d s (%d of %d) · Esc stops", n.e.Reason, int(secs), n.e.Attempt, n.e.Max))
	// The number shown changes when left reaches secs-1 seconds.
	next := left - time.Duration((secs-1)*float64(time.Second))
	a.retryClock().AfterFunc(next, func() { a.post(func() { a.tickRetry(n) }) })
}

// retried says on n that its retry was sent.
func (a *App) retried(n *retryNote) {
	if !n.done {
		n.done = true
		n.b.set(fmt.Sprintf("%s: retried (%d of %d)", n.e.Reason, n.e.Attempt, n.e.Max))
	}
}

// endRetries ends the countdowns still running when the turn ends. Only
// a turn stopped (Esc) can end during a wait: one that failed failed on
// the retry, which was sent as its countdown's last tick was due (a
// refused connection fails before that tick is drawn); so was a retry
// whose wait is over.
func (a *App) endRetries(st rlm.Status) {
	now := a.retryClock().Now()
	for _, n := range a.retry.notes {
		switch {
		case n.done:
		case st != rlm.Stopped || !now.Before(n.until):
			a.retried(n)
		default:
			n.done = true
			n.b.set(fmt.Sprintf("%s: stopped before retry %d of %d", n.e.Reason, n.e.Attempt, n.e.Max))
		}
	}
	a.retry.notes = nil
}

func (a *App) dropDoneRetries() {
	keep := a.retry.notes[:0]
	for _, n := range a.retry.notes {
		if !n.done {
			keep = append(keep, n)
		}
	}
	a.retry.notes = keep
}

// showNotice shows an agent's notice (a reply cut at the token limit).
func (a *App) showNotice(ag rlm.Agent, msg string) {
	v := a.viewOf(ag)
	if v == nil {
		v = a.top()
	}
	v.add(kNote, "", "⚠ "+msg)
}
