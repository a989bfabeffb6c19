// The context overlay's data, token counts and hidden turns.

package ui

import (
	"context"
	"fmt"
	"slices"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"harness/config"
	"harness/llm"
	"harness/sessions"
)

// overlayAsyncBytes is the conversation size from which the overlay's
// first build runs off the event goroutine: estimating and keying every
// turn of a 20 MB session takes a few hundred milliseconds, and the first
// frame should not wait for it.
const overlayAsyncBytes = 1 << 20

// refreshOverlay rebuilds the overlay's data for the agent on screen when
// the conversations changed since the last frame, and with it the token
// total the status line falls back on. A view's first build over a large
// conversation runs on its own goroutine (with a builder of its own, handed
// to the view when done); until then the overlay and the status line say
// the tokens are being counted, and later builds are incremental.
func (a *App) refreshOverlay() {
	v := a.top()
	if !a.ovDirty && a.ovView == v {
		return
	}
	names := []string{a.agentName(a.root)}
	var chain []string // the callers of the subagent followed, from the root's down
	for s := a.followed(); s != nil && s != a.root; s = a.callerOf(s) {
		chain = append([]string{s.agent.Name}, chain...)
	}
	names = append(names, chain...)
	for i, r := range a.review {
		n := r.agent.Name
		if i == len(a.review)-1 {
			n += " · Esc returns"
		}
		names = append(names, n)
	}
	if v.building {
		// ovDirty stays: the build's end redraws with the latest data.
		a.main.ov.SetData(OverlayData{Agents: names, Counting: true})
		a.ovView = nil
		return
	}
	a.ovDirty = false
	var counts []llm.TurnCount
	active := -1
	if v == a.root {
		counts = a.counts
		if a.running {
			active = ActiveLast
		}
	} else if !v.reviewing {
		active = 0 // a running subagent's conversation is one turn
	}
	if !v.built && conversationBytes(v.items) >= overlayAsyncBytes {
		a.buildOverlayAsync(v, counts, active)
		a.main.ov.SetData(OverlayData{Agents: names, Counting: true})
		a.ovView = nil
		return
	}
	turns := v.builder.Build(v.items, counts, active)
	v.built = true
	from := v.builder.from
	if a.ovView != v {
		from = 0 // the overlay showed another agent's turns, and their live rows
		a.main.ov.live, a.liveShown = nil, liveState{}
	}
	a.ovView = v
	extra := 0
	if v == a.root {
		turns, from, extra = withEntries(turns, v.items, from)
	}
	a.main.ov.setDataFrom(OverlayData{Agents: names, Turns: turns}, from)
	v.total, v.totalEst = v.builder.Total()
	v.total += extra
}

// refreshLive gives the overlay the rows of the reply the agent on screen
// is streaming, when they changed since the last frame: a few blocks'
// estimates and previews, whatever the session's length.
func (a *App) refreshLive() {
	v := a.top()
	if a.liveShown == (liveState{v, v.liveVer}) {
		return
	}
	a.liveShown = liveState{v, v.liveVer}
	var rows []OverlayRow
	if a.ovView == v {
		for _, b := range v.live {
			rows = append(rows, b.liveRow())
		}
	}
	a.main.ov.SetLive(rows)
}

// liveState is which live rows the overlay shows: a view's, at a version.
type liveState struct {
	v   *view
	ver int
}

// buildOverlayAsync runs v's first overlay build on a goroutine. The
// builder only reads the items it was given (messages are values, and the
// view only ever appends past them), and the view takes it over on the
// event goroutine.
func (a *App) buildOverlayAsync(v *view, counts []llm.TurnCount, active int) {
	v.building = true
	items := v.items[:len(v.items):len(v.items)]
	go func() {
		var b OverlayBuilder
		b.Build(items, counts, active)
		a.post(func() {
			v.building, v.built = false, true
			v.builder = b
			a.ovDirty = true
		})
	}()
}

// conversationBytes is about the size of a conversation's text, to decide
// whether its first overlay build is worth a goroutine.
func conversationBytes(items []sessions.Item) int {
	n := 0
	for i := range items {
		m := &items[i].Message
		n += len(m.Content)
		for _, c := range m.ToolCalls {
			n += len(c.Arguments)
		}
		for _, f := range m.Extra {
			n += len(f.Value)
		}
	}
	return n
}

// recount counts the root's completed turns with Options.CountTurns (the
// provider's /tokenize, with the heuristic where it fails) off the event
// goroutine, then saves the counts as the session's turn_token_cache.
// Unchanged turns are taken from the cache and cost no request. While a
// turn runs, the turns before it are counted (a turn's start removes the
// earlier FYI calls, which changes them); the running one stays estimated.
//
// One count runs at a time: a turn that ends while one runs (a long
// session's first count over a slow /tokenize) asks for another when it
// is done, which then starts from its results, instead of counting the
// same turns twice at once and saving whichever finishes last.
func (a *App) recount() {
	if a.opts.CountTurns == nil {
		return
	}
	if a.recounting {
		a.recountAgain = true
		return
	}
	items := a.root.items
	done := sessions.Turns(items)
	if a.running && len(done) > 0 {
		done = done[:len(done)-1]
	}
	var turns [][]llm.Message
	for _, t := range done {
		msgs := make([]llm.Message, 0, t.End-t.Start)
		for _, it := range items[t.Start:t.End] {
			msgs = append(msgs, it.Message)
		}
		turns = append(turns, msgs)
	}
	if len(turns) == 0 {
		return
	}
	count, cache, be := a.opts.CountTurns, a.counts, a.backend
	a.recounting = true
	go func() {
		counts := count(context.Background(), turns, cache)
		var err error
		if !sameCounts(counts, cache) { // a turn's start recounts turns counted before: no save
			err = be.SetTurnTokenCache(counts)
		}
		a.post(func() {
			a.recounting = false
			if a.recountAgain {
				a.recountAgain = false
				defer a.recount()
			}
			if a.backend != be {
				return
			}
			a.counts = counts
			a.ovDirty = true
			if err != nil {
				a.root.add(kError, "", "Saving the token counts failed: "+err.Error())
			}
		})
	}()
}

// sameCounts reports whether a and b are the same counts: saving a in
// place of b would change nothing but rewrite the session's file (megabytes
// for a long one).
func sameCounts(a, b []llm.TurnCount) bool {
	return slices.EqualFunc(a, b, func(x, y llm.TurnCount) bool {
		return x.Key == y.Key && x.Tokens == y.Tokens && x.Estimated == y.Estimated &&
			x.Through == y.Through && x.Upto == y.Upto && slices.Equal(x.Messages, y.Messages)
	})
}

// toggleHidden hides or restores root turn number turn (a click in the
// overlay). Only the root's turns can be hidden.
func (a *App) toggleHidden(turn int) {
	if a.top() != a.root {
		a.top().add(kError, "", "Only your conversation with the root agent has turns to hide; this is a subagent's.")
		return
	}
	hidden := false
	for _, t := range a.main.ov.Data().Turns {
		if t.Index == turn {
			hidden = t.Hidden
		}
	}
	var err error
	eh, entries := a.backend.(EntryHider)
	switch {
	case turn < 0 && !entries:
		a.root.add(kError, "", "This session cannot leave its summaries out of requests.")
		return
	case turn < 0:
		err = eh.SetEntryOff(-turn-1, !hidden)
	default:
		err = a.backend.SetHidden(turn, !hidden)
	}
	if err != nil {
		a.root.add(kError, "", "Cannot change that turn: "+err.Error())
		return
	}
	a.root.items = a.backend.Conversation()
	a.ovDirty = true
}

// overlayMouse gives a mouse action to the context overlay.
func (m *mainView) overlayMouse(ev *tcell.EventMouse, act tview.MouseAction) {
	m.ov.MouseHandler()(act, ev, func(tview.Primitive) {})
}

// Tokens is the one token figure of an agent on screen: the tokens
// its next request would carry in messages, the visible turns only (each
// counted by the provider's /tokenize or estimated, as the overlay counts
// them) and the reply being streamed (estimated as it arrives). The status
// line, the overlay's total and FYI all show it; hiding or restoring a
// turn changes it at once.
type Tokens struct {
	N         int
	Estimated bool // a part of it is estimated: shown with "~"
	Counting  bool // the first count of a long conversation has not ended
	// Window is the model's context window, 0 while unknown; At the share
	// of it past which requests are compacted (Over).
	Window int
	At     float64
}

// tokens returns v's figure.
func (a *App) tokens(v *view) Tokens {
	t := Tokens{N: v.total + v.liveTokens, Estimated: v.totalEst || v.liveTokens > 0, Counting: v.building, At: a.opts.CompactAt}
	if a.opts.Window != nil {
		t.Window = a.opts.Window()
	}
	return t
}

// Over says the count is past the compaction threshold of a known window.
func (c Tokens) Over() bool {
	at := c.At
	if at == 0 {
		at = config.DefaultCompactAt
	}
	return c.Window > 0 && !c.Counting && float64(c.N) > at*float64(c.Window)
}

// Figure is the count as a number: "527", or "~527" when estimated.
func (c Tokens) Figure() string {
	if c.Estimated {
		return fmt.Sprintf("~%d", c.N)
	}
	return fmt.Sprint(c.N)
}

// String is the count as the status line shows it: "~527 tokens", or
// with a known window "~9.8k / 12k · 82 %".
func (c Tokens) String() string {
	if c.Counting {
		return "counting tokens"
	}
	if c.Window > 0 {
		n := llm.FormatTokens(c.N)
		if c.Estimated {
			n = "~" + n
		}
		return fmt.Sprintf("%s / %s · %d %%", n, llm.FormatTokens(c.Window), c.N*100/c.Window)
	}
	return c.Figure() + " tokens"
}
