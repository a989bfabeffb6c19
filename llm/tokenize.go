// Token counting through the server's /tokenize endpoint, or by estimate.

package llm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
)

// Estimate returns the heuristic token count of text: ceil(UTF-8 bytes / 3.25).
func Estimate(text string) int { return EstimateBytes(len(text)) }

// EstimateBytes is Estimate of a text of n bytes.
func EstimateBytes(n int) int { return int(math.Ceil(float64(n) / 3.25)) }

// Tokenizer counts tokens with a server's /tokenize endpoint, speaking the
// llama.cpp dialect ({"content": s} → {"tokens": [...]}, tokens possibly
// objects with pieces) and the vLLM one ({"prompt": s} → {"count": n}). The
// dialect is found on the first successful request and then kept. It is
// safe for concurrent use.
type Tokenizer struct {
	url    string
	apiKey string
	http   *http.Client

	mu      sync.Mutex
	dialect string // "", "content" (llama.cpp) or "prompt" (vLLM)
	missing error  // set when the server has no /tokenize route at all
}

// NewTokenizer returns a tokenizer for the endpoint at baseURL: it posts to
// baseURL with a final "/v1" removed, plus "/tokenize".
func NewTokenizer(baseURL, apiKey string) *Tokenizer {
	base := strings.TrimRight(baseURL, "/")
	base = strings.TrimSuffix(base, "/v1")
	return &Tokenizer{url: base + "/tokenize", apiKey: apiKey, http: &http.Client{}}
}

// WithHTTPClient makes t use hc and returns t.
func (t *Tokenizer) WithHTTPClient(hc *http.Client) *Tokenizer {
	t.http = hc
	return t
}

// URL returns the tokenize URL.
func (t *Tokenizer) URL() string { return t.url }

// Dialect returns "llama.cpp", "vLLM", or "" before the first success.
func (t *Tokenizer) Dialect() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch t.dialect {
	case "content":
		return "llama.cpp"
	case "prompt":
		return "vLLM"
	}
	return ""
}

// Count returns the number of tokens the server counts in text.
func (t *Tokenizer) Count(ctx context.Context, text string) (int, error) {
	t.mu.Lock()
	d, missing := t.dialect, t.missing
	t.mu.Unlock()
	if missing != nil {
		return 0, missing
	}
	if d != "" {
		return t.count(ctx, d, text)
	}
	n, err := t.count(ctx, "content", text)
	if err == nil {
		t.setDialect("content")
		return n, nil
	}
	if !refused(err) {
		return 0, err // a failure that may pass: the dialect is still unknown
	}
	n, err2 := t.count(ctx, "prompt", text)
	if err2 != nil {
		if noRoute(err) && noRoute(err2) {
			t.mu.Lock()
			t.missing = err // remembered: the server has no tokenizer
			t.mu.Unlock()
		}
		return 0, err // the llama.cpp failure is the more telling one
	}
	t.setDialect("prompt")
	return n, nil
}

func (t *Tokenizer) setDialect(d string) {
	t.mu.Lock()
	t.dialect = d
	t.mu.Unlock()
}

// dialectError: the server answered 200 but not in the expected form.
type dialectError struct{ url, body string }

func (e *dialectError) Error() string {
	return fmt.Sprintf("%s answered without a token list or count: %s", e.url, e.body)
}

func (t *Tokenizer) count(ctx context.Context, field, text string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, newCountReader(field, text))
	if err != nil {
		return 0, fmt.Errorf("bad tokenize URL %q: %w", t.url, err)
	}
	req.ContentLength = countLen(field, text)
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(newCountReader(field, text)), nil }
	req.Header.Set("Content-Type", "application/json")
	if t.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+t.apiKey)
	}
	resp, err := t.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, &ConnectError{URL: t.url, Err: unwrapURL(err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		data, err := readAll(resp, 64<<20)
		if err != nil {
			return 0, fmt.Errorf("read %s: %w", t.url, err)
		}
		return 0, &StatusError{URL: t.url, Code: resp.StatusCode, Message: bodyMessage(data)}
	}
	head := &headBuffer{max: 2 * maxMessage}
	out, err := readTokenAnswer(io.TeeReader(io.LimitReader(resp.Body, 1<<30), head))
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	if err != nil || (!out.hasCount && !out.hasTokens) {
		return 0, &dialectError{t.url, truncate(head.String())}
	}
	if out.hasCount {
		return out.count, nil
	}
	if field == "prompt" && out.tokens == 0 && text != "" {
		// llama.cpp ignores "prompt" and answers an empty token list.
		return 0, &dialectError{t.url, truncate(head.String())}
	}
	return out.tokens, nil
}

// headBuffer keeps the first max bytes written to it: the start of an
// answer, for an error message.
type headBuffer struct {
	max int
	b   []byte
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) String() string { return string(h.b) }

// countReader streams the request {"<field>": text}, escaping text as
// it is read: text is a conversation's prefix, megabytes long, counted
// once for each message of a turn, and a body made whole would hold a
// copy of it while the request is sent.
type countReader struct {
	text string // what is left to escape
	out  []byte // escaped bytes not yet read
	buf  []byte
	done bool // the closing `"}` is in out
}

// countPiece is how much of the text is escaped at a time.
const countPiece = 32 << 10

func countHead(field string) []byte {
	b := AppendJSONString([]byte{'{'}, field)
	return append(b, ':', '"')
}

func newCountReader(field, text string) *countReader {
	return &countReader{text: text, out: countHead(field)}
}

// nextPiece cuts the next piece of text, whole characters only, so that
// each escapes as it would in the whole.
func nextPiece(text string) (string, string) {
	n := CutJSONChars(text, min(countPiece, len(text)))
	return text[:n], text[n:]
}

func (r *countReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.out) == 0 {
			switch {
			case r.text != "":
				var piece string
				piece, r.text = nextPiece(r.text)
				r.buf = AppendJSONChars(r.buf[:0], piece)
			case !r.done:
				r.buf, r.done = append(r.buf[:0], '"', '}'), true
			default:
				if n == 0 {
					return 0, io.EOF
				}
				return n, nil
			}
			r.out = r.buf
		}
		c := copy(p[n:], r.out)
		r.out = r.out[c:]
		n += c
	}
	return n, nil
}

// countLen is the length of what a countReader for field and text reads.
func countLen(field, text string) int64 {
	n := int64(len(countHead(field)) + len(`"}`))
	var buf []byte
	for text != "" {
		var piece string
		piece, text = nextPiece(text)
		buf = AppendJSONChars(buf[:0], piece)
		n += int64(len(buf))
	}
	return n
}

// readAll reads at most limit bytes of resp's body into a buffer sized by
// its Content-Length when it has one (a token list for a long prefix is
// megabytes, which io.ReadAll reaches by doubling).
func readAll(resp *http.Response, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	if n := resp.ContentLength; n > 0 && n < limit {
		buf.Grow(int(n) + bytes.MinRead) // ReadFrom wants MinRead free to see EOF
	}
	_, err := buf.ReadFrom(io.LimitReader(resp.Body, limit))
	return buf.Bytes(), err
}

// refused reports whether err says the server does not take the llama.cpp
// request (a 4xx status, or a 200 answer without tokens), so that the vLLM
// form is worth trying. A 5xx or a connection failure says nothing about the
// dialect: llama.cpp answers 503 while it loads the model.
func refused(err error) bool {
	if _, ok := err.(*dialectError); ok {
		return true
	}
	se, ok := err.(*StatusError)
	return ok && se.Code/100 == 4
}

// noRoute reports whether err says the route does not exist (rather than a
// failure that may pass).
func noRoute(err error) bool {
	se, ok := err.(*StatusError)
	return ok && (se.Code == http.StatusNotFound || se.Code == http.StatusMethodNotAllowed || se.Code == http.StatusNotImplemented)
}
