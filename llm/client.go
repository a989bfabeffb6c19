// The chat-completions client: request bodies, HTTP, attempts and retries, /models.

package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"harness/config"
)

// Request is one chat request.
type Request struct {
	// System, when non-nil, is sent as a first {"role":"system"} message.
	// It is never part of Messages and never stored.
	System   *string
	Messages []Message
	Tools    []Tool
}

// Response is the outcome of Stream. On an error it still holds everything
// received before the error.
type Response struct {
	// Message is the accumulated assistant message; its tool-call IDs are
	// already new NewCallID values.
	Message Message
	// Usage is the last usage the endpoint reported, nil if none.
	Usage *Usage
	// FinishReason is the last finish_reason received ("" if none).
	FinishReason string
}

// Client talks to one OpenAI-compatible endpoint. It is safe for
// concurrent use.
type Client struct {
	ep     config.Endpoint
	apiKey string
	http   *http.Client
	clock  Clock
	rand   func() float64
	origin Origin
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the client use hc (tests, proxies).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// New returns a client for ep. apiKey is sent as a Bearer token when it is
// non-empty; pass cfg.APIKey(ep). Chat requests are retried ep.MaxRetries
// times (see Decide) and each attempt ends after ep.IdleTimeout without
// progress (0: never).
func New(ep config.Endpoint, apiKey string, opts ...Option) *Client {
	c := &Client{ep: ep, apiKey: apiKey, http: &http.Client{}, clock: systemClock{}, rand: defaultRand}
	for _, o := range opts {
		o(c)
	}
	hc := *c.http // the caller's client keeps its own policy
	hc.CheckRedirect = c.checkRedirect
	c.http = &hc
	return c
}

// Endpoint returns the endpoint the client talks to.
func (c *Client) Endpoint() config.Endpoint { return c.ep }

func (c *Client) url(path string) string {
	return strings.TrimRight(c.ep.BaseURL, "/") + path
}

// Body returns the JSON request body Stream (stream=true) or Complete
// (stream=false) sends for req: model, messages (the system message first,
// then req.Messages with consecutive user messages merged and empty
// assistant messages left out, see outgoing), tools, stream,
// stream_options, then every [endpoint.parameters] entry in key order.
// Message Extra members are written byte-for-byte.
func (c *Client) Body(req Request, stream bool) ([]byte, error) {
	var tail bytes.Buffer // what follows the messages
	tail.WriteByte(']')
	if len(req.Tools) > 0 {
		tail.WriteString(`,"tools":[`)
		for i, t := range req.Tools {
			raw, err := t.MarshalJSON()
			if err != nil {
				return nil, fmt.Errorf("encode tool %s: %w", t.Name, err)
			}
			if i > 0 {
				tail.WriteByte(',')
			}
			tail.Write(raw)
		}
		tail.WriteByte(']')
	}
	if stream {
		tail.WriteString(`,"stream":true,"stream_options":{"include_usage":true}`)
	} else {
		tail.WriteString(`,"stream":false`)
	}
	keys := make([]string, 0, len(c.ep.Parameters))
	for k := range c.ep.Parameters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		raw, err := json.Marshal(c.ep.Parameters[k])
		if err != nil {
			return nil, fmt.Errorf("encode [endpoint.parameters] %s: %w", k, err)
		}
		writeMember(&tail, k, raw, false)
	}
	tail.WriteByte('}')
	msgs := outgoing(req.Messages)
	if req.System != nil {
		msgs = append([]Message{{Role: "system", Content: *req.System}}, msgs...)
	}
	// The body is made at its size: a long conversation's is megabytes,
	// which growing by doubling would hold one and a half times over.
	head := appendKey([]byte{'{'}, "model", true)
	head = append(AppendJSONString(head, c.ep.Model), `,"messages":[`...)
	size, scratch := len(head)+tail.Len(), []byte(nil)
	for _, m := range msgs {
		scratch = m.appendJSON(scratch[:0])
		size += len(scratch) + 1
	}
	b := bytes.NewBuffer(make([]byte, 0, size))
	b.Write(head)
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(',')
		}
		scratch = m.appendJSON(b.AvailableBuffer())
		b.Write(scratch)
	}
	b.Write(tail.Bytes())
	if !json.Valid(b.Bytes()) {
		return nil, errors.New("encode request: a stored message field is not valid JSON (the session file may be damaged)")
	}
	return b.Bytes(), nil
}

// send sends one request and returns a 2xx response. A non-2xx answer
// becomes a *StatusError (with its headers and advice), a transport failure
// a *ConnectError. With a watchdog w, the headers and every byte of the
// body restart its timer. A body is sent from a oneShot, and the
// transport's own resend (a reused connection the server had closed, a
// redirect) gets it from rebuild.
func (c *Client) send(ctx context.Context, method, path string, body []byte, rebuild func() ([]byte, error), w *watchdog) (*http.Response, error) {
	target := c.url(path)
	var rd io.Reader = bytes.NewReader(nil)
	if body != nil {
		rd = &oneShot{body}
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, fmt.Errorf("bad [%s] base_url %q: %w", c.origin.section(), c.ep.BaseURL, err)
	}
	if body != nil {
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) {
			b, err := rebuild()
			if err != nil {
				return nil, err
			}
			return io.NopCloser(&oneShot{b}), nil
		}
		req.Header.Set("Content-Type", "application/json")
	}
	body = nil
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var re *RedirectError
		if errors.As(err, &re) {
			return nil, re
		}
		return nil, &ConnectError{URL: target, Err: unwrapURL(err), Section: c.origin.Section}
	}
	if w != nil {
		w.gotHeaders()
		resp.Body = w.body(resp.Body)
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		data, rerr := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		if rerr != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := bodyMessage(scrubKey(data, c.apiKey))
		return nil, &StatusError{URL: target, Code: resp.StatusCode, Message: msg,
			Header: resp.Header.Clone(), Advice: c.advice(resp.StatusCode, msg), Window: bodyWindow(data)}
	}
	return resp, nil
}

func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// Stream sends req with stream=true and accumulates the reply, calling
// onDelta (which may be nil) from the calling goroutine for every fragment
// as soon as its line arrives. A failed attempt that the retry policy
// (Decide) retries is announced with a DeltaRetry before the wait; the
// deltas after it are the new attempt's. On an error or cancellation the
// Response holds the partial message of the last attempt (nothing when
// the context ended during a wait).
func (c *Client) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error) {
	body, err := c.Body(req, true)
	if err != nil {
		return empty(), err
	}
	return c.withRetries(ctx, body, func() ([]byte, error) { return c.Body(req, true) }, onDelta)
}

// Complete sends req with stream=false and returns the assistant message
// (tool-call IDs replaced by new ones), with the same retries as Stream.
// It is used for approval descriptions, where nothing is shown while
// generating.
func (c *Client) Complete(ctx context.Context, req Request) (Message, error) {
	body, err := c.Body(req, false)
	if err != nil {
		return Message{}, err
	}
	resp, err := c.withRetries(ctx, body, func() ([]byte, error) { return c.Body(req, false) }, nil)
	return resp.Message, err
}

// withRetries sends body until an attempt succeeds or the retry policy
// gives up. Each retry sends the same bytes again, made anew by rebuild:
// a long conversation's body is megabytes, and none of it is held while
// the answer streams (see oneShot).
func (c *Client) withRetries(ctx context.Context, body []byte, rebuild func() ([]byte, error), onDelta func(Delta)) (Response, error) {
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			var err error
			if body, err = rebuild(); err != nil {
				return empty(), err
			}
		}
		acc := newAccumulator(onDelta)
		acc.secret = c.apiKey
		err := c.attempt(ctx, body, rebuild, acc)
		body = nil
		if err == nil || ctx.Err() != nil {
			return acc.response(), err
		}
		d := Decide(attempt, c.ep.MaxRetries, err, c.clock.Now(), c.rand())
		if !d.Retry {
			return acc.response(), d.Err
		}
		if onDelta != nil {
			onDelta(Delta{Kind: DeltaRetry, Retry: &Retry{Attempt: attempt, Max: c.ep.MaxRetries, Delay: d.Delay, Reason: d.Reason, Err: err}})
		}
		if err := c.clock.Sleep(ctx, d.Delay); err != nil {
			return empty(), err
		}
	}
}

// empty is the Response of a request that brought nothing: an empty
// assistant message.
func empty() Response { return Response{Message: Message{Role: "assistant"}} }

// attempt sends body once and reads the answer into acc, under the idle
// timeout.
func (c *Client) attempt(ctx context.Context, body []byte, rebuild func() ([]byte, error), acc *accumulator) error {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w := newWatchdog(c.clock, c.ep.IdleTimeout, cancel)
	defer w.stop()
	deliver := acc.onDelta
	acc.onDelta = func(d Delta) { // every delta is content, reasoning or a tool call
		w.progress()
		deliver(d)
	}
	resp, err := c.send(actx, http.MethodPost, "/chat/completions", body, rebuild, w)
	if err == nil {
		err = readBody(actx, resp, acc)
		resp.Body.Close()
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return w.explain(err, acc.chunks, c.origin.section())
}

// readBody parses an SSE stream, or a plain JSON completion when the server
// answered with application/json and the body is one JSON object (some
// servers label their event streams application/json).
func readBody(ctx context.Context, resp *http.Response, acc *accumulator) error {
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && firstByte(br) == '{' {
		data, err := io.ReadAll(io.LimitReader(br, MaxLineBytes+1))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%w: %v", ErrTruncated, err)
		}
		if len(data) > MaxLineBytes {
			return &LineTooLongError{}
		}
		return acc.whole(data)
	}
	return parseStream(ctx, br, acc)
}

// firstByte returns the first non-space byte of br without consuming it.
func firstByte(br *bufio.Reader) byte {
	for n := 1; ; n++ {
		b, err := br.Peek(n)
		if len(b) < n || err != nil {
			return 0
		}
		switch b[n-1] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b[n-1]
	}
}

// oneShot is a request body that lets go of its bytes once they are read:
// the request stays reachable from its response while the answer streams,
// and a long conversation's body (megabytes) would otherwise be held that
// long, all of it garbage.
type oneShot struct{ b []byte }

func (o *oneShot) Read(p []byte) (int, error) {
	if len(o.b) == 0 {
		o.b = nil
		return 0, io.EOF
	}
	n := copy(p, o.b)
	if o.b = o.b[n:]; len(o.b) == 0 {
		o.b = nil
	}
	return n, nil
}

// Model is one entry of an endpoint's model list.
type Model struct {
	ID      string
	OwnedBy string // "llamacpp" for llama.cpp's server, "" when not given
}

// Models returns the IDs the endpoint lists at {base_url}/models.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	list, err := c.ListModels(ctx)
	ids := make([]string, len(list))
	for i, m := range list {
		ids[i] = m.ID
	}
	return ids, err
}

// ListModels returns the models the endpoint lists at {base_url}/models, in
// the OpenAI form ("data") or, failing that, Ollama's ("models").
func (c *Client) ListModels(ctx context.Context) ([]Model, error) {
	resp, err := c.send(ctx, http.MethodGet, "/models", nil, nil, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", c.url("/models"), err)
	}
	var list struct {
		Data []struct {
			ID      string `json:"id"`
			OwnedBy string `json:"owned_by"`
		} `json:"data"`
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s did not answer with a model list: %s", c.url("/models"), truncate(string(data)))
	}
	var out []Model
	for _, d := range list.Data {
		out = append(out, Model{ID: d.ID, OwnedBy: d.OwnedBy})
	}
	if len(out) == 0 {
		for _, m := range list.Models {
			if m.Model != "" {
				out = append(out, Model{ID: m.Model})
			} else if m.Name != "" {
				out = append(out, Model{ID: m.Name})
			}
		}
	}
	return out, nil
}
