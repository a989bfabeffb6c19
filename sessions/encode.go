// Direct encoding of messages into the file writer, without the
// intermediate buffers of llm.Message.MarshalJSON, so large conversations
// save quickly. The output decodes to the same message.

package sessions

import (
	"bufio"

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
			writeToolCall(w, c)
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

// writeString writes s as a JSON string (llm.AppendJSONString), escaped
// straight into the writer's free buffer, piece by piece: a message is
// megabytes, and escaping it whole would allocate its size again.
// writeToolCall writes what c.MarshalJSON returns, its strings escaped
// into w's buffer: a save writes every call's arguments, and a copy of
// each would be garbage the size of them all.
func writeToolCall(w *bufio.Writer, c llm.ToolCall) {
	w.WriteString(`{"id":`)
	writeString(w, c.ID)
	w.WriteString(`,"type":"function","function":{"name":`)
	writeString(w, c.Name)
	w.WriteString(`,"arguments":`)
	writeString(w, c.Arguments)
	w.WriteByte('}')
	for _, f := range c.Extra {
		w.WriteByte(',')
		writeString(w, f.Key)
		w.WriteByte(':')
		w.Write(f.Value)
	}
	w.WriteByte('}')
}

func writeString(w *bufio.Writer, s string) {
	w.WriteByte('"')
	for s != "" {
		if w.Available()/6 < minPiece {
			w.Flush()
		}
		// A byte escapes to at most 6 (\u00XX): a piece of a sixth of the
		// free buffer always fits in it.
		n := llm.CutJSONChars(s, min(len(s), max(w.Available()/6, minPiece)))
		w.Write(llm.AppendJSONChars(w.AvailableBuffer(), s[:n]))
		s = s[n:]
	}
	w.WriteByte('"')
}

// minPiece is the least of a string writeString escapes at once.
const minPiece = 4 << 10
