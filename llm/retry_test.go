// Table tests of the retry policy: a pure function, so no clock and no server.

package llm_test

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/llm"
)

var policyNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func status(code int, msg string, header ...string) *llm.StatusError {
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return &llm.StatusError{URL: "http://x/v1/chat/completions", Code: code, Message: msg, Header: h}
}

func TestDecide(t *testing.T) {
	refused := &llm.ConnectError{URL: "http://x", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		name     string
		attempt  int
		max      int
		err      error
		rnd      float64
		retry    bool
		delay    time.Duration
		reason   string // a fragment of Decision.Reason
		errIs    string // a fragment of Decision.Err when not retried
		waitErr  bool
		triesErr bool
	}{
		{name: "429 first retry, half jitter", attempt: 1, max: 4, err: status(429, ""), rnd: 0.5, retry: true, delay: 500 * time.Millisecond, reason: "429 Too Many Requests"},
		{name: "429 third retry doubles twice", attempt: 3, max: 4, err: status(429, ""), rnd: 0.5, retry: true, delay: 2 * time.Second},
		{name: "full jitter can be zero", attempt: 2, max: 4, err: status(503, ""), rnd: 0, retry: true, delay: 0},
		{name: "sixth retry reaches the cap", attempt: 6, max: 10, err: status(500, ""), rnd: 0.5, retry: true, delay: 15 * time.Second},
		{name: "tenth retry stays at the cap", attempt: 10, max: 10, err: status(500, ""), rnd: 0.999, retry: true, delay: time.Duration(0.999 * float64(30*time.Second))},
		{name: "Retry-After seconds", attempt: 1, max: 4, err: status(429, "slow down", "Retry-After", "7"), rnd: 0.5, retry: true, delay: 7 * time.Second, reason: "429 Too Many Requests: slow down"},
		{name: "Retry-After fractional seconds", attempt: 1, max: 4, err: status(503, "", "Retry-After", "1.5"), rnd: 0.5, retry: true, delay: 1500 * time.Millisecond},
		{name: "Retry-After HTTP date", attempt: 1, max: 4, err: status(429, "", "Retry-After", policyNow.Add(20*time.Second).Format(http.TimeFormat)), rnd: 0.5, retry: true, delay: 20 * time.Second},
		{name: "Retry-After date in the past", attempt: 1, max: 4, err: status(429, "", "Retry-After", policyNow.Add(-time.Hour).Format(http.TimeFormat)), rnd: 0.5, retry: true, delay: 0},
		{name: "retry-after-ms wins", attempt: 2, max: 4, err: status(429, "", "Retry-After", "9", "retry-after-ms", "250"), rnd: 0.5, retry: true, delay: 250 * time.Millisecond},
		{name: "Retry-After not understood: backoff", attempt: 1, max: 4, err: status(429, "", "Retry-After", "soon"), rnd: 0.5, retry: true, delay: 500 * time.Millisecond},
		{name: "Retry-After at the limit", attempt: 1, max: 4, err: status(429, "", "Retry-After", "120"), rnd: 0.5, retry: true, delay: 120 * time.Second},
		{name: "Retry-After beyond the limit", attempt: 1, max: 4, err: status(429, "", "Retry-After", "121"), rnd: 0.5, waitErr: true, errIs: "until 2026-01-02 03:06:06 UTC"},
		{name: "long wait even on the last attempt", attempt: 5, max: 4, err: status(503, "", "Retry-After", "3600"), waitErr: true, errIs: "wait 60 min"},
		{name: "retries exhausted", attempt: 5, max: 4, err: status(502, ""), rnd: 0.5, triesErr: true, errIs: "gave up after 5 attempts"},
		{name: "no retries configured", attempt: 1, max: 0, err: status(502, ""), rnd: 0.5, errIs: "502 Bad Gateway"},
		{name: "out of quota", attempt: 1, max: 4, err: status(429, "insufficient_quota: You exceeded your current quota"), errIs: "quota"},
		{name: "context too long as 400", attempt: 1, max: 4, err: status(400, "maximum context length is 4096 tokens"), errIs: "400"},
		{name: "context too long as 413", attempt: 1, max: 4, err: status(413, ""), errIs: "413"},
		{name: "connection refused", attempt: 1, max: 4, err: refused, rnd: 0.5, retry: true, delay: 500 * time.Millisecond, reason: "connection refused"},
		{name: "certificate rejected", attempt: 1, max: 4, err: &llm.ConnectError{URL: "https://x", Err: x509.UnknownAuthorityError{}}, errIs: "cannot connect"},
		{name: "idle timeout", attempt: 1, max: 4, err: &llm.IdleError{Timeout: 300 * time.Second, Phase: "after 3 chunks", Section: "endpoint"}, rnd: 0.5, retry: true, delay: 500 * time.Millisecond, reason: "no data for 300 s after 3 chunks"},
		{name: "cut stream", attempt: 1, max: 4, err: fmt.Errorf("%w: unexpected EOF", llm.ErrTruncated), rnd: 0.5, retry: true, delay: 500 * time.Millisecond, reason: "broke off"},
		{name: "malformed chunk", attempt: 1, max: 4, err: fmt.Errorf("%w after 2 chunks", llm.ErrMalformed), rnd: 0.5, retry: true, delay: 500 * time.Millisecond, reason: "malformed"},
		{name: "overloaded event", attempt: 1, max: 4, err: &llm.ProviderError{Code: "overloaded_error", Message: "Overloaded"}, rnd: 0.5, retry: true, delay: 500 * time.Millisecond, reason: "overloaded_error"},
		{name: "rate limit event", attempt: 1, max: 4, err: &llm.ProviderError{Message: "Rate limit reached for requests"}, rnd: 0.5, retry: true, delay: 500 * time.Millisecond},
		{name: "event with a 503 code", attempt: 1, max: 4, err: &llm.ProviderError{Code: "server_error", Message: "boom", Status: 503}, rnd: 0.5, retry: true, delay: 500 * time.Millisecond},
		{name: "invalid request event", attempt: 1, max: 4, err: &llm.ProviderError{Code: "invalid_request_error", Message: "messages: bad role"}, errIs: "bad role"},
		{name: "context event", attempt: 1, max: 4, err: &llm.ProviderError{Code: "context_length_exceeded", Message: "too long, try again with less"}, errIs: "context_length_exceeded"},
		{name: "cancelled", attempt: 1, max: 4, err: context.Canceled, errIs: "canceled"},
		{name: "unknown error", attempt: 1, max: 4, err: errors.New("encode request: bad"), errIs: "encode request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := llm.Decide(tc.attempt, tc.max, tc.err, policyNow, tc.rnd)
			if d.Retry != tc.retry {
				t.Fatalf("Retry = %v, want %v (%+v)", d.Retry, tc.retry, d)
			}
			if tc.retry {
				if d.Delay != tc.delay {
					t.Errorf("Delay = %v, want %v", d.Delay, tc.delay)
				}
				if d.Err != nil {
					t.Errorf("Err = %v for a retry", d.Err)
				}
			} else if d.Err == nil || !strings.Contains(d.Err.Error(), tc.errIs) {
				t.Errorf("Err = %v, want it to contain %q", d.Err, tc.errIs)
			}
			if !strings.Contains(d.Reason, tc.reason) {
				t.Errorf("Reason = %q, want it to contain %q", d.Reason, tc.reason)
			}
			var we *llm.WaitError
			if errors.As(d.Err, &we) != tc.waitErr {
				t.Errorf("WaitError = %v, want %v", we, tc.waitErr)
			}
			var re *llm.RetriesError
			if errors.As(d.Err, &re) != tc.triesErr {
				t.Errorf("RetriesError = %v, want %v", re, tc.triesErr)
			}
			if d.Err != nil && !errors.Is(d.Err, tc.err) {
				t.Errorf("Err does not wrap the attempt's error")
			}
		})
	}
}

// TestDecideStatuses lists every status with its verdict.
func TestDecideStatuses(t *testing.T) {
	retried := map[int]bool{408: true, 409: true, 425: true, 429: true, 500: true, 502: true, 503: true, 504: true}
	for c := 520; c <= 529; c++ {
		retried[c] = true
	}
	for code := 400; code < 600; code++ {
		d := llm.Decide(1, 4, status(code, ""), policyNow, 0.5)
		if d.Retry != retried[code] {
			t.Errorf("status %d: Retry = %v, want %v", code, d.Retry, retried[code])
		}
	}
}

func TestServerDelay(t *testing.T) {
	for _, tc := range []struct {
		header []string
		want   time.Duration
		ok     bool
	}{
		{nil, 0, false},
		{[]string{"Retry-After", "0"}, 0, true},
		{[]string{"Retry-After", " 12 "}, 12 * time.Second, true},
		{[]string{"Retry-After", "-3"}, 0, false},
		{[]string{"Retry-After", "NaN"}, 0, false},
		{[]string{"Retry-After", "1e400"}, 0, false},
		{[]string{"Retry-After", "1e300"}, time.Duration(1e9 * float64(time.Second)), true},
		{[]string{"Retry-After", "Fri, 02 Jan 2026 03:05:05 GMT"}, time.Minute, true},
		{[]string{"Retry-After", "Friday, 02-Jan-26 03:04:15 GMT"}, 10 * time.Second, true},
		{[]string{"Retry-After", "tomorrow"}, 0, false},
		{[]string{"Retry-After-Ms", "20"}, 20 * time.Millisecond, true},
		{[]string{"retry-after-ms", "0.5"}, 500 * time.Microsecond, true},
		{[]string{"retry-after-ms", "x", "Retry-After", "2"}, 2 * time.Second, true},
	} {
		h := http.Header{}
		for i := 0; i+1 < len(tc.header); i += 2 {
			h.Set(tc.header[i], tc.header[i+1])
		}
		got, ok := llm.ServerDelay(h, policyNow)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ServerDelay(%v) = %v, %v; want %v, %v", tc.header, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzServerDelay(f *testing.F) {
	for _, s := range []string{"7", "1.5", "Fri, 02 Jan 2026 03:05:05 GMT", "-1", "1e999", "", "soon"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, after, ms string) {
		h := http.Header{}
		h.Set("Retry-After", after)
		h.Set("Retry-After-Ms", ms)
		d, ok := llm.ServerDelay(h, policyNow)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("ServerDelay(%q, %q) = %v, %v", after, ms, d, ok)
		}
		dec := llm.Decide(1, 4, &llm.StatusError{Code: 429, Header: h}, policyNow, 0.5)
		if dec.Retry && (dec.Delay < 0 || dec.Delay > llm.MaxServerWait) {
			t.Fatalf("Decide retries after %v", dec.Delay)
		}
	})
}

// TestRetryReasonsRead: the reason a retry notice shows ("REASON: retrying
// in 4 s") reads as a phrase: a status without a standard name has none
// invented, no sentence's full stop comes before the colon, and a
// connection the server closed says so instead of "EOF".
func TestRetryReasonsRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"529 overloaded", status(529, "overloaded_error: Overloaded"), "529 Site Overloaded: overloaded_error: Overloaded"},
		{"522 Cloudflare", status(522, ""), "522 Connection Timed Out"},
		{"527 without a name", status(527, ""), "527"},
		{"message ending a sentence", status(503, "Busy. Please try again later."), "503 Service Unavailable: Busy. Please try again later"},
		{"event ending a sentence", &llm.ProviderError{Code: "overloaded_error", Message: "The server is overloaded, please try again later."},
			"the endpoint reported an error (overloaded_error): The server is overloaded, please try again later"},
		{"closed before answering", &llm.ConnectError{URL: "http://x", Err: io.EOF}, "the server closed the connection without answering"},
		{"reset", &llm.ConnectError{URL: "http://x", Err: syscall.ECONNRESET}, "the connection was reset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := llm.Decide(1, 4, tc.err, policyNow, 0.5); !d.Retry || d.Reason != tc.want {
				t.Errorf("Reason %q (retry %v), want %q", d.Reason, d.Retry, tc.want)
			}
		})
	}
}
