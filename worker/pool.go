// The pool: at most one warm spare, started ahead of the next subagent.

package worker

import (
	"errors"
	"sync"
	"time"
)

// refillDelay is how long after a Get the pool starts the next spare, so
// that starting it does not compete for the CPU with the REPL being bound.
var refillDelay = 50 * time.Millisecond

// Pool hands out workers, keeping at most one started spare so that a new
// subagent's REPL does not wait for a process to start. It is safe for
// concurrent use.
type Pool struct {
	cfg Config

	mu       sync.Mutex
	spare    *Process
	pending  bool          // a refill is scheduled or running
	starting chan struct{} // non-nil while a spare is being started
	closed   bool
	started  int // workers started, for tests
}

// NewPool returns a pool that starts its first spare at once, in the
// background.
func NewPool(cfg Config) *Pool {
	p := &Pool{cfg: cfg}
	p.mu.Lock()
	p.pending = true
	p.refill()
	p.mu.Unlock()
	return p
}

// Get returns a started worker: the spare when it is ready and alive,
// else a new one. Either way the next spare starts shortly after, in the
// background.
func (p *Pool) Get() (*Process, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("worker pool closed")
	}
	w, starting := p.take(), p.starting
	p.mu.Unlock()
	if w == nil && starting != nil {
		// A spare is on its way: waiting for it is no slower than
		// starting another, and keeps to one extra process.
		<-starting
		p.mu.Lock()
		w = p.take()
		p.mu.Unlock()
	}
	var err error
	if w == nil {
		w, err = p.start()
	}
	p.mu.Lock()
	if !p.pending && !p.closed {
		p.pending = true
		time.AfterFunc(refillDelay, func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.refill()
		})
	}
	p.mu.Unlock()
	return w, err
}

// take removes and returns the spare if it is alive; p.mu is held.
func (p *Pool) take() *Process {
	w := p.spare
	p.spare = nil
	if w != nil && w.Exited() {
		return nil // died while waiting
	}
	return w
}

func (p *Pool) start() (*Process, error) {
	p.mu.Lock()
	p.started++
	p.mu.Unlock()
	return Start(p.cfg)
}

// refill starts a spare in the background unless one exists or is on its
// way; p.mu is held.
func (p *Pool) refill() {
	if p.closed || p.spare != nil || p.starting != nil {
		p.pending = false
		return
	}
	ch := make(chan struct{})
	p.starting = ch
	go func() {
		w, err := p.start()
		p.mu.Lock()
		p.starting, p.pending = nil, false
		if err == nil {
			if p.closed {
				defer w.Close()
			} else {
				p.spare = w
			}
		}
		p.mu.Unlock()
		close(ch)
	}()
}

// Close ends the spare; workers already handed out are their owners' to
// close. Get fails afterwards.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	w, starting := p.spare, p.starting
	p.spare = nil
	p.mu.Unlock()
	if starting != nil {
		<-starting
	}
	if w != nil {
		w.Close()
	}
}

// Started returns how many workers the pool has started.
func (p *Pool) Started() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started
}

// WaitSpare waits until the spare is ready, when one is scheduled or being
// started, so that the next Get is warm; benchmarks and tests use it.
func (p *Pool) WaitSpare() {
	for {
		p.mu.Lock()
		if p.closed || p.spare != nil || !p.pending {
			p.mu.Unlock()
			return
		}
		starting := p.starting
		p.mu.Unlock()
		if starting != nil {
			<-starting
		} else {
			time.Sleep(time.Millisecond) // the refill has not started yet
		}
	}
}
