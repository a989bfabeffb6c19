// Recorded chat requests, decoded: what a client sent, for assertions.

package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"harness/llm"
)

// Chat decodes a recorded chat request body.
func (r Request) Chat() (ChatBody, error) {
	var b ChatBody
	if err := json.Unmarshal(r.Body, &b.Fields); err != nil {
		return b, fmt.Errorf("llmtest: request body is not a JSON object: %w", err)
	}
	if err := json.Unmarshal(r.Body, &b); err != nil {
		return b, fmt.Errorf("llmtest: decode request body: %w", err)
	}
	return b, nil
}

// MustChat decodes a chat request body or fails the test.
func (r Request) MustChat(t testing.TB) ChatBody {
	t.Helper()
	b, err := r.Chat()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ChatBody is a decoded /chat/completions request.
type ChatBody struct {
	Model    string            `json:"model"`
	Messages []llm.Message     `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
	Stream   bool              `json:"stream"`
	// Fields holds every top-level member as sent.
	Fields map[string]json.RawMessage `json:"-"`
}

// ToolNames returns the function names of the offered tools, in order.
func (b ChatBody) ToolNames() []string {
	var names []string
	for _, raw := range b.Tools {
		var t struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		json.Unmarshal(raw, &t)
		names = append(names, t.Function.Name)
	}
	return names
}

// RawMessages returns each message of the body exactly as sent.
func (b ChatBody) RawMessages() []json.RawMessage {
	var out []json.RawMessage
	json.Unmarshal(b.Fields["messages"], &out)
	return out
}

// Roles summarizes messages as "user assistant:FYI tool …": each role,
// with the names of an assistant message's tool calls after it, for
// comparing a conversation as sent or as saved with the one expected.
func Roles(msgs []llm.Message) string {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		s := m.Role
		for _, c := range m.ToolCalls {
			s += ":" + c.Name
		}
		parts[i] = s
	}
	return strings.Join(parts, " ")
}
