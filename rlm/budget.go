// Budgets: what a request may hold in the model's window, and what it
// holds, from cached counts (a long session is not walked per request).

package rlm

import (
	"encoding/json"

	"harness/config"
	"harness/llm"
	"harness/sessions"
)

// turnMemo is what an agent remembers of one turn's size: the bytes of
// each of its first len(sizes) messages (a turn only grows while it is
// the last one; removing its FYI call shortens it, and it is then counted
// again), and its TurnKey once it is settled.
type turnMemo struct {
	sizes []int
	key   string
}

// unit is one element of a request's conversation: a visible turn or a
// compaction entry, with its tokens.
type unit struct {
	turn   int // the turn's index in sessions.Turns; -1 for an entry
	entry  int // the entry's index in the items, for an entry
	tokens int
}

// sizing is the size of the request an agent would send now.
type sizing struct {
	fixed     int    // the system message and the tools
	units     []unit // visible turns and entries, in order
	last      []int  // the tokens of each message of the last unit (the current turn)
	total     int
	estimated bool // a unit's count is estimated (not a /tokenize count)
	edits     int  // the agent's edits when it was measured
}

// window is the model's window in tokens, 0 while unknown.
func (a *agent) window() int {
	n, _ := a.r.win.Tokens()
	return n
}

// compaction is [chat] compaction ("" is the default, summary).
func (a *agent) compaction() string {
	if m := a.r.opts.Config.Chat.Compaction; m != "" {
		return m
	}
	return config.CompactionSummary
}

// budget is what a request may hold: [chat] compact_at of the window,
// less the reserve for the answer; 0 when the window is unknown or
// compaction is off.
func (a *agent) budget() int {
	w := a.window()
	if w == 0 || a.compaction() == config.CompactionOff {
		return 0
	}
	at := a.r.opts.Config.Chat.CompactAt
	if at == 0 {
		at = config.DefaultCompactAt
	}
	return int(at*float64(w)) - a.reserve(w)
}

// reserve is the room kept for the answer: [endpoint.parameters]
// max_tokens (or max_completion_tokens) when set, at most half the
// window; else a tenth of the window.
func (a *agent) reserve(window int) int {
	for _, k := range []string{"max_tokens", "max_completion_tokens"} {
		if v, ok := a.r.opts.Config.Endpoint.Parameters[k].(int64); ok && v > 0 {
			return min(int(v), window/2)
		}
	}
	return window / 10
}

// size measures the request the agent would send now. The caller holds
// fmu. Each turn's count is the context overlay's cached /tokenize count
// when it has one, else the estimate of its bytes; settled turns are
// measured once.
func (a *agent) size(tools []llm.Tool) sizing {
	s := sizing{fixed: a.fixedTokens(tools), edits: a.edits}
	items := a.file.Items
	ts := sessions.Turns(items)
	if len(a.memo) > len(ts) {
		a.memo = a.memo[:len(ts)]
	}
	for len(a.memo) < len(ts) {
		a.memo = append(a.memo, turnMemo{})
	}
	ti := 0
	for i := 0; i < len(items); {
		if ti < len(ts) && i == ts[ti].Start {
			t := ts[ti]
			if !t.Hidden {
				n, est := a.turnTokensOf(ti, items[t.Start:t.End], ti == len(ts)-1 && a.r.running.Load())
				s.units = append(s.units, unit{turn: ti, tokens: n})
				s.estimated = s.estimated || est
			}
			i = t.End
			ti++
			continue
		}
		if c := items[i].Compaction; c != nil && !c.Off {
			n := 0
			for _, m := range c.Messages() {
				n += llm.MessageBytes(m)
			}
			s.units = append(s.units, unit{turn: -1, entry: i, tokens: llm.EstimateBytes(n)})
			s.estimated = true
		}
		i++
	}
	s.total = s.fixed
	for _, u := range s.units {
		s.total += u.tokens
	}
	if n := len(s.units); n > 0 && s.units[n-1].turn == len(ts)-1 {
		for _, b := range a.memo[len(ts)-1].sizes {
			s.last = append(s.last, llm.EstimateBytes(b))
		}
	}
	return s
}

// turnTokensOf is the tokens of turn number n, whose items are its, and
// whether they are estimated. The running turn (last) is always
// estimated, as the context overlay estimates it.
func (a *agent) turnTokensOf(n int, its []sessions.Item, last bool) (int, bool) {
	m := &a.memo[n]
	if len(m.sizes) > len(its) {
		*m = turnMemo{}
	}
	for _, it := range its[len(m.sizes):] {
		m.sizes = append(m.sizes, llm.MessageBytes(it.Message))
		m.key = "" // it grew: its key is another
	}
	if !last && len(a.file.Local.TurnTokenCache) > 0 {
		if m.key == "" {
			msgs := make([]llm.Message, len(its))
			for i, it := range its {
				msgs[i] = it.Message
			}
			m.key = llm.TurnKey(msgs)
		}
		if c, ok := a.tokenCache()[m.key]; ok {
			return c.Tokens, c.Estimated
		}
	}
	return llm.EstimateSizes(m.sizes).Tokens, true
}

// tokenCache is the root file's turn_token_cache by key, rebuilt when it
// changed.
func (a *agent) tokenCache() map[string]llm.TurnCount {
	c := a.file.Local.TurnTokenCache
	if a.cacheOf == nil || len(a.cacheOf) != len(c) || (len(c) > 0 && &a.cacheOf[0] != &c[0]) {
		a.cacheOf = c
		a.cacheMap = make(map[string]llm.TurnCount, len(c))
		for _, tc := range c {
			a.cacheMap[tc.Key] = tc
		}
	}
	return a.cacheMap
}

// fixedTokens estimates the system message and the tools.
func (a *agent) fixedTokens(tools []llm.Tool) int {
	n := 0
	if s := a.system(); s != nil {
		n += llm.Estimate(*s)
	}
	if len(tools) > 0 {
		b, _ := json.Marshal(tools)
		n += llm.EstimateBytes(len(b))
	}
	return n
}
