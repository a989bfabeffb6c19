// The limits on streams that never end: the line cap, the idle timeout that
// measures progress, and the cap on bytes without progress.

package llm_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
)

// readSignal is a transport whose response bodies report every read, so a
// test knows the client has taken a chunk before it moves the fake clock.
type readSignal struct{ reads chan int }

func (rs readSignal) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		resp.Body = signalBody{resp.Body, rs.reads}
	}
	return resp, err
}

type signalBody struct {
	io.ReadCloser
	reads chan int
}

func (b signalBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		select {
		case b.reads <- n:
		default:
		}
	}
	return n, err
}

func waitRead(t *testing.T, reads chan int) {
	t.Helper()
	select {
	case <-reads:
	case <-time.After(10 * time.Second):
		t.Fatal("the client read nothing")
	}
}

// TestIdleTimeoutMeasuresProgress: keep-alive comments and empty deltas do
// not restart the idle timer, content does; a server that sends nothing
// else but keeps the connection busy is given up after idle_timeout_s
// with a reason saying so.
func TestIdleTimeoutMeasuresProgress(t *testing.T) {
	const empty = `{"choices":[{"index":0,"delta":{}}]}`
	content := `{"choices":[{"index":0,"delta":{"role":"assistant","content":"hi"}}]}`
	for _, tc := range []struct {
		name   string
		chunks []string
		steps  []time.Duration // the clock's move after each chunk is read
		reason string
	}{
		{"keep-alives before any content", []string{": keep-alive", ": keep-alive", ": keep-alive"},
			[]time.Duration{200 * time.Second, 99 * time.Second},
			"no progress for 300 s before the first chunk, only keep-alives or empty chunks"},
		{"empty deltas after content", []string{": keep-alive", content, empty, empty},
			[]time.Duration{200 * time.Second, 150 * time.Second, 149 * time.Second},
			"no progress for 300 s after 3 chunks, only keep-alives or empty chunks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gate := make(chan struct{})
			srv := llmtest.New(t, llmtest.Reply{Gate: gate, Chunks: tc.chunks, NoDone: true, Fail: llmtest.FailStall, After: len(tc.chunks)}, llmtest.Text("good answer"))
			clock := llmtest.NewClock().AutoSleep()
			rs := readSignal{make(chan int, 1)}
			rec := newRecorder()
			ch := start(context.Background(), faultClient(srv, clock, "", llm.WithHTTPClient(&http.Client{Transport: rs})), rec)
			clock.WaitFor(t, "the headers", func() bool { return clock.Resets() > 0 })
			for i, step := range tc.steps {
				gate <- struct{}{}
				waitRead(t, rs.reads)
				if strings.Contains(tc.chunks[i], `"content"`) {
					rec.waitContent(t, "hi")
				}
				clock.Advance(step)
			}
			gate <- struct{}{}
			waitRead(t, rs.reads)
			select {
			case r := <-ch:
				t.Fatalf("the attempt ended before the idle timeout: %+v %v", r, rec.summary())
			default:
			}
			clock.Advance(time.Second)
			r := wait(t, ch)
			if r.err != nil || r.resp.Message.Content != "good answer" {
				t.Fatalf("content %q err %v", r.resp.Message.Content, r.err)
			}
			retries := rec.retries()
			if len(retries) != 1 || retries[0].Reason != tc.reason {
				t.Fatalf("retries %v", rec.summary())
			}
			var ie *llm.IdleError
			if !errors.As(retries[0].Err, &ie) || !strings.Contains(ie.Error(), "only") || ie.Bytes == 0 {
				t.Errorf("retry error %v", retries[0].Err)
			}
		})
	}
}

// TestFloodWithoutProgress: an endless stream of empty deltas ends after
// MaxBytesWithoutProgress (lowered to 4 MiB here) even with the idle
// timeout disabled, and the retry says why.
func TestFloodWithoutProgress(t *testing.T) {
	if llm.MaxBytesWithoutProgress != 64<<20 {
		t.Errorf("MaxBytesWithoutProgress = %d; the README says 64 MiB", llm.MaxBytesWithoutProgress)
	}
	defer llm.SetNoProgressLimit(4 << 20)()
	srv := llmtest.New(t, llmtest.Reply{Content: "x", Fail: llmtest.FailFlood, After: 1}, llmtest.Text("good answer"))
	ep := srv.Endpoint()
	ep.MaxRetries, ep.IdleTimeout = 2, 0
	rec := newRecorder()
	clock := llmtest.NewClock().AutoSleep()
	r := wait(t, start(context.Background(), llm.New(ep, "", llm.WithClock(clock)), rec))
	if r.err != nil || r.resp.Message.Content != "good answer" {
		t.Fatalf("content %q err %v", r.resp.Message.Content, r.err)
	}
	retries := rec.retries()
	if len(retries) != 1 || retries[0].Reason != "4 MiB of stream without progress" {
		t.Fatalf("retries %v", rec.summary())
	}
	if !errors.As(retries[0].Err, new(*llm.NoProgressError)) || !strings.Contains(retries[0].Err.Error(), "without any content") {
		t.Errorf("retry error %v", retries[0].Err)
	}
	if sent := srv.Sent(); sent > 4<<20+16<<20 {
		t.Errorf("the server could send %d bytes", sent)
	}
}

// TestLongLine: a line over MaxLineBytes fails each attempt with its own
// reason, and harness stops reading it there, on every retry.
func TestLongLine(t *testing.T) {
	long := llmtest.Reply{Content: "x", Fail: llmtest.FailLongLine, After: 1, LineBytes: 64 << 20}
	srv := llmtest.New(t, long, long, llmtest.Text("good answer"))
	rec := newRecorder()
	clock := llmtest.NewClock().AutoSleep()
	r := wait(t, start(context.Background(), faultClient(srv, clock, ""), rec))
	if r.err != nil || r.resp.Message.Content != "good answer" {
		t.Fatalf("content %q err %v", r.resp.Message.Content, r.err)
	}
	retries := rec.retries()
	if len(retries) != 2 || retries[0].Reason != "a stream line over 16 MiB" || retries[1].Reason != retries[0].Reason {
		t.Fatalf("retries %v", rec.summary())
	}
	if !strings.Contains(retries[0].Err.Error(), "a stream line over 16 MiB after 1 chunk") {
		t.Errorf("retry error %v", retries[0].Err)
	}
	// What the client accepted: the cap and the socket buffers per attempt,
	// far from the 64 MiB offered.
	if sent := srv.Sent(); sent > 2*(llm.MaxLineBytes+12<<20) {
		t.Errorf("the server could send %d MiB", sent>>20)
	}
}

// TestLongLineFails: with no retries left, the error names the line.
func TestLongLineFails(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Fail: llmtest.FailLongLine, LineBytes: 20 << 20})
	ep := srv.Endpoint()
	ep.MaxRetries = 0
	_, err := llm.New(ep, "").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
	var le *llm.LineTooLongError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "over 16 MiB after 0 chunks") {
		t.Fatalf("err %v", err)
	}
}
