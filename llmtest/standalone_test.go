package llmtest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeUntil: the URL file names a server that answers with respond,
// and the server is closed once stop receives.
func TestServeUntil(t *testing.T) {
	urlFile := filepath.Join(t.TempDir(), "url")
	stop := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() { done <- serveUntil(urlFile, func(Request) Reply { return Text("hi") }, stop) }()
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, _ := os.ReadFile(urlFile)
		url = strings.TrimSpace(string(b))
	}
	resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":false,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	stop <- syscall.SIGTERM
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(url + "/models"); err == nil {
		t.Error("the server still answers after stop")
	}
}

// TestServeBadURLFile: a URL file that cannot be written is the error,
// and the server is closed.
func TestServeBadURLFile(t *testing.T) {
	err := serveUntil(filepath.Join(t.TempDir(), "missing", "url"), func(Request) Reply { return Text("hi") }, nil)
	if err == nil {
		t.Fatal("no error for an unwritable URL file")
	}
}

func TestProse(t *testing.T) {
	toks := Prose(250)
	for i, tok := range toks {
		if len(tok) != 4 {
			t.Fatalf("token %d is %q, not four bytes", i, tok)
		}
	}
	if text := strings.Join(toks, ""); strings.Count(text, "ok.\n\nSo ") != 2 {
		t.Errorf("want two paragraph breaks: %q", text)
	}
}
