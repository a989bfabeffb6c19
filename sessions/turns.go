// Turns and hidden-turn markers.

package sessions

import "harness/llm"

// Turn is one turn of a conversation: a user message and everything after
// it up to the next user message. Items[Start:End] are its messages; a
// hidden turn's marker is at Items[End].
type Turn struct {
	Start, End int
	Hidden     bool
}

// Turns splits items into turns. Messages before the first user message, if
// any, form a turn of their own.
func Turns(items []Item) []Turn {
	var out []Turn
	open := false
	for i, it := range items {
		switch {
		case it.Hidden:
			if open {
				out[len(out)-1].Hidden = true
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

// Visible returns the messages a request sends: markers and hidden turns
// are left out.
func Visible(items []Item) []llm.Message {
	out := make([]llm.Message, 0, len(items))
	for _, t := range Turns(items) {
		if t.Hidden {
			continue
		}
		for _, it := range items[t.Start:t.End] {
			out = append(out, it.Message)
		}
	}
	return out
}

// SetHidden hides or restores turn number turn (an index into Turns) and
// returns the new items. An index out of range changes nothing.
func SetHidden(items []Item, turn int, hidden bool) []Item {
	ts := Turns(items)
	if turn < 0 || turn >= len(ts) || ts[turn].Hidden == hidden {
		return items
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
