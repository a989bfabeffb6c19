// Chat message types shared by the client, the agents and the session files.

package llm

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
)

// Field is one JSON member kept exactly as received.
type Field struct {
	Key   string
	Value json.RawMessage
}

// Message is one chat message. Role, Content, ToolCalls and ToolCallID are
// the fields harness reads and writes; every other member the provider sent
// (reasoning_content, reasoning, reasoning_details, refusal, …) is kept in
// Extra, in the order received, and marshalled back byte-for-byte.
type Message struct {
	Role       string
	Content    string
	ToolCalls  []ToolCall
	ToolCallID string
	Extra      []Field
}

// ToolCall is one function call of an assistant message.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // the JSON text the model sent
	Extra     []Field
}

// Usage is the token usage an endpoint reported for one request.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Tool is a function offered to the model.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // JSON Schema object
}

// MarshalJSON encodes t in the chat-completions "tools" form.
func (t Tool) MarshalJSON() ([]byte, error) {
	type fn struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}{"function", fn(t)})
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), err
}

// Get returns the raw value of an Extra member.
func (m *Message) Get(key string) (json.RawMessage, bool) {
	return getField(m.Extra, key)
}

// Set sets (or adds) an Extra member.
func (m *Message) Set(key string, v json.RawMessage) { m.Extra = setField(m.Extra, key, v) }

func getField(fs []Field, key string) (json.RawMessage, bool) {
	for _, f := range fs {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

func setField(fs []Field, key string, v json.RawMessage) []Field {
	for i := range fs {
		if fs[i].Key == key {
			fs[i].Value = v
			return fs
		}
	}
	return append(fs, Field{key, v})
}

// Reasoning returns the readable reasoning text of m, shown once even when
// the provider sent the same text under several field names. It looks at
// reasoning_content, reasoning, and the text or summary entries of
// reasoning_details, in the order they appear in Extra (the order the
// provider first sent text in them); encrypted entries have no readable
// text. Texts where one is a prefix of the other count as one (the longer
// is kept); texts that disagree are joined with a newline. The DeltaReasoning
// fragments of a streamed reply concatenate to exactly this text.
func (m *Message) Reasoning() string {
	var reps []string
	for _, f := range m.Extra {
		var s string
		switch f.Key {
		case "reasoning_content", "reasoning":
			if json.Unmarshal(f.Value, &s) != nil {
				continue
			}
		case "reasoning_details":
			s = DetailsText(f.Value)
		default:
			continue
		}
		if s == "" {
			continue
		}
		merged := false
		for i, r := range reps {
			if strings.HasPrefix(s, r) {
				reps[i], merged = s, true
				break
			}
			if strings.HasPrefix(r, s) {
				merged = true
				break
			}
		}
		if !merged {
			reps = append(reps, s)
		}
	}
	return strings.Join(reps, "\n")
}

// DetailsText returns the readable text of a reasoning_details array.
func DetailsText(raw json.RawMessage) string {
	var details []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Summary string `json:"summary"`
	}
	if json.Unmarshal(raw, &details) != nil {
		return ""
	}
	var b strings.Builder
	for _, d := range details {
		switch {
		case d.Text != "":
			b.WriteString(d.Text)
		case d.Summary != "":
			b.WriteString(d.Summary)
		}
	}
	return b.String()
}

// MarshalJSON encodes m with role, content, tool_calls and tool_call_id
// first, then the Extra members unchanged.
func (m Message) MarshalJSON() ([]byte, error) { return m.appendJSON(nil), nil }

// appendJSON appends what MarshalJSON returns to b.
func (m Message) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendKey(b, "role", true)
	b = AppendJSONString(b, m.Role)
	b = appendKey(b, "content", false)
	b = AppendJSONString(b, m.Content)
	if len(m.ToolCalls) > 0 {
		b = appendKey(b, "tool_calls", false)
		b = append(b, '[')
		for i, c := range m.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = c.appendJSON(b)
		}
		b = append(b, ']')
	}
	if m.ToolCallID != "" {
		b = appendKey(b, "tool_call_id", false)
		b = AppendJSONString(b, m.ToolCallID)
	}
	for _, f := range m.Extra {
		b = appendKey(b, f.Key, false)
		b = append(b, f.Value...)
	}
	return append(b, '}')
}

// compactJSON reports whether appendJSON writes m compact: it has no
// Extra member (kept as the provider sent it, maybe with spaces).
func (m Message) compactJSON() bool {
	if len(m.Extra) > 0 {
		return false
	}
	for _, c := range m.ToolCalls {
		if len(c.Extra) > 0 {
			return false
		}
	}
	return true
}

// UnmarshalJSON decodes a message, keeping unknown members in Extra.
func (m *Message) UnmarshalJSON(data []byte) error {
	*m = Message{}
	return decodeObject(data, func(key string, raw json.RawMessage) error {
		switch key {
		case "role":
			return json.Unmarshal(raw, &m.Role)
		case "content":
			if string(raw) == "null" {
				return nil
			}
			if err := json.Unmarshal(raw, &m.Content); err != nil {
				// Array content (parts): keep the text parts.
				var parts []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				}
				if json.Unmarshal(raw, &parts) != nil {
					return fmt.Errorf("content: %w", err)
				}
				for _, p := range parts {
					m.Content += p.Text
				}
			}
			return nil
		case "tool_calls":
			if string(raw) == "null" {
				return nil
			}
			return json.Unmarshal(raw, &m.ToolCalls)
		case "tool_call_id":
			return json.Unmarshal(raw, &m.ToolCallID)
		}
		m.Extra = append(m.Extra, Field{key, append(json.RawMessage(nil), raw...)})
		return nil
	})
}

// MarshalJSON encodes c in the chat-completions form.
func (c ToolCall) MarshalJSON() ([]byte, error) { return c.appendJSON(nil), nil }

// appendJSON appends what MarshalJSON returns to b.
func (c ToolCall) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendKey(b, "id", true)
	b = AppendJSONString(b, c.ID)
	b = appendKey(b, "type", false)
	b = AppendJSONString(b, "function")
	b = appendKey(b, "function", false)
	b = append(b, '{')
	b = appendKey(b, "name", true)
	b = AppendJSONString(b, c.Name)
	b = appendKey(b, "arguments", false)
	b = AppendJSONString(b, c.Arguments)
	b = append(b, '}')
	for _, f := range c.Extra {
		b = appendKey(b, f.Key, false)
		b = append(b, f.Value...)
	}
	return append(b, '}')
}

// UnmarshalJSON decodes a tool call, keeping unknown members in Extra.
func (c *ToolCall) UnmarshalJSON(data []byte) error {
	*c = ToolCall{}
	return decodeObject(data, func(key string, raw json.RawMessage) error {
		switch key {
		case "id":
			return json.Unmarshal(raw, &c.ID)
		case "type", "index":
			return nil
		case "function":
			var fn struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			}
			if err := json.Unmarshal(raw, &fn); err != nil {
				return err
			}
			c.Name, c.Arguments = fn.Name, fn.Arguments
			return nil
		}
		c.Extra = append(c.Extra, Field{key, append(json.RawMessage(nil), raw...)})
		return nil
	})
}

func writeMember(b *bytes.Buffer, key string, v json.RawMessage, first bool) {
	if !first {
		b.WriteByte(',')
	}
	b.Write(mustJSON(key))
	b.WriteByte(':')
	b.Write(v)
}

// appendKey appends an object member's key and colon, after a comma
// unless first.
func appendKey(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = AppendJSONString(b, key)
	return append(b, ':')
}

// mustJSON encodes s as a JSON string, leaving <, > and & unescaped.
func mustJSON(s string) json.RawMessage { return AppendJSONString(nil, s) }

// decodeObject calls fn for each member of the JSON object data, in order.
func decodeObject(data []byte, fn func(key string, raw json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("expected a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if err := fn(key, raw); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	_, err = dec.Token()
	return err
}

// NewCallID returns a new tool-call ID: 32 base64url characters (about 190
// random bits). Only the alphanumeric characters of the alphabet are used:
// vLLM serving Mistral models keeps the last 9 characters of an ID, and
// mistral_common refuses "-" and "_".
func NewCallID() string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var id [32]byte
	var buf [48]byte
	for n := 0; n < len(id); {
		if _, err := rand.Read(buf[:]); err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
		for _, b := range buf {
			// 248 = 4*62: rejecting larger bytes keeps every character
			// equally likely.
			if b < 248 && n < len(id) {
				id[n] = alnum[b%62]
				n++
			}
		}
	}
	return string(id[:])
}

// TurnCount is the cached token count of one completed turn: a user message
// and everything after it up to the next user message. Key identifies the
// turn's content (a hash of its compact JSON), so an unchanged turn is never
// counted again; it is empty for a turn whose counting was cancelled.
// Messages holds each message's contribution, in order. Through is the
// tokens of the whole conversation through the end of the turn, as
// counted with it, and Upto identifies the turns that count covers (a hash
// of their keys in order): while the turns before are those, the next
// turn's count starts from Through instead of asking for it again. Both
// are empty for an estimated turn.
type TurnCount struct {
	Key       string `json:"key"`
	Tokens    int    `json:"tokens"`
	Messages  []int  `json:"messages"`
	Estimated bool   `json:"estimated,omitempty"`
	Through   int    `json:"through,omitempty"`
	Upto      string `json:"upto,omitempty"`
}
