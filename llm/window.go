// The model's context window: asked of the server, or learnt from a refusal.

package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Where a window came from, as harness doctor and the UI name it.
const (
	WindowFromConfig = "config"          // [endpoint] context_window
	WindowFromProps  = "/props"          // llama.cpp: default_generation_settings.n_ctx
	WindowFromModels = "/models"         // the model's entry: context_length, max_model_len, …
	WindowFromOllama = "ollama"          // /api/ps context_length, /api/show num_ctx
	WindowFromError  = "a context error" // what a refusal said, learnt for the process
)

// WindowSource names where a window came from, for people.
func WindowSource(src string) string {
	switch src {
	case WindowFromConfig:
		return "[endpoint] context_window"
	case WindowFromProps:
		return "llama.cpp's /props, default_generation_settings.n_ctx"
	case WindowFromModels:
		return "the model's entry in /models"
	case WindowFromOllama:
		return "Ollama's /api/ps or /api/show"
	case WindowFromError:
		return "the server's refusal of a longer request"
	}
	return src
}

// Window is the context window of one endpoint's model, in tokens, and
// where it came from. It is known once set: from the configuration, from
// what the server says (Detect, in the background), or from a refusal
// (Learn). Until then it is unknown (0), and nothing is guessed. Safe for
// concurrent use.
type Window struct {
	mu        sync.Mutex
	tokens    int
	source    string
	detecting bool          // Detect started
	done      chan struct{} // closed when Detect ended
}

// NewWindow returns a window: configured (tokens > 0, from [endpoint]
// context_window) or unknown.
func NewWindow(configured int) *Window {
	w := &Window{done: make(chan struct{})}
	if configured > 0 {
		w.tokens, w.source = configured, WindowFromConfig
	}
	return w
}

// Tokens returns the window and its source; 0 and "" while unknown.
func (w *Window) Tokens() (int, string) {
	if w == nil {
		return 0, ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tokens, w.source
}

// Learn sets the window from a refusal that named it. A configured window
// is kept (the person said so); any other is replaced: the server's refusal
// is the final word on what fits.
func (w *Window) Learn(tokens int) bool {
	if w == nil || tokens <= 0 {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.source == WindowFromConfig || w.tokens == tokens {
		return false
	}
	w.tokens, w.source = tokens, WindowFromError
	return true
}

// DetectInBackground starts Detect on a goroutine; Wait, from then on,
// waits for it.
func (w *Window) DetectInBackground(ctx context.Context, c *Client) {
	w.mu.Lock()
	w.detecting = true
	w.mu.Unlock()
	go w.Detect(ctx, c)
}

// Detect asks the server for the window unless one is known already, then
// marks detection done. It is meant to run once per process, in the
// background (DetectInBackground).
func (w *Window) Detect(ctx context.Context, c *Client) {
	w.mu.Lock()
	w.detecting = true
	w.mu.Unlock()
	defer close(w.done)
	if n, _ := w.Tokens(); n > 0 {
		return
	}
	n, src := c.DetectWindow(ctx)
	if n <= 0 {
		return
	}
	w.mu.Lock()
	if w.tokens == 0 {
		w.tokens, w.source = n, src
	}
	w.mu.Unlock()
}

// Wait blocks until a Detect that started has ended, or ctx is done: a
// request waits for the server's answer rather than go out unfitted.
// Without detection it returns at once.
func (w *Window) Wait(ctx context.Context) {
	if w == nil {
		return
	}
	w.mu.Lock()
	detecting := w.detecting
	w.mu.Unlock()
	if !detecting {
		return
	}
	select {
	case <-w.done:
	case <-ctx.Done():
	}
}

// probeTimeout bounds each question DetectWindow asks.
const probeTimeout = 5 * time.Second

// DetectWindow asks the server for its model's context window, in this
// order: llama.cpp's GET /props (default_generation_settings.n_ctx), the
// model's entry in GET {base_url}/models (context_length as OpenRouter,
// max_model_len as vLLM, loaded_context_length or max_context_length as LM
// Studio), then Ollama's loaded context (POST /api/ps context_length, else
// the num_ctx parameter of POST /api/show). It returns 0 when none says.
//
// The three are asked at once, so that a server that is slow to refuse
// unknown routes delays the first request by one probe's time, not all.
func (c *Client) DetectWindow(ctx context.Context) (int, string) {
	root := strings.TrimSuffix(strings.TrimRight(c.ep.BaseURL, "/"), "/v1")
	asks := []func() int{
		func() int {
			var props struct {
				Settings struct {
					NCtx int `json:"n_ctx"`
				} `json:"default_generation_settings"`
			}
			if c.probe(ctx, http.MethodGet, root+"/props", nil, &props) {
				return props.Settings.NCtx
			}
			return 0
		},
		func() int { return c.modelsWindow(ctx) },
		func() int { return c.ollamaWindow(ctx, root) },
	}
	sources := []string{WindowFromProps, WindowFromModels, WindowFromOllama}
	got := make([]int, len(asks))
	var wg sync.WaitGroup
	for i, ask := range asks {
		wg.Go(func() { got[i] = ask() })
	}
	wg.Wait()
	for i, n := range got {
		if n > 0 {
			return n, sources[i]
		}
	}
	return 0, ""
}

// modelsWindow reads the configured model's entry of GET {base_url}/models.
func (c *Client) modelsWindow(ctx context.Context) int {
	type entry struct {
		ID            string `json:"id"`
		ContextLength int    `json:"context_length"`
		MaxModelLen   int    `json:"max_model_len"`
		Loaded        int    `json:"loaded_context_length"`
		MaxContext    int    `json:"max_context_length"`
		TopProvider   struct {
			ContextLength int `json:"context_length"`
		} `json:"top_provider"`
	}
	var list struct {
		Data []entry `json:"data"`
	}
	if !c.probe(ctx, http.MethodGet, c.url("/models"), nil, &list) {
		return 0
	}
	for _, e := range list.Data {
		if e.ID != c.ep.Model && len(list.Data) > 1 {
			continue
		}
		for _, n := range []int{e.Loaded, e.MaxModelLen, e.ContextLength, e.TopProvider.ContextLength, e.MaxContext} {
			if n > 0 {
				return n
			}
		}
	}
	return 0
}

var numCtxParam = regexp.MustCompile(`(?m)^\s*num_ctx\s+(\d+)`)

// ollamaWindow reads Ollama's context for the model: the loaded model's
// context_length in /api/ps, else num_ctx in /api/show's parameters.
func (c *Client) ollamaWindow(ctx context.Context, root string) int {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if c.probe(ctx, http.MethodGet, root+"/api/ps", nil, &ps) {
		for _, m := range ps.Models {
			if (m.Name == c.ep.Model || m.Model == c.ep.Model) && m.ContextLength > 0 {
				return m.ContextLength
			}
		}
	}
	var show struct {
		Parameters string `json:"parameters"`
	}
	body, _ := json.Marshal(map[string]string{"model": c.ep.Model})
	if c.probe(ctx, http.MethodPost, root+"/api/show", body, &show) {
		if m := numCtxParam.FindStringSubmatch(show.Parameters); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

// probe asks one question and decodes a 2xx JSON answer into v.
func (c *Client) probe(ctx context.Context, method, url string, body []byte, v any) bool {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return false
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil || resp.StatusCode/100 != 2 {
		return false
	}
	return json.Unmarshal(data, v) == nil
}

// windowPatterns find the window in a refusal's text: OpenAI's and vLLM's
// "maximum context length is N tokens", llama.cpp's "context size (N
// tokens)" and n_ctx, and the like.
var windowPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)maximum context length is (\d+)`),
	regexp.MustCompile(`(?i)context (?:size|window|length) (?:of |is )?\(?(\d+)(?: tokens)?\)?`),
	regexp.MustCompile(`(?i)"?n_ctx"?\s*[=:]\s*(\d+)`),
	regexp.MustCompile(`(?i)context window of (\d+)`),
}

// WindowIn returns the window a context-length refusal names, or 0.
func WindowIn(err error) int {
	if !ContextExceeded(err) {
		return 0
	}
	var se *StatusError
	if errors.As(err, &se) && se.Window > 0 {
		return se.Window
	}
	text := err.Error()
	for _, re := range windowPatterns {
		if m := re.FindStringSubmatch(text); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// bodyWindow is the n_ctx member of a llama.cpp error body, or 0.
func bodyWindow(body []byte) int {
	var obj struct {
		Error struct {
			NCtx int `json:"n_ctx"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &obj) == nil {
		return obj.Error.NCtx
	}
	return 0
}

// FormatTokens writes n compactly, as the status line does: 950, 9.8k, 12k, 128k.
func FormatTokens(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 10000 && n%1000 != 0:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%dk", (n+500)/1000)
}
