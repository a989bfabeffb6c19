// The context overlay's rows: one turn's messages as user, assistant,
// reasoning and tool rows, with per-row counts and previews.

package ui

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"harness/llm"
	"harness/rlm"
)

// contextRows builds the rows of one turn's messages; per[i] is message i's
// count. prev, when not nil, are rows built earlier from the same messages
// (only the count differs): their previews are reused, since decoding every
// call's arguments again is most of the work when a whole session's counts
// arrive at once.
func contextRows(msgs []llm.Message, per []int, est bool, prev []OverlayRow) []OverlayRow {
	rows := make([]OverlayRow, 0, len(msgs))
	pv := rowPreviews(prev)
	callRow := map[string]int{} // call ID → row index; "" for skipped calls
	skip := contextSyntheticCall(msgs)
	for i, m := range msgs {
		n := 0
		if i < len(per) {
			n = per[i]
		}
		switch {
		case m.Role == "tool":
			if j, ok := callRow[m.ToolCallID]; ok {
				if j >= 0 {
					rows[j].Tokens += n
				}
				continue
			}
			rows = append(rows, OverlayRow{Role: contextRoleTool, Preview: pv.content(len(rows), m.Content), Tokens: n, Estimated: est})
		case m.Role == "assistant" && i == skip:
			for _, c := range m.ToolCalls {
				callRow[c.ID] = -1
			}
		case m.Role == "assistant":
			rows = contextAssistantRows(rows, m, n, est, callRow, pv)
		default:
			role := m.Role
			if role == "" {
				role = contextRoleUser
			}
			rows = append(rows, OverlayRow{Role: role, Preview: pv.content(len(rows), m.Content), Tokens: n, Estimated: est})
		}
	}
	return rows
}

// contextAssistantRows appends the rows of one assistant message, splitting
// its count n by the JSON size of each part, and records its calls' rows.
func contextAssistantRows(rows []OverlayRow, m llm.Message, n int, est bool, callRow map[string]int, pv rowPreviews) []OverlayRow {
	start := len(rows)
	var sizes []int
	if rb := contextReasoningBytes(m); rb > 0 {
		preview, ok := pv.at(len(rows))
		if !ok {
			preview = contextPreview(m.Reasoning())
		}
		rows = append(rows, OverlayRow{Role: contextRoleReasoning, Preview: preview, Estimated: est})
		sizes = append(sizes, rb)
	}
	if m.Content != "" || (len(rows) == start && len(m.ToolCalls) == 0) {
		rows = append(rows, OverlayRow{Role: contextRoleAssistant, Preview: pv.content(len(rows), m.Content), Estimated: est})
		sizes = append(sizes, contextJSONStringLen(m.Content)+len(`"content":`))
	}
	for _, c := range m.ToolCalls {
		callRow[c.ID] = len(rows)
		preview, ok := pv.at(len(rows))
		if !ok {
			preview = contextCallPreview(c)
		}
		rows = append(rows, OverlayRow{Role: contextRoleTool, Preview: preview, Estimated: est})
		sizes = append(sizes, len(`{"id":"","type":"function","function":{"name":"","arguments":}}`)+
			len(c.ID)+len(c.Name)+contextJSONStringLen(c.Arguments))
	}
	for i, part := range contextSplit(n, sizes) {
		rows[start+i].Tokens = part
	}
	return rows
}

// rowPreviews are the rows built earlier from the same messages, nil when
// there are none.
type rowPreviews []OverlayRow

// at returns row i's earlier preview.
func (p rowPreviews) at(i int) (string, bool) {
	if i < len(p) {
		return p[i].Preview, true
	}
	return "", false
}

// content returns row i's earlier preview, or the preview of text.
func (p rowPreviews) content(i int, text string) string {
	if s, ok := p.at(i); ok {
		return s
	}
	return contextPreview(text)
}

// contextSplit divides n in proportion to sizes: each part gets its floor
// share, then the parts with the largest remainders (earlier first on a tie)
// get one more until the parts add up to n.
func contextSplit(n int, sizes []int) []int {
	parts := make([]int, len(sizes))
	total := 0
	for _, s := range sizes {
		total += s
	}
	if len(sizes) == 0 {
		return parts
	}
	if total <= 0 {
		parts[0] = n
		return parts
	}
	rems := make([]int, len(sizes))
	given := 0
	for i, s := range sizes {
		parts[i] = n * s / total
		rems[i] = n * s % total
		given += parts[i]
	}
	for ; given < n; given++ {
		best := 0
		for i := range rems {
			if rems[i] > rems[best] {
				best = i
			}
		}
		parts[best]++
		rems[best] = -1
	}
	return parts
}

// contextReasoningBytes is the JSON size of m's reasoning members, or 0
// when they carry nothing (absent, null, "" or []).
func contextReasoningBytes(m llm.Message) int {
	n := 0
	for _, f := range m.Extra {
		switch f.Key {
		case "reasoning_content", "reasoning", "reasoning_details":
			switch strings.TrimSpace(string(f.Value)) {
			case "", "null", `""`, "[]":
				continue
			}
			n += len(f.Key) + 3 + len(f.Value)
		}
	}
	return n
}

// contextSyntheticCall returns the index of the message holding the
// synthetic call the application made at the start of the turn, or -1: the
// assistant message right after the first user message, with no content or
// reasoning and a single call that is either FYI or a REPL call whose code
// is the subagent start-up code.
func contextSyntheticCall(msgs []llm.Message) int {
	if len(msgs) < 2 || msgs[0].Role != "user" {
		return -1
	}
	m := msgs[1]
	if m.Role != "assistant" || m.Content != "" || len(m.ToolCalls) != 1 || contextReasoningBytes(m) > 0 {
		return -1
	}
	c := m.ToolCalls[0]
	switch c.Name {
	case rlm.FYITool:
		return 1
	case rlm.REPLTool:
		var args struct {
			Code string `json:"code"`
		}
		if json.Unmarshal([]byte(c.Arguments), &args) == nil && contextStartupCode(args.Code) {
			return 1
		}
	}
	return -1
}

// contextStartupCode reports whether code is a subagent's start-up REPL
// call: FYI() and help(), then optionally store_summary() and
// library_summary(), one per line.
func contextStartupCode(code string) bool {
	rest, ok := strings.CutPrefix(code, "FYI()\nhelp()")
	if !ok {
		return false
	}
	rest, _ = strings.CutPrefix(rest, "\nstore_summary()")
	rest, _ = strings.CutPrefix(rest, "\nlibrary_summary()")
	return rest == ""
}

// contextCallPreview is a tool call's row text: its name, the root when
// given ("root: store", as the transcript shows it above a patch), then the
// other arguments' values in order, with "name: " before an rlm name.
func contextCallPreview(c llm.ToolCall) string {
	dec := json.NewDecoder(strings.NewReader(c.Arguments))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return contextPreview(c.Name + " " + c.Arguments)
	}
	parts := []string{c.Name}
	size := 0
	for dec.More() && size < 4*contextPreviewRunes {
		key, err := dec.Token()
		if err != nil {
			break
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			break
		}
		var val string
		if json.Unmarshal(raw, &val) == nil {
			val = contextPreview(val)
		} else {
			val = string(raw)
		}
		switch k, _ := key.(string); k {
		case "root":
			parts = slices.Insert(parts, 1, "root: "+val)
		case "name":
			parts = append(parts, "name: "+val)
		default:
			parts = append(parts, val)
		}
		size += len(val)
	}
	return contextPreview(strings.Join(parts, " "))
}

// contextPreview collapses runs of white space and control characters in s
// to one space and cuts it to contextPreviewRunes runes, ending a cut with
// "…". It reads only as much of s as it keeps.
func contextPreview(s string) string {
	out := make([]rune, 0, contextPreviewRunes+1)
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
		if len(out) > contextPreviewRunes {
			out = append(out[:contextPreviewRunes-1], '…')
			break
		}
	}
	return string(out)
}

// contextJSONStringLen is the length of s encoded as a JSON string,
// quotes included.
func contextJSONStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			n += 2
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			n += 6
		default:
			n++
		}
	}
	return n
}
