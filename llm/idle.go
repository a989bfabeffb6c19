// The idle timeout: an attempt ends when the endpoint makes no progress for too long.

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

// IdleError says the endpoint made no progress for Timeout ([endpoint]
// idle_timeout_s): no content, reasoning or tool-call text arrived since
// the request was sent, its response headers arrived, or the last such
// text. Keep-alive comments and empty deltas do not count; Bytes says how
// many of those came meanwhile. The attempt is retried like a broken
// stream.
type IdleError struct {
	Timeout time.Duration
	Phase   string // "before the response headers", "before the first chunk", "after 3 chunks"
	Section string // the config table, "endpoint" or "approval_description.endpoint"
	Bytes   int64  // bytes received without progress (keep-alives, empty chunks)
}

func (e *IdleError) Error() string {
	if e.Bytes == 0 {
		return fmt.Sprintf("the endpoint sent nothing for %s %s; it may be overloaded or stuck ([%s] idle_timeout_s sets how long harness waits; 0 waits forever)",
			secs(e.Timeout), e.Phase, e.Section)
	}
	return fmt.Sprintf("the endpoint sent no content, reasoning or tool call for %s %s, only %s of keep-alives or empty chunks; it may be stuck ([%s] idle_timeout_s sets how long harness waits; 0 waits forever)",
		secs(e.Timeout), e.Phase, byteCount(e.Bytes), e.Section)
}

// Reason says what happened in a few words.
func (e *IdleError) Reason() string {
	if e.Bytes == 0 {
		return fmt.Sprintf("no data for %s %s", secs(e.Timeout), e.Phase)
	}
	return fmt.Sprintf("no progress for %s %s, only keep-alives or empty chunks", secs(e.Timeout), e.Phase)
}

// MaxBytesWithoutProgress is the most an attempt reads without progress
// (keep-alive comments, empty deltas, usage-only chunks) before it is given
// up with a *NoProgressError, whatever idle_timeout_s says (0 included): a
// stream of nothing at full speed ends within seconds, not never.
const MaxBytesWithoutProgress = 64 << 20

// noProgressLimit is MaxBytesWithoutProgress; tests lower it.
var noProgressLimit int64 = MaxBytesWithoutProgress

// NoProgressError says the endpoint sent MaxBytesWithoutProgress bytes
// without any content, reasoning or tool-call text. It is retried like a
// broken stream.
type NoProgressError struct {
	Chunks int // chunks read in the attempt
}

func (e *NoProgressError) Error() string {
	return fmt.Sprintf("the endpoint sent %s after %s without any content, reasoning or tool call (keep-alives or empty chunks only); it may be stuck (the partial reply was kept; try again)",
		byteCount(noProgressLimit), chunks(e.Chunks))
}

// Reason says what happened in a few words.
func (e *NoProgressError) Reason() string {
	return fmt.Sprintf("%s of stream without progress", byteCount(noProgressLimit))
}

// byteCount prints a size in bytes, KiB or MiB.
func byteCount(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// secs prints a duration as seconds ("300 s", "2.5 s").
func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// errIdle is the cause given to the attempt's context when the timer fires.
var errIdle = errors.New("idle timeout")

// errFlood is the cause given when MaxBytesWithoutProgress is passed.
var errFlood = errors.New("no progress")

// watchdog ends one attempt (by cancelling its context) when it made no
// progress for d: the response headers and every content, reasoning or
// tool-call delta restart the timer (progress); other bytes (SSE comments,
// keep-alives, empty deltas) do not, and MaxBytesWithoutProgress of them
// end the attempt even with the timer disabled.
type watchdog struct {
	d       time.Duration
	cancel  context.CancelCauseFunc
	timer   Timer // nil when the timeout is disabled
	fired   atomic.Bool
	headers atomic.Bool
	idle    atomic.Int64 // bytes read since the last progress
	flooded atomic.Bool  // idle passed MaxBytesWithoutProgress
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

// touch restarts the timer.
func (w *watchdog) touch() {
	if w.timer != nil {
		w.timer.Reset(w.d)
	}
}

// progress records content, reasoning or tool-call text.
func (w *watchdog) progress() {
	w.idle.Store(0)
	w.touch()
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

// body wraps a response body so that its bytes are counted.
func (w *watchdog) body(rc io.ReadCloser) io.ReadCloser { return &idleBody{rc, w} }

// explain turns the failure of an attempt whose timer fired into an
// *IdleError; chunks is the number of chunks read.
func (w *watchdog) explain(err error, n int, section string) error {
	if err == nil {
		return nil
	}
	if w.flooded.Load() {
		return &NoProgressError{Chunks: n}
	}
	if !w.fired.Load() {
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
	return &IdleError{Timeout: w.d, Phase: phase, Section: section, Bytes: w.idle.Load()}
}

type idleBody struct {
	io.ReadCloser
	w *watchdog
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.w.idle.Add(int64(n)) > noProgressLimit && !b.w.flooded.Swap(true) {
		b.w.cancel(errFlood)
	}
	return n, err
}
