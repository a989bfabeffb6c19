// Tests of the fake endpoint's own behaviour.

package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
)

func TestRespondConcurrently(t *testing.T) {
	srv := llmtest.New(t)
	srv.Respond(func(r llmtest.Request) llmtest.Reply {
		body, err := r.Chat()
		if err != nil {
			return llmtest.Error(400, err.Error())
		}
		return llmtest.Text("echo: " + body.Messages[len(body.Messages)-1].Content)
	})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := fmt.Sprint("q", i)
			resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: q}}}, nil)
			if err == nil && resp.Message.Content != "echo: "+q {
				err = fmt.Errorf("got %q for %s", resp.Message.Content, q)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := len(srv.Chats()); n != 8 {
		t.Errorf("%d recorded", n)
	}
}

func TestChunksAndRaw(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply{Chunks: []string{`{"choices":[{"delta":{"content":"a"}}]}`, `{"choices":[{"delta":{},"finish_reason":"stop"}]}`}, NoDone: true},
		llmtest.Raw("data: {\"choices\":[{\"delta\":{\"content\":\"raw\"},\"finish_reason\":\"stop\"}]}\n\n"),
	)
	for _, want := range []string{"a", "raw"} {
		resp, err := srv.Client("").Stream(context.Background(), llm.Request{}, nil)
		if err != nil || resp.Message.Content != want {
			t.Errorf("got %q, %v; want %q", resp.Message.Content, err, want)
		}
	}
	if srv.Remaining() != 0 {
		t.Errorf("remaining %d", srv.Remaining())
	}
}

func TestStreamShape(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Content: "hey", Usage: &llm.Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}})
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(`{"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	want := "data: {\"id\":\"chatcmpl-llmtest\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"llmtest\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"chatcmpl-llmtest\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"llmtest\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hey\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"chatcmpl-llmtest\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"llmtest\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" +
		"data: {\"id\":\"chatcmpl-llmtest\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"llmtest\",\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2,\"total_tokens\":3}}\n\n" +
		"data: [DONE]\n\n"
	if string(body) != want {
		t.Errorf("stream:\n%s\nwant:\n%s", body, want)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
}

func TestCloseEndsStall(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Content: "x", Fail: llmtest.FailStall, After: 2})
	done := make(chan error, 1)
	started := make(chan struct{}, 1)
	go func() {
		_, err := srv.Client("").Stream(context.Background(), llm.Request{}, func(llm.Delta) { started <- struct{}{} })
		done <- err
	}()
	select {
	case <-started: // the content arrived; the server now stalls
	case <-time.After(5 * time.Second):
		t.Fatal("no delta before the stall")
	}
	srv.Close()
	select {
	case err := <-done:
		if !errors.Is(err, llm.ErrTruncated) {
			t.Errorf("err = %v, want ErrTruncated", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the stalled reply")
	}
}

func TestCompleteFaults(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply{Content: "x", Fail: llmtest.FailMalformed},
		llmtest.Reply{Content: "x", Fail: llmtest.FailCut},
		llmtest.Reply{Content: "x", Fail: llmtest.FailStall},
	)
	c := srv.Client("")
	if _, err := c.Complete(context.Background(), llm.Request{}); !errors.Is(err, llm.ErrMalformed) {
		t.Errorf("malformed: %v", err)
	}
	if _, err := c.Complete(context.Background(), llm.Request{}); !errors.Is(err, llm.ErrTruncated) {
		t.Errorf("cut: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Complete(ctx, llm.Request{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stall: %v", err)
	}
}

func TestDelay(t *testing.T) {
	const d = 10 * time.Millisecond
	srv := llmtest.New(t,
		llmtest.Reply{Content: "abc", Split: 1, Delay: d}, // role, a, b, c, finish, usage-less: 5 chunks
		llmtest.Reply{Content: "never", Delay: time.Hour},
	)
	start := time.Now()
	resp, err := srv.Client("").Stream(context.Background(), llm.Request{}, nil)
	if err != nil || resp.Message.Content != "abc" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	if took := time.Since(start); took < 5*d {
		t.Errorf("5 delayed chunks took %v, less than 5×%v", took, d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := srv.Client("").Stream(ctx, llm.Request{}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want the deadline", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled request still waits for the delay")
	}
}

// TestPace: chunks go out on a fixed schedule, Pace apart, and Pace
// replaces Delay.
func TestPace(t *testing.T) {
	const p = 5 * time.Millisecond
	srv := llmtest.New(t, llmtest.Reply{Content: strings.Repeat("x", 20), Split: 1, Pace: p, Delay: time.Hour})
	var at []time.Time
	start := time.Now()
	resp, err := srv.Client("").Stream(context.Background(), llm.Request{}, func(llm.Delta) { at = append(at, time.Now()) })
	if err != nil || resp.Message.Content != strings.Repeat("x", 20) {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	// role, 20 fragments, finish: chunk i leaves at i×p at the earliest.
	if took := time.Since(start); took < 21*p {
		t.Errorf("22 paced chunks took %v, less than 21×%v", took, p)
	}
	if len(at) < 20 {
		t.Fatalf("%d deltas, want 20", len(at))
	}
}
