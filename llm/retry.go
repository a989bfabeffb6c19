// The retry policy: which failed attempts are sent again, and after how long.

package llm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Backoff constants of the retry policy.
const (
	// BackoffBase is the ceiling of the first retry's wait; it doubles
	// with each retry up to BackoffCap. The wait is a uniformly random
	// part of the ceiling ("full jitter"), so that clients rate-limited
	// together do not retry together.
	BackoffBase = time.Second
	BackoffCap  = 30 * time.Second
	// MaxServerWait is the longest wait a server may ask for with
	// Retry-After or retry-after-ms; a longer one fails at once with a
	// *WaitError saying when to try again.
	MaxServerWait = 120 * time.Second
)

// Retry describes a failed attempt that is about to be sent again; Stream
// passes it to its callback as a DeltaRetry before waiting Delay.
type Retry struct {
	Attempt int           // the retry about to be made: 1 for the first
	Max     int           // [endpoint] max_retries
	Delay   time.Duration // the wait before it
	Reason  string        // what failed, in a few words: "429 Too Many Requests"
	Err     error         // the attempt's error
}

// Decision is the retry policy's verdict on one failed attempt.
type Decision struct {
	Retry  bool
	Delay  time.Duration // the wait before the retry
	Reason string        // what failed, in a few words (for the retry notice)
	// Err, when Retry is false, is the error to return: err itself, or
	// err wrapped in a *WaitError or *RetriesError.
	Err error
}

// Decide is the retry policy, a pure function. attempt is the number of
// attempts made so far (1 after the first failed), maxRetries the most
// retries allowed, err the attempt's failure (a *StatusError carries the
// response headers), now the time (for Retry-After dates) and rnd a number
// in [0, 1) (the jitter).
//
// Retried: connection failures (refused, reset, EOF, DNS, TLS other than a
// certificate the client rejects), idle timeouts, HTTP 408, 409, 425, 429
// (unless the account is out of quota), 500, 502, 503, 504 and 520–529,
// streams that broke before their finish (cut, malformed chunk), and error
// objects inside a 200 stream that say the server is overloaded, rate
// limited or failed. Everything else is returned at once: 400, 401, 403,
// 404, 413, 422, a context too long, a body that is not an event stream,
// a cancelled context.
//
// The wait is the server's (retry-after-ms, else Retry-After in seconds or
// as an HTTP date) when it gives one, else rnd × min(BackoffBase × 2^(n-1),
// BackoffCap) for retry n. A server wait beyond MaxServerWait fails at once.
func Decide(attempt, maxRetries int, err error, now time.Time, rnd float64) Decision {
	reason, ok := retryable(err)
	if !ok {
		return Decision{Err: err}
	}
	// The notice goes on "REASON: retrying in 4 s": no full stop before it.
	reason = strings.TrimSuffix(reason, ".")
	var se *StatusError
	wait, asked := time.Duration(0), false
	if errors.As(err, &se) {
		wait, asked = ServerDelay(se.Header, now)
	}
	switch {
	case asked && wait > MaxServerWait:
		return Decision{Reason: reason, Err: &WaitError{Err: err, Wait: wait, Until: now.Add(wait)}}
	case attempt > maxRetries:
		if attempt > 1 {
			err = &RetriesError{Err: err, Attempts: attempt}
		}
		return Decision{Reason: reason, Err: err}
	case !asked:
		wait = backoff(attempt, rnd)
	}
	return Decision{Retry: true, Delay: wait, Reason: reason}
}

// backoff is the jittered wait before retry n (1-based).
func backoff(n int, rnd float64) time.Duration {
	ceiling := BackoffCap
	if n >= 1 && n <= 6 {
		ceiling = min(BackoffBase<<(n-1), BackoffCap)
	}
	rnd = min(max(rnd, 0), 1)
	return time.Duration(rnd * float64(ceiling))
}

// ServerDelay returns the wait response headers ask for: retry-after-ms
// (milliseconds, as OpenAI sends), else Retry-After (seconds, or an HTTP
// date relative to now; a date in the past is no wait). ok is false when
// neither header holds a valid value.
func ServerDelay(h http.Header, now time.Time) (d time.Duration, ok bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, ok := nonNegative(v); ok {
			return seconds(ms / 1000), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, ok := nonNegative(v); ok {
		return seconds(s), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

func nonNegative(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f)
}

// seconds converts s to a Duration, saturating far beyond any wait.
func seconds(s float64) time.Duration {
	const limit = 1e9 // about 31 years
	return time.Duration(min(s, limit) * float64(time.Second))
}

// retryable says whether err is worth another attempt, and what failed.
func retryable(err error) (reason string, ok bool) {
	var se *StatusError
	var ie *IdleError
	var ce *ConnectError
	var pe *ProviderError
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "", false
	case errors.As(err, &se):
		return se.short(), retryStatus(se.Code) && !outOfQuota(se.Message) && !ContextExceeded(err)
	case errors.As(err, &ie):
		return ie.Reason(), true
	case errors.As(err, new(*NoProgressError)):
		return (&NoProgressError{}).Reason(), true
	case errors.As(err, new(*LineTooLongError)):
		return (&LineTooLongError{}).Reason(), true
	case errors.As(err, &ce):
		return ce.Reason(), !certificateRejected(ce.Err)
	case errors.As(err, &pe):
		return pe.short(), pe.transient() && !ContextExceeded(err)
	case errors.As(err, new(*notStreamError)):
		return "", false
	case errors.Is(err, ErrTruncated):
		return "the stream broke off", true
	case errors.Is(err, ErrMalformed):
		return "the endpoint sent a malformed chunk", true
	}
	return "", false
}

// retryStatus lists the HTTP statuses that are retried.
func retryStatus(code int) bool {
	switch code {
	case 408, 409, 425, 429, 500, 502, 503, 504:
		return true
	}
	return code >= 520 && code <= 529
}

// outOfQuota reports whether a 429's message says the account has no
// credit left, which waiting does not fix.
func outOfQuota(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "insufficient_quota") || strings.Contains(m, "exceeded your current quota") ||
		strings.Contains(m, "insufficient credits") || strings.Contains(m, "billing")
}

// transientMarkers are words of an in-stream error object that says the
// failure is passing.
var transientMarkers = []string{"overloaded", "rate_limit", "rate limit", "ratelimit", "too many requests",
	"server_error", "internal_error", "internal server error", "unavailable", "timeout", "timed out",
	"try again", "capacity", "busy", "temporarily", "upstream"}

// transient reports whether an error object sent in a stream describes a
// passing failure (overloaded, rate limited, a server failure).
func (e *ProviderError) transient() bool {
	if retryStatus(e.Status) {
		return !outOfQuota(e.Message)
	}
	s := strings.ToLower(e.Code + " " + e.Message)
	for _, m := range transientMarkers {
		if strings.Contains(s, m) {
			return !outOfQuota(s)
		}
	}
	return false
}

// WaitError is a retryable failure whose server asked for a longer wait
// than MaxServerWait: the turn fails at once, saying when to try again.
type WaitError struct {
	Err   error
	Wait  time.Duration
	Until time.Time
}

func (e *WaitError) Error() string {
	return fmt.Sprintf("%v; the server asks to wait %s, until %s, longer than harness waits on its own (%s): try again then",
		e.Err, roundWait(e.Wait), e.Until.Format("2006-01-02 15:04:05 MST"), roundWait(MaxServerWait))
}

func (e *WaitError) Unwrap() error { return e.Err }

// RetriesError is the last failure of a request sent Attempts times.
type RetriesError struct {
	Err      error
	Attempts int
}

func (e *RetriesError) Error() string {
	return fmt.Sprintf("%v (gave up after %d attempts)", e.Err, e.Attempts)
}

func (e *RetriesError) Unwrap() error { return e.Err }

// roundWait prints a wait in whole seconds, or minutes and seconds.
func roundWait(d time.Duration) string {
	s := int(math.Ceil(d.Seconds()))
	if s < 120 {
		return fmt.Sprintf("%d s", s)
	}
	if s%60 == 0 {
		return fmt.Sprintf("%d min", s/60)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}
