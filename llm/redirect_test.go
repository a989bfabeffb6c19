// Redirects against real HTTP servers: which are followed, which refused,
// and where the key goes.

package llm_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"harness/llm"
	"harness/llmtest"
)

// sink records what reached it and answers chat requests with a stream.
type sink struct {
	mu   sync.Mutex
	seen []string // "METHOD path auth body"
}

func (s *sink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.seen = append(s.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization")+" "+string(body))
	s.mu.Unlock()
	if strings.HasSuffix(r.URL.Path, "/models") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"m"}]}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"followed\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
}

func (s *sink) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// TestRedirects: a redirect to another origin is never followed (the key
// stays home); 301/302/303 on the chat POST are errors naming the new
// base_url; 307/308 to the same origin keep method and body.
func TestRedirects(t *testing.T) {
	elsewhere := &sink{}
	other := httptest.NewServer(elsewhere)
	defer other.Close()
	for _, tc := range []struct {
		name   string
		code   int
		cross  bool // to the other server
		models bool // GET /models instead of the chat POST
		err    string
		home   []string // what reached the redirecting server's new path
	}{
		{name: "301 to https elsewhere", code: 301, cross: true, err: `was redirected (301 Moved Permanently) to ` + other.URL + `/v1/chat/completions; harness does not follow a redirect to another origin, so that the API key goes nowhere else; set [endpoint] base_url = "` + other.URL + `/v1"`},
		{name: "308 elsewhere", code: 308, cross: true, err: "to another origin"},
		{name: "302 same origin", code: 302, err: `it would resend the request as a GET; set [endpoint] base_url = "`},
		{name: "303 same origin", code: 303, err: "(303 See Other)"},
		{name: "307 same origin", code: 307, home: []string{`POST /new/chat/completions Bearer sk-key {"model"`}},
		{name: "308 same origin", code: 308, home: []string{`POST /new/chat/completions Bearer sk-key {"model"`}},
		{name: "models 301 elsewhere", code: 301, cross: true, models: true, err: "GET "},
		{name: "models 301 same origin", code: 301, models: true, home: []string{"GET /new/models Bearer sk-key "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := &sink{}
			mux := http.NewServeMux()
			var srv *httptest.Server
			mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
				to := srv.URL + "/new" + strings.TrimPrefix(r.URL.Path, "/v1")
				if tc.cross {
					to = other.URL + r.URL.Path
				}
				http.Redirect(w, r, to, tc.code)
			})
			mux.Handle("/new/", home)
			srv = httptest.NewServer(mux)
			defer srv.Close()
			before := len(elsewhere.requests())
			ep := llmtest.New(t).Endpoint()
			ep.BaseURL = srv.URL + "/v1"
			c := llm.New(ep, "sk-key")
			var err error
			var text string
			if tc.models {
				_, err = c.ListModels(context.Background())
			} else {
				var resp llm.Response
				resp, err = c.Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
				text = resp.Message.Content
			}
			if n := len(elsewhere.requests()) - before; n != 0 {
				t.Errorf("%d requests reached the other origin", n)
			}
			if tc.err != "" {
				var re *llm.RedirectError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				if len(home.requests()) != 0 {
					t.Errorf("followed: %v", home.requests())
				}
				return
			}
			if err != nil {
				t.Fatalf("err %v", err)
			}
			got := home.requests()
			if len(got) != 1 || !strings.HasPrefix(got[0], tc.home[0]) {
				t.Errorf("requests %q, want %q", got, tc.home)
			}
			if !tc.models && text != "followed" {
				t.Errorf("text %q", text)
			}
		})
	}
}

// TestNotAReply: a 200 whose body is neither an event stream nor a chat
// completion (a model list, as a GET after a redirect gets) is an error,
// never an empty answer, and it is not retried.
func TestNotAReply(t *testing.T) {
	list := `{"object":"list","data":[{"id":"m","object":"model"}]}`
	for _, tc := range []struct {
		name, ctype string
	}{
		{"json", "application/json"},
		{"json as a stream", "text/event-stream"},
		{"plain", "text/plain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply{Raw: list + "\n", ContentType: tc.ctype})
			ep := srv.Endpoint()
			ep.MaxRetries = 3
			resp, err := llm.New(ep, "").Stream(context.Background(), llm.Request{Messages: userMsgs("q")}, nil)
			if err == nil || !strings.Contains(err.Error(), "no chat completion") && !strings.Contains(err.Error(), "neither an event stream nor a chat completion") {
				t.Fatalf("content %q err %v", resp.Message.Content, err)
			}
			if n := len(srv.Chats()); n != 1 {
				t.Errorf("%d requests", n)
			}
		})
	}
}
