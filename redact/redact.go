// Package redact removes secret values (API keys, MCP tokens) from text
// before it is shown, logged or kept.
//
// A Redactor is built once from the secrets harness knows (config's API
// keys and MCP secrets) and handed to whoever writes text a person or a
// file will see: llm (Message.Redact), rlm (every error, tool output and
// message it keeps), sessions (Session.Save redacts again, so no secret
// reaches a file when a caller forgot) and the failure log. A nil
// *Redactor does nothing, so callers need no checks.
//
// Two forms of each secret are replaced: the plain text, and its
// JSON-escaped form inside raw JSON values (provider fields kept as
// json.RawMessage). Replacing inside JSON may break it; then the whole
// value becomes the JSON string "[REDACTED]".
//
// redact imports nothing of harness; it sits on the lowest floor.
package redact

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Marker replaces a secret.
const Marker = "[REDACTED]"

// Redactor removes secret values from text. A nil *Redactor does nothing.
type Redactor struct {
	secrets []string
	escaped [][]byte // JSON-escaped forms, for raw JSON values
}

// New returns a Redactor for the given secrets (empty ones are ignored).
func New(secrets []string) *Redactor {
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

// Active reports whether r has any secret to remove.
func (r *Redactor) Active() bool { return r != nil && len(r.secrets) > 0 }

// String returns s with every secret replaced.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Marker)
		}
	}
	return s
}

// Contains reports whether raw holds a secret, plain or JSON-escaped.
func (r *Redactor) Contains(raw []byte) bool {
	if r == nil {
		return false
	}
	for i, sec := range r.secrets {
		if bytes.Contains(raw, []byte(sec)) || bytes.Contains(raw, r.escaped[i]) {
			return true
		}
	}
	return false
}

// JSON returns the raw JSON value v with every secret replaced, in both
// forms. A value that would stop being valid JSON after replacement
// becomes the string "[REDACTED]". v itself is never modified; without a
// secret in it, v is returned as it is.
func (r *Redactor) JSON(v []byte) []byte {
	if !r.Contains(v) {
		return v
	}
	for j, sec := range r.secrets {
		v = bytes.ReplaceAll(v, r.escaped[j], []byte(Marker))
		v = bytes.ReplaceAll(v, []byte(sec), []byte(Marker))
	}
	if !json.Valid(v) {
		v = []byte(`"` + Marker + `"`)
	}
	return v
}
