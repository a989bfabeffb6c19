// Conversation edits: FYI removal, unanswered calls, arguments sent back,
// and capped results.

package rlm

import (
	"encoding/json"
	"strings"

	"harness/instructions"
	"harness/llm"
	"harness/sessions"
)

// removeFYI removes every FYI call and its result, except the start-up
// calls that gave instruction files (whose results hold
// instructions.Preamble): those stay as they were. An assistant message
// left with neither content nor tool calls is removed too.
func removeFYI(items []sessions.Item) []sessions.Item {
	gave := map[string]bool{}
	for _, it := range items {
		if m := it.Message; m.Role == "tool" && strings.Contains(m.Content, instructions.Preamble) {
			gave[m.ToolCallID] = true
		}
	}
	ids := map[string]bool{}
	out := items[:0:0]
	for _, it := range items {
		m := it.Message
		if !it.Hidden && m.Role == "assistant" && len(m.ToolCalls) > 0 {
			var keep []llm.ToolCall
			for _, c := range m.ToolCalls {
				if c.Name == FYITool && !gave[c.ID] {
					ids[c.ID] = true
				} else {
					keep = append(keep, c)
				}
			}
			if len(keep) == 0 && m.Content == "" {
				continue
			}
			if len(keep) != len(m.ToolCalls) {
				m.ToolCalls = keep
				it.Message = m
			}
		}
		if !it.Hidden && m.Role == "tool" && ids[m.ToolCallID] {
			continue
		}
		out = append(out, it)
	}
	return out
}

// closeDangling gives every tool call without a result the result that
// result returns for it (see crashResult), placed after the call's other
// results.
func closeDangling(items []sessions.Item, result func(llm.ToolCall) string) []sessions.Item {
	out := make([]sessions.Item, 0, len(items)) // a resumed session's are thousands: not grown by doubling
	for i := 0; i < len(items); i++ {
		out = append(out, items[i])
		m := items[i].Message
		if items[i].Hidden || m.Role != "assistant" || len(m.ToolCalls) == 0 {
			continue
		}
		answered := map[string]bool{}
		for i+1 < len(items) && !items[i+1].Hidden && items[i+1].Message.Role == "tool" {
			i++
			answered[items[i].Message.ToolCallID] = true
			out = append(out, items[i])
		}
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				out = append(out, sessions.Item{Message: toolMessage(c.ID, result(c))})
			}
		}
	}
	return out
}

// sendable returns m with every tool call's arguments a JSON object, the
// only form that servers parsing the arguments of earlier calls (vLLM,
// llama.cpp) accept when the conversation is sent back: empty arguments
// become {}, an object sent as a JSON string becomes that object, and other
// text becomes {"invalid_arguments": text}, so the model still sees what it
// sent (the call's result says what was wrong). m is returned unchanged,
// without copying, when every call is already an object.
func sendable(m llm.Message) llm.Message {
	var calls []llm.ToolCall
	for i, c := range m.ToolCalls {
		obj, ok := objectText(c.Arguments)
		if ok && strings.TrimSpace(c.Arguments) == obj {
			continue // an object already
		}
		if calls == nil {
			calls = append([]llm.ToolCall(nil), m.ToolCalls...)
		}
		switch {
		case ok:
			calls[i].Arguments = obj
		case strings.TrimSpace(c.Arguments) == "":
			calls[i].Arguments = "{}"
		default:
			b, _ := json.Marshal(map[string]string{"invalid_arguments": c.Arguments})
			calls[i].Arguments = string(b)
		}
	}
	if calls != nil {
		m.ToolCalls = calls
	}
	return m
}

// objectText returns the JSON object that arguments hold: the text itself,
// or the content of a JSON string holding an object (some servers encode
// arguments twice). ok is false when there is no object.
func objectText(arguments string) (obj string, ok bool) {
	s := strings.TrimSpace(arguments)
	if strings.HasPrefix(s, `"`) {
		if json.Unmarshal([]byte(s), &s) != nil {
			return "", false
		}
		s = strings.TrimSpace(s)
	}
	return s, strings.HasPrefix(s, "{") && json.Valid([]byte(s))
}

// capText cuts s to limit bytes on a UTF-8 boundary, ending with a notice
// of the bytes omitted; the whole result fits in limit when it can.
func capText(s string, limit int) string { return capWith(s, limit, "subagent answer") }
