// Parallel subagents: the rlm calls of one reply at once, within one
// global bound ([rlm] parallel), their results in the calls' order.

package rlm

import (
	"context"
	"sync"

	"harness/llm"
)

// slots bounds the subagents running at once in the whole tree. Tickets
// are served in the order they were taken. A subagent holds a slot while
// it runs, and gives it back while it waits on subagents of its own, so a
// caller never holds a slot its callees need (no deadlock at any depth).
type slots struct {
	mu    sync.Mutex
	free  int
	queue []*ticket // waiting, first in first out
}

func newSlots(n int) *slots { return &slots{free: max(n, 1)} }

// ticket is one place in the queue for a slot.
type ticket struct {
	s       *slots
	granted chan struct{} // closed once the slot is the ticket's
	done    bool          // the slot was given back or the ticket dropped
}

// take queues a ticket; it is granted at once when a slot is free and no
// one is waiting.
func (s *slots) take() *ticket {
	t := &ticket{s: s, granted: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.free > 0 && len(s.queue) == 0 {
		s.free--
		close(t.granted)
	} else {
		s.queue = append(s.queue, t)
	}
	return t
}

// ready reports whether the ticket holds its slot now.
func (t *ticket) ready() bool {
	select {
	case <-t.granted:
		return true
	default:
		return false
	}
}

// wait blocks until the ticket holds a slot, or ctx ends (the ticket is
// then dropped and the error returned).
func (t *ticket) wait(ctx context.Context) error {
	select {
	case <-t.granted:
		return nil
	case <-ctx.Done():
		t.drop()
		return ctx.Err()
	}
}

// drop gives the slot back, or leaves the queue when it was not granted
// yet. Dropping twice, or a nil ticket, does nothing.
func (t *ticket) drop() {
	if t == nil {
		return
	}
	s := t.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.done {
		return
	}
	t.done = true
	for i, q := range s.queue {
		if q == t {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			return
		}
	}
	// Granted: hand the slot to the first waiting ticket, or free it.
	if len(s.queue) > 0 {
		next := s.queue[0]
		s.queue = s.queue[1:]
		close(next.granted)
		return
	}
	s.free++
}

// parallel is [rlm] parallel (at least 1).
func (r *Runner) parallel() int { return max(r.opts.Config.RLM.Parallel, 1) }

// acquire waits for a slot for subagent c, taking the ticket its caller
// queued for it (so siblings wait in the order of their calls) or a new
// one. Queued events frame a wait, and only a wait: a slot free at once
// emits nothing.
func (c *agent) acquire(ctx context.Context, t *ticket) error {
	if t == nil {
		t = c.r.slots.take()
	}
	if !t.ready() {
		c.emit(Queued{Agent: c.ref(), Waiting: true})
		defer func() { c.emit(Queued{Agent: c.ref(), Waiting: false}) }()
	}
	if err := t.wait(ctx); err != nil {
		return err
	}
	c.slot = t
	return nil
}

// release gives the agent's slot back (while it waits on its own
// subagents, and when it ends).
func (c *agent) release() {
	if c.slot != nil {
		c.slot.drop()
		c.slot = nil
	}
}

// awaitChildren runs fn, which waits on subagents of a, with a's slot given
// back meanwhile and taken again after; the root holds none. When ctx
// ended, a goes on without a slot and stops.
func (a *agent) awaitChildren(ctx context.Context, fn func()) {
	held := a.slot != nil
	a.release()
	fn()
	if held {
		a.acquire(ctx, nil)
	}
}

// launch is what the caller prepared, in call order, for the subagent of
// one rlm call of a batch: its place in the queue for a slot, and its
// turn to announce itself (its AgentStart comes after the previous call's,
// so front ends list siblings in call order).
type launch struct {
	ticket  *ticket
	after   <-chan struct{} // closed once the previous call's subagent started; nil for the first
	started chan struct{}
	once    sync.Once
}

// waitTurn waits until the previous call's subagent announced itself.
func (l *launch) waitTurn(ctx context.Context) {
	if l == nil || l.after == nil {
		return
	}
	select {
	case <-l.after:
	case <-ctx.Done():
	}
}

// announced lets the next call's subagent announce itself.
func (l *launch) announced() {
	if l != nil {
		l.once.Do(func() { close(l.started) })
	}
}

// queueLaunch keeps l for the subagent of call id, for delegate.
func (a *agent) queueLaunch(id string, l *launch) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.launches == nil {
		a.launches = map[string]*launch{}
	}
	a.launches[id] = l
}

// launchFor takes what was queued for call id; nil when nothing was (the
// call runs alone).
func (a *agent) launchFor(id string) *launch {
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.launches[id]
	delete(a.launches, id)
	return l
}

// ticketOf is l's ticket; nil without a launch.
func (l *launch) ticketOf() *ticket {
	if l == nil {
		return nil
	}
	return l.ticket
}

// batchLen is how many calls from the start of calls run together: the
// consecutive rlm calls there when [rlm] parallel > 1, else 1.
func (a *agent) batchLen(calls []llm.ToolCall) int {
	if a.r.parallel() < 2 {
		return 1
	}
	n := 0
	for n < len(calls) && calls[n].Name == RLMTool {
		n++
	}
	return max(n, 1)
}

// runCalls runs the tool calls of reply msg and appends their results in
// the calls' order. It returns the agent's outcome and true when the agent
// must end (stopped, or a save failed), false when its loop goes on.
func (a *agent) runCalls(ctx context.Context, msg llm.Message) (outcome, bool) {
	calls := msg.ToolCalls
	for i := 0; i < len(calls); {
		if ctx.Err() != nil {
			if serr := a.notRun(calls[i:]); serr != nil {
				return a.failed(msg.Content, serr), true
			}
			return a.stopped(msg.Content), true
		}
		n := a.batchLen(calls[i:])
		var stopped *string
		var serr error
		if n == 1 {
			stopped, serr = a.runOne(ctx, calls[i])
		} else {
			stopped, serr = a.runBatch(ctx, calls[i:i+n])
		}
		if serr != nil {
			return a.failed(msg.Content, serr), true
		}
		i += n
		if stopped != nil {
			// A subagent was stopped: its text already carries the
			// deepest partial response and the marker.
			if serr := a.notRun(calls[i:]); serr != nil {
				return a.failed(msg.Content, serr), true
			}
			return outcome{status: Stopped, text: *stopped}, true
		}
	}
	return outcome{}, false
}

// runOne runs one call and appends its result; stopped is the result's
// text when a subagent was stopped inside it.
func (a *agent) runOne(ctx context.Context, call llm.ToolCall) (stopped *string, err error) {
	var text string
	var st Status
	if call.Name == RLMTool {
		a.awaitChildren(ctx, func() { text, st = a.run(ctx, call, false) })
	} else {
		text, st = a.run(ctx, call, false)
	}
	if err := a.add(toolMessage(call.ID, text)); err != nil {
		return nil, err
	}
	if st == Stopped {
		return &text, nil
	}
	return nil, nil
}

// runBatch runs rlm calls at once: every ToolCall event first, in order,
// with a ticket queued for each call's subagent in the same order; then
// each call on a goroutine of its own. Each result is appended as soon as
// every earlier call's is, so the saved conversation always holds a
// prefix of the results in call order; a result later than one still
// running waits in memory and, if the process is killed meanwhile, is
// recovered from its subagent's file (recover.go). When saving fails the
// other calls are stopped and waited for.
func (a *agent) runBatch(ctx context.Context, calls []llm.ToolCall) (stopped *string, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type res struct {
		text string
		st   Status
	}
	results := make([]res, len(calls))
	done := make([]chan struct{}, len(calls))
	a.awaitChildren(ctx, func() {
		var after <-chan struct{}
		launches := make([]*launch, len(calls))
		for i, call := range calls {
			done[i] = make(chan struct{})
			a.emit(ToolCall{Agent: a.ref(), ID: call.ID, Name: call.Name, Arguments: call.Arguments})
			launches[i] = &launch{ticket: a.r.slots.take(), after: after, started: make(chan struct{})}
			a.queueLaunch(call.ID, launches[i])
			after = launches[i].started
		}
		for i, call := range calls {
			l := launches[i]
			go func() {
				defer close(done[i])
				defer l.announced()
				results[i].text, results[i].st = a.execute(ctx, call, false)
				if a.launchFor(call.ID) != nil {
					l.ticket.drop() // the call started no subagent (bad arguments)
				}
			}()
		}
		for i, call := range calls {
			<-done[i]
			if err != nil {
				continue
			}
			if err = a.add(toolMessage(call.ID, results[i].text)); err != nil {
				cancel()
				continue
			}
			if results[i].st == Stopped && stopped == nil {
				stopped = &results[i].text
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return stopped, nil
}
