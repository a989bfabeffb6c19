// Compaction entries and harness-hidden turns in the context overlay.

package ui

import (
	"harness/llm"
	"harness/sessions"
)

// EntryHider is the part of a Backend that hides or shows a compaction
// entry in requests (*rlm.Runner has it): a click on the entry's row.
type EntryHider interface {
	SetEntryOff(item int, off bool) error
}

// entryIndex is the OverlayTurn.Index of the compaction entry at item
// index i: negative, so that it never names a turn.
func entryIndex(i int) int { return -i - 1 }

// withEntries puts a row for each compaction entry of items after the
// turn it follows, and says who hid each turn harness hid. from is the
// first of turns that changed; the result's first changed row is
// returned. It returns turns itself when items hold no entry and no turn
// harness hid. extra is the tokens of the entries sent.
func withEntries(turns []OverlayTurn, items []sessions.Item, from int) (out []OverlayTurn, outFrom, extra int) {
	entries := sessions.Entries(items)
	var ts []sessions.Turn
	by := false
	for _, t := range sessions.Turns(items) {
		by = by || t.By != ""
		ts = append(ts, t)
	}
	if len(entries) == 0 && !by {
		return turns, from, 0
	}
	// Entries follow the marker of the last turn they cover.
	after := map[int][]sessions.Entry{}
	for _, e := range entries {
		last := e.Turns[len(e.Turns)-1]
		after[last] = append(after[last], e)
	}
	out = make([]OverlayTurn, 0, len(turns)+len(entries))
	outFrom = -1
	for i, t := range turns {
		if i == from {
			outFrom = len(out)
		}
		if t.Index >= 0 && t.Index < len(ts) {
			t.By = ts[t.Index].By
		}
		out = append(out, t)
		for _, e := range after[t.Index] {
			n := 0
			for _, m := range e.Messages() {
				n += llm.EstimateBytes(llm.MessageBytes(m))
			}
			if !e.Off {
				extra += n
			}
			out = append(out, OverlayTurn{Index: entryIndex(e.Index), Label: "Summary", Tokens: n, Estimated: true, Hidden: e.Off,
				Rows: []OverlayRow{{Role: "summary", Preview: contextPreview(sessions.TurnRange(e.Turns) + ": " + e.Summary), Tokens: n, Estimated: true}}})
		}
	}
	if outFrom < 0 {
		outFrom = len(out)
	}
	return out, outFrom, extra
}
