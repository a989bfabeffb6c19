package llm

import (
	"encoding/json"
	"strings"
	"testing"

	"harness/redact"
)

func TestMessageRedact(t *testing.T) {
	const key = "sk-secret<&>key"
	r := redact.New([]string{key})
	esc, _ := json.Marshal("r " + key)
	m := Message{
		Role: "assistant", Content: "the key is " + key, ToolCallID: "id-" + key,
		ToolCalls: []ToolCall{{ID: "i", Name: "repl", Arguments: `{"code":"` + key + `"}`}},
		Extra:     []Field{{Key: "reasoning", Value: esc}, {Key: "plain", Value: json.RawMessage(`1`)}},
	}
	got := m.Redact(r)
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "sk-secret") || strings.Contains(string(b), `sk-secret\u003c`) {
		t.Fatalf("secret left in %s", b)
	}
	if got.Content != "the key is "+redact.Marker || got.ToolCallID != "id-"+redact.Marker {
		t.Errorf("content/tool call id = %q, %q", got.Content, got.ToolCallID)
	}
	if m.ToolCalls[0].Arguments != `{"code":"`+key+`"}` || string(m.Extra[0].Value) != string(esc) {
		t.Error("Redact modified the caller's message")
	}
	if &got.Extra[1] == &m.Extra[1] {
		t.Error("Redact did not copy the fields it changed")
	}
	if clean := (Message{Content: "x", Extra: m.Extra[1:]}); &clean.Redact(r).Extra[0] != &clean.Extra[0] {
		t.Error("Redact copied fields without a secret")
	}
	if m.Redact(nil).Content != m.Content {
		t.Error("a nil Redactor changed the message")
	}
}
