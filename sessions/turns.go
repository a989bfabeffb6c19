// Turns and hidden-turn markers.

package sessions

import "harness/llm"

// Turn is one turn of a conversation: a user message and everything after
// it up to the next user message. Items[Start:End] are its messages; a
// hidden turn's marker is at Items[End], and By is the marker's.
type Turn struct {
	Start, End int
	Hidden     bool
	By         string
}

// Turns splits items into turns. Messages before the first user message, if
// any, form a turn of their own. Compaction entries are not turns.
func Turns(items []Item) []Turn {
	var out []Turn
	open := false
	for i, it := range items {
		switch {
		case it.Compaction != nil:
		case it.Hidden:
			if open {
				out[len(out)-1].Hidden = true
				out[len(out)-1].By = it.By
				open = false
			}
		case it.Message.Role == "user" || !open:
			if open {
				out[len(out)-1].End = i
			}
			out = append(out, Turn{Start: i, End: i + 1})
			open = true
		default:
			out[len(out)-1].End = i + 1
		}
	}
	return out
}

// Visible returns the messages a request sends: the messages of visible
// turns, and the message of each compaction entry the person did not hide,
// as two messages where it stands; markers and hidden turns are left out.
func Visible(items []Item) []llm.Message {
	out := make([]llm.Message, 0, len(items))
	ts := Turns(items)
	for i, ti := 0, 0; i < len(items); {
		if ti < len(ts) && i == ts[ti].Start {
			if !ts[ti].Hidden {
				for _, it := range items[ts[ti].Start:ts[ti].End] {
					out = append(out, it.Message)
				}
			}
			i = ts[ti].End
			ti++
			continue
		}
		if c := items[i].Compaction; c != nil && !c.Off {
			out = append(out, c.Messages()...)
		}
		i++
	}
	return out
}

// SetHidden hides or restores turn number turn (an index into Turns) and
// returns the new items; the person hides it. Restoring a turn a
// compaction entry stands for restores every turn of that entry and
// removes it. An index out of range changes nothing.
func SetHidden(items []Item, turn int, hidden bool) []Item {
	ts := Turns(items)
	if turn < 0 || turn >= len(ts) || ts[turn].Hidden == hidden {
		return items
	}
	if !hidden {
		if e := coveringEntry(items, turn); e >= 0 {
			items = RestoreEntry(items, e)
			ts = Turns(items)
			if !ts[turn].Hidden {
				return items
			}
		}
	}
	end := ts[turn].End
	out := make([]Item, 0, len(items)+1)
	out = append(out, items[:end]...)
	if hidden {
		out = append(out, Item{Hidden: true})
		return append(out, items[end:]...)
	}
	return append(out, items[end+1:]...)
}
