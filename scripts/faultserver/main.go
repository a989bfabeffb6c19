// Command faultserver is an OpenAI-compatible chat-completions server that
// misbehaves on demand, for replaying server faults against a built harness
// (by hand, or from cmd/harness's end-to-end tests).
//
//	go run ./scripts/faultserver [-addr 127.0.0.1:8099] [-strict] [FAULT ...]
//
// It prints "faultserver: listening on http://ADDR/v1" on stdout, then a line
// per chat request on stderr. Each chat request takes the next fault of the
// queue (the arguments, then whatever was POSTed to /faults, one per line);
// with the queue empty it answers "ok N" (N the request's number). A fault is
// a name, optionally followed by a space and an argument:
//
//	text WORDS        stream WORDS (the default "ok N" when WORDS is empty)
//	slow WORDS        stream WORDS one word every 200 ms
//	call NAME ARGS    a tool call (ARGS is the JSON arguments)
//	length WORDS      WORDS, then finish_reason "length"
//	429-seconds       429 with Retry-After: 1
//	429-date          429 with Retry-After: an HTTP date 2 s ahead
//	429-ms            429 with retry-after-ms: 700
//	429-long          429 with Retry-After: 300
//	503-wait N        503 with Retry-After: N
//	429               429 without a wait (backoff)
//	429-quota         429 insufficient_quota (not retried)
//	500-json 503-html 502-html 529   server failures
//	401-echo          401 whose body echoes the bearer key
//	404-model         404 model_not_found
//	ctx-openai ctx-vllm ctx-llama ctx-anthropic 413   context too long, in each server's words
//	keepalive N WORDS N SSE comment lines 500 ms apart (": keep-alive"), then WORDS
//	stall-headers     nothing, not even headers, until the client gives up
//	stall-first       headers, then nothing
//	stall-mid WORDS   two chunks of WORDS, then nothing
//	cut WORDS         two chunks of WORDS, then the connection is closed
//	malformed WORDS   two chunks, then a truncated JSON chunk
//	error-event       a 200 stream whose first event is an overloaded error
//	error-mid WORDS   two chunks of WORDS, then an overloaded error event
//	json-error        a 200 application/json body that is an error object (code 503)
//	drop              the connection closed before any byte
//
// With -strict the server refuses, as llama.cpp's strict Jinja templates
// do, a request with two user messages in a row or an assistant message
// with neither content nor tool calls (400 "Conversation roles must
// alternate user/assistant/user/assistant/..."), before taking a fault.
//
// GET /requests returns the chat requests received so far as a JSON array
// of {"n","fault","roles","status"}; GET /v1/models lists the model
// "faultserver-model". Every route is also served under /q/NAME/ (base URL
// http://ADDR/q/NAME/v1) with a queue and a record of its own, so that
// several harness processes can be replayed against one server at once.
//
// By hand, with a HARNESS_HOME whose [endpoint] base_url is the printed
// URL and a short idle_timeout_s:
//
//	go run ./scripts/faultserver -strict -addr 127.0.0.1:8099 &
//	printf '429-seconds\nstall-mid lost words\n' | curl -s --data-binary @- localhost:8099/faults
//	harness -p hi; curl -s localhost:8099/requests
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	strict := flag.Bool("strict", false, "refuse requests a strict-alternation chat template refuses")
	flag.Parse()
	s := &server{strict: *strict, queues: map[string]*queue{"": {faults: flag.Args()}}}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faultserver:", err)
		os.Exit(1)
	}
	fmt.Printf("faultserver: listening on http://%s/v1\n", ln.Addr())
	mux := http.NewServeMux()
	for _, prefix := range []string{"", "/q/{queue}"} {
		mux.HandleFunc(prefix+"/v1/chat/completions", s.chat)
		mux.HandleFunc(prefix+"/v1/models", models)
		mux.HandleFunc(prefix+"/faults", s.push)
		mux.HandleFunc(prefix+"/requests", s.list)
	}
	if err := http.Serve(ln, mux); err != nil {
		fmt.Fprintln(os.Stderr, "faultserver:", err)
		os.Exit(1)
	}
}

type record struct {
	N      int    `json:"n"`
	Fault  string `json:"fault"`
	Roles  string `json:"roles"`
	Status int    `json:"status"`
}

// queue is the faults and the record of one base URL: http://ADDR/v1, or
// http://ADDR/q/NAME/v1 so that several clients at once each get their own.
type queue struct {
	faults []string
	log    []record
}

type server struct {
	strict bool
	mu     sync.Mutex
	queues map[string]*queue
}

// queue returns r's queue; s.mu is held.
func (s *server) queue(r *http.Request) *queue {
	name := r.PathValue("queue")
	q := s.queues[name]
	if q == nil {
		q = &queue{}
		s.queues[name] = q
	}
	return q
}

func (s *server) push(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	q := s.queue(r)
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			q.faults = append(q.faults, l)
		}
	}
	s.mu.Unlock()
}

func (s *server) list(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	data, _ := json.Marshal(s.queue(r).log)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

func models(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"object":"list","data":[{"id":"faultserver-model","object":"model","owned_by":"faultserver"}]}`)
}

type message struct {
	Role      string            `json:"role"`
	Content   json.RawMessage   `json:"content"`
	ToolCalls []json.RawMessage `json:"tool_calls"`
}

// roles summarizes a request's messages ("system user assistant tool") and
// says what a strict template would refuse ("" when nothing).
func roles(msgs []message) (summary, refusal string) {
	var parts []string
	prev := ""
	for _, m := range msgs {
		parts = append(parts, m.Role)
		empty := len(m.ToolCalls) == 0 && (len(m.Content) == 0 || string(m.Content) == "null" || string(m.Content) == `""`)
		switch {
		case m.Role == "user" && prev == "user":
			refusal = "Conversation roles must alternate user/assistant/user/assistant/..."
		case m.Role == "assistant" && empty:
			refusal = "Assistant message must have a string content or tool calls"
		}
		if m.Role != "system" {
			prev = m.Role
		}
	}
	return strings.Join(parts, " "), refusal
}

func (s *server) chat(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model    string    `json:"model"`
		Messages []message `json:"messages"`
		Stream   bool      `json:"stream"`
	}
	data, _ := io.ReadAll(r.Body)
	json.Unmarshal(data, &body)
	summary, refusal := roles(body.Messages)
	s.mu.Lock()
	q := s.queue(r)
	n := len(q.log) + 1
	fault := ""
	if (refusal == "" || !s.strict) && len(q.faults) > 0 {
		fault, q.faults = q.faults[0], q.faults[1:]
	}
	q.log = append(q.log, record{N: n, Fault: fault, Roles: summary})
	s.mu.Unlock()
	fmt.Fprintf(os.Stderr, "faultserver: %srequest %d (%s): %s\n", label(r), n, summary, orText(fault))
	rec := &statusWriter{ResponseWriter: w, code: 200}
	if refusal != "" && s.strict {
		jsonError(rec, 400, `{"error":{"code":400,"message":"`+refusal+`","type":"invalid_request_error"}}`)
	} else {
		s.serve(rec, r, fault, n, body.Model, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	}
	s.mu.Lock()
	q.log[n-1].Status = rec.code
	s.mu.Unlock()
}

func label(r *http.Request) string {
	if q := r.PathValue("queue"); q != "" {
		return q + " "
	}
	return ""
}

func orText(f string) string {
	if f == "" {
		return "text"
	}
	return f
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) { w.code = code; w.ResponseWriter.WriteHeader(code) }
func (w *statusWriter) Flush()               { w.ResponseWriter.(http.Flusher).Flush() }
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.ResponseWriter.(http.Hijacker).Hijack()
}

func jsonError(w http.ResponseWriter, code int, body string) {
	ct := "application/json"
	if strings.HasPrefix(body, "<") {
		ct = "text/html; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(code)
	io.WriteString(w, body)
}

func (s *server) serve(w http.ResponseWriter, r *http.Request, fault string, n int, model, key string) {
	name, arg, _ := strings.Cut(fault, " ")
	if arg == "" {
		arg = fmt.Sprintf("ok %d", n)
	}
	h := w.Header()
	switch name {
	case "", "text":
		stream(w, r, textChunks(arg), "stop", 0)
	case "slow":
		stream(w, r, textChunks(arg), "stop", 200*time.Millisecond)
	case "length":
		stream(w, r, textChunks(arg), "length", 0)
	case "call":
		tool, args, _ := strings.Cut(arg, " ")
		stream(w, r, []string{`"tool_calls":[{"index":0,"id":"call_fs` + fmt.Sprint(n) + `","type":"function","function":{"name":` + quote(tool) + `,"arguments":` + quote(args) + `}}]`}, "tool_calls", 0)
	case "429-seconds":
		h.Set("Retry-After", "1")
		jsonError(w, 429, `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`)
	case "429-date":
		h.Set("Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
		jsonError(w, 429, `{"error":{"message":"Rate limit reached","type":"requests"}}`)
	case "429-ms":
		h.Set("Retry-After-Ms", "700")
		jsonError(w, 429, `{"error":{"message":"Rate limit reached","type":"tokens"}}`)
	case "429-long":
		h.Set("Retry-After", "300")
		jsonError(w, 429, `{"error":{"message":"Rate limit reached for requests per day","type":"requests"}}`)
	case "503-wait":
		h.Set("Retry-After", arg)
		jsonError(w, 503, `{"error":{"message":"Service busy","type":"server_error"}}`)
	case "429":
		jsonError(w, 429, `{"error":{"message":"Too many requests, slow down"}}`)
	case "429-quota":
		jsonError(w, 429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}`)
	case "500-json":
		jsonError(w, 500, `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error"}}`)
	case "503-html":
		jsonError(w, 503, "<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>")
	case "502-html":
		jsonError(w, 502, "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>")
	case "529":
		jsonError(w, 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	case "401-echo":
		jsonError(w, 401, `{"error":{"message":"Incorrect API key provided: `+inString(key)+`. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`)
	case "404-model":
		jsonError(w, 404, `{"error":{"message":"The model '`+inString(model)+`' does not exist or you do not have access to it.","type":"invalid_request_error","code":"model_not_found"}}`)
	case "ctx-openai":
		jsonError(w, 400, `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`)
	case "ctx-vllm":
		jsonError(w, 400, `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`)
	case "ctx-llama":
		jsonError(w, 400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}`)
	case "ctx-anthropic":
		jsonError(w, 400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`)
	case "413":
		jsonError(w, 413, "<html><head><title>413 Request Entity Too Large</title></head><body>nginx</body></html>")
	case "keepalive":
		count, words, _ := strings.Cut(arg, " ")
		comments, _ := strconv.Atoi(count)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		for range comments {
			io.WriteString(w, ": keep-alive\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-time.After(500 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		if words == "" {
			words = fmt.Sprintf("ok %d", n)
		}
		events(w, r, textChunks(words), "stop", 0)
	case "stall-headers":
		<-r.Context().Done()
	case "stall-first":
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	case "stall-mid", "cut", "malformed":
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		for _, c := range textChunks(arg)[:2] {
			fmt.Fprintf(w, "data: %s\n\n", chunk(c, ""))
		}
		w.(http.Flusher).Flush()
		switch name {
		case "stall-mid":
			<-r.Context().Done()
		case "cut":
			panic(http.ErrAbortHandler)
		case "malformed":
			io.WriteString(w, `data: {"id":"x","choices":[{"index":0,"delta":{"content":"tru`+"\n\n")
		}
	case "error-event":
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		io.WriteString(w, `data: {"error":{"message":"The server is overloaded, please try again later.","type":"overloaded_error"}}`+"\n\n")
	case "error-mid":
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		for _, c := range textChunks(arg)[:2] {
			fmt.Fprintf(w, "data: %s\n\n", chunk(c, ""))
		}
		io.WriteString(w, "event: error\n"+`data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`+"\n\n")
	case "json-error":
		jsonError(w, 200, `{"error":{"message":"Provider returned error: upstream overloaded","code":503}}`)
	case "drop":
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	default:
		jsonError(w, 500, `{"error":{"message":"faultserver: unknown fault `+inString(name)+`"}}`)
	}
}

// inString is s escaped for use inside a JSON string.
func inString(s string) string { q := quote(s); return q[1 : len(q)-1] }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func chunk(delta, finish string) string {
	f := "null"
	if finish != "" {
		f = quote(finish)
	}
	return `{"id":"chatcmpl-fs","object":"chat.completion.chunk","created":1,"model":"faultserver-model","choices":[{"index":0,"delta":{` + delta + `},"finish_reason":` + f + `}]}`
}

// textChunks splits words into content deltas, a role delta first.
func textChunks(words string) []string {
	out := []string{`"role":"assistant","content":""`}
	fields := strings.SplitAfter(words, " ")
	for _, f := range fields {
		out = append(out, `"content":`+quote(f))
	}
	for len(out) < 3 {
		out = append(out, `"content":""`)
	}
	return out
}

// stream sends deltas as an SSE stream ending with finish and [DONE].
func stream(w http.ResponseWriter, r *http.Request, deltas []string, finish string, pause time.Duration) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	events(w, r, deltas, finish, pause)
}

// events writes the events of stream once the headers are out.
func events(w http.ResponseWriter, r *http.Request, deltas []string, finish string, pause time.Duration) {
	f := w.(http.Flusher)
	for _, d := range deltas {
		if pause > 0 {
			select {
			case <-time.After(pause):
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprintf(w, "data: %s\n\n", chunk(d, ""))
		f.Flush()
	}
	fmt.Fprintf(w, "data: %s\n\n", chunk("", finish))
	fmt.Fprintf(w, "data: %s\n\n", `{"id":"chatcmpl-fs","object":"chat.completion.chunk","created":1,"model":"faultserver-model","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}}`)
	io.WriteString(w, "data: [DONE]\n\n")
	f.Flush()
}
