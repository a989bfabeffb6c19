// The state of one running call: output capture, stop reasons, failure notes.

package repl

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"harness/failures"
	"harness/repl/pyrt"
	"harness/repl/rewrite"
)

// The phases of a call's interpreter work: running, then either unwound
// (evaluation returned; the result is being built) or abandoned (Exec gave
// up waiting for a stopped call; whatever it does later is dropped).
const (
	phaseRunning int32 = iota
	phaseUnwound
	phaseAbandoned
)

// callState is one Exec in progress.
type callState struct {
	r       *interp
	thread  *starlark.Thread // the interpreter running the call
	ctx     context.Context  // cancelled when the call is stopped for any reason
	cancel  context.CancelFunc
	code    string
	pm      *rewrite.PosMap // positions of the rewritten code in code; nil when unchanged
	refused bool            // the pre-pass refused a form (its error is the call's)
	out     outBuf
	why     atomic.Int32
	stopMu  sync.Mutex // orders stop against finish
	ended   bool       // finish has run; stops are ignored
	crash   string
	notes   []failures.Note

	stopCh chan struct{} // closed by the first stop
	phase  atomic.Int32  // phaseRunning, then phaseUnwound or phaseAbandoned

	stopAfter func() bool   // unregisters the parent-context hook
	done      chan struct{} // closed when the call ends; stops the watchdog
	mem       memWatch
	id        uint64 // on the parent's side of a worker: the call's frame id
	touched   touches
}

func newCall(r *interp, parent context.Context, code string) *callState {
	ctx, cancel := context.WithCancel(parent)
	c := &callState{r: r, thread: r.Thread, ctx: ctx, cancel: cancel, code: code,
		done: make(chan struct{}), stopCh: make(chan struct{})}
	c.out.limit = r.opts.OutputLimit
	c.out.emit = r.opts.Output
	c.stopAfter = context.AfterFunc(parent, func() { c.stop(pyrt.StopCancel) })
	if r.opts.MaxMemoryMB > 0 && r.remote == nil { // a worker watches its own memory
		c.mem.start(c)
	}
	return c
}

// stop cancels the call for reason k; the first reason wins.
func (c *callState) stop(k pyrt.StopKind) {
	c.stopMu.Lock()
	defer c.stopMu.Unlock()
	if !c.ended && c.why.CompareAndSwap(int32(pyrt.StopNone), int32(k)) {
		if c.thread != nil { // nil on the parent's side of a worker
			c.thread.Cancel(k.String())
		}
		c.cancel()
		close(c.stopCh)
	}
}

func (c *callState) reason() pyrt.StopKind { return pyrt.StopKind(c.why.Load()) }

// stopped reports whether the call has been stopped; builtins that swallow
// errors (try_call) must not swallow a stop.
// stopped says the call was stopped. A cancelled parent context counts at
// once, before its AfterFunc hook has run: in a worker, the parent's Cancel
// frame cancels it just before the reply of the host service that was
// stopped, and try_call must see the stop when that reply's error returns.
func (c *callState) stopped() bool {
	if c.reason() == pyrt.StopNone && c.ctx.Err() != nil {
		c.stop(pyrt.StopCancel)
	}
	return c.reason() != pyrt.StopNone
}

// finish ends the call: after it returns no watchdog or context hook can
// stop it any more.
func (c *callState) finish() {
	c.stopAfter()
	c.stopMu.Lock()
	c.ended = true
	c.stopMu.Unlock()
	close(c.done)
	c.mem.wait()
	c.cancel()
}

func (c *callState) write(s string) { c.out.write(s) }

// noteUnsupported notes a Python form the REPL lacks (a failure of kind
// unsupported), for the runtime's files, which do not import failures.
func (c *callState) noteUnsupported(message string) { c.note(failures.KindUnsupported, message) }

// note queues a failure note; flushNotes records them after the call.
func (c *callState) note(kind, message string) {
	c.notes = append(c.notes, failures.Note{
		Time: time.Now().UTC(), Session: c.r.opts.Session, Kind: kind, Message: message, Code: c.code,
	})
}

func (c *callState) flushNotes() {
	for _, n := range c.takeNotes() {
		c.r.record(n)
	}
}

// takeNotes returns the queued notes and clears the queue.
func (c *callState) takeNotes() []failures.Note {
	n := c.notes
	c.notes = nil
	return n
}

// record appends a note to the failure log and tells OnFailure.
func (r *interp) record(n failures.Note) {
	count := 0
	if r.opts.Failures != nil {
		count, _ = r.opts.Failures.Record(n)
	}
	if r.opts.OnFailure != nil {
		r.opts.OnFailure(n, count)
	}
}

// callOf returns the call running on thread; builtins use it for the
// context, output and notes.
func callOf(r *interp) *callState {
	if c := r.call.Load(); c != nil {
		return c
	}
	// Not reached from REPL code (Exec and helper loading each install a
	// call); a detached state keeps a builtin called otherwise working.
	return &callState{r: r, ctx: context.Background(), done: make(chan struct{})}
}

// onSteps runs every stepInterval interpreter steps.
func (r *interp) onSteps(thread *starlark.Thread) {
	thread.SetMaxExecutionSteps(thread.ExecutionSteps() + pyrt.StepInterval)
	if thread.CallStackDepth() > pyrt.MaxDepth {
		thread.Cancel(fmt.Sprintf("recursion limit: more than %d nested calls (does a recursive function lack a base case?)", pyrt.MaxDepth))
		return
	}
	r.onStepsCount++
	if c := r.call.Load(); c != nil && r.opts.MaxMemoryMB > 0 && r.onStepsCount%pyrt.MemEvery == 0 {
		c.mem.check(c)
	}
}

// outBuf keeps the first limit bytes of printed output and counts the rest.
// Once dropped (the call was abandoned), writes are discarded.
type outBuf struct {
	mu      sync.Mutex
	b       strings.Builder
	limit   int
	omitted int
	dropped bool
	emit    func(string)
}

func (o *outBuf) write(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dropped {
		return
	}
	if o.limit > 0 {
		room := o.limit - o.b.Len()
		if room <= 0 {
			o.omitted += len(s)
			return
		}
		if len(s) > room {
			o.omitted += len(s) - room
			s = s[:room]
		}
	}
	o.b.WriteString(s)
	if o.emit != nil {
		o.emit(s)
	}
}

func (o *outBuf) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// drop returns what was written and how much was omitted, and discards
// every later write.
func (o *outBuf) drop() (string, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.dropped = true
	return o.b.String(), o.omitted
}

// tail is what follows the printed output: the trailing value, or an error
// (possibly after a value). When a tail must be cut, a value keeps its
// start and an error keeps its end, where the message and the "Use
// instead" hint are.
type tail struct {
	text    string
	isError bool
}

// assemble joins the load report, the printed output and the tail and caps
// the result at limit bytes on a UTF-8 boundary. Invalid UTF-8 is replaced
// first, so the replacement characters count against the limit. When
// something must go, printed output is cut first and the tail keeps at most
// half the limit, so the error stays visible; a notice says how many bytes
// were omitted.
func assemble(report, prints string, omitted int, t tail, limit int) string {
	head := strings.ToValidUTF8(report+prints, "\uFFFD")
	end := strings.ToValidUTF8(t.text, "\uFFFD")
	sep := ""
	if end != "" && head != "" && !strings.HasSuffix(head, "\n") {
		sep = "\n"
	}
	full := len(head) + omitted + len(sep) + len(end)
	if limit <= 0 || (omitted == 0 && full <= limit) {
		return finish(head + sep + end)
	}
	if end != "" {
		sep = "\n"
	}
	guess := notice(full) // at least as long as the final notice
	room := min(limit/2, limit-len(guess)-len(sep))
	if len(end) > room {
		if t.isError {
			end = cutFront(end, max(room, 0))
		} else {
			end = cut(end, max(room, 0))
		}
	}
	keep := max(limit-len(guess)-len(sep)-len(end), 0)
	h := cut(head, keep)
	dropped := full - len(h) - len(end) - len(sep)
	n := notice(dropped)
	if h == "" {
		n = strings.TrimPrefix(n, "\n")
	}
	return finish(h + n + sep + end)
}

func notice(omitted int) string {
	if omitted < 0 {
		omitted = 0
	}
	return fmt.Sprintf("\n[output truncated: %d bytes omitted (output_limit)]", omitted)
}

// cut returns the longest prefix of s of at most n bytes ending on a UTF-8
// boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cutFront returns the longest suffix of s of at most n bytes starting on a
// UTF-8 boundary.
func cutFront(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// finish makes the text valid UTF-8 and never empty.
func finish(s string) string {
	s = strings.TrimRight(strings.ToValidUTF8(s, "\uFFFD"), "\n")
	if strings.TrimSpace(s) == "" {
		return "(no output)"
	}
	return s
}
