// Frame pacing: what other goroutines change reaches the screen at most
// once per frame interval, and a costly frame spaces the next ones out.

package ui

import (
	"context"
	"time"
)

// frameInterval is the shortest time between two frames drawn for events
// and posted functions (60 a second). Keys and the mouse are drawn at once
// by tview's event loop, whatever the interval.
const frameInterval = 16 * time.Millisecond

// A frame that takes C to handle its batch and draw starts at least
// C×frameShare after the one before it, but never more than
// maxFrameInterval after: a stream whose frames are cheap (a few cells
// changed) is drawn 60 times a second, one whose every frame moves the
// whole screen (a long code block scrolling as it grows, where the
// terminal's cost is every visible cell) at fewer, so that drawing takes
// about a seventeenth of a core at most (down to 20 frames a second when a
// frame costs 3 ms, as a scrolling 200×50 screen does under tmux), instead
// of a whole one. Keys are not paced. (12 gave 25 frames a second there
// and 11–14 % of a core for a streaming code block or patch; 16 gives
// 9–11 %, measured with scripts/uicost.sh.)
const (
	frameShare       = 16
	maxFrameInterval = 50 * time.Millisecond
)

// frameGap is the time from the start of a frame that cost cost to the
// start of the next.
func frameGap(cost time.Duration) time.Duration {
	return min(max(frameInterval, cost*frameShare), maxFrameInterval)
}

// clock is the time the pump paces frames by; tests give a fake one.
type clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// pump hands the stream's events and posted functions to the event
// goroutine, one batch per frame. It sleeps until something arrives (an
// idle screen costs nothing); then, when the last frame it drew is less
// than frameGap old, it waits out the rest of the gap while the
// stream goes on coalescing deltas and post goes on queueing, and hands
// everything over in one QueueUpdate that draws once. So a stream of any
// rate draws at most 60 frames a second, the first event after a pause is
// drawn at once, and a key typed meanwhile never waits behind a backlog:
// tview handles and draws it between two batches. (When the UI stops,
// this goroutine may stay blocked in QueueUpdate; tview offers no way out,
// and nothing else waits for it.)
func (a *App) pump(ctx context.Context) {
	quit := a.opts.Quit
	var last time.Time   // when the last batch was drawn
	gap := frameInterval // from last to the next batch
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.opts.Events.Ready():
		case <-a.wake:
			if !a.hasPosted() {
				continue // posted after the last batch was taken, and run by it
			}
		case <-quit:
			quit = nil
			a.post(a.quit)
			continue
		}
		if wait := gap - a.clock.Now().Sub(last); wait > 0 {
			select {
			case <-a.clock.After(wait):
			case <-ctx.Done():
				return
			}
		}
		// What arrived during the wait is in this batch: drop its
		// signals, so that the next frame waits for something new.
		select {
		case <-a.opts.Events.Ready():
		default:
		}
		select {
		case <-a.wake:
		default:
		}
		a.tv.QueueUpdate(func() {
			at := a.clock.Now()
			if a.batch() {
				a.tv.ForceDraw()
				last, gap = at, frameGap(a.clock.Now().Sub(at))
			}
		})
	}
}

// hasPosted reports whether functions wait for the next batch.
func (a *App) hasPosted() bool {
	a.postMu.Lock()
	defer a.postMu.Unlock()
	return len(a.posted) > 0
}

// batch runs on the event goroutine: it takes the posted functions, then
// drains and handles the events, then runs the functions, so every event
// emitted before a function was posted is handled before it (a turn's last
// events before the turn's end). It reports whether there was anything.
func (a *App) batch() bool {
	a.postMu.Lock()
	fs := a.posted
	a.posted = nil
	a.postMu.Unlock()
	evs := a.opts.Events.Drain()
	for _, ev := range evs {
		a.handle(ev)
	}
	for _, f := range fs {
		f()
	}
	return len(evs) > 0 || len(fs) > 0
}
