// A context window: prompts over it refused as servers refuse them, and
// the window advertised as servers advertise it.

package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Advert is how the server tells its window.
type Advert int

const (
	AdvertNone       Advert = iota // the server does not say
	AdvertProps                    // llama.cpp: GET /props default_generation_settings.n_ctx
	AdvertOpenRouter               // the /models entry's context_length
	AdvertVLLM                     // the /models entry's max_model_len
	AdvertLMStudio                 // the /models entry's loaded_context_length and max_context_length
	AdvertOllamaPS                 // Ollama: GET /api/ps context_length of the loaded model
	AdvertOllamaShow               // Ollama: POST /api/show parameters "num_ctx N"
)

// Refusal is the form of the answer to a prompt over the window.
type Refusal int

const (
	RefuseLlama  Refusal = iota // 400 exceed_context_size_error with n_prompt_tokens and n_ctx, as llama.cpp
	RefuseOpenAI                // 400 context_length_exceeded: "maximum context length is N tokens"
	RefuseBare                  // 400 "context length exceeded", no number
)

type window struct {
	tokens  int
	advert  Advert
	refusal Refusal
	refused []int // the prompt sizes refused
	prompts []int // the prompt size of every chat request, in order
}

// SetWindow makes the server refuse every chat request whose prompt (see
// PromptTokens) is over tokens, in the form refusal, without taking a
// scripted reply, and advertise the window as advert says. 0 tokens
// removes the window.
func (s *Server) SetWindow(tokens int, advert Advert, refusal Refusal) {
	s.mu.Lock()
	s.win = window{tokens: tokens, advert: advert, refusal: refusal}
	s.mu.Unlock()
}

// Refused returns the prompt sizes of the requests refused for the window.
func (s *Server) Refused() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.win.refused...)
}

// Prompts returns the prompt size of every chat request, refused or not.
func (s *Server) Prompts() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.win.prompts...)
}

// PromptTokens is the size of a chat body's prompt as the window counts
// it: the token count (SetTokenCount, default CountBytes4) of every
// message's content and tool-call arguments, 4 tokens a message for the
// template, and the count of the tools' JSON.
func (s *Server) PromptTokens(body []byte) int {
	s.mu.Lock()
	count := s.tokCount
	s.mu.Unlock()
	if count == nil {
		count = CountBytes4
	}
	var b struct {
		Messages []struct {
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools json.RawMessage `json:"tools"`
	}
	json.Unmarshal(body, &b)
	n := 0
	for _, m := range b.Messages {
		var text string
		if json.Unmarshal(m.Content, &text) != nil {
			text = string(m.Content)
		}
		n += 4 + count(text)
		for _, c := range m.ToolCalls {
			n += count(c.Function.Name) + count(c.Function.Arguments)
		}
	}
	if len(b.Tools) > 0 {
		n += count(string(b.Tools))
	}
	return n
}

// overWindow answers a chat request whose prompt is over the window and
// says so; it records every prompt's size.
func (s *Server) overWindow(w http.ResponseWriter, body []byte) bool {
	n := s.PromptTokens(body)
	s.mu.Lock()
	win := s.win
	s.win.prompts = append(s.win.prompts, n)
	over := win.tokens > 0 && n > win.tokens
	if over {
		s.win.refused = append(s.win.refused, n)
	}
	s.mu.Unlock()
	if !over {
		return false
	}
	switch win.refusal {
	case RefuseOpenAI:
		writeStatus(w, 400, js(map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", win.tokens, n),
			"type":    "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}))
	case RefuseBare:
		writeStatus(w, 400, `{"error":{"message":"context length exceeded","type":"invalid_request_error"}}`)
	default:
		writeStatus(w, 400, js(map[string]any{"error": map[string]any{"code": 400,
			"message": "the request exceeds the available context size, try increasing it",
			"type":    "exceed_context_size_error", "n_prompt_tokens": n, "n_ctx": win.tokens}}))
	}
	return true
}

// modelWindow is the window fields of the /models entry, by the advert.
func (w window) modelFields() map[string]int {
	if w.tokens == 0 {
		return nil
	}
	switch w.advert {
	case AdvertOpenRouter:
		return map[string]int{"context_length": w.tokens}
	case AdvertVLLM:
		return map[string]int{"max_model_len": w.tokens}
	case AdvertLMStudio:
		return map[string]int{"loaded_context_length": w.tokens, "max_context_length": 4 * w.tokens}
	}
	return nil
}

func (s *Server) props(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	win := s.win
	s.mu.Unlock()
	if win.advert != AdvertProps || win.tokens == 0 {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, js(map[string]any{"default_generation_settings": map[string]any{"n_ctx": win.tokens},
		"total_slots": 1, "model_path": "/models/" + s.Model + ".gguf"}))
}

func (s *Server) ollamaPS(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	win := s.win
	s.mu.Unlock()
	if win.advert != AdvertOllamaPS && win.advert != AdvertOllamaShow || win.tokens == 0 {
		http.NotFound(w, r)
		return
	}
	models := []map[string]any{}
	if win.advert == AdvertOllamaPS {
		models = append(models, map[string]any{"name": s.Model, "model": s.Model, "context_length": win.tokens})
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, js(map[string]any{"models": models}))
}

func (s *Server) ollamaShow(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	win := s.win
	s.mu.Unlock()
	if win.advert != AdvertOllamaShow || win.tokens == 0 || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, js(map[string]any{"parameters": fmt.Sprintf("temperature 0.7\nnum_ctx %d\n", win.tokens),
		"model_info": map[string]any{"llama.context_length": 131072}}))
}
