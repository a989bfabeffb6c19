// The parent's side of a worker: binding it, running a call over the
// connection, the host services it asks for, and what a lost worker
// leaves behind.

package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"harness/config"
	"harness/failures"
	"harness/jail"
	"harness/repl/pyrt"
	"harness/repl/rewrite"
	"harness/sandbox"
	"harness/wire"
	"harness/worker"
)

// levelPoll is how often a running call's permission level is compared
// with the one the worker was last told; a change is pushed at once.
const levelPoll = 2 * time.Millisecond

// Reasons the parent kills a worker.
const (
	killGrace = "the call did not stop within the grace period"
	killCrash = "a host callback crashed"
)

// The liveness check of a worker during a call: a Ping every PingInterval,
// and a worker that has not answered one for PingMisses intervals (30 s:
// it is stopped, wedged in the kernel, or its socket is full) is killed;
// the call then says the REPL's state was lost.
const (
	PingInterval = 5 * time.Second
	PingMisses   = 6
)

// killUnresponsive is the kill reason of a worker that stopped answering.
var killUnresponsive = fmt.Sprintf("it did not answer a liveness check for %v: it was stopped, wedged in the kernel, or its socket was full", PingInterval*PingMisses)

// pingTicker returns the ticks of the liveness check and the function that
// stops them; tests replace it to move time themselves.
var pingTicker = func() (<-chan time.Time, func()) {
	t := time.NewTicker(PingInterval)
	return t.C, t.Stop
}

// remote is one worker as its parent sees it.
type remote struct {
	proc    *worker.Process
	ready   chan struct{}  // closed when Ready has arrived
	failed  string         // Ready's error: the worker could not bind
	bound   wire.ReadyBody // Ready's body, once ready is closed
	results chan wire.Frame
	crash   chan string   // a callback run for this worker panicked
	done    chan struct{} // closed when the connection has ended
	nextID  uint64        // guarded by REPL.mu
	told    bool          // a call's result has said the worker was lost; guarded by REPL.mu
	pong    atomic.Uint64 // the last Ping answered
	pongs   chan uint64   // each Pong, when nobody is behind (tests wait on it)
	pings   atomic.Uint64 // the ID of the latest Ping sent, over all calls
	level   atomic.Int32  // the level the worker was last told
	// levelMu orders the frames that carry a level (Exec, Reply, Level):
	// each reads the level, records it and sends it under the lock, so the
	// worker's last frame always holds the level recorded last, and a
	// change made meanwhile is still seen by the next poll (a Reply built
	// with the old level and sent after a pushed new one would otherwise
	// leave the worker on the old level for the rest of the call).
	levelMu sync.Mutex
}

// newRemote binds a worker from opts.Workers to opts and returns the
// parent's interp of it.
func newRemote(opts Options) (*interp, error) {
	proc, err := opts.Workers.Get()
	if err != nil {
		return nil, fmt.Errorf("start the REPL's worker process: %w", err)
	}
	rm := &remote{proc: proc, ready: make(chan struct{}), results: make(chan wire.Frame, 16),
		crash: make(chan string, 1), done: make(chan struct{}), pongs: make(chan uint64, 1)}
	in := &interp{opts: opts, remote: rm, Interp: &pyrt.Interp{FileOpts: rewrite.FileOptions()}}
	in.Interp.Host = pyrtHost{in}
	in.info.Store(&loadInfo{functions: map[string]string{}})
	if err := rm.bind(opts); err != nil {
		proc.Kill("bind failed")
		return nil, fmt.Errorf("bind the REPL's worker process: %w", err)
	}
	go rm.read(in)
	return in, nil
}

// bind sends the worker its options and its directories.
func (rm *remote) bind(opts Options) error {
	b := wire.BindBody{
		Depth: opts.Depth, Level: int(opts.Repository.Level()), OutputLimit: opts.OutputLimit,
		MaxMemoryMB: opts.MaxMemoryMB, CeilingMB: worker.CeilingMB(opts.MaxMemoryMB), Session: opts.Session,
		Deny: opts.Commands.Deny, Sandbox: opts.Commands.Sandbox, Writable: opts.Commands.Writable,
		Network: opts.Commands.Network, TestHooks: opts.testHooks,
		ReadOnlyMounts: opts.Commands.Sandbox == config.SandboxWorkspace && sandbox.MetadataProtected(),
		HelperLoadMS:   int(helperLoadTimeout / time.Millisecond), MCP: opts.MCP != nil, AskWrites: opts.AskWrites, Siblings: opts.Siblings,
	}
	for name := range opts.Commands.Allow {
		b.Allow = append(b.Allow, name)
	}
	sort.Strings(b.Allow)
	f := wire.Make(wire.Bind, 0, nil)
	for _, root := range []*jail.Root{opts.Repository, opts.Store, opts.Library} {
		if root == nil {
			continue
		}
		dir, err := root.DirFile()
		if err != nil {
			return err
		}
		defer dir.Close()
		b.Mounts = append(b.Mounts, root.Name())
		f.Files = append(f.Files, dir)
	}
	f.Body = wire.Make(wire.Bind, 0, b).Body
	rm.level.Store(int32(b.Level))
	return rm.proc.Conn.Send(f)
}

// read handles the worker's frames until the connection ends.
func (rm *remote) read(in *interp) {
	defer close(rm.done)
	for {
		f, err := rm.proc.Conn.Read()
		if err != nil {
			return
		}
		switch f.Type {
		case wire.Ready:
			var b wire.ReadyBody
			f.Unmarshal(&b)
			rm.failed, rm.bound = b.Error, b
			in.info.Store(newLoadInfo(b.Functions, b.LoadErrors))
			close(rm.ready)
		case wire.Output:
			if c := in.currentCall(); c != nil && c.id == f.ID {
				rm.safely(func() { c.write(string(f.Body)) })
			}
		case wire.Note:
			var n failures.Note
			if f.Unmarshal(&n) == nil {
				rm.safely(func() { in.record(n) })
			}
		case wire.Call:
			var b wire.CallBody
			if f.Unmarshal(&b) != nil {
				rm.proc.Kill("protocol error")
				continue
			}
			if b.Service == "level" { // answered in order, after the frames before it
				rm.reply(in, f.ID, wire.ReplyBody{})
				continue
			}
			go rm.serve(in, f.ID, b)
		case wire.Pong:
			if f.ID > rm.pong.Load() {
				rm.pong.Store(f.ID)
			}
			select {
			case rm.pongs <- f.ID:
			default:
			}
		case wire.Stopping, wire.Result:
			select {
			case rm.results <- f:
			default: // nobody waits: the call was already given up
			}
		default:
			rm.proc.Kill("protocol error: unexpected " + f.Type.String())
		}
	}
}

// watch checks that the worker answers Pings until stop is closed or the
// connection ends, and kills it when it has not answered for PingMisses
// ticks. Pings are sent from a goroutine of their own, one at a time, so a
// full socket delays only them; an unsent Ping counts as unanswered. A
// Ping is done once its Pong came or its send returned, whichever is seen
// first: the Pong can overtake the sender's return.
func (rm *remote) watch(stop <-chan struct{}, ticks <-chan time.Time, stopTicks func()) {
	defer stopTicks()
	// Ping IDs go on from the worker's earlier calls: rm.pong holds the
	// highest Pong of its whole life.
	sent := rm.pings.Load()
	var sendReturned atomic.Uint64 // the latest Ping whose send returned
	sendReturned.Store(sent)
	missed := 0
	for {
		select {
		case <-stop:
			return
		case <-rm.done:
			return
		case <-ticks:
		}
		answered := rm.pong.Load() >= sent
		if answered {
			missed = 0
		} else {
			missed++
		}
		if missed >= PingMisses {
			rm.proc.Kill(killUnresponsive)
			return
		}
		if answered || sendReturned.Load() >= sent {
			sent = rm.pings.Add(1)
			go func(id uint64) {
				rm.proc.Conn.Send(wire.Make(wire.Ping, id, nil))
				sendReturned.Store(id)
			}(sent)
		}
	}
}

// safely runs a callback of the app, turning a panic into a crash of
// this worker's call (as a panic in the interpreter would be).
func (rm *remote) safely(f func()) {
	defer func() {
		if p := recover(); p != nil {
			select {
			case rm.crash <- fmt.Sprint(p):
			default:
			}
		}
	}()
	f()
}

// serve runs a host service for the worker and sends the Reply.
func (rm *remote) serve(in *interp, id uint64, b wire.CallBody) {
	var reply wire.ReplyBody
	ok := false
	rm.safely(func() {
		svc, found := hostServices[b.Service]
		if !found {
			reply.Error = "internal error: no host service " + b.Service
			ok = true
			return
		}
		c := callOf(in)
		out, err := svc.remote(in, c, b.Request)
		for _, n := range c.takeNotes() {
			raw, _ := json.Marshal(n)
			reply.Notes = append(reply.Notes, raw)
		}
		if err != nil {
			reply.Error = err.Error()
		} else {
			reply.Result = out
		}
		ok = true
	})
	if !ok { // after a crash the worker is killed; it gets no reply
		return
	}
	if c := in.currentCall(); c != nil && c.ctx.Err() != nil {
		// The call was stopped while the service ran (Esc): the worker
		// hears so before the reply, whose error then fails the call as a
		// stop that try_call does not catch, as it does in-process.
		rm.proc.Conn.Send(wire.Make(wire.Cancel, c.id, nil))
	}
	rm.reply(in, id, reply)
}

// reply sends a Reply with the level as it is now.
func (rm *remote) reply(in *interp, id uint64, b wire.ReplyBody) {
	rm.levelMu.Lock()
	defer rm.levelMu.Unlock()
	lv := int32(in.opts.Repository.Level())
	b.Level = int(lv)
	rm.level.Store(lv)
	rm.proc.Conn.Send(wire.Make(wire.Reply, id, b))
}

// pushLevel tells the worker about a new permission level.
func (rm *remote) pushLevel(in *interp) {
	rm.levelMu.Lock()
	defer rm.levelMu.Unlock()
	if lv := int32(in.opts.Repository.Level()); rm.level.Swap(lv) != lv {
		rm.proc.Conn.Send(wire.Make(wire.Level, 0, wire.LevelBody{Level: int(lv)}))
	}
}

// dead says the worker is gone: its connection has ended, or its process
// has exited (the connection's end may not have been read yet).
func (rm *remote) dead() bool {
	select {
	case <-rm.done:
		return true
	default:
		return rm.proc.Exited()
	}
}

func newLoadInfo(functions map[string]string, errors []string) *loadInfo {
	if functions == nil {
		functions = map[string]string{}
	}
	return &loadInfo{functions: functions, errors: errors}
}

// execRemote runs one call in the worker: it sends Exec and handles what
// comes back until the Result, stopping the call on Esc or Close and
// killing the worker when the stop is not obeyed within abandonGrace.
func (r *REPL) execRemote(ctx context.Context, in *interp, body wire.ExecBody) (string, bool) {
	in, idle, err := r.liveRemote(in)
	if err != nil {
		return "error: the REPL could not start: " + err.Error(), true
	}
	if idle != "" && body.Op != "" {
		return idle, true // a control operation's answer has no room for the note
	}
	rm := in.remote
	select {
	case <-rm.ready:
	case <-rm.done:
	case <-ctx.Done():
		return cancelledText, true
	case <-r.closing:
		return cancelledText, true
	}
	c := newCall(in, ctx, body.Code)
	rm.nextID++
	c.id = rm.nextID
	in.setCall(c)
	defer in.setCall(nil)
	defer c.finish()
	if rm.failed != "" {
		rm.proc.Kill("bind failed")
		rm.told = true // the next call tries a fresh worker
		return "error: the REPL could not start: " + rm.failed, true
	}
	rm.levelMu.Lock()
	lv := int32(in.opts.Repository.Level())
	rm.level.Store(lv)
	body.Level = int(lv)
	rm.proc.Conn.Send(wire.Make(wire.Exec, c.id, body))
	rm.levelMu.Unlock()
	stopWatch := make(chan struct{})
	defer close(stopWatch)
	ticks, stopTicks := pingTicker()
	go rm.watch(stopWatch, ticks, stopTicks)
	tick := time.NewTicker(levelPoll)
	defer tick.Stop()
	var grace <-chan time.Time
	stopCh := c.stopCh
	memoryStop, crashed, killed := false, "", false
	startGrace := func() {
		if grace == nil && !killed {
			grace = time.NewTimer(abandonGrace).C
		}
	}
	for {
		select {
		case f := <-rm.results:
			if f.ID != c.id || killed {
				continue
			}
			if f.Type == wire.Stopping {
				memoryStop = true
				startGrace()
				continue
			}
			select {
			case crashed = <-rm.crash:
				rm.proc.Kill(killCrash)
				killed = true
				continue
			default:
			}
			var b wire.ResultBody
			f.Unmarshal(&b)
			if b.Reset {
				in.info.Store(newLoadInfo(b.Functions, b.LoadErrors))
			}
			if idle != "" {
				b.Text = idle + "\n" + b.Text
			}
			r.opts.reportTouched(b.Touched)
			return b.Text, b.Failed
		case <-stopCh:
			stopCh = nil
			rm.proc.Conn.Send(wire.Make(wire.Cancel, c.id, nil))
			startGrace()
		case <-grace:
			grace = nil
			rm.proc.Kill(killGrace)
			killed = true
		case msg := <-rm.crash:
			crashed = msg
			rm.proc.Kill(killCrash)
			killed = true
		case <-rm.done:
			return r.lost(in, c, memoryStop, crashed), true
		case <-tick.C:
			rm.pushLevel(in)
		}
	}
}

// liveRemote returns in, or a freshly bound worker when in's has ended
// (with a note saying that the state was lost while idle, unless it ended
// during a call, which reported it).
func (r *REPL) liveRemote(in *interp) (*interp, string, error) {
	if !in.remote.dead() {
		return in, "", nil
	}
	note := ""
	if exit := in.remote.proc.Exit(); !in.remote.told {
		note = stateLost("The REPL's worker process ended between calls ("+exitReason(exit)+").", "")
	}
	fresh, err := newRemote(r.opts)
	if err != nil {
		return nil, "", err
	}
	r.cur.Store(fresh)
	return fresh, note, nil
}

// lost is the result of a call whose worker ended: what it printed, then
// why the state is gone. The next call starts a fresh worker.
func (r *REPL) lost(in *interp, c *callState, memoryStop bool, crashed string) string {
	exit := in.remote.proc.Exit()
	in.remote.told = true
	grace := abandonGrace.Round(time.Millisecond)
	memAdvice := "Work on smaller pieces (read files in parts, keep fewer results in memory)."
	var text string
	switch {
	case crashed != "":
		text = stateLost("The call crashed the interpreter ("+crashed+").", "")
	case exit.Killed == killGrace && memoryStop:
		text = stateLost(fmt.Sprintf("The call passed this REPL's memory limit (max_memory_mb = %d) inside a single operation that did not stop within %v, so its worker process was killed.", in.opts.MaxMemoryMB, grace), memAdvice)
	case exit.Killed == killGrace:
		text = cancelledText + "\n" +
			stateLost(fmt.Sprintf("A single operation (a builtin such as str, sorted, join or a regular expression on a very large value) did not stop within %v, so its worker process was killed.", grace),
				"Avoid single operations on huge or deeply nested values.")
	case exit.OutOfMemory():
		text = stateLost(fmt.Sprintf("The call passed this REPL's memory limit (max_memory_mb = %d) faster than it could be stopped and reached the hard ceiling of its worker process (%d MiB more for the interpreter's runtime), so the process was stopped.",
			in.opts.MaxMemoryMB, worker.RuntimeAllowanceMB), memAdvice)
	default:
		text = stateLost("The REPL's worker process "+exitReason(exit)+".", "")
	}
	prints, omitted := c.out.drop()
	return assemble("", prints, omitted, tail{text: text, isError: true}, in.opts.OutputLimit)
}

// exitReason describes how a worker ended, for the model.
func exitReason(e worker.Exit) string {
	if crash := e.Crash(); crash != "" {
		return "crashed (" + crash + ")"
	}
	if e.Killed != "" {
		return "was killed (" + e.Killed + ")"
	}
	if e.Status != nil {
		return "ended unexpectedly (" + e.Status.String() + ")"
	}
	return "ended unexpectedly"
}

// closeRemote ends the worker of a closed REPL.
func closeRemote(in *interp) { in.remote.proc.Close() }

// loadedInfo waits, briefly, for a worker's helpers to be described.
func (in *interp) loadedInfo() *loadInfo {
	if rm := in.remote; rm != nil {
		t := time.NewTimer(readyWait)
		defer t.Stop()
		select {
		case <-rm.ready:
		case <-rm.done:
		case <-t.C:
		}
	}
	return in.info.Load()
}

// readyWait bounds how long Functions and LoadErrors wait for a new
// worker to report its helpers.
const readyWait = 10 * time.Second
