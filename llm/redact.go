// Secret redaction of messages, over package redact.

package llm

import "harness/redact"

// Redact returns m with every secret of r replaced in its content, tool
// calls and provider fields. It copies only what changes, so the caller's
// slices are never modified. A nil r returns m as it is.
func (m Message) Redact(r *redact.Redactor) Message {
	if !r.Active() {
		return m
	}
	m.Content = r.String(m.Content)
	if callsHaveSecret(r, m.ToolCalls) {
		calls := make([]ToolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			c.ID, c.Name, c.Arguments = r.String(c.ID), r.String(c.Name), r.String(c.Arguments)
			c.Extra = redactFields(r, c.Extra)
			calls[i] = c
		}
		m.ToolCalls = calls
	}
	m.ToolCallID = r.String(m.ToolCallID)
	m.Extra = redactFields(r, m.Extra)
	return m
}

func callsHaveSecret(r *redact.Redactor, calls []ToolCall) bool {
	for _, c := range calls {
		if r.String(c.ID+"\x00"+c.Name+"\x00"+c.Arguments) != c.ID+"\x00"+c.Name+"\x00"+c.Arguments {
			return true
		}
		for _, f := range c.Extra {
			if r.Contains(f.Value) {
				return true
			}
		}
	}
	return false
}

// redactFields redacts raw provider fields (see redact.Redactor.JSON),
// copying fs only when one of them holds a secret.
func redactFields(r *redact.Redactor, fs []Field) []Field {
	var out []Field
	for i, f := range fs {
		if !r.Contains(f.Value) {
			continue
		}
		if out == nil {
			out = append([]Field(nil), fs...)
		}
		out[i] = Field{Key: f.Key, Value: r.JSON(f.Value)}
	}
	if out == nil {
		return fs
	}
	return out
}
