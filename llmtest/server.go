// The fake endpoint server: routing, recording, /models and /tokenize.

package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"harness/config"
	"harness/llm"
)

// Server is a fake OpenAI-compatible endpoint. All methods are safe for
// concurrent use.
type Server struct {
	// URL is the base URL to configure ([endpoint] base_url): it ends in /v1.
	URL string
	// Root is the server address without /v1 (where /tokenize is served).
	Root string
	// Model is the model name served by /models (default "llmtest-model").
	Model string

	t       TB
	srv     *httptest.Server
	closing chan struct{}
	stalled chan struct{}

	mu         sync.Mutex
	replies    []Reply
	respond    func(Request) Reply
	requests   []Request
	models     []string
	modelsFail *Reply
	tokMode    TokenizeMode
	tokCount   func(string) int
	tokFail    func(string) bool
	unscripted int
	closed     bool
	win        window
	sent       int64 // bytes FailLongLine and FailFlood wrote
}

// Request is one recorded request.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// TB is what New needs of its test: *testing.T and every testing.TB have
// it, and a program that serves scripted replies outside a test (a
// measurement under scripts/) gives its own.
type TB interface {
	Cleanup(func())
	Errorf(format string, args ...any)
}

// New starts a server that answers chat requests with replies, in order,
// one per request. It is closed when the test ends, and the test fails then
// if a chat request found no scripted reply.
func New(t TB, replies ...Reply) *Server {
	s := &Server{
		Model:   "llmtest-model",
		t:       t,
		closing: make(chan struct{}),
		stalled: make(chan struct{}, 64),
		replies: replies,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.chat)
	mux.HandleFunc("/chat/completions", s.chat)
	mux.HandleFunc("/v1/models", s.modelList)
	mux.HandleFunc("/models", s.modelList)
	mux.HandleFunc("/tokenize", s.tokenize)
	mux.HandleFunc("/props", s.props)
	mux.HandleFunc("/api/ps", s.ollamaPS)
	mux.HandleFunc("/api/show", s.ollamaShow)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		s.requests = append(s.requests, Request{r.Method, r.URL.Path, r.Header.Clone(), body})
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	s.Root = s.srv.URL
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.Close)
	return s
}

// Close ends stalled replies and stops the server. It reports unscripted
// chat requests as a test failure.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	n := s.unscripted
	s.mu.Unlock()
	close(s.closing)
	s.srv.Close()
	if n > 0 {
		s.t.Errorf("llmtest: %d chat request(s) found no scripted reply (Push more replies or set Respond)", n)
	}
}

// Endpoint returns an endpoint configuration pointing at the server.
func (s *Server) Endpoint() config.Endpoint {
	return config.Endpoint{BaseURL: s.URL, Model: s.Model}
}

// Client returns an llm client for the server, with apiKey ("" for none).
// Its endpoint, like Endpoint's, makes no retries and has no idle timeout.
func (s *Server) Client(apiKey string, opts ...llm.Option) *llm.Client {
	return llm.New(s.Endpoint(), apiKey, opts...)
}

// Stalled receives once each time a reply starts a stall (FailStall,
// FailStallHeaders): the server has sent everything before it.
func (s *Server) Stalled() <-chan struct{} { return s.stalled }

// Tokenizer returns a tokenizer for the server.
func (s *Server) Tokenizer() *llm.Tokenizer { return llm.NewTokenizer(s.URL, "") }

// Push queues more replies.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	s.replies = append(s.replies, replies...)
	s.mu.Unlock()
}

// Respond sets a function that answers chat requests once the queue is
// empty; it receives the recorded request.
func (s *Server) Respond(fn func(Request) Reply) {
	s.mu.Lock()
	s.respond = fn
	s.mu.Unlock()
}

// Remaining returns the number of queued replies not yet used.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies)
}

// Requests returns a copy of every request received, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Chats returns the recorded /chat/completions requests.
func (s *Server) Chats() []Request { return s.only("/chat/completions") }

// Tokenizes returns the recorded /tokenize requests.
func (s *Server) Tokenizes() []Request { return s.only("/tokenize") }

func (s *Server) only(suffix string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if strings.HasSuffix(r.Path, suffix) {
			out = append(out, r)
		}
	}
	return out
}

// SetModels sets the IDs /models lists (default: Model).
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	s.models = ids
	s.mu.Unlock()
}

// FailModels makes /models answer with r (typically Error(status, body));
// a nil r restores the model list.
func (s *Server) FailModels(r *Reply) {
	s.mu.Lock()
	s.modelsFail = r
	s.mu.Unlock()
}

func (s *Server) next(req Request) (Reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.replies) > 0 {
		r := s.replies[0]
		s.replies = s.replies[1:]
		return r, true
	}
	if s.respond != nil {
		fn := s.respond
		s.mu.Unlock()
		r := fn(req)
		s.mu.Lock()
		return r, true
	}
	s.unscripted++
	return Reply{}, false
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{r.Method, r.URL.Path, r.Header.Clone(), body}
	if s.overWindow(w, body) {
		return
	}
	reply, ok := s.next(req)
	if !ok {
		writeStatus(w, http.StatusInternalServerError, `{"error":{"message":"llmtest: no scripted reply left"}}`)
		return
	}
	var opts struct {
		Stream bool `json:"stream"`
	}
	json.Unmarshal(body, &opts)
	s.serve(w, r, reply, opts.Stream)
}

func writeStatus(w http.ResponseWriter, code int, body string) {
	switch t := strings.TrimSpace(body); {
	case strings.HasPrefix(t, "{"):
		w.Header().Set("Content-Type", "application/json")
	case strings.HasPrefix(t, "<"):
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.WriteHeader(code)
	io.WriteString(w, body)
}

func (s *Server) modelList(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	fail, ids, fields := s.modelsFail, s.models, s.win.modelFields()
	if ids == nil {
		ids = []string{s.Model}
	}
	s.mu.Unlock()
	if fail != nil {
		s.serve(w, r, *fail, false)
		return
	}
	list := struct {
		Object string           `json:"object"`
		Data   []map[string]any `json:"data"`
	}{Object: "list", Data: []map[string]any{}}
	for _, id := range ids {
		m := map[string]any{"id": id, "object": "model", "owned_by": "llmtest"}
		if id == s.Model {
			for k, v := range fields {
				m[k] = v
			}
		}
		list.Data = append(list.Data, m)
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, js(list))
}

// wait sleeps d unless the request or the server ends first.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.closing:
	}
	return false
}

// serve writes reply as a stream or as a whole completion.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, reply Reply, stream bool) {
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	switch {
	case reply.Fail == FailStallHeaders:
		s.stall(r)
	case reply.Fail == FailDrop:
		hj, ok := w.(http.Hijacker)
		if !ok {
			panic(http.ErrAbortHandler)
		}
		conn, _, err := hj.Hijack()
		if err == nil {
			conn.Close()
		}
	case reply.Status != 0:
		writeStatus(w, reply.Status, reply.Body)
	case reply.Raw != "":
		ct := reply.ContentType
		if ct == "" {
			ct = "text/event-stream"
		}
		w.Header().Set("Content-Type", ct)
		io.WriteString(w, reply.Raw)
	case !stream && reply.Chunks == nil:
		s.serveWhole(w, r, reply)
	default:
		s.serveStream(w, r, reply)
	}
}

func flusher(w http.ResponseWriter) func() {
	return func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// serveWhole answers a request with "stream": false.
func (s *Server) serveWhole(w http.ResponseWriter, r *http.Request, reply Reply) {
	w.Header().Set("Content-Type", "application/json")
	body := reply.completion()
	switch reply.Fail {
	case FailCut, FailStall:
		w.WriteHeader(http.StatusOK)
		s.fail(w, r, reply.Fail, reply.LineBytes, "", flusher(w))
		return
	case FailMalformed:
		body = body[:len(body)/2]
	}
	io.WriteString(w, body)
}

// serveStream sends the reply's chunks as server-sent events.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request, reply Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush := flusher(w)
	flush()
	start := time.Now()
	for i, c := range reply.chunks() {
		if reply.Fail != FailNone && i == reply.After {
			s.fail(w, r, reply.Fail, reply.LineBytes, c, flush)
			return
		}
		d := reply.Delay
		if reply.Pace > 0 {
			d = time.Until(start.Add(time.Duration(i) * reply.Pace))
		}
		if !s.wait(r, d) || !s.gate(r, reply.Gate) {
			return
		}
		if strings.HasPrefix(c, ":") {
			fmt.Fprintf(w, "%s\n", c)
		} else {
			fmt.Fprintf(w, "data: %s\n\n", c)
		}
		flush()
	}
	if reply.Fail != FailNone {
		s.fail(w, r, reply.Fail, reply.LineBytes, `{"choices":[]}`, flush)
		return
	}
	if !reply.NoDone {
		io.WriteString(w, "data: [DONE]\n\n")
	}
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, f Failure, lineBytes int, next string, flush func()) {
	switch f {
	case FailCut:
		flush()
		panic(http.ErrAbortHandler) // closes the connection mid-body
	case FailMalformed:
		fmt.Fprintf(w, "data: %s\n\n", next[:len(next)/2])
		flush()
	case FailStall:
		flush()
		s.stall(r)
	case FailLongLine, FailFlood:
		s.flood(w, r, f, lineBytes, flush)
	}
}

// Sent returns the bytes FailLongLine and FailFlood replies have written so
// far (what the client accepted), over all requests.
func (s *Server) Sent() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

// flood writes FailLongLine's line or FailFlood's empty deltas, in 64 KiB
// writes, until done, a write fails or the request ends.
func (s *Server) flood(w http.ResponseWriter, r *http.Request, f Failure, lineBytes int, flush func()) {
	piece := bytes.Repeat([]byte("a"), 64<<10)
	if f == FailFlood {
		empty := []byte(`data: {"choices":[{"index":0,"delta":{}}]}` + "\n\n")
		piece = bytes.Repeat(empty, (64<<10)/len(empty))
	}
	write := func(b []byte) bool {
		n, err := w.Write(b)
		s.mu.Lock()
		s.sent += int64(n)
		s.mu.Unlock()
		return err == nil && r.Context().Err() == nil
	}
	if f == FailLongLine {
		if !write([]byte(`data: {"choices":[{"index":0,"delta":{"content":"`)) {
			return
		}
	}
	for sent := 0; f == FailFlood || sent < lineBytes; sent += len(piece) {
		if !write(piece) {
			return
		}
		flush()
	}
	write([]byte("\"}}]}\n\n"))
	flush()
}

// stall sends nothing until the request or the server ends.
func (s *Server) stall(r *http.Request) {
	select {
	case s.stalled <- struct{}{}:
	default:
	}
	select {
	case <-r.Context().Done():
	case <-s.closing:
	}
}

// gate waits for a value on g (nil: no wait) unless the request or the
// server ends first.
func (s *Server) gate(r *http.Request, g <-chan struct{}) bool {
	if g == nil {
		return true
	}
	select {
	case <-g:
		return true
	case <-r.Context().Done():
	case <-s.closing:
	}
	return false
}

// TokenizeMode selects how /tokenize answers.
type TokenizeMode int

const (
	TokenizeLlama       TokenizeMode = iota // {"content": s} → {"tokens": [ids]}
	TokenizeLlamaPieces                     // {"content": s} → {"tokens": [{"id":…,"piece":…}]}
	TokenizeVLLM                            // {"prompt": s} → {"count": n, "max_model_len": …, "tokens": [ids]}; content-only bodies get 400
	TokenizeFail                            // 500 with a JSON error
	TokenizeMissing                         // 404 text, as servers without the route answer
)

// SetTokenize selects the /tokenize dialect or failure.
func (s *Server) SetTokenize(m TokenizeMode) {
	s.mu.Lock()
	s.tokMode = m
	s.mu.Unlock()
}

// SetTokenCount sets the token counting function (default: CountBytes4).
func (s *Server) SetTokenCount(fn func(text string) int) {
	s.mu.Lock()
	s.tokCount = fn
	s.mu.Unlock()
}

// FailTokenizeWhen makes /tokenize answer 500 for texts where fn is true
// (nil: never).
func (s *Server) FailTokenizeWhen(fn func(text string) bool) {
	s.mu.Lock()
	s.tokFail = fn
	s.mu.Unlock()
}

// CountBytes4 is the default fake token count: one token per 4 bytes,
// rounded up.
func CountBytes4(text string) int { return (len(text) + 3) / 4 }

func (s *Server) tokenize(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	mode, count, failWhen := s.tokMode, s.tokCount, s.tokFail
	s.mu.Unlock()
	if count == nil {
		count = CountBytes4
	}
	var in struct {
		Content *string `json:"content"`
		Prompt  *string `json:"prompt"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &in); err != nil {
		writeStatus(w, 400, `{"error":{"message":"invalid JSON"}}`)
		return
	}
	text := ""
	switch {
	case mode == TokenizeFail:
		writeStatus(w, 500, `{"error":{"code":500,"message":"llmtest: tokenize failed","type":"server_error"}}`)
		return
	case mode == TokenizeMissing:
		writeStatus(w, 404, "404 page not found")
		return
	case mode == TokenizeVLLM && in.Prompt == nil:
		writeStatus(w, 400, `{"object":"error","message":"[{'type': 'missing', 'loc': ('body', 'prompt'), 'msg': 'Field required'}]","type":"BadRequestError","param":null,"code":400}`)
		return
	case mode == TokenizeVLLM:
		text = *in.Prompt
	case in.Content != nil:
		text = *in.Content
	}
	if failWhen != nil && failWhen(text) {
		writeStatus(w, 500, `{"error":{"code":500,"message":"llmtest: tokenize failed for this text","type":"server_error"}}`)
		return
	}
	n := count(text)
	ids := make([]any, n)
	for i := range ids {
		ids[i] = i + 1
		if mode == TokenizeLlamaPieces {
			ids[i] = map[string]any{"id": i + 1, "piece": "x"}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if mode == TokenizeVLLM {
		io.WriteString(w, js(map[string]any{"count": n, "max_model_len": 32768, "tokens": ids}))
		return
	}
	io.WriteString(w, js(map[string]any{"tokens": ids}))
}
