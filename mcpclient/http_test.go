// Streamable HTTP servers: the SDK's handler on a loopback test server.

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestHTTPServer(t *testing.T) {
	ts := newTestServer(t)
	var mu sync.Mutex
	var auth []string
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ts.srv }, nil)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	spec := Spec{Name: "web", URL: web.URL + "/${PATH_PART}", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}, Allow: []string{"echo"},
		Expand: func(s string) (string, error) {
			return strings.NewReplacer("${TOKEN}", "tok-9", "${PATH_PART}", "mcp").Replace(s), nil
		}}
	s, _, ns, _ := startSet(t, spec)
	info := s.Servers(context.Background())[0]
	if info.Err != "" || len(info.Tools) != 8 || info.Log != "" {
		t.Fatalf("server = %+v", info)
	}
	res, err := s.Call(context.Background(), Call{Server: "web", Tool: "echo", Arguments: json.RawMessage(`{"text":"over http"}`)})
	if err != nil || res.Text != "echo: over http" {
		t.Fatalf("echo = %+v, %v", res, err)
	}
	mu.Lock()
	for _, a := range auth {
		if a != "Bearer tok-9" {
			t.Errorf("a request had Authorization %q", a)
		}
	}
	mu.Unlock()

	web.CloseClientConnections()
	web.Close()
	_, err = s.Call(context.Background(), Call{Server: "web", Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)})
	if err == nil || !strings.Contains(err.Error(), "MCP server web stopped during the call") {
		t.Fatalf("call to a server that is gone: %v", err)
	}
	if n := ns.wait(t); !strings.HasPrefix(n.Message, "MCP server web stopped") {
		t.Errorf("note = %+v", n)
	}
	_, err = s.Call(context.Background(), Call{Server: "web", Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)})
	if err == nil || !strings.Contains(err.Error(), "MCP server web failed to start again") {
		t.Errorf("restart of a server that is gone: %v", err)
	}
}

func TestHTTPExpandError(t *testing.T) {
	spec := Spec{Name: "web", URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"},
		Expand: func(s string) (string, error) {
			if strings.Contains(s, "${TOKEN}") {
				return "", errors.New("${TOKEN} is not set in the environment or in .env")
			}
			return s, nil
		}}
	s, _, _, _ := startSet(t, spec)
	if info := s.Servers(context.Background())[0]; info.Err != "failed to start: headers.Authorization: ${TOKEN} is not set in the environment or in .env" {
		t.Errorf("server = %+v", info)
	}
}
