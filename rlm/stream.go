// Stream: the one event queue between the agents and their consumer.

package rlm

import (
	"context"
	"sync"
)

// Stream carries events from the agents to one consumer (the UI or the
// headless printer). Emit never blocks, so a slow consumer never stalls an
// agent. It has two delivery modes:
//
//   - Deltas (ReasoningDelta, TextDelta, ToolArgsDelta, ToolOutput) are
//     coalesced: a delta emitted while the previous undelivered event is a
//     delta of the same type, agent and call is appended to it. Their
//     concatenated text is never lost, but their number is not kept.
//   - Every other event is delivered exactly once, in emission order.
//
// Nothing that must be saved depends on the stream: agents save their
// conversations themselves before emitting. A nil *Stream drops everything.
type Stream struct {
	mu      sync.Mutex
	queue   []Event
	ready   chan struct{} // holds a token while queue is non-empty or closed
	closed  bool
	pending int // bytes merged into the last queued delta
}

// NewStream returns an empty stream.
func NewStream() *Stream { return &Stream{ready: make(chan struct{}, 1)} }

// Emit queues e. Emitting on a closed stream does nothing.
func (s *Stream) Emit(e Event) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if n := len(s.queue); n > 0 && s.pending < maxMerge {
		if merged, ok := coalesce(s.queue[n-1], e); ok {
			s.queue[n-1] = merged
			s.pending += deltaLen(e)
			return
		}
	}
	s.queue = append(s.queue, e)
	s.pending = 0
	s.signal()
}

// maxMerge bounds the text merged into one queued delta, so a stalled
// consumer costs linear, not quadratic, copying.
const maxMerge = 64 << 10

func (s *Stream) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Close marks the end of the stream: Next returns false once the queue is
// drained.
func (s *Stream) Close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.signal()
}

// Ready returns a channel that receives when events may be waiting (for a
// consumer that drains with Drain inside its own event loop).
func (s *Stream) Ready() <-chan struct{} { return s.ready }

// Drain returns every queued event without waiting.
func (s *Stream) Drain() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.queue
	s.queue = nil
	if s.closed {
		s.signal()
	}
	return out
}

// Next waits for the next event. It returns false when the stream is closed
// and drained, or when ctx is done.
func (s *Stream) Next(ctx context.Context) (Event, bool) {
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			e := s.queue[0]
			s.queue[0] = nil
			s.queue = s.queue[1:]
			if len(s.queue) > 0 || s.closed {
				s.signal()
			}
			s.mu.Unlock()
			return e, true
		}
		closed := s.closed
		s.mu.Unlock()
		if closed {
			s.signal()
			return nil, false
		}
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// coalesce merges delta e into the undelivered event last when both are the
// same kind of delta for the same agent and call.
func coalesce(last, e Event) (Event, bool) {
	switch e := e.(type) {
	case ReasoningDelta:
		if l, ok := last.(ReasoningDelta); ok && l.Agent == e.Agent {
			l.Text += e.Text
			return l, true
		}
	case TextDelta:
		if l, ok := last.(TextDelta); ok && l.Agent == e.Agent {
			l.Text += e.Text
			return l, true
		}
	case ToolArgsDelta:
		if l, ok := last.(ToolArgsDelta); ok && l.Agent == e.Agent && l.ID == e.ID {
			l.Text += e.Text
			return l, true
		}
	case ToolOutput:
		if l, ok := last.(ToolOutput); ok && l.Agent == e.Agent && l.ID == e.ID {
			l.Text += e.Text
			return l, true
		}
	}
	return nil, false
}

func deltaLen(e Event) int {
	switch e := e.(type) {
	case ReasoningDelta:
		return len(e.Text)
	case TextDelta:
		return len(e.Text)
	case ToolArgsDelta:
		return len(e.Text)
	case ToolOutput:
		return len(e.Text)
	}
	return 0
}
