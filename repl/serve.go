// The worker's side: binding the REPL to the directories it receives,
// confining the process, and serving calls until the parent goes.

package repl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"

	"harness/atomicfile"
	"harness/config"
	"harness/failures"
	"harness/jail"
	"harness/repl/pyrt"
	"harness/repl/rewrite"
	"harness/replib"
	"harness/sandbox"
	"harness/wire"
	"harness/worker"
)

// ServeWorker is the main of a worker process (harness re-executed with
// worker.Subcommand). It returns the process's exit code; it never returns
// while its parent is connected, and exits at once when the parent closes
// the connection or goes away.
func ServeWorker() int {
	conn, err := worker.Accept()
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	// Files are written for harness, which this process dies with.
	atomicfile.WriteFor(os.Getppid())
	s := &server{conn: conn, execs: make(chan wire.Frame, 1)}
	s.link = &childLink{conn: conn, waiting: map[uint64]chan wire.Frame{}}
	warmUp()
	f, err := conn.Read()
	if err != nil || f.Type != wire.Bind {
		fmt.Fprintf(os.Stderr, "harness worker: expected Bind, got %s (%v)\n", f.Type, err)
		return 1
	}
	go s.read()
	if err := s.bind(f); err != nil {
		conn.Send(wire.Make(wire.Ready, 0, wire.ReadyBody{Error: err.Error()}))
		fmt.Fprintln(os.Stderr, "harness worker:", err)
		return 1
	}
	for f := range s.execs {
		s.exec(f)
	}
	return 0
}

// warmUp compiles the shipped helper files once and throws the result
// away, while the worker waits as a spare: the first REPL it serves then
// finds the parser's and compiler's code paged in and a heap of the right
// size, and loads its helpers several times faster.
func warmUp() {
	opts := rewrite.FileOptions()
	for _, name := range replib.Names() {
		src, err := replib.Source(name)
		if err != nil {
			continue
		}
		if f, err := opts.Parse(name, src, 0); err == nil {
			pyrt.GuardRepeats(f)
			starlark.FileProgram(f, func(string) bool { return true })
		}
	}
}

// server is a worker's state.
type server struct {
	conn  *wire.Conn
	link  *childLink
	in    *interp
	execs chan wire.Frame

	mu      sync.Mutex
	callID  uint64
	early   uint64 // a call cancelled before it started: its Cancel came before its Exec was served
	cancel  context.CancelFunc
	current atomic.Uint64 // the id of the call running, for Output and Note frames
}

// read handles the parent's frames; Exec frames go to the serving loop.
// At end of file (or any error) the parent is gone and so is the worker.
func (s *server) read() {
	for {
		f, err := s.conn.Read()
		if err != nil {
			os.Exit(0)
		}
		switch f.Type {
		case wire.Exec:
			s.execs <- f
		case wire.Cancel:
			s.mu.Lock()
			if s.callID == f.ID && s.cancel != nil {
				s.cancel()
			} else {
				s.early = f.ID
			}
			s.mu.Unlock()
		case wire.Reply:
			s.link.deliver(f)
		case wire.Ping:
			s.conn.Send(wire.Make(wire.Pong, f.ID, nil))
		case wire.Level:
			var b wire.LevelBody
			if f.Unmarshal(&b) == nil {
				s.link.level.Store(int32(b.Level))
			}
		default:
			fmt.Fprintf(os.Stderr, "harness worker: unexpected %s frame\n", f.Type)
			os.Exit(1)
		}
	}
}

// bind sets the ceiling, confines the process to the directories it was
// given, builds the interpreter (loading the helpers) and sends Ready.
func (s *server) bind(f wire.Frame) error {
	var b wire.BindBody
	if err := f.Unmarshal(&b); err != nil {
		return err
	}
	if len(f.Files) != len(b.Mounts) {
		return fmt.Errorf("bind: %d directories for %d mounts", len(f.Files), len(b.Mounts))
	}
	if err := worker.SetCeiling(b.CeilingMB); err != nil {
		return err
	}
	if b.HelperLoadMS > 0 {
		helperLoadTimeout = time.Duration(b.HelperLoadMS) * time.Millisecond
	}
	// Load the local time zone now: once confined the worker cannot read it.
	_ = time.Local.String()
	var rw, ro []*os.File
	for i, name := range b.Mounts {
		if name == jail.Library {
			ro = append(ro, f.Files[i])
		} else {
			rw = append(rw, f.Files[i])
		}
	}
	abi, lerr := sandbox.RestrictWorker(rw, ro)
	sandbox.SetMetadataProtected(b.ReadOnlyMounts) // the parent's answer, for help()
	s.link.level.Store(int32(b.Level))
	opts := Options{
		Depth: b.Depth, OutputLimit: b.OutputLimit, MaxMemoryMB: b.MaxMemoryMB, Session: b.Session,
		Commands: config.Commands{Deny: b.Deny, Allow: map[string]string{}, Sandbox: b.Sandbox,
			Writable: b.Writable, Network: b.Network},
		link: s.link, protection: protection(abi, lerr, b.Mounts), testHooks: b.TestHooks, AskWrites: b.AskWrites, Siblings: b.Siblings,
		Output:    s.output,
		OnFailure: s.note,
	}
	for _, name := range b.Allow {
		opts.Commands.Allow[name] = ""
	}
	if b.MCP {
		opts.MCP = remoteMCP{s.link}
	}
	for i, name := range b.Mounts {
		var level func() config.Permission
		if name == jail.Repository {
			level = s.link.levelNow
		}
		root, err := jail.OpenFile(name, f.Files[i], level)
		f.Files[i].Close()
		if err != nil {
			return err
		}
		switch name {
		case jail.Repository:
			opts.Repository = root
		case jail.Store:
			opts.Store = root
		case jail.Library:
			opts.Library = root
		}
	}
	if opts.Repository == nil {
		return errors.New("bind: no repository")
	}
	s.in = newInterp(opts)
	info := s.in.info.Load()
	return s.conn.Send(wire.Make(wire.Ready, 0, wire.ReadyBody{
		Functions: info.functions, LoadErrors: info.errors, Protection: opts.protection, Landlock: abi,
	}))
}

// protection is help()'s line about what confines this worker.
func protection(abi int, err error, mounts []string) string {
	names := ""
	for i, m := range mounts {
		switch {
		case i == 0:
		case i == len(mounts)-1:
			names += " and "
		default:
			names += ", "
		}
		names += "/" + m
	}
	switch {
	case err != nil:
		return "this REPL runs in a process of its own, but Landlock could not be applied (" + err.Error() + "); only the REPL's path checks confine it."
	case abi == 0:
		return "this REPL runs in a process of its own; this kernel has no Landlock, so only the REPL's path checks confine it."
	case abi < 4:
		return fmt.Sprintf("this REPL runs in a process of its own that the kernel (Landlock ABI %d) lets open files only under %s.", abi, names)
	}
	return fmt.Sprintf("this REPL runs in a process of its own that the kernel (Landlock ABI %d) lets open files only under %s and make no network connections.", abi, names)
}

// exec runs one call and sends its Result.
func (s *server) exec(f wire.Frame) {
	var b wire.ExecBody
	if err := f.Unmarshal(&b); err != nil {
		s.conn.Send(wire.Make(wire.Result, f.ID, wire.ResultBody{Text: "internal error: " + err.Error(), Failed: true}))
		return
	}
	s.link.level.Store(int32(b.Level))
	if b.Op != "" {
		s.control(f.ID, b.Op)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.mu.Lock()
	s.callID, s.cancel = f.ID, cancel
	if s.early == f.ID {
		cancel() // stopped as it was sent (call IDs only grow, so an old call's late Cancel never matches)
	}
	s.mu.Unlock()
	s.current.Store(f.ID)
	resets := s.in.resets
	c := s.in.begin(ctx, b.Code)
	go func() { // the memory watchdog's stop: the parent starts its grace timer
		select {
		case <-c.stopCh:
			if c.reason() == pyrt.StopMemory {
				s.conn.Send(wire.Make(wire.Stopping, f.ID, wire.StoppingBody{Reason: "memory"}))
			}
		case <-c.done:
		}
	}()
	out, failed := s.in.runCall(c)
	res := wire.ResultBody{Text: out, Failed: failed, Touched: c.touched.paths()}
	if s.in.resets != resets {
		info := s.in.info.Load()
		res.Reset, res.Functions, res.LoadErrors = true, info.functions, info.errors
	}
	s.mu.Lock()
	s.callID, s.cancel = 0, nil
	s.mu.Unlock()
	s.conn.Send(wire.Make(wire.Result, f.ID, res))
}

// output sends printed text to the parent.
func (s *server) output(text string) {
	s.conn.Send(wire.Make(wire.Output, s.current.Load(), text))
	s.link.unsynced.Store(true)
}

// note sends a failure note to the parent, which records it.
func (s *server) note(n failures.Note, _ int) {
	s.conn.Send(wire.Make(wire.Note, s.current.Load(), n))
}

// childLink carries host calls to the parent and keeps the repository's
// permission level as the parent last said it.
type childLink struct {
	conn *wire.Conn

	mu      sync.Mutex
	next    uint64
	waiting map[uint64]chan wire.Frame

	level    atomic.Int32
	unsynced atomic.Bool // Output sent since the level was last confirmed
}

func (l *childLink) call(service string, req json.RawMessage) (json.RawMessage, []failures.Note, error) {
	l.mu.Lock()
	l.next++
	id := l.next
	ch := make(chan wire.Frame, 1)
	l.waiting[id] = ch
	l.mu.Unlock()
	if err := l.conn.Send(wire.Make(wire.Call, id, wire.CallBody{Service: service, Request: req})); err != nil {
		return nil, nil, fmt.Errorf("internal error: the host is unreachable: %v", err)
	}
	f := <-ch // the process exits when the parent goes, so this always ends
	var b wire.ReplyBody
	if err := f.Unmarshal(&b); err != nil {
		return nil, nil, err
	}
	l.level.Store(int32(b.Level))
	var notes []failures.Note
	for _, raw := range b.Notes {
		var n failures.Note
		if json.Unmarshal(raw, &n) == nil {
			notes = append(notes, n)
		}
	}
	if b.Error != "" {
		return nil, notes, errors.New(b.Error)
	}
	return b.Result, notes, nil
}

// deliver hands a Reply to the call waiting for it.
func (l *childLink) deliver(f wire.Frame) {
	l.mu.Lock()
	ch := l.waiting[f.ID]
	delete(l.waiting, f.ID)
	l.mu.Unlock()
	if ch != nil {
		ch <- f
	}
}

// levelNow is the repository's level getter. After printed output it asks
// the parent, so that a level the parent changed while handling that output
// (in its Output callback) applies to this very operation; otherwise the
// last level the parent sent stands (it pushes changes while a call runs).
func (l *childLink) levelNow() config.Permission {
	if l.unsynced.Swap(false) {
		if _, _, err := l.call("level", nil); err != nil {
			return config.PermNone
		}
	}
	return config.Permission(l.level.Load())
}
