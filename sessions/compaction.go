// Compaction: turns hidden to fit the model's context window, and the
// entry that stands for them in requests.

package sessions

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"harness/llm"
)

// Who hid a turn, besides the person.
const (
	// HiddenByCompaction: hidden to make a request fit the window; a
	// compaction entry may stand for it.
	HiddenByCompaction = "compaction"
	// HiddenByRefusal: the turn failed because the model refused it as
	// longer than its context, and is left out of later requests so that
	// they do not fail too.
	HiddenByRefusal = "refused"
)

// Compaction is a compaction entry: it stands, in requests, for turns
// hidden by compaction, with a summary of them the model wrote. It sits in
// the messages array right after the marker of the last turn it covers.
// Restoring any of its turns restores all of them and removes it.
type Compaction struct {
	Turns   []int  // the turns (indices of Turns) it stands for, ascending
	Summary string // the model's summary; "" for none
	Off     bool   // hidden by the person: not sent
}

// Messages are what a request sends for the entry: a user message
// holding the summary and the assistant's acknowledgement, so that roles
// still alternate and the turns after it go out byte for byte as saved.
func (c *Compaction) Messages() []llm.Message {
	return []llm.Message{
		{Role: "user", Content: fmt.Sprintf("[Summary of %s of this conversation, which harness hid to fit the model's context window; the person can restore them.]\n\n%s",
			TurnRange(c.Turns), c.Summary)},
		{Role: "assistant", Content: EntryAck},
	}
}

// EntryAck is the assistant's side of a compaction entry in requests.
const EntryAck = "Noted: I have the summary of those turns and go on from it."

// TurnRange names turns (0-based) as the person sees them: "turn 2",
// "turns 1–3", "turns 1–3, 5".
func TurnRange(turns []int) string {
	var parts []string
	for i := 0; i < len(turns); {
		j := i
		for j+1 < len(turns) && turns[j+1] == turns[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", turns[i]+1, turns[j]+1))
		} else {
			parts = append(parts, fmt.Sprint(turns[i]+1))
		}
		i = j + 1
	}
	if len(turns) == 1 {
		return "turn " + parts[0]
	}
	return "turns " + strings.Join(parts, ", ")
}

// Entry is a compaction entry and where it is in the items.
type Entry struct {
	Index int // in the items
	*Compaction
}

// Entries returns the compaction entries of items, in order.
func Entries(items []Item) []Entry {
	var out []Entry
	for i, it := range items {
		if it.Compaction != nil {
			out = append(out, Entry{i, it.Compaction})
		}
	}
	return out
}

// HideTurns hides the given turns (indices of Turns) that are visible,
// marking them hidden by by, and returns the new items.
func HideTurns(items []Item, turns []int, by string) []Item {
	ts := Turns(items)
	ends := map[int]bool{}
	for _, n := range turns {
		if n >= 0 && n < len(ts) && !ts[n].Hidden {
			ends[ts[n].End] = true
		}
	}
	if len(ends) == 0 {
		return items
	}
	out := make([]Item, 0, len(items)+len(ends))
	for i, it := range items {
		if ends[i] {
			out = append(out, Item{Hidden: true, By: by})
		}
		out = append(out, it)
	}
	if ends[len(items)] {
		out = append(out, Item{Hidden: true, By: by})
	}
	return out
}

// AddEntry puts entry c after the marker of the last turn it covers, which
// must be hidden, and returns the new items.
func AddEntry(items []Item, c *Compaction) ([]Item, error) {
	ts := Turns(items)
	if len(c.Turns) == 0 {
		return items, errors.New("a compaction entry covers no turn")
	}
	last := slices.Max(c.Turns)
	if last >= len(ts) || !ts[last].Hidden {
		return items, fmt.Errorf("turn %d is not hidden", last)
	}
	at := ts[last].End + 1
	for at < len(items) && items[at].Compaction != nil {
		at++
	}
	return slices.Insert(slices.Clip(items), at, Item{Hidden: true, Compaction: c}), nil
}

// RemoveEntry removes the item at index i when it is a compaction entry.
func RemoveEntry(items []Item, i int) []Item {
	if i < 0 || i >= len(items) || items[i].Compaction == nil {
		return items
	}
	return slices.Delete(slices.Clone(items), i, i+1)
}

// SetEntryOff hides (off) or shows the compaction entry at index i in
// requests; its turns stay hidden either way.
func SetEntryOff(items []Item, i int, off bool) []Item {
	if i < 0 || i >= len(items) || items[i].Compaction == nil {
		return items
	}
	out := slices.Clone(items)
	c := *out[i].Compaction
	c.Off = off
	out[i].Compaction = &c
	return out
}

// RestoreEntry restores every turn entry i stands for that compaction hid,
// and removes the entry.
func RestoreEntry(items []Item, i int) []Item {
	if i < 0 || i >= len(items) || items[i].Compaction == nil {
		return items
	}
	turns := items[i].Compaction.Turns
	items = RemoveEntry(items, i)
	ts := Turns(items)
	drop := map[int]bool{}
	for _, n := range turns {
		if n < len(ts) && ts[n].Hidden && ts[n].By == HiddenByCompaction {
			drop[ts[n].End] = true
		}
	}
	out := make([]Item, 0, len(items))
	for j, it := range items {
		if !drop[j] {
			out = append(out, it)
		}
	}
	return out
}

// coveringEntry is the index of the entry that stands for turn, or -1.
func coveringEntry(items []Item, turn int) int {
	for _, e := range Entries(items) {
		if slices.Contains(e.Turns, turn) {
			return e.Index
		}
	}
	return -1
}

type localItemJSON struct {
	Hidden     *bool           `json:"hidden,omitempty"`
	By         string          `json:"by,omitempty"`
	Compaction *compactionJSON `json:"compaction,omitempty"`
}

type compactionJSON struct {
	Turns   *[]int  `json:"turns"`
	Summary *string `json:"summary"`
	Hidden  bool    `json:"hidden,omitempty"`
}

// writeLocalItem writes a marker or an entry.
func writeLocalItem(w *bufio.Writer, it Item) error {
	var l localItemJSON
	if c := it.Compaction; c != nil {
		turns := c.Turns
		if turns == nil {
			turns = []int{}
		}
		l.Compaction = &compactionJSON{Turns: &turns, Summary: &c.Summary, Hidden: c.Off}
	} else {
		t := true
		l.Hidden, l.By = &t, it.By
	}
	b, err := json.Marshal(map[string]localItemJSON{localKey: l})
	if err != nil {
		return err
	}
	w.Write(b)
	return nil
}

// decodeLocalItem decodes a marker or an entry, strictly.
func decodeLocalItem(raw []byte) (Item, error) {
	var m struct {
		Local *localItemJSON `json:"_harness_local"`
	}
	if err := strictUnmarshal(raw, &m); err != nil {
		return Item{}, fmt.Errorf("hidden-turn marker: %v", err)
	}
	const want = `a marker must be {"_harness_local":{"hidden":true}}, with "by":"compaction" or "by":"refused" when harness hid the turn`
	switch l := m.Local; {
	case l == nil:
		return Item{}, errors.New(want)
	case l.Compaction != nil:
		c := l.Compaction
		if l.Hidden != nil || l.By != "" {
			return Item{}, errors.New(`a compaction entry has no "hidden" or "by" beside "compaction"`)
		}
		if c.Turns == nil || c.Summary == nil {
			return Item{}, errors.New(`a compaction entry needs "turns" and "summary"`)
		}
		if len(*c.Turns) == 0 || !slices.IsSorted(*c.Turns) || (*c.Turns)[0] < 0 {
			return Item{}, errors.New(`a compaction entry's "turns" must list turn numbers, ascending`)
		}
		return Item{Hidden: true, Compaction: &Compaction{Turns: *c.Turns, Summary: *c.Summary, Off: c.Hidden}}, nil
	case l.Hidden == nil || !*l.Hidden:
		return Item{}, errors.New(want)
	case l.By != "" && l.By != HiddenByCompaction && l.By != HiddenByRefusal:
		return Item{}, fmt.Errorf("unknown \"by\" %q: %s", l.By, want)
	}
	return Item{Hidden: true, By: m.Local.By}, nil
}
