// /compact and /context: compaction on request, and what the next
// request would hold.

package rlm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"harness/config"
	"harness/llm"
	"harness/sessions"
)

// Compact compacts the root now, between turns: every visible turn but
// the last is hidden and stands in requests as one compaction entry with
// the model's summary, steered by focus when it is not empty ("hide"
// mode hides them without one). It emits the ContextCompacted and
// Conversation events of any compaction.
func (r *Runner) Compact(ctx context.Context, focus string) error {
	if !r.running.CompareAndSwap(false, true) {
		return errors.New("a turn is running; /compact waits until it ends")
	}
	defer r.running.Store(false)
	a := r.root
	tools := a.llmTools()
	a.fmu.Lock()
	s := a.size(tools)
	a.fmu.Unlock()
	c, err := a.compact(ctx, s, 0, focus, a.compaction() != config.CompactionHide)
	if err != nil {
		return err
	}
	if c == nil && ctx.Err() != nil {
		return errors.New("stopped: nothing was compacted")
	}
	if c == nil {
		return errors.New("nothing to compact: the conversation has no settled turn in requests")
	}
	a.fmu.Lock()
	after := a.size(tools).total
	a.fmu.Unlock()
	a.emit(Conversation{Agent: a.ref(), Items: r.Conversation()})
	a.announceFit(c, elision{}, s.total, after, "by /compact")
	if c.err != nil {
		return fmt.Errorf("the turns are hidden without a summary: %w", c.err)
	}
	return nil
}

// Window returns the model's context window as the Runner knows it.
func (r *Runner) Window() *llm.Window { return r.win }

// ContextReport says what the root's next request would hold: the
// system message, the tools, each turn and entry with its tokens, what is
// hidden and why, and the total against the window and the budget.
func (r *Runner) ContextReport() string {
	a := r.root
	tools := a.llmTools()
	a.fmu.Lock()
	s := a.size(tools)
	items := a.file.Items
	ts := sessions.Turns(items)
	a.fmu.Unlock()
	var b strings.Builder
	w, src := r.win.Tokens()
	switch {
	case w == 0:
		b.WriteString("Context window: unknown (set [endpoint] context_window, or it is learnt from the first refusal that names it)\n")
	default:
		fmt.Fprintf(&b, "Context window: %s tokens (from %s); requests are compacted past %s tokens (compact_at, less room for the answer; compaction %q)\n",
			groupDigits(w), llm.WindowSource(src), groupDigits(a.budget()), a.compaction())
	}
	fmt.Fprintf(&b, "Next request: about %s tokens\n", groupDigits(s.total))
	fmt.Fprintf(&b, "  system message and %d tools: ~%s\n", len(tools), groupDigits(s.fixed))
	shown := map[int]bool{}
	for _, u := range s.units {
		if u.turn < 0 {
			c := items[u.entry].Compaction
			fmt.Fprintf(&b, "  summary of %s: ~%s\n", sessions.TurnRange(c.Turns), groupDigits(u.tokens))
			continue
		}
		shown[u.turn] = true
		fmt.Fprintf(&b, "  turn %d: %s\n", u.turn+1, groupDigits(u.tokens))
	}
	var hidden []string
	for i, t := range ts {
		if shown[i] || !t.Hidden {
			continue
		}
		why := "by you"
		switch t.By {
		case sessions.HiddenByCompaction:
			why = "by compaction"
		case sessions.HiddenByRefusal:
			why = "refused as too long"
		}
		hidden = append(hidden, fmt.Sprintf("turn %d (%s)", i+1, why))
	}
	if len(hidden) > 0 {
		fmt.Fprintf(&b, "Hidden: %s\n", strings.Join(hidden, ", "))
	}
	for _, e := range sessions.Entries(items) {
		if e.Off {
			fmt.Fprintf(&b, "Summary of %s hidden by you: not sent\n", sessions.TurnRange(e.Turns))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// SetEntryOff hides (off) or shows again the compaction entry at item
// index item of the root's conversation in requests, and saves the file;
// the turns it stands for stay hidden either way.
func (r *Runner) SetEntryOff(item int, off bool) error {
	a := r.root
	a.fmu.Lock()
	defer a.fmu.Unlock()
	if item < 0 || item >= len(a.file.Items) || a.file.Items[item].Compaction == nil {
		return fmt.Errorf("no compaction entry at %d", item)
	}
	a.file.Items = sessions.SetEntryOff(a.file.Items, item, off)
	a.edits++
	if r.opts.Session.Name() == "" {
		return nil
	}
	return a.save()
}
