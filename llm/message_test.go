// Tests of the message helpers this package added to message.go.

package llm_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"harness/llm"
)

func TestReasoning(t *testing.T) {
	f := func(k, v string) llm.Field { return llm.Field{Key: k, Value: json.RawMessage(v)} }
	for _, tc := range []struct {
		name  string
		extra []llm.Field
		want  string
	}{
		{"none", nil, ""},
		{"content", []llm.Field{f("reasoning_content", `"a"`)}, "a"},
		{"same twice", []llm.Field{f("reasoning", `"abc"`), f("reasoning_content", `"abc"`)}, "abc"},
		{"prefix keeps longer", []llm.Field{f("reasoning", `"ab"`), f("reasoning_content", `"abc"`)}, "abc"},
		{"details text and summary", []llm.Field{f("reasoning_details", `[{"type":"reasoning.summary","summary":"s"},{"type":"reasoning.encrypted","data":"x"},{"type":"reasoning.text","text":"t"}]`)}, "st"},
		{"encrypted only", []llm.Field{f("reasoning_details", `[{"type":"reasoning.encrypted","data":"x"}]`), f("reasoning", `null`)}, ""},
		{"disagree in Extra order", []llm.Field{f("reasoning", `"B"`), f("other", `1`), f("reasoning_content", `"A"`)}, "B\nA"},
		{"empty skipped", []llm.Field{f("reasoning", `""`), f("reasoning_content", `"A"`)}, "A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := llm.Message{Role: "assistant", Extra: tc.extra}
			if got := m.Reasoning(); got != tc.want {
				t.Errorf("Reasoning() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMarshalKeepsHTMLCharacters(t *testing.T) {
	m := llm.Message{Role: "assistant", Content: "a<b>&c", ToolCalls: []llm.ToolCall{{ID: "i", Name: "n", Arguments: `{"x":"<y>"}`}}}
	raw, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"assistant","content":"a<b>&c","tool_calls":[{"id":"i","type":"function","function":{"name":"n","arguments":"{\"x\":\"<y>\"}"}}]}`
	if string(raw) != want {
		t.Errorf("got  %s\nwant %s", raw, want)
	}
	var back llm.Message
	if err := json.Unmarshal(raw, &back); err != nil || back.Content != m.Content || back.ToolCalls[0].Arguments != m.ToolCalls[0].Arguments {
		t.Errorf("round trip: %+v %v", back, err)
	}
}

// TestNewCallID: IDs are 32 base64url characters, drawn from the
// alphanumeric part of the alphabet only: vLLM serving Mistral models keeps
// the last 9 characters of an ID and mistral_common refuses "-" and "_".
func TestNewCallID(t *testing.T) {
	alnum := regexp.MustCompile(`^[A-Za-z0-9]{32}$`)
	seen := map[string]bool{}
	for range 2000 {
		id := llm.NewCallID()
		if !alnum.MatchString(id) {
			t.Fatalf("NewCallID() = %q, want 32 alphanumeric characters", id)
		}
		if seen[id] {
			t.Fatalf("NewCallID() repeated %q", id)
		}
		seen[id] = true
	}
}

// TestMarshalJSONAsEncodingJSON: a message and its tool calls encode byte
// for byte as encoding/json writes the same members in the same order with
// HTML escaping off.
func TestMarshalJSONAsEncodingJSON(t *testing.T) {
	type fn struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type call struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	type msg struct {
		Role       string `json:"role"`
		Content    string `json:"content"`
		ToolCalls  []call `json:"tool_calls,omitempty"`
		ToolCallID string `json:"tool_call_id,omitempty"`
	}
	for _, s := range []string{"", "plain <&>", "a \"q\" \\ \n\r\t\b\f\x00\x1f\x7f", "日本語 😀 \u2028\u2029", "bad \xff\xe6\x97 utf-8"} {
		m := llm.Message{Role: "assistant", Content: s, ToolCallID: s,
			ToolCalls: []llm.ToolCall{{ID: s, Name: s, Arguments: s}, {ID: "b", Name: "rlm", Arguments: `{"task":"x"}`}}}
		ref := msg{Role: m.Role, Content: s, ToolCallID: s}
		for _, c := range m.ToolCalls {
			ref.ToolCalls = append(ref.ToolCalls, call{c.ID, "function", fn{c.Name, c.Arguments}})
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(ref)
		got, err := m.MarshalJSON()
		if err != nil || string(got) != string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want.Bytes())
		}
	}
}
