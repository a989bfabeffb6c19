// Tests of requests, errors, retries, cancellation and live deltas.

package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"harness/config"
	"harness/llm"
	"harness/llmtest"
)

func userMsgs(s string) []llm.Message { return []llm.Message{{Role: "user", Content: s}} }

func TestRequestBody(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("a"), llmtest.Text("b"))
	ep := srv.Endpoint()
	ep.Parameters = map[string]any{"temperature": 0.7, "top_k": int64(40), "stop": []any{"x"}, "extra_body": map[string]any{"a": true}}
	sys := "be brief"
	prior := llm.Message{Role: "assistant", Content: "earlier", Extra: []llm.Field{
		{Key: "reasoning", Value: json.RawMessage(`"thought <b>"`)},
		{Key: "reasoning_details", Value: json.RawMessage(`[ {"type":"reasoning.encrypted", "data":"zz"} ]`)},
	}}
	req := llm.Request{
		System:   &sys,
		Messages: []llm.Message{{Role: "user", Content: "q"}, prior, {Role: "user", Content: "r"}},
		Tools:    []llm.Tool{{Name: "repl", Description: "run code", Parameters: json.RawMessage(`{"type":"object"}`)}},
	}
	if _, err := llm.New(ep, "sk-secret").Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := llm.New(ep, "").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil); err != nil {
		t.Fatal(err)
	}
	chats := srv.Chats()
	if got := chats[0].Header.Get("Authorization"); got != "Bearer sk-secret" {
		t.Errorf("Authorization = %q", got)
	}
	if got := chats[1].Header.Get("Authorization"); got != "" {
		t.Errorf("Authorization without a key = %q", got)
	}
	body := chats[0].MustChat(t)
	if body.Model != "llmtest-model" || !body.Stream {
		t.Errorf("model %q stream %v", body.Model, body.Stream)
	}
	if string(body.Fields["stream_options"]) != `{"include_usage":true}` {
		t.Errorf("stream_options = %s", body.Fields["stream_options"])
	}
	for k, want := range map[string]string{"temperature": "0.7", "top_k": "40", "stop": `["x"]`, "extra_body": `{"a":true}`} {
		if got := string(body.Fields[k]); got != want {
			t.Errorf("parameter %s = %s, want %s", k, got, want)
		}
	}
	raw := body.RawMessages()
	if len(raw) != 4 || string(raw[0]) != `{"role":"system","content":"be brief"}` {
		t.Fatalf("messages = %s", raw)
	}
	want := `{"role":"assistant","content":"earlier","reasoning":"thought <b>","reasoning_details":[ {"type":"reasoning.encrypted", "data":"zz"} ]}`
	if string(raw[2]) != want {
		t.Errorf("stored message not sent byte-for-byte:\n got %s\nwant %s", raw[2], want)
	}
	if len(req.Messages) != 3 {
		t.Errorf("the system message leaked into Request.Messages")
	}
	if names := body.ToolNames(); len(names) != 1 || names[0] != "repl" {
		t.Errorf("tools = %v", names)
	}
	if _, ok := chats[1].MustChat(t).Fields["tools"]; ok {
		t.Errorf("tools sent when none offered")
	}
}

func TestUsageVariants(t *testing.T) {
	u := &llm.Usage{PromptTokens: 100, CompletionTokens: 7, TotalTokens: 107}
	for _, tc := range []struct {
		name string
		mode llmtest.UsageMode
		want *llm.Usage
	}{
		{"separate chunk", llmtest.UsageSeparate, u},
		{"on finish chunk", llmtest.UsageOnFinish, u},
		{"every chunk", llmtest.UsageEvery, u},
		{"twice", llmtest.UsageTwice, u},
		{"none", llmtest.UsageNone, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply{Content: "hello there", Split: 2, Usage: u, UsageMode: tc.mode})
			resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if (resp.Usage == nil) != (tc.want == nil) || (resp.Usage != nil && *resp.Usage != *tc.want) {
				t.Errorf("usage = %+v, want %+v", resp.Usage, tc.want)
			}
			if resp.Message.Content != "hello there" || resp.FinishReason != "stop" {
				t.Errorf("message %+v finish %q", resp.Message, resp.FinishReason)
			}
		})
	}
}

func TestReasoningFieldNames(t *testing.T) {
	for _, fields := range [][]string{
		{"reasoning_content"}, {"reasoning"}, {"reasoning_details"},
		{"reasoning_content", "reasoning"}, {"reasoning", "reasoning_details"},
		{"reasoning_content", "reasoning", "reasoning_details"},
	} {
		t.Run(strings.Join(fields, "+"), func(t *testing.T) {
			text := "Let me think — about ünïcode and <tags> carefully."
			srv := llmtest.New(t, llmtest.Reply{Reasoning: text, ReasoningFields: fields, Content: "ok", Split: 5})
			var shown strings.Builder
			resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, func(d llm.Delta) {
				if d.Kind == llm.DeltaReasoning {
					shown.WriteString(d.Text)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if shown.String() != text || resp.Message.Reasoning() != text {
				t.Errorf("shown %q, Reasoning() %q, want %q once", shown.String(), resp.Message.Reasoning(), text)
			}
			for _, f := range fields {
				raw, ok := resp.Message.Get(f)
				if !ok {
					t.Fatalf("field %s not stored", f)
				}
				var got string
				if f == "reasoning_details" {
					got = llm.DetailsText(raw)
				} else {
					json.Unmarshal(raw, &got)
				}
				if got != text {
					t.Errorf("%s stored %s", f, raw)
				}
			}
		})
	}
}

func TestToolCallFragments(t *testing.T) {
	calls := []llmtest.ToolCall{
		{ID: "p1", Name: "read_file", Arguments: `{"path":"naïve/ü.go","start_line":3}`},
		{ID: "p2", Name: "grep", Arguments: `{"pattern":"a\"b"}`},
	}
	for _, split := range []int{0, 1, 3, 7} {
		srv := llmtest.New(t, llmtest.Reply{ToolCalls: calls, Split: split})
		resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := resp.Message.ToolCalls
		if len(got) != 2 {
			t.Fatalf("split %d: %d calls", split, len(got))
		}
		for i, c := range got {
			if c.Name != calls[i].Name || c.Arguments != calls[i].Arguments || c.ID == calls[i].ID || len(c.ID) != 32 {
				t.Errorf("split %d: call %d = %+v", split, i, c)
			}
		}
		if resp.FinishReason != "tool_calls" {
			t.Errorf("finish = %q", resp.FinishReason)
		}
	}
}

func TestStatusErrors(t *testing.T) {
	long := strings.Repeat("x", 2000)
	for _, tc := range []struct {
		name  string
		reply llmtest.Reply
		want  []string
	}{
		{"429 json", llmtest.Error(429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`),
			[]string{"429 Too Many Requests", "rate_limit_exceeded: Rate limit reached", "wait and try again"}},
		{"500 text", llmtest.Error(500, "upstream exploded\n"), []string{"500 Internal Server Error: upstream exploded", "try again"}},
		{"401 string error", llmtest.Error(401, `{"error":"invalid api key"}`), []string{"401", "invalid api key", "api_key_env"}},
		{"404 detail", llmtest.Error(404, `{"detail":"Not Found"}`), []string{"404", "Not Found", "base_url"}},
		{"400 vllm", llmtest.Error(400, `{"object":"error","message":"maximum context length is 4096","type":"BadRequestError","code":400}`),
			[]string{"400 Bad Request: maximum context length is 4096"}},
		{"truncated", llmtest.Error(503, long), []string{"503", "… (truncated)"}},
		{"400 llama.cpp numeric code", llmtest.Error(400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}`),
			[]string{"400 Bad Request: exceed_context_size_error: the request exceeds the available context size"}},
		{"500 numeric code only", llmtest.Error(500, `{"error":{"code":500,"message":"boom"}}`), []string{"500 Internal Server Error: boom (the server"}},
		{"html page", llmtest.Error(502, "<!DOCTYPE html>\n<html lang=\"en-US\"><head><meta charset=\"UTF-8\" /><style>body{margin:0}</style>\n<title>api.example.com | 502: Bad gateway</title></head><body><h1>Bad gateway</h1></body></html>\n"),
			[]string{"502 Bad Gateway: api.example.com | 502: Bad gateway (the server failed"}},
		{"html same as status", llmtest.Error(502, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"),
			[]string{"answered 502 Bad Gateway (the server failed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.reply)
			_, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
			var se *llm.StatusError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *StatusError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if len(err.Error()) > 700 {
				t.Errorf("error not truncated: %d bytes", len(err.Error()))
			}
			if n := len(srv.Chats()); n != 1 {
				t.Errorf("%d requests; status errors are never retried", n)
			}
		})
	}
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	c := llm.New(config.Endpoint{BaseURL: base, Model: "m"}, "")
	resp, err := c.Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
	var ce *llm.ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *ConnectError", err)
	}
	for _, w := range []string{base + "/chat/completions", "connection refused", "harness doctor"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if resp.Message.Role != "assistant" {
		t.Errorf("empty response role = %q", resp.Message.Role)
	}
}

func TestMalformedChunkKeepsPartial(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Reasoning: "hmm", Content: "abcdef", Split: 2, Fail: llmtest.FailMalformed, After: 5})
	resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
	if !errors.Is(err, llm.ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed", err)
	}
	if resp.Message.Content != "abcd" || resp.Message.Reasoning() != "hmm" {
		t.Errorf("partial = %+v", resp.Message)
	}
}

// TestDeltasArriveLive checks that fragments reach the callback while the
// server is still sending (it stalls until the test cancels), and that
// cancelling returns at once with the partial message.
func TestDeltasArriveLive(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{
		Reasoning: "r", Content: "live", ToolCalls: []llmtest.ToolCall{{Name: "repl", Arguments: `{"code":"1"}`}},
		Split: 100, Fail: llmtest.FailStall, After: 5,
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan llm.Delta, 16)
	type result struct {
		resp llm.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := srv.Client("").Stream(ctx, llm.Request{Messages: userMsgs("q")}, func(d llm.Delta) { got <- d })
		done <- result{resp, err}
	}()
	wantKinds := []llm.DeltaKind{llm.DeltaReasoning, llm.DeltaContent, llm.DeltaToolCall, llm.DeltaToolArgs}
	for _, k := range wantKinds {
		select {
		case d := <-got:
			if d.Kind != k {
				t.Fatalf("delta %v, want %v", d.Kind, k)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %v delta while the server stalls: deltas are buffered", k)
		}
	}
	cancel()
	select {
	case r := <-done:
		if !errors.Is(r.err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", r.err)
		}
		m := r.resp.Message
		if m.Content != "live" || len(m.ToolCalls) != 1 || m.ToolCalls[0].Arguments != `{"code":"1"}` {
			t.Errorf("partial message = %+v", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
}

func TestLongLines(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 40000) // 640 KB in one delta
	srv := llmtest.New(t, llmtest.Reply{Content: big, Reasoning: big[:100000]})
	resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != big || resp.Message.Reasoning() != big[:100000] {
		t.Errorf("long line lost data: %d bytes of %d", len(resp.Message.Content), len(big))
	}
}

func TestJSONAnswerToStream(t *testing.T) {
	body := `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"plain","reasoning_content":"r","tool_calls":[{"id":"t1","type":"function","function":{"name":"list","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`
	srv := llmtest.New(t, llmtest.Reply{Raw: body, ContentType: "application/json"})
	resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Message
	if m.Content != "plain" || m.Reasoning() != "r" || len(m.ToolCalls) != 1 || m.ToolCalls[0].ID == "t1" || resp.Usage.TotalTokens != 3 {
		t.Errorf("resp = %+v", resp)
	}
}

func TestComplete(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Content: "It lists files.", Reasoning: "short", ToolCalls: []llmtest.ToolCall{{ID: "prov", Name: "x", Arguments: "{}"}}},
		llmtest.Error(500, `{"error":{"message":"boom"}}`))
	c := srv.Client("k")
	m, err := c.Complete(context.Background(), llm.Request{Messages: userMsgs("describe")})
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "It lists files." || m.Reasoning() != "short" || len(m.ToolCalls) != 1 || m.ToolCalls[0].ID == "prov" {
		t.Errorf("message = %+v", m)
	}
	body := srv.Chats()[0].MustChat(t)
	if body.Stream || string(body.Fields["stream"]) != "false" {
		t.Errorf("stream = %s", body.Fields["stream"])
	}
	if _, err := c.Complete(context.Background(), llm.Request{Messages: userMsgs("again")}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("err = %v", err)
	}
}

func TestModels(t *testing.T) {
	srv := llmtest.New(t)
	srv.SetModels("a", "b")
	ids, err := srv.Client("").Models(context.Background())
	if err != nil || strings.Join(ids, ",") != "a,b" {
		t.Errorf("ids %v err %v", ids, err)
	}
	r := llmtest.Error(401, `{"error":{"message":"bad key"}}`)
	srv.FailModels(&r)
	if _, err := srv.Client("").Models(context.Background()); err == nil || !strings.Contains(err.Error(), "bad key") {
		t.Errorf("err = %v", err)
	}
}

func TestEventStreamLabelledJSON(t *testing.T) {
	sse := "data: {\"choices\":[{\"delta\":{\"content\":\"sse\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	srv := llmtest.New(t, llmtest.Reply{Raw: sse, ContentType: "application/json"})
	resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
	if err != nil || resp.Message.Content != "sse" {
		t.Errorf("content %q, err %v", resp.Message.Content, err)
	}
}

func TestWholeMessageCallsWithoutIDs(t *testing.T) {
	body := `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"type":"function","function":{"name":"a","arguments":"{}"}},{"type":"function","function":{"name":"b","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`
	srv := llmtest.New(t, llmtest.Reply{Raw: body, ContentType: "application/json"})
	m, err := srv.Client("").Complete(context.Background(), llm.Request{Messages: userMsgs("q")})
	if err != nil || len(m.ToolCalls) != 2 || m.ToolCalls[0].Name != "a" || m.ToolCalls[1].Name != "b" {
		t.Errorf("calls %+v, err %v", m.ToolCalls, err)
	}
}

// TestCutAfterFinish: a connection cut once the finish_reason arrived (no
// [DONE], a chunked body never terminated) loses nothing: the reply is
// complete, so it is not an error.
func TestCutAfterFinish(t *testing.T) {
	u := &llm.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}
	for _, tc := range []struct {
		name  string
		after int // chunks sent before the cut: role, 2 content, finish, usage
		usage *llm.Usage
	}{
		{"after the usage chunk", 5, u},
		{"between finish and usage", 4, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply{Content: "abcd", Split: 2, Usage: u, Fail: llmtest.FailCut, After: tc.after})
			resp, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if resp.Message.Content != "abcd" || resp.FinishReason != "stop" {
				t.Errorf("resp = %+v", resp)
			}
			if (resp.Usage == nil) != (tc.usage == nil) {
				t.Errorf("usage = %v, want %v", resp.Usage, tc.usage)
			}
		})
	}
}
