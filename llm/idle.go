// The idle timeout: an attempt ends when the endpoint sends nothing for too long.

package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"
)

// IdleError says the endpoint sent no byte for Timeout ([endpoint]
// idle_timeout_s): before the response headers, before the first chunk, or
// between chunks. The attempt is retried like a broken stream.
type IdleError struct {
	Timeout time.Duration
	Phase   string // "before the response headers", "before the first chunk", "after 3 chunks"
	Section string // the config table, "endpoint" or "approval_description.endpoint"
}

func (e *IdleError) Error() string {
	return fmt.Sprintf("the endpoint sent nothing for %s %s; it may be overloaded or stuck ([%s] idle_timeout_s sets how long harness waits; 0 waits forever)",
		secs(e.Timeout), e.Phase, e.Section)
}

// Reason says what happened in a few words.
func (e *IdleError) Reason() string {
	return fmt.Sprintf("no data for %s %s", secs(e.Timeout), e.Phase)
}

// secs prints a duration as seconds ("300 s", "2.5 s").
func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// errIdle is the cause given to the attempt's context when the timer fires.
var errIdle = errors.New("idle timeout")

// watchdog ends one attempt (by cancelling its context) when no byte
// arrived for d. Every byte read through its body counts, SSE comments
// and keep-alives included; so do the response headers.
type watchdog struct {
	d       time.Duration
	cancel  context.CancelCauseFunc
	timer   Timer // nil when the timeout is disabled
	fired   atomic.Bool
	headers atomic.Bool
}

func newWatchdog(c Clock, d time.Duration, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{d: d, cancel: cancel}
	if d > 0 {
		w.timer = c.AfterFunc(d, w.fire)
	}
	return w
}

func (w *watchdog) fire() {
	w.fired.Store(true)
	w.cancel(errIdle)
}

// touch restarts the timer: a byte arrived.
func (w *watchdog) touch() {
	if w.timer != nil {
		w.timer.Reset(w.d)
	}
}

// gotHeaders records the response headers (which count as bytes).
func (w *watchdog) gotHeaders() {
	w.headers.Store(true)
	w.touch()
}

func (w *watchdog) stop() {
	if w.timer != nil {
		w.timer.Stop()
	}
}

// body wraps a response body so that every read restarts the timer.
func (w *watchdog) body(rc io.ReadCloser) io.ReadCloser { return &idleBody{rc, w} }

// explain turns the failure of an attempt whose timer fired into an
// *IdleError; chunks is the number of chunks read.
func (w *watchdog) explain(err error, n int, section string) error {
	if err == nil || !w.fired.Load() {
		return err
	}
	phase := "before the response headers"
	switch {
	case !w.headers.Load():
	case n == 0:
		phase = "before the first chunk"
	default:
		phase = "after " + chunks(n)
	}
	return &IdleError{Timeout: w.d, Phase: phase, Section: section}
}

type idleBody struct {
	io.ReadCloser
	w *watchdog
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.w.touch()
	}
	return n, err
}
