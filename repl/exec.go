// The REPL: Exec runs each call on a goroutine of its own and abandons an
// interpreter stuck in a builtin that ignores cancellation.

package repl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"harness/repl/pyrt"
	"harness/wire"
)

// abandonGrace is how long Exec waits, once a call has been stopped (Esc,
// Close or the memory limit), for the interpreter to unwind. Starlark checks
// for a stop only between steps, so one long builtin (str of a deeply nested
// list, sorted of a huge list, a regexp over a giant string) can outlast it;
// the interpreter is then abandoned and the REPL starts afresh. A variable so
// tests can shorten it.
var abandonGrace = 1500 * time.Millisecond

// REPL is one subagent's Starlark interpreter state. Exec calls are
// serialized; Close may be called from any goroutine.
type REPL struct {
	opts      Options
	mu        sync.Mutex             // held for the whole of Exec
	cur       atomic.Pointer[interp] // the current generation; written under mu
	closed    atomic.Bool
	closing   chan struct{} // closed by Close
	closeOnce sync.Once
}

// New builds a REPL and loads the helper files from $HARNESS_HOME/replib.
// Helper load errors do not fail New: they appear at the start of the first
// Exec result (see LoadErrors).
func New(opts Options) (*REPL, error) {
	if opts.Repository == nil {
		return nil, errors.New("repl: Options.Repository is required")
	}
	if opts.Environ == nil {
		opts.Environ = os.Environ
	}
	r := &REPL{opts: opts, closing: make(chan struct{})}
	if opts.Workers != nil {
		in, err := newRemote(opts)
		if err != nil {
			return nil, err
		}
		r.cur.Store(in)
		return r, nil
	}
	r.cur.Store(newInterp(opts))
	return r, nil
}

// current returns the interpreter of the current generation.
func (r *REPL) current() *interp { return r.cur.Load() }

// Close releases the REPL's state. A running call is cancelled.
func (r *REPL) Close() {
	r.closed.Store(true)
	r.closeOnce.Do(func() { close(r.closing) })
	if c := r.current().currentCall(); c != nil {
		c.stop(pyrt.StopCancel)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	in := r.current()
	if in.remote != nil {
		closeRemote(in)
		return
	}
	in.Globals = nil
	in.helpers = nil
}

// Exec runs one chunk of REPL code and returns the result text exactly as
// the model gets it: printed output, then the repr of a trailing expression
// that is not None, then the error with its backtrace; "(no output)" when
// that is empty; capped at OutputLimit bytes.
//
// Exec returns within abandonGrace of the call being stopped, whatever the
// interpreter is doing; see the package documentation (Limits).
//
// A lone reasoning("...") on a string literal is answered "(no output)"
// without running (see IsReasoningOnly).
func (r *REPL) Exec(ctx context.Context, code string) string {
	out, _ := r.Run(ctx, code)
	return out
}

// Run is Exec that also says whether the call failed: it ended in an
// error (the output then ends with it), was stopped, or lost the REPL's
// state.
func (r *REPL) Run(ctx context.Context, code string) (out string, failed bool) {
	if strings.Contains(code, "reasoning") && IsReasoningOnly(code) {
		return "(no output)", false
	}
	return r.exec(ctx, code)
}

// outcome is what a call's goroutine hands back to Exec.
type outcome struct {
	out    string
	failed bool
	panic  string // a Go panic outside the interpreter, with its stack
}

// exec is Exec that also reports whether the call failed.
func (r *REPL) exec(ctx context.Context, code string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	in := r.current()
	if r.closed.Load() || (in.remote == nil && in.Globals == nil) {
		return "error: this REPL has been closed; its subagent has finished", true
	}
	if in.remote != nil {
		return r.execRemote(ctx, in, wire.ExecBody{Code: code})
	}
	c := in.begin(ctx, code)
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o = outcome{failed: true, panic: fmt.Sprintf("%v\n%s", p, debug.Stack())}
			}
			done <- o
		}()
		o.out, o.failed = in.runCall(c)
	}()
	var o outcome
	select {
	case o = <-done:
	case <-c.stopCh:
		t := time.NewTimer(abandonGrace)
		defer t.Stop()
		select {
		case o = <-done:
		case <-t.C:
			if c.phase.CompareAndSwap(phaseRunning, phaseAbandoned) {
				return r.abandon(in, c), true
			}
			o = <-done // it unwound just in time; the result is being built
		}
	}
	r.opts.reportTouched(c.touched.paths())
	if o.panic != "" {
		return r.renew(stateLost("The call crashed the interpreter ("+firstLine(o.panic)+").", ""), "", 0), true
	}
	return o.out, o.failed
}

// abandon gives up on a stopped call that has not unwound: its goroutine
// keeps running until the builtin returns, but its output and notes are
// dropped and the REPL continues with a fresh interpreter.
func (r *REPL) abandon(in *interp, c *callState) string {
	prints, omitted := c.out.drop()
	grace := abandonGrace.Round(time.Millisecond)
	var text string
	if c.reason() == pyrt.StopMemory {
		text = stateLost(fmt.Sprintf("The call passed this REPL's memory limit (max_memory_mb = %d) inside a single operation that did not stop within %v, so its interpreter was abandoned.", in.opts.MaxMemoryMB, grace),
			"Work on smaller pieces (read files in parts, keep fewer results in memory).")
	} else {
		text = cancelledText + "\n" +
			stateLost(fmt.Sprintf("A single operation (a builtin such as str, sorted, join or a regular expression on a very large value) did not stop within %v, so its interpreter was abandoned.", grace),
				"Avoid single operations on huge or deeply nested values.")
	}
	return r.renew(text, prints, omitted)
}

// renew replaces the current interpreter with a fresh one and returns the
// result of the lost call: what it printed, then text.
func (r *REPL) renew(text, prints string, omitted int) string {
	fresh := newInterp(r.opts)
	r.cur.Store(fresh)
	return assemble(fresh.takeLoadReport(), prints, omitted, tail{text: text, isError: true}, r.opts.OutputLimit)
}
