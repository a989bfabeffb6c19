// Finished subagents: the figures an rlm call shows, and reopening a
// subagent's saved conversation read-only.

package ui

import (
	"fmt"
	"time"

	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

// SubagentLoader is what a Backend implements to let finished subagents
// be reopened: the saved conversation of the subagent at depth started by
// rlm call id.
type SubagentLoader interface {
	SubagentConversation(depth int, id string) ([]sessions.Item, error)
}

// subStats are the figures an rlm call shows about its subagent: from the
// events while it runs in this process, else from its saved conversation,
// read when the call is first drawn.
type subStats struct {
	id      string
	depth   int
	calls   int // tool calls, the start-up call not counted
	tokens  int // the latest request's total, or an estimate
	tokEst  bool
	start   time.Time
	end     time.Time
	running bool
	live    bool // seen running in this process
	loaded  bool // the saved conversation was read (or could not be)
	saved   bool // a saved conversation exists
	ver     int  // bumped by every change
	load    func(depth int, id string) ([]sessions.Item, error)
}

// registry is what blocks of every view share: the subagents' figures by
// rlm call ID and the old texts of Replace File patches by apply_patch
// call ID.
type registry struct {
	subs  map[string]*subStats
	bases map[string]map[string]string
	argvs map[string][][]string // the run() commands of each REPL call seen running, in order
	load  func(depth int, id string) ([]sessions.Item, error)
	now   func() time.Time
}

func newRegistry() *registry {
	return &registry{subs: map[string]*subStats{}, bases: map[string]map[string]string{}, argvs: map[string][][]string{}, now: time.Now}
}

// sub returns the figures of the subagent rlm call id starts at depth.
func (r *registry) sub(id string, depth int) *subStats {
	s, ok := r.subs[id]
	if !ok {
		s = &subStats{id: id, depth: depth, load: r.load}
		r.subs[id] = s
	}
	return s
}

// started, called, used and ended follow a subagent's events.
func (r *registry) started(ag rlm.Agent) {
	s := r.sub(ag.ID, ag.Depth)
	s.start, s.running, s.live, s.loaded, s.saved = r.now(), true, true, true, true
	s.calls, s.tokens, s.tokEst = 0, 0, false
	s.ver++
}

func (r *registry) called(ag rlm.Agent, synthetic bool) {
	if s, ok := r.subs[ag.ID]; ok && ag.Depth > 0 && !synthetic {
		s.calls++
		s.ver++
	}
}

func (r *registry) used(ag rlm.Agent, u llm.Usage) {
	if s, ok := r.subs[ag.ID]; ok && ag.Depth > 0 && u.TotalTokens > 0 {
		s.tokens, s.tokEst = u.TotalTokens, false
		s.ver++
	}
}

// ended takes the subagent's conversation as it ended: when the server
// reported no usage, its tokens are estimated from it, as they are for a
// subagent read from its saved conversation.
func (r *registry) ended(ag rlm.Agent, items []sessions.Item) {
	if s, ok := r.subs[ag.ID]; ok {
		s.end, s.running = r.now(), false
		if len(items) == 0 {
			s.load = nil // it never ran (stopped while queued): nothing was saved to review
		}
		if s.tokens == 0 {
			s.tokens, s.tokEst = estimateItems(items), true
		}
		s.ver++
	}
}

// estimateItems estimates the tokens of a conversation's shown messages.
func estimateItems(items []sessions.Item) int {
	msgs := make([]llm.Message, 0, len(items))
	for _, it := range items {
		if !it.Hidden {
			msgs = append(msgs, it.Message)
		}
	}
	return llm.EstimateTurn(msgs).Tokens
}

// ensure reads the saved conversation once, for a call not seen running.
func (s *subStats) ensure() {
	if s.loaded {
		return
	}
	s.loaded = true
	if s.load == nil {
		return
	}
	items, err := s.load(s.depth, s.id)
	if err != nil {
		return
	}
	s.saved = true
	calls := 0
	for _, it := range items {
		if !it.Hidden {
			calls += len(it.Message.ToolCalls)
		}
	}
	s.calls = max(calls-1, 0) // the start-up call
	s.tokens, s.tokEst = estimateItems(items), true
	s.ver++
}

// figures is what the rlm call's line says after the name.
func (s *subStats) figures() string {
	s.ensure()
	calls := fmt.Sprintf("%d tool calls", s.calls)
	if s.calls == 1 {
		calls = "1 tool call"
	}
	if s.running {
		return "running · " + calls
	}
	if !s.saved && !s.live {
		return ""
	}
	out := calls
	if s.live && !s.end.IsZero() {
		out += " · " + duration(s.end.Sub(s.start))
	}
	if s.tokens > 0 {
		tok := tokenCount(s.tokens) + " tokens"
		if s.tokEst {
			tok = "~" + tok
		}
		out += " · " + tok
	}
	if s.load == nil {
		return out
	}
	return out + " · click to review"
}

// duration shows d as "850 ms", "12 s", "3 m 05 s" or "1 h 02 m".
func duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d m %02d s", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%d h %02d m", int(d.Hours()), int(d.Minutes())%60)
}

// tokenCount shows n as "950", "12.3k" or "1.2M".
func tokenCount(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

// reviewable reports whether clicking call block b opens a subagent.
func (b *block) reviewable() bool {
	if b.kind != kCall || b.name != rlm.RLMTool || b.r.sub == nil {
		return false
	}
	s := b.r.sub
	s.ensure()
	return !s.running && (s.saved || s.live) && s.load != nil
}

// openReview shows the saved conversation of the subagent rlm call b
// started, on top of the view on screen, read-only; Esc or a click on the
// overlay's header returns.
func (a *App) openReview(b *block) {
	s := b.r.sub
	items, err := s.load(s.depth, s.id)
	if err != nil {
		a.top().add(kError, "", "Cannot open the subagent's conversation: "+err.Error())
		return
	}
	name := ""
	if f, ok := objectFields(b.callArgs); ok {
		for _, kv := range f {
			if kv.key == "name" {
				name = kv.val
			}
		}
	}
	system := a.opts.SubagentSystem
	if system == nil {
		system = a.opts.System
	}
	v := a.newView(rlm.Agent{Name: name, Depth: s.depth, ID: s.id}, system)
	v.reviewing = true
	v.reset(items)
	a.review = append(a.review, v)
	a.ovDirty = true
}

// closeReview returns from the subagent under review to its caller.
func (a *App) closeReview() bool {
	if len(a.review) == 0 {
		return false
	}
	a.review = a.review[:len(a.review)-1]
	a.ovDirty = true
	return true
}
