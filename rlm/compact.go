// Compaction of the root: the oldest settled turns hidden from requests,
// and one entry with the model's summary of them standing in their place.

package rlm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"harness/llm"
	"harness/sessions"
)

// compacted is what one compaction did.
type compacted struct {
	turns      []int // the turns hidden now
	cover      []int // the turns the new entry stands for (earlier entries' too)
	summarised bool
	err        error // why there is no summary, when summary was asked for
}

// summaryTokens is how long a summary may be, for a request budget.
func summaryTokens(budget int) int { return min(max(budget/5, 150), 2000) }

// compact hides the root's oldest visible turns, never the last one,
// until the request measured by s fits target (all of them when target is
// 0: /compact), and stands for them, and for the entries among them, by
// one new compaction entry with the model's summary (in "summary" mode;
// "hide" leaves none). focus steers the summary. It returns nil when there
// was nothing to compact, and errChanged, with nothing done, when the
// person hid or showed a turn or an entry after s was measured (while the
// summary was being written, say): their choice stands.
func (a *agent) compact(ctx context.Context, s sizing, target int, focus string, summary bool) (*compacted, error) {
	if len(s.units) < 2 {
		return nil, nil
	}
	reserve := 0
	if summary {
		reserve = summaryTokens(a.budget())
	}
	var picked []unit
	removed, turns := 0, 0
	for _, u := range s.units[:len(s.units)-1] {
		if target > 0 && turns > 0 && s.total-removed+reserve <= target {
			break
		}
		picked = append(picked, u)
		removed += u.tokens
		if u.turn >= 0 {
			turns++
		}
	}
	if turns == 0 {
		return nil, nil
	}
	a.fmu.Lock()
	if a.edits != s.edits {
		a.fmu.Unlock()
		return nil, errChanged
	}
	text, hide, entries := a.transcript(picked)
	a.fmu.Unlock()
	c := &compacted{turns: hide}
	var sum string
	if summary {
		sum, c.err = a.summarise(ctx, text, focus)
		sum = a.r.opts.Redactor.String(sum) // the model may repeat a secret it knows
		c.summarised = c.err == nil
		if ctx.Err() != nil {
			return nil, nil // stopped: nothing is hidden
		}
	}
	a.fmu.Lock()
	defer a.fmu.Unlock()
	if a.edits != s.edits {
		return nil, errChanged
	}
	items := a.file.Items
	if c.summarised {
		for _, e := range entries {
			if i := slices.IndexFunc(items, func(it sessions.Item) bool { return it.Compaction == e }); i >= 0 {
				items = sessions.RemoveEntry(items, i)
			}
		}
	}
	items = sessions.HideTurns(items, hide, sessions.HiddenByCompaction)
	if c.summarised {
		cover := slices.Clone(hide)
		for _, e := range entries {
			cover = append(cover, e.Turns...)
		}
		slices.Sort(cover)
		var err error
		c.cover = slices.Compact(cover)
		if items, err = sessions.AddEntry(items, &sessions.Compaction{Turns: c.cover, Summary: sum}); err != nil {
			c.summarised, c.err = false, err
		}
	}
	a.file.Items = items
	if err := a.save(); err != nil {
		a.emit(Error{Agent: a.ref(), Message: err.Error()})
	}
	return c, nil
}

// errChanged is why a compaction did nothing: the person changed what
// requests hold while it was measured or summarised.
var errChanged = errors.New("the conversation changed while it was being compacted (a turn or an entry was hidden or shown): nothing was compacted; run /compact again")

// transcript renders the picked units as text for the summary request and
// returns the turns among them and their entries. The caller holds fmu.
func (a *agent) transcript(picked []unit) (string, []int, []*sessions.Compaction) {
	var b strings.Builder
	var turns []int
	var entries []*sessions.Compaction
	ts := sessions.Turns(a.file.Items)
	for _, u := range picked {
		if u.turn < 0 {
			c := a.file.Items[u.entry].Compaction
			entries = append(entries, c)
			fmt.Fprintf(&b, "## Summary of %s, written earlier\n\n%s\n\n", sessions.TurnRange(c.Turns), c.Summary)
			continue
		}
		turns = append(turns, u.turn)
		fmt.Fprintf(&b, "## Turn %d\n\n", u.turn+1)
		t := ts[u.turn]
		for _, it := range a.file.Items[t.Start:t.End] {
			writeMessage(&b, it.Message)
		}
	}
	return b.String(), turns, entries
}

// writeMessage writes one message of a transcript.
func writeMessage(b *strings.Builder, m llm.Message) {
	switch m.Role {
	case "user":
		fmt.Fprintf(b, "Person: %s\n\n", m.Content)
	case "assistant":
		if m.Content != "" {
			fmt.Fprintf(b, "Agent: %s\n\n", m.Content)
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(b, "Agent called %s %s\n\n", c.Name, c.Arguments)
		}
	case "tool":
		fmt.Fprintf(b, "Result: %s\n\n", m.Content)
	}
}

const summarySystem = "You summarise part of a conversation between a person and a coding agent, so that the agent can go on with the work without the part itself. Keep what the person asked for and decided, the facts learnt, the files, names and numbers involved, what was done and what is still open. Leave out pleasantries and anything repeated. Write plain sentences or short lists."

// summarise asks the model for a summary of text, in pieces that each fit
// the budget when text does not.
func (a *agent) summarise(ctx context.Context, text, focus string) (string, error) {
	budget := a.budget()
	if budget == 0 { // /compact with compaction off, or the window unknown
		budget = a.window() * 7 / 10
	}
	if budget == 0 {
		budget = llm.Estimate(summarySystem+text) + 1000 // one request: nothing says it is too long
	}
	words := summaryTokens(budget) * 3 / 4
	ask := fmt.Sprintf("Summarise the following turns of the conversation in at most %d words.", words)
	if focus != "" {
		ask += " Focus on: " + focus
	}
	room := budget - llm.Estimate(summarySystem+ask) - 64
	if room < 64 {
		return "", errors.New("the window leaves no room for a summary request")
	}
	pieces := splitText(text, int(float64(room)*3.25))
	var sums []string
	for _, p := range pieces {
		s, err := a.summaryRequest(ctx, ask, p)
		if err != nil {
			return "", err
		}
		sums = append(sums, s)
	}
	joined := strings.Join(sums, "\n\n")
	if len(sums) > 1 && llm.Estimate(joined) > summaryTokens(budget)*3/2 && llm.Estimate(joined) < room {
		if s, err := a.summaryRequest(ctx, ask, joined); err == nil {
			return s, nil
		}
	}
	return joined, nil
}

// summaryRequest sends one summary request, without tools.
func (a *agent) summaryRequest(ctx context.Context, ask, text string) (string, error) {
	sys := summarySystem
	req := llm.Request{System: &sys, Messages: []llm.Message{{Role: "user", Content: ask + "\n\n" + text}}}
	resp, err := a.r.opts.Client.Stream(ctx, req, nil)
	if resp.Usage != nil {
		a.r.addUsage(*resp.Usage)
	}
	if err != nil {
		return "", fmt.Errorf("the summary request failed: %w", err)
	}
	s := strings.TrimSpace(resp.Message.Content)
	if s == "" {
		return "", errors.New("the model wrote an empty summary")
	}
	return s, nil
}

// splitText cuts text into pieces of at most n bytes, at paragraph breaks
// where it can.
func splitText(text string, n int) []string {
	var out []string
	for len(text) > n {
		cut := strings.LastIndex(text[:n], "\n\n")
		if cut < n/2 {
			cut = llm.CutJSONChars(text, n)
		}
		out = append(out, text[:cut])
		text = text[cut:]
	}
	if strings.TrimSpace(text) != "" || len(out) == 0 {
		out = append(out, text)
	}
	return out
}
