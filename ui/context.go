// The context overlay's model: turns and rows built from a conversation.

package ui

import (
	"bytes"
	"slices"

	"harness/llm"
	"harness/sessions"
)

// OverlayData is what the context overlay shows: the agents from the root
// to the one on screen, and that agent's turns.
type OverlayData struct {
	Agents []string // names from the root to the agent on screen
	Turns  []OverlayTurn
	// Counting: the turns are still being counted (the first build of a
	// large conversation); the overlay says so instead of "(no messages)".
	Counting bool
}

// OverlayTurn is one turn of the context overlay.
type OverlayTurn struct {
	Index     int  // the turn's index in sessions.Turns, passed to OnToggleHidden
	Tokens    int  // the turn's complete message slice, synthetic calls included
	Estimated bool // the count is (partly) heuristic: shown with "~"
	Hidden    bool // left out of model requests
	Active    bool // the running turn: cannot be hidden
	Rows      []OverlayRow
}

// OverlayRow is one row of a turn: user or assistant content, reasoning, or
// a tool call together with its result.
type OverlayRow struct {
	Role      string // user, assistant, reasoning, tool
	Preview   string // one line, at most contextPreviewRunes runes
	Tokens    int
	Estimated bool
}

// OverlayRow roles.
const (
	contextRoleUser      = "user"
	contextRoleAssistant = "assistant"
	contextRoleReasoning = "reasoning"
	contextRoleTool      = "tool"
)

// contextPreviewRunes is the longest preview a row keeps, in runes.
const contextPreviewRunes = 60

// BuildOverlayTurns returns the overlay's turns for a conversation.
//
// Turns are those of sessions.Turns(items). A turn's count is the entry of
// counts whose Key is the turn's llm.TurnKey (so counts may be the whole
// turn_token_cache, in any order); a turn without one, and every turn at
// index activeFrom or later, is counted with llm.EstimateTurn and marked
// Estimated. Pass a negative activeFrom, or one past the last turn, when no
// turn is running; the turns from activeFrom on are Active.
//
// Rows: a user message is one row; an assistant message gives a reasoning
// row (when it carries reasoning), a content row (when its content is not
// empty) and one row per tool call, in that order; a tool message adds its
// count to the row of the call it answers (or is a row of its own when no
// call in the turn matches). The synthetic call the application makes at the
// start of a turn (the root's FYI call, a subagent's first REPL call running
// FYI() and help()) and its result are left out; the turn's Tokens still
// include them.
//
// Per-row counts come from TurnCount.Messages. A user or tool message's
// count goes whole to its row. An assistant message's count is split across
// its rows in proportion to the JSON byte size of each part (the reasoning
// members of Extra, the content string, each tool call), with the largest
// remainders rounded up so that the parts add up to the message's count.
func BuildOverlayTurns(items []sessions.Item, counts []llm.TurnCount, activeFrom int) []OverlayTurn {
	var b OverlayBuilder
	return b.Build(items, counts, activeFrom)
}

// OverlayBuilder builds overlay turns exactly as BuildOverlayTurns does,
// remembering each turn's key, estimate and rows so that the next Build
// recomputes only the turns whose messages or count changed (a message is
// unchanged when its fields are equal; strings shared with the previous
// call compare in constant time). Rows of the turns it returns are shared
// with later results: treat them as read-only. The zero value is ready.
type OverlayBuilder struct {
	memo []contextMemo
}

// contextMemo is what an OverlayBuilder keeps of one turn.
type contextMemo struct {
	msgs      []llm.Message
	key       string         // llm.TurnKey(msgs), "" until needed
	estimate  *llm.TurnCount // llm.EstimateTurn(msgs), nil until needed
	count     llm.TurnCount  // the count rows were built from
	rows      []OverlayRow
	rowsBuilt bool
}

// Build returns the overlay's turns for a conversation; see
// BuildOverlayTurns.
func (b *OverlayBuilder) Build(items []sessions.Item, counts []llm.TurnCount, activeFrom int) []OverlayTurn {
	var byKey map[string]int // Key → index in counts
	if len(counts) > 0 {
		byKey = make(map[string]int, len(counts))
		for i, c := range counts {
			byKey[c.Key] = i
		}
	}
	turns := sessions.Turns(items)
	out := make([]OverlayTurn, len(turns))
	memo := make([]contextMemo, len(turns))
	for i, t := range turns {
		span := items[t.Start:t.End]
		var m contextMemo
		if i < len(b.memo) && contextSameMessages(b.memo[i].msgs, span) {
			m = b.memo[i]
		} else {
			m.msgs = make([]llm.Message, len(span))
			for j, it := range span {
				m.msgs[j] = it.Message
			}
		}
		active := activeFrom >= 0 && i >= activeFrom
		count, ok := llm.TurnCount{}, false
		if byKey != nil && !active {
			if m.key == "" {
				m.key = llm.TurnKey(m.msgs)
			}
			var k int
			if k, ok = byKey[m.key]; ok {
				count = counts[k]
				ok = len(count.Messages) == len(m.msgs)
			}
		}
		if !ok {
			if m.estimate == nil {
				e := llm.EstimateTurn(m.msgs)
				m.estimate = &e
				if m.key == "" {
					m.key = e.Key // the same key: a cache that arrives later costs no rehash
				}
			}
			count = *m.estimate
		}
		if !m.rowsBuilt || !contextSameCount(m.count, count) {
			var prev []OverlayRow
			if m.rowsBuilt {
				prev = m.rows // the same messages: only the count changed
			}
			m.rows, m.count, m.rowsBuilt = contextRows(m.msgs, count.Messages, count.Estimated, prev), count, true
		}
		memo[i] = m
		out[i] = OverlayTurn{Index: i, Tokens: count.Tokens, Estimated: count.Estimated,
			Hidden: t.Hidden, Active: active, Rows: m.rows}
	}
	b.memo = memo
	return out
}

// contextSameCount reports whether two counts give the same rows.
func contextSameCount(a, b llm.TurnCount) bool {
	return a.Estimated == b.Estimated && slices.Equal(a.Messages, b.Messages)
}

// contextSameMessages reports whether items hold exactly msgs.
func contextSameMessages(msgs []llm.Message, items []sessions.Item) bool {
	if len(msgs) != len(items) {
		return false
	}
	for i := range msgs {
		a, b := &msgs[i], &items[i].Message
		if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID ||
			!contextSameFields(a.Extra, b.Extra) || len(a.ToolCalls) != len(b.ToolCalls) {
			return false
		}
		for j := range a.ToolCalls {
			c, d := &a.ToolCalls[j], &b.ToolCalls[j]
			if c.ID != d.ID || c.Name != d.Name || c.Arguments != d.Arguments || !contextSameFields(c.Extra, d.Extra) {
				return false
			}
		}
	}
	return true
}

func contextSameFields(a, b []llm.Field) bool {
	return slices.EqualFunc(a, b, func(x, y llm.Field) bool {
		return x.Key == y.Key && bytes.Equal(x.Value, y.Value)
	})
}

// OverlayTotal sums the counts of the turns that are not hidden; estimated
// is true when any of them is estimated. It is the status line's and FYI's
// fallback before the endpoint reports usage.
func OverlayTotal(turns []OverlayTurn) (tokens int, estimated bool) {
	for _, t := range turns {
		if t.Hidden {
			continue
		}
		tokens += t.Tokens
		estimated = estimated || t.Estimated
	}
	return tokens, estimated
}
