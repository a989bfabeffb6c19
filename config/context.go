// The context-window keys: [endpoint] context_window, [chat] compact_at
// and compaction.

package config

import "math"

// Defaults and choices of the [chat] context keys.
const (
	DefaultCompactAt = 0.8
	// Compaction choices: summarise the oldest turns, hide them without
	// a summary, or leave every request as it is.
	CompactionSummary = "summary"
	CompactionHide    = "hide"
	CompactionOff     = "off"
)

// contextWindow reads the optional context_window of an endpoint table:
// the model's window in tokens, 0 when absent (then it is asked of the
// server).
func (c *checker) contextWindow(t map[string]any, path string) int {
	return c.optionalInt(t, "context_window", intKey{path: path + ".context_window", min: 256, max: math.MaxInt32,
		hint: "the model's context window in tokens, for example 12288; leave it out to ask the server"})
}

// chatContext reads [chat] compact_at and compaction.
func (c *checker) chatContext(ch *Chat, t map[string]any) {
	ch.CompactAt = DefaultCompactAt
	if v, present := t["compact_at"]; present {
		const hint = "the share of the context window a request may fill before older turns are compacted, for example 0.8"
		var f float64
		switch n := v.(type) {
		case float64:
			f = n
		case int64:
			f = float64(n)
		default:
			c.valueErr("chat.compact_at", "must be a number, not %s; %s", typeName(v), hint)
			return
		}
		if math.IsNaN(f) || f < 0.1 || f > 1 {
			c.valueErr("chat.compact_at", "must be between 0.1 and 1, not %v; %s", v, hint)
		} else {
			ch.CompactAt = f
		}
	}
	ch.Compaction = CompactionSummary
	if s := c.optString(t, "chat", "compaction"); s != nil {
		switch *s {
		case CompactionSummary, CompactionHide, CompactionOff:
			ch.Compaction = *s
		default:
			c.valueErr("chat.compaction", "must be \"summary\", \"hide\" or \"off\", not %q; \"summary\" (the default) replaces the oldest turns by a summary when a request outgrows the window, \"hide\" only hides them", *s)
		}
	}
}
