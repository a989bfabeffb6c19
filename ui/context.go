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
	// By says who hid the turn when harness did (sessions.Turn.By);
	// Label replaces "Turn N" (a compaction entry's "Summary").
	By    string
	Label string
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
// turn is running (ActiveLast when the last turn is); the turns from
// activeFrom on are Active.
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

// ActiveLast, as BuildOverlayTurns' activeFrom, makes the last turn the
// active one, whichever it is.
const ActiveLast = -2

// OverlayBuilder builds overlay turns exactly as BuildOverlayTurns does,
// remembering each turn's key, estimate and rows so that the next Build
// recomputes only the turns whose messages or count changed (a message is
// unchanged when its fields are equal; strings shared with the previous
// call compare in constant time). A turn that only grew (the running one,
// as messages are added) keeps its earlier messages' estimates and row
// previews, so it costs what was added.
//
// When items extends the items of the previous Build in place (the same
// backing array, only appended to: what a view does between turn starts)
// with the same counts slice and activeFrom, Build starts at the previous
// last turn and leaves the turns before it alone, so a message added to a
// long session costs the running turn, not the session. Callers must not
// change items before their previous length in place.
//
// Rows of the turns it returns are shared with later results, and the
// returned slice is reused by the next Build: treat both as read-only, and
// as replaced by the next Build. The zero value is ready.
type OverlayBuilder struct {
	memo   []contextMemo
	items  []sessions.Item // the items of the last Build
	counts []llm.TurnCount
	active int
	byKey  map[string]int // Key → index in counts
	turns  []sessions.Turn
	out    []OverlayTurn
	sums   []overlaySum // sums[i]: OverlayTotal of out[:i]
	from   int          // the first turn the last Build computed
}

// overlaySum is a running OverlayTotal.
type overlaySum struct {
	tokens    int
	estimated bool
}

// contextMemo is what an OverlayBuilder keeps of one turn.
type contextMemo struct {
	msgs      []llm.Message
	key       string         // llm.TurnKey(msgs), "" until needed
	estimate  *llm.TurnCount // llm.EstimateTurn(msgs) (Key aside), nil until needed
	sizes     []int          // llm.MessageBytes of each message, once the turn has grown
	count     llm.TurnCount  // the count rows were built from
	rows      []OverlayRow
	rowsBuilt bool
	grown     bool // rows are those of the turn before it grew: previews to reuse
}

// Build returns the overlay's turns for a conversation; see
// BuildOverlayTurns.
func (b *OverlayBuilder) Build(items []sessions.Item, counts []llm.TurnCount, activeFrom int) []OverlayTurn {
	from := 0
	if b.extends(items, counts, activeFrom) {
		from = max(len(b.turns)-1, 0)
	} else {
		b.byKey = nil
		if len(counts) > 0 {
			b.byKey = make(map[string]int, len(counts))
			for i, c := range counts {
				b.byKey[c.Key] = i
			}
		}
	}
	start := 0
	if from < len(b.turns) {
		start = b.turns[from].Start
	}
	turns := b.turns[:from]
	for _, t := range sessions.Turns(items[start:]) {
		turns = append(turns, sessions.Turn{Start: t.Start + start, End: t.End + start, Hidden: t.Hidden})
	}
	if activeFrom == ActiveLast {
		activeFrom = len(turns) - 1
	}
	old := b.memo
	memo, out, sums := b.memo[:min(from, len(b.memo))], b.out[:from], b.sums[:min(from+1, len(b.sums))]
	if len(sums) == 0 {
		sums = append(sums, overlaySum{})
	}
	for i := from; i < len(turns); i++ {
		var prev *contextMemo
		if i < len(old) {
			prev = &old[i]
		}
		active := activeFrom >= 0 && i >= activeFrom
		m, count := b.turn(prev, items[turns[i].Start:turns[i].End], counts, active)
		memo = append(memo, m)
		out = append(out, OverlayTurn{Index: i, Tokens: count.Tokens, Estimated: count.Estimated,
			Hidden: turns[i].Hidden, Active: active, Rows: m.rows})
		sum := sums[i]
		if !turns[i].Hidden {
			sum = overlaySum{sum.tokens + count.Tokens, sum.estimated || count.Estimated}
		}
		sums = append(sums, sum)
	}
	if len(memo) < len(old) {
		clear(old[len(memo):]) // turns gone: let their messages go
	}
	b.memo, b.turns, b.out, b.sums, b.from = memo, turns, out, sums, from
	b.items, b.counts, b.active = items, counts, activeFrom
	if activeFrom >= 0 && activeFrom == len(turns)-1 {
		b.active = ActiveLast // the next Build's last turn is the active one, as this one's
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// extends reports whether items extends the last Build's in place with the
// same counts and active turn.
func (b *OverlayBuilder) extends(items []sessions.Item, counts []llm.TurnCount, activeFrom int) bool {
	if len(b.items) == 0 || len(items) < len(b.items) || &items[0] != &b.items[0] ||
		len(counts) != len(b.counts) || len(counts) > 0 && &counts[0] != &b.counts[0] {
		return false
	}
	return activeFrom == b.active || activeFrom == len(b.turns)-1 && b.active == ActiveLast
}

// Total is OverlayTotal of the last Build's turns.
func (b *OverlayBuilder) Total() (tokens int, estimated bool) {
	if len(b.sums) == 0 {
		return 0, false
	}
	s := b.sums[len(b.sums)-1]
	return s.tokens, s.estimated
}

// turn returns the memo and count of one turn's messages span; prev is
// what the last Build kept at its index, nil when none.
func (b *OverlayBuilder) turn(prev *contextMemo, span []sessions.Item, counts []llm.TurnCount, active bool) (contextMemo, llm.TurnCount) {
	var m contextMemo
	switch {
	case prev != nil && contextSameMessages(prev.msgs, span):
		m = *prev
	case prev != nil && len(span) > len(prev.msgs) && contextSameMessages(prev.msgs, span[:len(prev.msgs)]):
		m = prev.grow(span)
	default:
		m.msgs = make([]llm.Message, len(span))
		for j, it := range span {
			m.msgs[j] = it.Message
		}
	}
	count, ok := llm.TurnCount{}, false
	if b.byKey != nil && !active {
		if m.key == "" {
			m.key = llm.TurnKey(m.msgs)
		}
		var k int
		if k, ok = b.byKey[m.key]; ok {
			count = counts[k]
			ok = len(count.Messages) == len(m.msgs)
		}
	}
	if !ok {
		if m.estimate == nil {
			var e llm.TurnCount
			if m.sizes != nil {
				e = llm.EstimateSizes(m.sizes)
			} else {
				e = llm.EstimateTurn(m.msgs)
				if m.key == "" {
					m.key = e.Key // the same key: a cache that arrives later costs no rehash
				}
			}
			m.estimate = &e
		}
		count = *m.estimate
	}
	if !m.rowsBuilt || !contextSameCount(m.count, count) {
		var prevRows []OverlayRow
		if m.rowsBuilt || m.grown {
			prevRows = m.rows // the same messages, or fewer: only the counts and the new rows change
		}
		m.rows, m.count, m.rowsBuilt, m.grown = contextRows(m.msgs, count.Messages, count.Estimated, prevRows), count, true, false
	}
	return m, count
}

// grow returns the memo of the turn m after messages were added to it:
// the new messages' sizes are measured, the earlier ones' kept, and the
// rows kept as previews for the earlier messages' rows.
func (m *contextMemo) grow(span []sessions.Item) contextMemo {
	sizes := m.sizes
	if sizes == nil {
		sizes = make([]int, 0, len(span))
		for _, msg := range m.msgs {
			sizes = append(sizes, llm.MessageBytes(msg))
		}
	}
	msgs := slices.Clip(m.msgs)
	for _, it := range span[len(m.msgs):] {
		msgs = append(msgs, it.Message)
		sizes = append(sizes, llm.MessageBytes(it.Message))
	}
	return contextMemo{msgs: msgs, sizes: sizes, rows: m.rows, grown: m.rowsBuilt}
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
