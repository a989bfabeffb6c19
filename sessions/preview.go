// Previews for the session list, and secret redaction.

package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"unicode/utf8"

	"harness/llm"
)

// PreviewRunes is the longest preview List returns, in runes.
const PreviewRunes = 72

// preview returns the start of the first user message of a conversation
// file, reading only as far as that message. Errors give "".
func preview(path string) string {
	first := ""
	userMessages(path, func(content string) bool {
		first = oneLine(content, PreviewRunes)
		return false
	})
	return first
}

// userMessages calls f with the content of each user message of a
// conversation file, in order, until f returns false; it decodes one
// message at a time and stops at the first error.
func userMessages(path string, f func(content string) bool) {
	file, err := os.Open(path)
	if err != nil {
		return
	}
	defer file.Close()
	dec := json.NewDecoder(bufio.NewReader(file))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return
		}
		if key != "messages" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return
		}
		for dec.More() {
			var m struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			}
			if dec.Decode(&m) != nil {
				return
			}
			if m.Role != "user" {
				continue
			}
			var msg llm.Message
			if msg.UnmarshalJSON([]byte(`{"content":`+string(orNull(m.Content))+`}`)) != nil || !f(msg.Content) {
				return
			}
		}
		return
	}
}

// repositoryOf returns the repository a conversation file of size bytes
// records, reading only its end: _harness_local is the file's last member
// and starts with the repository. Errors give "".
func repositoryOf(path string, size int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	// The member's opening cannot occur inside a string: there a quote
	// after the comma would be escaped.
	marker := []byte(`],"_harness_local":{"repository":`)
	for n := int64(4 << 10); ; n *= 4 {
		n = min(n, size)
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, size-n); err != nil {
			return ""
		}
		if i := bytes.LastIndex(buf, marker); i >= 0 {
			var repo string
			dec := json.NewDecoder(bytes.NewReader(buf[i+len(marker):]))
			if dec.Decode(&repo) != nil {
				return ""
			}
			return repo
		}
		if n == size || n >= 16<<20 {
			return ""
		}
	}
}

func orNull(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return []byte("null")
	}
	return raw
}

// oneLine collapses whitespace and cuts s to n runes, marking a cut with "…".
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Redacted replaces a secret in saved text.
const Redacted = "[REDACTED]"

// Redactor removes secret values from messages. A nil *Redactor does nothing.
type Redactor struct {
	secrets []string
	escaped [][]byte // JSON-escaped forms, for raw provider fields
}

// NewRedactor returns a Redactor for the given secrets (empty ones are ignored).
func NewRedactor(secrets []string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		r.secrets = append(r.secrets, s)
		b, _ := json.Marshal(s)
		r.escaped = append(r.escaped, b[1:len(b)-1])
	}
	return r
}

// String returns s with every secret replaced.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Redacted)
		}
	}
	return s
}

// Message returns m with every secret replaced in its content, tool calls
// and provider fields. It copies only what changes.
func (r *Redactor) Message(m llm.Message) llm.Message {
	if r == nil || len(r.secrets) == 0 {
		return m
	}
	m.Content = r.String(m.Content)
	if r.touchesCalls(m.ToolCalls) {
		calls := make([]llm.ToolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			c.ID, c.Name, c.Arguments = r.String(c.ID), r.String(c.Name), r.String(c.Arguments)
			c.Extra = r.fields(c.Extra)
			calls[i] = c
		}
		m.ToolCalls = calls
	}
	m.ToolCallID = r.String(m.ToolCallID)
	m.Extra = r.fields(m.Extra)
	return m
}

func (r *Redactor) touchesCalls(calls []llm.ToolCall) bool {
	for _, c := range calls {
		if r.String(c.ID+"\x00"+c.Name+"\x00"+c.Arguments) != c.ID+"\x00"+c.Name+"\x00"+c.Arguments {
			return true
		}
		for _, f := range c.Extra {
			if r.rawHas(f.Value) {
				return true
			}
		}
	}
	return false
}

func (r *Redactor) rawHas(raw []byte) bool {
	for i, sec := range r.secrets {
		if bytes.Contains(raw, []byte(sec)) || bytes.Contains(raw, r.escaped[i]) {
			return true
		}
	}
	return false
}

// fields redacts raw provider fields; a value that would stop being valid
// JSON after replacement becomes the string "[REDACTED]".
func (r *Redactor) fields(fs []llm.Field) []llm.Field {
	var out []llm.Field
	for i, f := range fs {
		if !r.rawHas(f.Value) {
			continue
		}
		if out == nil {
			out = append([]llm.Field(nil), fs...)
		}
		v := []byte(f.Value)
		for j, sec := range r.secrets {
			v = bytes.ReplaceAll(v, r.escaped[j], []byte(Redacted))
			v = bytes.ReplaceAll(v, []byte(sec), []byte(Redacted))
		}
		if !json.Valid(v) {
			v = []byte(`"` + Redacted + `"`)
		}
		out[i] = llm.Field{Key: f.Key, Value: v}
	}
	if out == nil {
		return fs
	}
	return out
}

// File redacts every message of f in place.
func (r *Redactor) File(f *File) {
	if r == nil || len(r.secrets) == 0 {
		return
	}
	for i := range f.Items {
		if !f.Items[i].Hidden {
			f.Items[i].Message = r.Message(f.Items[i].Message)
		}
	}
}
