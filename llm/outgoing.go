// The messages as sent: a form every chat template accepts.

package llm

// outgoing returns msgs in the form they are sent in: consecutive user
// messages merged into one (their contents joined by a blank line; Extra
// members of the later ones added when the first lacks them), and
// assistant messages with neither content nor tool calls left out (a reply
// that failed after its reasoning leaves one). Strict chat templates
// (llama.cpp's Jinja templates for Mistral and Gemma models: "Conversation
// roles must alternate") refuse anything else. The session file keeps the
// messages as they are; msgs is never modified, and is returned as is when
// nothing needs changing.
func outgoing(msgs []Message) []Message {
	if !needsRewrite(msgs) {
		return msgs
	}
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if emptyAssistant(m) {
			continue
		}
		if n := len(out); n > 0 && m.Role == "user" && out[n-1].Role == "user" {
			out[n-1] = mergeUser(out[n-1], m)
			continue
		}
		out = append(out, m)
	}
	return out
}

func emptyAssistant(m Message) bool {
	return m.Role == "assistant" && m.Content == "" && len(m.ToolCalls) == 0
}

// needsRewrite reports whether outgoing would change msgs.
func needsRewrite(msgs []Message) bool {
	last := ""
	for _, m := range msgs {
		if emptyAssistant(m) || (m.Role == "user" && last == "user") {
			return true
		}
		last = m.Role
	}
	return false
}

// mergeUser joins user message b into a.
func mergeUser(a, b Message) Message {
	switch {
	case a.Content == "":
		a.Content = b.Content
	case b.Content != "":
		a.Content += "\n\n" + b.Content
	}
	if len(b.Extra) > 0 {
		extra := append([]Field(nil), a.Extra...)
		for _, f := range b.Extra {
			if _, ok := getField(extra, f.Key); !ok {
				extra = append(extra, f)
			}
		}
		a.Extra = extra
	}
	return a
}
