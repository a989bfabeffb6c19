// Subagents running at once ([rlm] parallel): the strip above the input
// that lists them, and which one the transcript follows.

package ui

import (
	"fmt"
	"strings"
	"time"

	"harness/rlm"
)

// stripMax is the most rows the strip takes; further agents are counted
// on its last row.
const stripMax = 6

// runState is what a running subagent's view knows of what it does, for
// its strip row.
type runState struct {
	caller *view     // the view whose rlm call started it
	since  time.Time // its AgentStart
	doing  string    // streaming, thinking, running repl, …
	queued bool      // waiting for an [rlm] parallel slot
	cmds   int       // run() commands running
}

// trackRun follows the events that change a running subagent's state.
func (a *App) trackRun(ev rlm.Event) {
	ag := ev.Of()
	if ag.Depth == 0 {
		return
	}
	v := a.viewOf(ag)
	if v == nil {
		return
	}
	r := &v.run
	switch e := ev.(type) {
	case rlm.Queued:
		r.queued = e.Waiting
	case rlm.ReasoningDelta:
		r.doing = "thinking"
	case rlm.TextDelta, rlm.ToolArgsDelta, rlm.ToolCallStarted:
		r.doing = "streaming"
	case rlm.ToolCall:
		r.doing = "running " + e.Name
		if e.Name == rlm.RLMTool {
			r.doing = "delegating"
		}
	case rlm.ToolResult, rlm.Usage:
		r.doing = "waiting for the model"
	case rlm.MessageAdded:
		if e.Message.Role == "tool" {
			r.doing = "waiting for the model"
		}
	case rlm.Retry:
		r.doing = "retrying"
	case rlm.CommandStarted:
		r.cmds++
	case rlm.CommandEnded:
		r.cmds = max(r.cmds-1, 0)
	}
}

// startRun gives a subagent's new view its caller: the running view (or
// the root) one level up that shows the rlm call with the subagent's ID;
// the latest view one level up when none does.
func (a *App) startRun(v *view) {
	v.run = runState{since: a.retryClock().Now(), doing: "starting"}
	want := v.agent.Depth - 1
	var fallback *view
	for i := len(a.stack) - 1; i >= -1; i-- {
		c := a.root
		if i >= 0 {
			c = a.stack[i]
		}
		if c.agent.Depth != want {
			continue
		}
		if c.calls[v.agent.ID] != nil || c.hasLiveCall(v.agent.ID) {
			v.run.caller = c
			return
		}
		if fallback == nil {
			fallback = c
		}
	}
	v.run.caller = fallback
}

// hasLiveCall reports whether the reply being streamed holds call id.
func (v *view) hasLiveCall(id string) bool {
	for _, b := range v.live {
		if b.kind == kCall && b.id == id {
			return true
		}
	}
	return false
}

// callerOf returns the view of v's caller: its rlm call's view, the root
// when it is gone.
func (a *App) callerOf(v *view) *view {
	if c := v.run.caller; c != nil && (c == a.root || a.viewOf(c.agent) == c) {
		return c
	}
	return a.root
}

// delegating reports whether a running subagent started by v runs.
func (a *App) delegating(v *view) bool {
	for _, s := range a.stack {
		if s.run.caller == v {
			return true
		}
	}
	return false
}

// followed is the running subagent the transcript, the status line and
// the overlay show: the one asking for approval, else the one the person
// chose (a click on its strip row, or Ctrl+T), else the first that is not
// waiting on subagents of its own (with one running at a time, the
// deepest). nil when none runs.
func (a *App) followed() *view {
	if len(a.stack) == 0 {
		return nil
	}
	if req := a.head(); req != nil && req.agent.Depth > 0 {
		if v := a.viewOf(req.agent); v != nil {
			return v
		}
	}
	if c := a.chosen; c != nil && a.viewOf(c.agent) == c {
		return c
	}
	for _, v := range a.stack {
		if !a.delegating(v) {
			return v
		}
	}
	return a.stack[len(a.stack)-1]
}

// choose makes the transcript follow v.
func (a *App) choose(v *view) {
	if v == nil || a.viewOf(v.agent) != v {
		return
	}
	a.chosen = v
	a.ovDirty = true
}

// chooseNext follows the next running subagent in the strip (Ctrl+T).
func (a *App) chooseNext() {
	if !a.stripShown() {
		return
	}
	cur := a.followed()
	for i, v := range a.stack {
		if v == cur {
			a.choose(a.stack[(i+1)%len(a.stack)])
			return
		}
	}
}

// stripShown reports whether subagents run at once: more than one
// running subagent is not waiting on subagents of its own.
func (a *App) stripShown() bool {
	if len(a.stack) < 2 {
		return false
	}
	n := 0
	for _, v := range a.stack {
		if !a.delegating(v) {
			n++
		}
	}
	return n > 1
}

// stripHeight is the rows the strip takes now.
func (a *App) stripHeight() int {
	if !a.stripShown() {
		return 0
	}
	return min(len(a.stack), stripMax)
}

// stripRow is the view shown on row i of the strip; nil for the row that
// counts the rest.
func (a *App) stripRow(i int) *view {
	if i < 0 || i >= a.stripHeight() {
		return nil
	}
	if i == stripMax-1 && len(a.stack) > stripMax {
		return nil
	}
	return a.stack[i]
}

// stripLines are the strip's rows: each running subagent's name, depth,
// state and time, the followed one marked.
func (a *App) stripLines() []string {
	h := a.stripHeight()
	if h == 0 {
		return nil
	}
	now, cur := a.retryClock().Now(), a.followed()
	out := make([]string, 0, h)
	for i := range h {
		v := a.stripRow(i)
		if v == nil {
			out = append(out, fmt.Sprintf("   … %d more · Ctrl+T cycles", len(a.stack)-i))
			break
		}
		mark := "  "
		if v == cur {
			mark = "▸ "
		}
		out = append(out, fmt.Sprintf(" %s%s · depth %d · %s · %s", mark, v.agent.Name, v.agent.Depth,
			a.runText(v), seconds(now.Sub(v.run.since))))
	}
	return out
}

// seconds shows an agent's time in whole seconds ("0 s", "12 s", "3 m 05 s").
func seconds(d time.Duration) string {
	if d < time.Second {
		return "0 s"
	}
	return duration(d.Truncate(time.Second))
}

// runText is a running subagent's state in words.
func (a *App) runText(v *view) string {
	for _, r := range a.pending {
		if r.agent.ID == v.agent.ID && r.agent.Depth == v.agent.Depth {
			return "waiting for approval"
		}
	}
	switch r := v.run; {
	case r.queued:
		return "queued"
	case r.cmds > 0:
		return "running a command"
	case a.delegating(v):
		return "delegating"
	case r.doing == "":
		return "starting"
	default:
		return r.doing
	}
}

// drawStrip draws the strip's first h rows from y.
func (m *mainView) drawStrip(x, y, w, h int) {
	a := m.a
	cur := a.followed()
	for i, line := range a.stripLines() {
		if i >= h {
			break
		}
		st := a.st.status
		if a.stripRow(i) == cur && cur != nil {
			st = st.Bold(true)
		}
		drawText(m.screen, x, y+i, w, strings.TrimRight(line, " "), st, -1, -1)
	}
}

// stripAt returns the view of the strip row at screen row y in the last
// frame, or nil.
func (m *mainView) stripAt(y int) *view {
	if y < m.stripY || y >= m.stripY+m.stripH {
		return nil
	}
	return m.a.stripRow(y - m.stripY)
}
