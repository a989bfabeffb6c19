// Fitting each request in the model's window before it is sent, and
// recovering once from a refusal.

package rlm

import (
	"context"
	"fmt"

	"harness/config"
	"harness/llm"
	"harness/sessions"
)

// fit returns the messages of the next request, made to fit the budget:
// at the root, the oldest settled turns are compacted; then, at any
// agent, the oldest tool outputs of the current turn are left out. With
// force (the server refused a request the estimate said fits), the target
// is three quarters of the estimate. Without a known window the visible
// conversation is sent as it is. changed says whether anything was made
// smaller than before.
func (a *agent) fit(ctx context.Context, tools []llm.Tool, force bool) (msgs []llm.Message, changed bool) {
	a.r.win.Wait(ctx) // the server's answer, when it is being asked
	budget := a.budget()
	a.fmu.Lock()
	s := a.size(tools)
	a.fmu.Unlock()
	target := budget
	if force && s.total*3/4 < target {
		target = s.total * 3 / 4
	}
	before := s.total
	var c *compacted
	remeasure := false // the person changed the conversation while it was compacted
	if budget > 0 && a.depth == 0 && s.total > target {
		var err error
		if c, err = a.compact(ctx, s, target, "", a.compaction() == config.CompactionSummary); c != nil {
			a.emit(Conversation{Agent: a.ref(), Items: a.r.Conversation()})
		}
		remeasure = err != nil
	}
	a.fmu.Lock()
	msgs = sessions.Visible(a.file.Items)
	if c != nil || remeasure {
		s = a.size(tools)
	}
	a.fmu.Unlock()
	var e elision
	total := s.total
	if budget > 0 && total > target {
		total, e = a.elide(msgs, s.last, total, target)
	}
	changed = c != nil || e.outputs > a.elided || e.cut
	if changed {
		a.announceFit(c, e, before, total, "")
	}
	a.elided = e.outputs
	return msgs, changed
}

// announceFit emits the ContextCompacted event of one fitting; why says
// what it was for ("" is to fit the window).
func (a *agent) announceFit(c *compacted, e elision, before, after int, why string) {
	w := a.window()
	ev := ContextCompacted{Agent: a.ref(), Window: w, Before: before, After: after, Elided: e.outputs, Cut: e.cut}
	win := "the " + llm.FormatTokens(w) + " window"
	if w == 0 {
		win = "the model's context window"
	}
	if why == "" {
		why = "to fit " + win
	}
	var msg string
	if c != nil {
		ev.Turns, ev.Summarised = c.turns, c.summarised
		verb := "hidden"
		if c.summarised {
			verb = "summarised"
		}
		named := c.turns
		if c.summarised {
			named = c.cover // the summary stands for earlier entries' turns too
		}
		msg = fmt.Sprintf("context: %s %s %s", sessions.TurnRange(named), verb, why)
		if c.err != nil {
			msg += fmt.Sprintf(" (no summary: %v)", a.r.opts.Redactor.String(c.err.Error()))
		}
	}
	if e.outputs > 0 || e.cut {
		if msg != "" {
			msg += "; "
		} else {
			msg = "context: "
		}
		noun := "outputs"
		if e.outputs == 1 {
			noun = "output"
		}
		switch {
		case e.outputs == 0:
			msg += "the newest tool output cut to fit " + win
		default:
			msg += fmt.Sprintf("%d oldest tool %s left out of the request to fit %s", e.outputs, noun, win)
			if e.cut {
				msg += ", the newest cut to fit"
			}
		}
		msg += " · the conversation file keeps them"
	}
	ev.Message = msg
	a.emit(ev)
}

// request fits the conversation, sends it and streams the reply as
// events. A refusal as too long for the model's context teaches the
// window when it names it; with a window known, the request is fitted
// again (forced) and sent once more.
func (a *agent) request(ctx context.Context) (llm.Response, error) {
	tools := a.llmTools()
	msgs, _ := a.fit(ctx, tools, false)
	resp, err := a.send(ctx, msgs, tools)
	if err == nil || ctx.Err() != nil || !llm.ContextExceeded(err) || !empty(resp.Message) {
		return resp, err
	}
	learnt := a.r.win.Learn(llm.WindowIn(err))
	if a.budget() == 0 {
		return resp, err
	}
	msgs, changed := a.fit(ctx, tools, true)
	if !changed {
		return resp, err // nothing could be left out: the same request would be refused
	}
	msg := "The model refused the request as longer than its context"
	if learnt {
		msg += fmt.Sprintf(" (its window is %s tokens, learnt from the refusal)", groupDigits(a.window()))
	}
	a.emit(Notice{Agent: a.ref(), Message: msg + "; room was made, and it is sent once more."})
	return a.send(ctx, msgs, tools)
}

func empty(m llm.Message) bool { return m.Content == "" && len(m.ToolCalls) == 0 }

// hideRefused leaves the root's last turn, refused as too long, out of
// later requests (the file keeps it; the overlay restores it).
func (a *agent) hideRefused() {
	a.fmu.Lock()
	ts := sessions.Turns(a.file.Items)
	if len(ts) == 0 || ts[len(ts)-1].Hidden {
		a.fmu.Unlock()
		return
	}
	n := len(ts) - 1
	a.file.Items = sessions.HideTurns(a.file.Items, []int{n}, sessions.HiddenByRefusal)
	err := a.save()
	a.fmu.Unlock()
	if err != nil {
		a.emit(Error{Agent: a.ref(), Message: err.Error()})
		return
	}
	a.emit(Notice{Agent: a.ref(), Message: fmt.Sprintf("Turn %d did not fit the model's context: the session file keeps it, and later requests leave it out so they can fit; restore it in the context overlay.", n+1)})
	a.emit(Conversation{Agent: a.ref(), Items: a.r.Conversation()})
}
