// Each injected fault against the client with a fake clock: the requests
// made, the waits, the deltas and what is returned.

package llm_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
)

// faultClient is a client for srv with 4 retries, a 300 s idle timeout,
// the fake clock and a jitter of one half.
func faultClient(srv *llmtest.Server, clock *llmtest.Clock, key string, opts ...llm.Option) *llm.Client {
	ep := srv.Endpoint()
	ep.MaxRetries, ep.IdleTimeout = 4, 300*time.Second
	opts = append([]llm.Option{llm.WithClock(clock), llm.WithRand(func() float64 { return 0.5 })}, opts...)
	return llm.New(ep, key, opts...)
}

// recorder collects deltas from the Stream goroutine.
type recorder struct {
	mu     sync.Mutex
	deltas []llm.Delta
	seen   chan llm.Delta
}

func newRecorder() *recorder { return &recorder{seen: make(chan llm.Delta, 1024)} }

func (r *recorder) add(d llm.Delta) {
	r.mu.Lock()
	r.deltas = append(r.deltas, d)
	r.mu.Unlock()
	r.seen <- d
}

// summary is the deltas in short: content text, "retry N: reason", …
func (r *recorder) summary() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, d := range r.deltas {
		switch d.Kind {
		case llm.DeltaRetry:
			out = append(out, "retry "+d.Retry.Reason)
		case llm.DeltaContent:
			out = append(out, d.Text)
		}
	}
	return out
}

func (r *recorder) retries() []*llm.Retry {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*llm.Retry
	for _, d := range r.deltas {
		if d.Kind == llm.DeltaRetry {
			out = append(out, d.Retry)
		}
	}
	return out
}

// waitContent waits until the content deltas seen so far end with text.
func (r *recorder) waitContent(t *testing.T, text string) {
	t.Helper()
	got := ""
	timeout := time.After(10 * time.Second)
	for !strings.HasSuffix(got, text) {
		select {
		case d := <-r.seen:
			if d.Kind == llm.DeltaContent {
				got += d.Text
			}
		case <-timeout:
			t.Fatalf("timed out waiting for content %q (got %q)", text, got)
		}
	}
}

type result struct {
	resp llm.Response
	err  error
}

// start runs Stream on its own goroutine.
func start(ctx context.Context, c *llm.Client, rec *recorder) <-chan result {
	out := make(chan result, 1)
	go func() {
		resp, err := c.Stream(ctx, llm.Request{Messages: userMsgs("q")}, rec.add)
		out <- result{resp, err}
	}()
	return out
}

func wait(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("Stream did not return")
	}
	return result{}
}

// TestFaultsThenSuccess injects one fault per case before a good reply and
// checks the requests, the waits (from the fake clock), the retry notices
// and that only the good reply is returned.
func TestFaultsThenSuccess(t *testing.T) {
	date := llmtest.NewClock().Now().Add(5 * time.Second).Format(http.TimeFormat)
	for _, tc := range []struct {
		name    string
		faults  []llmtest.Reply
		sleeps  []time.Duration
		reasons []string
	}{
		{"429 Retry-After seconds", []llmtest.Reply{llmtest.Error(429, `{"error":{"message":"slow down"}}`).WithHeader("Retry-After", "3")},
			[]time.Duration{3 * time.Second}, []string{"429 Too Many Requests: slow down"}},
		{"429 Retry-After date", []llmtest.Reply{llmtest.Error(429, "").WithHeader("Retry-After", date)},
			[]time.Duration{5 * time.Second}, []string{"429 Too Many Requests"}},
		{"429 retry-after-ms", []llmtest.Reply{llmtest.Error(429, "").WithHeader("retry-after-ms", "1500").WithHeader("Retry-After", "2")},
			[]time.Duration{1500 * time.Millisecond}, []string{"429"}},
		{"5xx JSON then HTML", []llmtest.Reply{
			llmtest.Error(503, `{"error":{"message":"Loading model","type":"unavailable_error","code":503}}`),
			llmtest.Error(502, "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"),
		}, []time.Duration{500 * time.Millisecond, time.Second}, []string{"503 Service Unavailable: unavailable_error: Loading model", "502 Bad Gateway"}},
		{"connection dropped", []llmtest.Reply{{Fail: llmtest.FailDrop}}, []time.Duration{500 * time.Millisecond}, []string{"the server closed the connection without answering"}},
		{"cut mid-stream", []llmtest.Reply{{Content: "partial answer", Split: 4, Fail: llmtest.FailCut, After: 3}},
			[]time.Duration{500 * time.Millisecond}, []string{"the stream broke off"}},
		{"malformed chunk", []llmtest.Reply{{Content: "partial", Split: 3, Fail: llmtest.FailMalformed, After: 2}},
			[]time.Duration{500 * time.Millisecond}, []string{"malformed chunk"}},
		{"first event an error object", []llmtest.Reply{llmtest.ErrorEvent(`{"error":{"type":"overloaded_error","message":"Overloaded"}}`)},
			[]time.Duration{500 * time.Millisecond}, []string{"(overloaded_error): Overloaded"}},
		{"vLLM error chunk", []llmtest.Reply{llmtest.ErrorEvent(`{"object":"error","message":"The server is busy","type":"ServiceUnavailableError","code":503}`)},
			[]time.Duration{500 * time.Millisecond}, []string{"busy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, append(tc.faults, llmtest.Text("good answer"))...)
			clock := llmtest.NewClock().AutoSleep()
			rec := newRecorder()
			r := wait(t, start(context.Background(), faultClient(srv, clock, ""), rec))
			if r.err != nil || r.resp.Message.Content != "good answer" {
				t.Fatalf("content %q, err %v", r.resp.Message.Content, r.err)
			}
			if n := len(srv.Chats()); n != len(tc.faults)+1 {
				t.Errorf("%d requests, want %d", n, len(tc.faults)+1)
			}
			if got := clock.Sleeps(); !slices.Equal(got, tc.sleeps) {
				t.Errorf("waits %v, want %v", got, tc.sleeps)
			}
			rs := rec.retries()
			if len(rs) != len(tc.reasons) {
				t.Fatalf("%d retry notices, want %d: %v", len(rs), len(tc.reasons), rec.summary())
			}
			for i, r := range rs {
				if r.Attempt != i+1 || r.Max != 4 || r.Delay != tc.sleeps[i] || !strings.Contains(r.Reason, tc.reasons[i]) {
					t.Errorf("retry %d = %+v, want attempt %d of 4 after %v for %q", i, *r, i+1, tc.sleeps[i], tc.reasons[i])
				}
			}
			s := rec.summary()
			if s[len(s)-1] != "good answer" || s[len(s)-2] != "retry "+rs[len(rs)-1].Reason {
				t.Errorf("deltas %q: the good answer must follow the last retry notice", s)
			}
		})
	}
}

// TestFaultsNotRetried checks that each failure that needs the person is
// returned after one request, without waiting, with its advice.
func TestFaultsNotRetried(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply llmtest.Reply
		want  []string
	}{
		{"400", llmtest.Error(400, `{"error":{"message":"messages: roles must alternate"}}`), []string{"400 Bad Request: messages: roles must alternate"}},
		{"401", llmtest.Error(401, `{"error":"invalid api key"}`), []string{"401", "api_key_env"}},
		{"403", llmtest.Error(403, `{"error":"forbidden"}`), []string{"403", "api_key_env"}},
		{"404", llmtest.Error(404, `{"detail":"Not Found"}`), []string{"404", `[endpoint] model = "llmtest-model"`, "harness doctor"}},
		{"unknown model as 400", llmtest.Error(400, `{"error":{"message":"The model 'nope' does not exist","code":"model_not_found"}}`), []string{`model = "llmtest-model"`, "harness doctor"}},
		{"413", llmtest.Error(413, "Payload Too Large"), []string{"413", "longer than the model's context"}},
		{"422", llmtest.Error(422, `{"detail":"bad field"}`), []string{"422"}},
		{"429 out of quota", llmtest.Error(429, `{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}`), []string{"billing"}},
		{"429 asks for 10 minutes", llmtest.Error(429, "").WithHeader("Retry-After", "600"), []string{"wait 10 min, until 2026-01-02 03:14:05 UTC", "try again then"}},
		{"context too long in the stream", llmtest.ErrorEvent(`{"error":{"code":"context_length_exceeded","message":"This model's maximum context length is 8192 tokens"}}`), []string{"context_length_exceeded"}},
		{"not an event stream", llmtest.Reply{Raw: "<html><body>Welcome to nginx!</body></html>\n", ContentType: "text/html"}, []string{"did not answer with an event stream", "nginx"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.reply, llmtest.Text("unused"))
			clock := llmtest.NewClock().AutoSleep()
			r := wait(t, start(context.Background(), faultClient(srv, clock, ""), newRecorder()))
			if r.err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(r.err.Error(), w) {
					t.Errorf("error %q lacks %q", r.err, w)
				}
			}
			if n := len(srv.Chats()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			if s := clock.Sleeps(); len(s) != 0 {
				t.Errorf("waited %v", s)
			}
			srv.Push() // the unused reply stays queued
		})
	}
}

// TestRetriesExhausted: every attempt fails; the last attempt's partial
// message comes back with the error, after max_retries waits.
func TestRetriesExhausted(t *testing.T) {
	srv := llmtest.New(t)
	srv.Respond(func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "part", Fail: llmtest.FailCut, After: 2}
	})
	clock := llmtest.NewClock().AutoSleep()
	rec := newRecorder()
	r := wait(t, start(context.Background(), faultClient(srv, clock, ""), rec))
	var re *llm.RetriesError
	if !errors.As(r.err, &re) || re.Attempts != 5 || !errors.Is(r.err, llm.ErrTruncated) {
		t.Fatalf("err = %v", r.err)
	}
	if r.resp.Message.Content != "part" {
		t.Errorf("partial %q", r.resp.Message.Content)
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}
	if n, s := len(srv.Chats()), clock.Sleeps(); n != 5 || !slices.Equal(s, want) {
		t.Errorf("%d requests, waits %v; want 5 and %v", n, s, want)
	}
}

// TestStopDuringWait: Esc (a cancelled context) ends the wait at once;
// nothing of the failed attempt is returned.
func TestStopDuringWait(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Content: "void", Fail: llmtest.FailCut, After: 2}, llmtest.Text("unused"))
	clock := llmtest.NewClock()
	ctx, cancel := context.WithCancel(context.Background())
	ch := start(ctx, faultClient(srv, clock, ""), newRecorder())
	if got := clock.WaitSleeping(t); !slices.Equal(got, []time.Duration{500 * time.Millisecond}) {
		t.Errorf("waits %v", got)
	}
	cancel()
	r := wait(t, ch)
	if !errors.Is(r.err, context.Canceled) || r.resp.Message.Content != "" {
		t.Errorf("err %v, content %q", r.err, r.resp.Message.Content)
	}
	if n := len(srv.Chats()); n != 1 {
		t.Errorf("%d requests", n)
	}
	srv.Push()
}

// TestIdleTimeouts stalls the server at each point of an attempt; moving
// the fake clock by the idle timeout ends the attempt, which is retried.
func TestIdleTimeouts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault llmtest.Reply
		ready func(t *testing.T, clock *llmtest.Clock, rec *recorder)
		phase string
	}{
		{"before headers", llmtest.Reply{Fail: llmtest.FailStallHeaders}, nil, "before the response headers"},
		{"before the first chunk", llmtest.Reply{Content: "x", Fail: llmtest.FailStall, After: 0},
			func(t *testing.T, clock *llmtest.Clock, _ *recorder) {
				clock.WaitFor(t, "the headers", func() bool { return clock.Resets() > 0 })
			}, "before the first chunk"},
		{"mid-stream", llmtest.Reply{Content: "abcdef", Split: 2, Fail: llmtest.FailStall, After: 3},
			func(t *testing.T, _ *llmtest.Clock, rec *recorder) { rec.waitContent(t, "cd") }, "after 3 chunks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.fault, llmtest.Text("good answer"))
			clock := llmtest.NewClock().AutoSleep()
			rec := newRecorder()
			ch := start(context.Background(), faultClient(srv, clock, ""), rec)
			<-srv.Stalled()
			if tc.ready != nil {
				tc.ready(t, clock, rec)
			}
			clock.Advance(299 * time.Second)
			select {
			case r := <-ch:
				t.Fatalf("the attempt ended before the idle timeout: %+v", r)
			default:
			}
			clock.Advance(time.Second)
			r := wait(t, ch)
			if r.err != nil || r.resp.Message.Content != "good answer" {
				t.Fatalf("content %q err %v", r.resp.Message.Content, r.err)
			}
			rs := rec.retries()
			if len(rs) != 1 || rs[0].Reason != "no data for 300 s "+tc.phase {
				t.Fatalf("retries %v", rec.summary())
			}
			var ie *llm.IdleError
			if !errors.As(rs[0].Err, &ie) || !strings.Contains(ie.Error(), "[endpoint] idle_timeout_s") {
				t.Errorf("retry error %v", rs[0].Err)
			}
			if n := len(srv.Chats()); n != 2 {
				t.Errorf("%d requests", n)
			}
		})
	}
}

// TestIdleTimeoutDisabled: with idle_timeout_s = 0 no timer runs.
func TestIdleTimeoutDisabled(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Content: "x", Fail: llmtest.FailStall, After: 1})
	clock := llmtest.NewClock()
	ep := srv.Endpoint()
	ep.MaxRetries = 4
	ctx, cancel := context.WithCancel(context.Background())
	ch := start(ctx, llm.New(ep, "", llm.WithClock(clock)), newRecorder())
	<-srv.Stalled()
	if timers, _ := clock.Pending(); timers != 0 {
		t.Errorf("%d timers with the idle timeout disabled", timers)
	}
	cancel()
	if r := wait(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Errorf("err %v", r.err)
	}
}

// TestCompleteRetries: the approval-description request uses the same policy.
func TestCompleteRetries(t *testing.T) {
	srv := llmtest.New(t, llmtest.Error(503, "busy").WithHeader("Retry-After", "2"), llmtest.Text("it lists files"))
	clock := llmtest.NewClock().AutoSleep()
	m, err := faultClient(srv, clock, "").Complete(context.Background(), llm.Request{Messages: userMsgs("describe")})
	if err != nil || m.Content != "it lists files" {
		t.Fatalf("content %q err %v", m.Content, err)
	}
	if n, s := len(srv.Chats()), clock.Sleeps(); n != 2 || !slices.Equal(s, []time.Duration{2 * time.Second}) {
		t.Errorf("%d requests, waits %v", n, s)
	}
}

// TestKeyAdvice: a 401/403 names api_key_env and where the key was looked
// for, and never repeats the key the server echoed.
func TestKeyAdvice(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	body := `{"error":{"message":"Incorrect API key provided: ` + key + `. You can find your API key at https://example.com."}}`
	origin := llm.Origin{KeySource: "/home/me/.harness/.env", Dotenv: "/home/me/.harness/.env"}
	for _, tc := range []struct {
		name   string
		env    string
		key    string
		origin llm.Origin
		want   []string
	}{
		{"key refused", "OPENAI_API_KEY", key, origin, []string{"refused the key in OPENAI_API_KEY ([endpoint] api_key_env; read from /home/me/.harness/.env", "harness doctor"}},
		{"variable missing", "OPENAI_API_KEY", "", llm.Origin{Dotenv: "/home/me/.harness/.env"}, []string{"names OPENAI_API_KEY, which is set in neither the environment nor /home/me/.harness/.env, so no key was sent", "harness doctor"}},
		{"no api_key_env", "", "", llm.Origin{Dotenv: "/h/.env"}, []string{"set [endpoint] api_key_env", "/h/.env"}},
		{"description endpoint", "D_KEY", key, llm.Origin{Section: "approval_description.endpoint"}, []string{"[approval_description.endpoint] api_key_env"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Error(401, body))
			ep := srv.Endpoint()
			ep.APIKeyEnv = tc.env
			_, err := llm.New(ep, tc.key, llm.WithOrigin(tc.origin)).Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, key) && tc.key != "" {
				t.Errorf("the key is in the error: %s", msg)
			}
			for _, w := range append(tc.want, "401 Unauthorized") {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

// TestKeyScrubbedFromStreamErrors: an error event or a malformed chunk
// quoting the key does not repeat it, even when the quote is cut.
func TestKeyScrubbedFromStreamErrors(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	pad := strings.Repeat("x", 380)
	for _, reply := range []llmtest.Reply{
		llmtest.ErrorEvent(`{"error":{"message":"` + pad + ` bad key ` + key + `"}}`),
		llmtest.Reply{Chunks: []string{`{"choices":[{"delta":{"content":"` + key}, NoDone: true},
	} {
		srv := llmtest.New(t, reply)
		_, err := srv.Client(key).Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
		if err == nil || strings.Contains(err.Error(), key[:12]) {
			t.Errorf("err = %v", err)
		}
	}
}
