// The input history, and Ctrl+C: a key that forgives.

package ui

import (
	"time"

	"harness/sessions"
)

// history is what Up and Down walk on an empty input: the messages sent
// in earlier sessions in this repository (older, read on a goroutine when
// the UI starts: App.loadHistory), then this session's, oldest first; a
// draft Ctrl+C cleared is one too. While walking, at is the entry shown
// and shown its text; an edit of that text ends the walk.
type history struct {
	older   []string
	merged  bool     // older is in mine
	mine    []string // this session's, oldest first
	entries []string // older then mine, built when walking starts
	at      int
	shown   string
	walking bool
}

// seed takes the messages already sent in the session on screen (a
// resumed one) as this session's.
func (h *history) seed(items []sessions.Item) {
	h.mine = nil
	for _, it := range items {
		if m := it.Message; m.Role == "user" && !isBlank(m.Content) {
			h.push(m.Content)
		}
	}
}

// push appends text unless it repeats the newest entry.
func (h *history) push(text string) {
	if n := len(h.mine); n == 0 || h.mine[n-1] != text {
		h.mine = append(h.mine, text)
	}
}

// add records text sent (or cleared) and ends any walk.
func (h *history) add(text string) {
	if isBlank(text) {
		return
	}
	h.push(text)
	h.walking = false
}

// showing reports whether the input holds, unchanged, the entry a walk put
// there.
func (h *history) showing(text string) bool { return h.walking && text == h.shown }

// step moves the walk d entries (-1: older, 1: newer) from what the input
// holds and returns the text to put in it: an entry, or "" past the
// newest. It reports false when there is nowhere to go.
func (h *history) step(d int, text string) (string, bool) {
	if !h.walking {
		if d > 0 {
			return "", false
		}
		if !h.merged && h.older != nil {
			h.merged = true
			merged := make([]string, 0, len(h.older)+len(h.mine))
			for _, t := range append(h.older, h.mine...) {
				if n := len(merged); !isBlank(t) && (n == 0 || merged[n-1] != t) {
					merged = append(merged, t)
				}
			}
			h.mine, h.older = merged, nil
		}
		h.entries = h.mine
		h.at = len(h.entries)
		h.walking = true
	}
	next := h.at + d
	switch {
	case next < 0:
		return "", false
	case next >= len(h.entries):
		h.walking = false
		return "", text != ""
	}
	h.at, h.shown = next, h.entries[next]
	return h.shown, true
}

// loadHistory reads the earlier sessions' messages (Options.History) on
// a goroutine: Up walks them once they are read.
func (a *App) loadHistory() {
	if a.opts.History == nil {
		return
	}
	load := a.opts.History
	go func() {
		older := load()
		a.post(func() {
			if !a.hist.walking && !a.hist.merged {
				a.hist.older = older
			}
		})
	}()
}

// exitWindow is how long after Ctrl+C on an empty, idle input a second
// Ctrl+C exits.
const exitWindow = 2 * time.Second

// exitHint is what the status line says meanwhile.
const exitHint = "Ctrl+C again to exit"

// interrupt is Ctrl+C: it clears a message being written (it stays in the
// history), stops a running turn as Esc does, and on an empty, idle input
// asks for a second press within exitWindow, which exits.
func (a *App) interrupt() {
	now := a.retryClock().Now()
	switch {
	case a.in.text != "":
		a.hist.add(a.in.text)
		a.edit(func() { a.in.set("") })
		a.exitAt = time.Time{}
	case a.running:
		a.exitAt = time.Time{}
		a.waiting = false
		a.cancel()
	case a.exitArmed(now):
		a.quit()
	default:
		a.exitAt = now
		a.retryClock().AfterFunc(exitWindow, func() { a.post(func() {}) }) // redraw without the hint
	}
}

// exitArmed reports whether a Ctrl+C now exits.
func (a *App) exitArmed(now time.Time) bool {
	return !a.exitAt.IsZero() && now.Sub(a.exitAt) <= exitWindow
}
