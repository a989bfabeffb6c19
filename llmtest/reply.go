// Scripted replies: what the fake endpoint streams for one request.

package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"harness/llm"
)

// Reply scripts the answer to one /chat/completions request. The zero
// value streams an empty assistant message that finishes with "stop".
type Reply struct {
	// Reasoning is streamed before the content, under each name in
	// ReasoningFields (default "reasoning_content"); listing two names sends
	// the same text twice in each delta, as some servers do. The name
	// "reasoning_details" sends [{"type":"reasoning.text","text":…,"index":0}].
	Reasoning       string
	ReasoningFields []string
	// Content is the answer text.
	Content string
	// ToolCalls are streamed after the content: the first fragment of each
	// carries index, id, type and name with empty arguments, the following
	// ones the arguments.
	ToolCalls []ToolCall
	// Split is the fragment size in bytes (kept on UTF-8 boundaries) for
	// reasoning, content and arguments; 0 sends each in one delta.
	Split int
	// Finish is the finish_reason; default "tool_calls" when ToolCalls is
	// non-empty, else "stop".
	Finish string
	// Usage is reported as Usage says (default: a separate choices:[]
	// chunk after the finish chunk, as OpenAI does with include_usage).
	Usage     *llm.Usage
	UsageMode UsageMode
	// Delay is slept before each chunk (cut short when the request ends).
	Delay time.Duration
	// Pace, when positive, replaces Delay with a fixed schedule: chunk i is
	// sent i×Pace after the first, however long writing takes, so a long
	// stream keeps its rate (2ms is 500 chunks a second).
	Pace time.Duration

	// Chunks, when non-nil, replaces the generated chunks: each string is
	// sent as one "data: …" event, followed by "data: [DONE]" unless NoDone.
	// A string starting with ":" is sent as it is, an SSE comment line
	// (a keep-alive).
	Chunks []string
	// NoDone leaves out the final "data: [DONE]".
	NoDone bool
	// Raw, when non-empty, is written verbatim as the whole body (a stream
	// recorded from a real server), with ContentType (default
	// text/event-stream). It wins over everything but Status and FailDrop.
	Raw         string
	ContentType string

	// Status, when non-zero, answers with that HTTP status and Body (sent
	// as application/json when it starts with "{", text/html when it
	// starts with "<", else text/plain).
	Status int
	Body   string
	// Header is added to the answer's headers (Retry-After,
	// retry-after-ms, …), whatever the answer.
	Header map[string]string
	// Fail injects a failure after After chunks have been sent.
	Fail  Failure
	After int
	// LineBytes is the length of FailLongLine's line.
	LineBytes int
	// Gate, when non-nil, is received from before each chunk is sent (the
	// request ending cuts the wait short), so a test decides when each
	// chunk goes out, for example between moves of a fake Clock.
	Gate <-chan struct{}
}

// WithHeader returns r answering with the header name: value as well.
func (r Reply) WithHeader(name, value string) Reply {
	h := make(map[string]string, len(r.Header)+1)
	for k, v := range r.Header {
		h[k] = v
	}
	h[name] = value
	r.Header = h
	return r
}

// ToolCall is one scripted call.
type ToolCall struct {
	ID        string // provider ID; default "call_<n>"
	Name      string
	Arguments string // JSON text
}

// UsageMode says where usage goes in a stream.
type UsageMode int

const (
	UsageSeparate UsageMode = iota // a final chunk with "choices": []
	UsageOnFinish                  // on the finish_reason chunk
	UsageEvery                     // on every chunk, completion_tokens growing; the last is Usage
	UsageTwice                     // on the finish chunk (one completion token fewer) and again, as Usage, on a separate chunk
	UsageNone                      // never
)

// Failure is an injected fault.
type Failure int

const (
	FailNone         Failure = iota
	FailCut                  // the connection is cut after After chunks (no finish, no [DONE])
	FailMalformed            // chunk After+1 is truncated JSON, then the body ends
	FailStall                // after After chunks the server sends nothing until the request ends
	FailDrop                 // the connection is closed before any byte (retryable); After is ignored
	FailStallHeaders         // the server sends nothing, not even headers, until the request ends
	FailLongLine             // after After chunks, one data line of LineBytes bytes (its end never comes if the client stops reading)
	FailFlood                // after After chunks, empty deltas at full speed until the request ends
)

// Text is a reply streaming content.
func Text(content string) Reply { return Reply{Content: content} }

// Call is a reply making one tool call.
func Call(name, arguments string) Reply {
	return Reply{ToolCalls: []ToolCall{{Name: name, Arguments: arguments}}}
}

// Error is a reply failing with an HTTP status and body.
func Error(status int, body string) Reply { return Reply{Status: status, Body: body} }

// ErrorEvent is a 200 stream whose first event is the error object obj,
// as servers report overload or rate limits once streaming has begun.
func ErrorEvent(obj string) Reply { return Reply{Chunks: []string{obj}, NoDone: true} }

// Raw is a reply writing a recorded SSE body verbatim.
func Raw(sse string) Reply { return Reply{Raw: sse} }

func (r Reply) finish() string {
	switch {
	case r.Finish != "":
		return r.Finish
	case len(r.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}

func (r Reply) fields() []string {
	if len(r.ReasoningFields) == 0 {
		return []string{"reasoning_content"}
	}
	return r.ReasoningFields
}

// split cuts s into pieces of about n bytes on UTF-8 boundaries.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	if n <= 0 || n >= len(s) {
		return []string{s}
	}
	var out []string
	for len(s) > 0 {
		cut := min(n, len(s))
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func reasoningMember(field, text string) string {
	if field == "reasoning_details" {
		return js(field) + ":" + js([]map[string]any{{"type": "reasoning.text", "text": text, "index": 0}})
	}
	return js(field) + ":" + js(text)
}

func chunk(delta, finish string, usage *llm.Usage) string {
	f := "null"
	if finish != "" {
		f = js(finish)
	}
	s := `{"id":"chatcmpl-llmtest","object":"chat.completion.chunk","created":1,"model":"llmtest","choices":[{"index":0,"delta":{` +
		delta + `},"finish_reason":` + f + `}]`
	if usage != nil {
		s += `,"usage":` + js(usage)
	}
	return s + "}"
}

// chunks returns the data payloads of the streamed reply.
func (r Reply) chunks() []string {
	if r.Chunks != nil {
		return r.Chunks
	}
	var deltas []string
	deltas = append(deltas, `"role":"assistant","content":""`)
	for _, frag := range split(r.Reasoning, r.Split) {
		var ms []string
		for _, f := range r.fields() {
			ms = append(ms, reasoningMember(f, frag))
		}
		deltas = append(deltas, strings.Join(ms, ","))
	}
	for _, frag := range split(r.Content, r.Split) {
		deltas = append(deltas, `"content":`+js(frag))
	}
	for i, c := range r.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%d", i)
		}
		deltas = append(deltas, fmt.Sprintf(`"tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":""}}]`, i, js(id), js(c.Name)))
		for _, frag := range split(c.Arguments, r.Split) {
			deltas = append(deltas, fmt.Sprintf(`"tool_calls":[{"index":%d,"function":{"arguments":%s}}]`, i, js(frag)))
		}
	}
	var out []string
	for i, d := range deltas {
		var u *llm.Usage
		if r.UsageMode == UsageEvery && r.Usage != nil {
			u = &llm.Usage{PromptTokens: r.Usage.PromptTokens, CompletionTokens: i, TotalTokens: r.Usage.PromptTokens + i}
		}
		out = append(out, chunk(d, "", u))
	}
	var fu *llm.Usage
	if r.Usage != nil && r.UsageMode != UsageSeparate && r.UsageMode != UsageNone {
		fu = r.Usage
		if r.UsageMode == UsageTwice {
			// A first report that differs, so that tests see which one is kept.
			early := *r.Usage
			early.CompletionTokens = max(early.CompletionTokens-1, 0)
			early.TotalTokens = early.PromptTokens + early.CompletionTokens
			fu = &early
		}
	}
	out = append(out, chunk("", r.finish(), fu))
	if r.Usage != nil && (r.UsageMode == UsageSeparate || r.UsageMode == UsageTwice) {
		out = append(out, `{"id":"chatcmpl-llmtest","object":"chat.completion.chunk","created":1,"model":"llmtest","choices":[],"usage":`+js(r.Usage)+`}`)
	}
	return out
}

// completion returns the non-streamed chat.completion body of the reply.
func (r Reply) completion() string {
	var ms []string
	ms = append(ms, `"role":"assistant"`, `"content":`+js(r.Content))
	if r.Reasoning != "" {
		for _, f := range r.fields() {
			ms = append(ms, reasoningMember(f, r.Reasoning))
		}
	}
	if len(r.ToolCalls) > 0 {
		var calls []string
		for i, c := range r.ToolCalls {
			id := c.ID
			if id == "" {
				id = fmt.Sprintf("call_%d", i)
			}
			calls = append(calls, fmt.Sprintf(`{"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}`, js(id), js(c.Name), js(c.Arguments)))
		}
		ms = append(ms, `"tool_calls":[`+strings.Join(calls, ",")+`]`)
	}
	s := `{"id":"chatcmpl-llmtest","object":"chat.completion","created":1,"model":"llmtest","choices":[{"index":0,"message":{` +
		strings.Join(ms, ",") + `},"finish_reason":` + js(r.finish()) + `}]`
	if r.Usage != nil {
		s += `,"usage":` + js(r.Usage)
	}
	return s + "}"
}
