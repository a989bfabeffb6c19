// Direct encoding of messages into the file writer, without the
// intermediate buffers of llm.Message.MarshalJSON, so large conversations
// save quickly. The output decodes to the same message.

package sessions

import (
	"bufio"
	"unicode/utf8"

	"harness/llm"
)

// writeMessage writes m as llm.Message.MarshalJSON does: role, content,
// tool_calls, tool_call_id, then the provider fields byte-for-byte.
func writeMessage(w *bufio.Writer, m llm.Message) error {
	w.WriteString(`{"role":`)
	writeString(w, m.Role)
	w.WriteString(`,"content":`)
	writeString(w, m.Content)
	if len(m.ToolCalls) > 0 {
		w.WriteString(`,"tool_calls":[`)
		for i, c := range m.ToolCalls {
			if i > 0 {
				w.WriteByte(',')
			}
			b, err := c.MarshalJSON()
			if err != nil {
				return err
			}
			w.Write(b)
		}
		w.WriteByte(']')
	}
	if m.ToolCallID != "" {
		w.WriteString(`,"tool_call_id":`)
		writeString(w, m.ToolCallID)
	}
	for _, f := range m.Extra {
		w.WriteByte(',')
		writeString(w, f.Key)
		w.WriteByte(':')
		w.Write(f.Value)
	}
	w.WriteByte('}')
	return nil
}

const hex = "0123456789abcdef"

// writeString writes s as a JSON string, escaping what JSON requires plus
// U+2028 and U+2029 (as encoding/json does); invalid UTF-8 becomes U+FFFD.
func writeString(w *bufio.Writer, s string) {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hex[c>>4])
				w.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}
