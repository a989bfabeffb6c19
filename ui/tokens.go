// The context overlay's data, token counts and hidden turns.

package ui

import (
	"context"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"harness/llm"
	"harness/sessions"
)

// refreshOverlay rebuilds the overlay's data for the agent on screen when
// the conversations changed since the last frame, and with it the token
// total the status line falls back on.
func (a *App) refreshOverlay() {
	if !a.ovDirty {
		return
	}
	a.ovDirty = false
	v := a.top()
	var counts []llm.TurnCount
	active := -1
	if v == a.root {
		counts = a.counts
		if a.running {
			active = len(sessions.Turns(v.items)) - 1
		}
	} else {
		active = 0 // a running subagent's conversation is one turn
	}
	turns := v.builder.Build(v.items, counts, active)
	names := []string{a.agentName(a.root)}
	for _, s := range a.stack {
		names = append(names, s.agent.Name)
	}
	a.main.ov.SetData(OverlayData{Agents: names, Turns: turns})
	v.total, v.totalEst = OverlayTotal(turns)
}

// recount counts the root's completed turns with Options.CountTurns (the
// provider's /tokenize, with the heuristic where it fails) off the event
// goroutine, then saves the counts as the session's turn_token_cache.
// Unchanged turns are taken from the cache and cost no request.
func (a *App) recount() {
	if a.opts.CountTurns == nil || a.running {
		return
	}
	items := a.root.items
	var turns [][]llm.Message
	for _, t := range sessions.Turns(items) {
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
	go func() {
		counts := count(context.Background(), turns, cache)
		err := be.SetTurnTokenCache(counts)
		a.post(func() {
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
	if err := a.backend.SetHidden(turn, !hidden); err != nil {
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
