// Elision: the oldest tool outputs of the current turn left out of a
// request (never out of the file) until it fits.

package rlm

import (
	"encoding/json"
	"fmt"
	"strings"

	"harness/llm"
)

// elision is what elide did to a request.
type elision struct {
	outputs int  // tool outputs replaced by stubs
	cut     bool // the newest output was cut to fit
}

// elide replaces the oldest tool outputs of the current turn (the last
// len(last) messages of msgs, whose tokens last gives) by stubs, oldest
// first, until total fits target; the newest output is never replaced,
// and is cut with its head and tail kept when it alone cannot fit. msgs is
// a copy: the file keeps every output. It returns the new total.
func (a *agent) elide(msgs []llm.Message, last []int, total, target int) (int, elision) {
	var e elision
	off := len(msgs) - len(last)
	newest := -1
	for i := len(msgs) - 1; i >= off; i-- {
		if msgs[i].Role == "tool" {
			newest = i
			break
		}
	}
	calls := map[string]llm.ToolCall{}
	for _, m := range msgs[off:] {
		for _, c := range m.ToolCalls {
			calls[c.ID] = c
		}
	}
	for i := off; i < len(msgs) && total > target; i++ {
		m := msgs[i]
		if m.Role != "tool" || i == newest {
			continue
		}
		stub := a.stub(calls[m.ToolCallID], len(m.Content), last[i-off])
		saved := last[i-off] - llm.EstimateBytes(len(stub)+len(m.ToolCallID)+40)
		if saved <= 0 {
			continue
		}
		msgs[i].Content = stub
		total -= saved
		e.outputs++
	}
	if total > target && newest >= 0 {
		m := msgs[newest]
		room := last[newest-off] - (total - target) // tokens the output may keep
		if keep := int(float64(room)*3.25) - 400; keep > 0 && keep < len(m.Content) {
			msgs[newest].Content = cutMiddle(m.Content, keep)
			total -= last[newest-off] - llm.EstimateBytes(len(msgs[newest].Content)+len(m.ToolCallID)+40)
			e.cut = true
		}
	}
	return total, e
}

// stub stands for an elided output: the call, its size, and how to get it
// back.
func (a *agent) stub(c llm.ToolCall, bytes, tokens int) string {
	args := c.Arguments
	if len(args) > 160 {
		args = args[:llm.CutJSONChars(args, 150)] + "…"
	}
	if !json.Valid([]byte(c.Arguments)) || args == "" {
		args = "{}"
	}
	where := "call it again if you need it"
	if a.depth == 1 && a.depth < a.r.opts.Config.RLM.MaxDepth {
		where += fmt.Sprintf("; a subagent you delegate to can read it in full in /library/%s.json", a.id)
	}
	return fmt.Sprintf("[output left out of this request to fit the model's context window: the %s call %s returned %s bytes (about %s tokens); %s]",
		c.Name, args, groupDigits(bytes), groupDigits(tokens), where)
}

// cutMiddle keeps about keep bytes of s, its head and its tail, with a
// note of what was cut between them.
func cutMiddle(s string, keep int) string {
	head := llm.CutJSONChars(s, keep*2/3)
	tailStart := len(s) - (keep - head)
	for tailStart < len(s) && !utf8Start(s[tailStart]) {
		tailStart++
	}
	var b strings.Builder
	b.WriteString(s[:head])
	fmt.Fprintf(&b, "\n[… %s bytes cut here to fit the model's context window; the conversation file keeps the whole output …]\n", groupDigits(tailStart-head))
	b.WriteString(s[tailStart:])
	return b.String()
}

func utf8Start(c byte) bool { return c&0xC0 != 0x80 }
