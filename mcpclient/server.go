// One server: connecting, its tool list, noticing that it stopped, restarts.

package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/failures"
)

// state is where a server is in its life.
type state int

const (
	starting state = iota
	ready
	down   // failed to start, or stopped; started again on its next call
	closed // Close was called
)

type server struct {
	set    *Set
	spec   Spec
	client *mcp.Client
	log    string // the stderr log of a stdio server

	connMu sync.Mutex // held while (re)connecting

	life context.Context // ends when the server is closed; bounds every connect
	kill context.CancelFunc

	mu       sync.Mutex
	st       state
	err      string // why it is down: "failed to start: …", "stopped (…)"
	session  *mcp.ClientSession
	proc     *process // nil for HTTP and Dial servers
	tools    []Tool
	restarts int
	progress map[string]*progressSink // by progress token

	settled chan struct{} // closed when the first start has succeeded or failed
}

func newServer(s *Set, spec Spec) *server {
	srv := &server{set: s, spec: spec, settled: make(chan struct{}), progress: map[string]*progressSink{}}
	srv.life, srv.kill = context.WithCancel(context.Background())
	if spec.Command != "" && spec.Dial == nil && s.opts.LogDir != "" {
		srv.log = logPath(s.opts.LogDir, spec.Name)
	}
	srv.client = mcp.NewClient(&mcp.Implementation{Name: "harness", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler:      srv.toolsChanged,
		ProgressNotificationHandler: srv.progressed,
	})
	if s.opts.RepoDir != "" {
		// Roots are deprecated from protocol 2026-07-28 on, but servers of
		// earlier versions (most of them today) ask for them.
		//lint:ignore SA1019 roots/list is answered on purpose
		srv.client.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: s.opts.RepoDir}).String(), Name: "repository"})
	}
	return srv
}

// start makes the first connection; it runs on its own goroutine.
func (srv *server) start() {
	defer close(srv.settled)
	srv.connMu.Lock()
	defer srv.connMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := srv.connect(ctx); err != nil {
		srv.fail("failed to start: " + err.Error())
	}
}

// logHint points to the server's log, once it has one.
func (srv *server) logHint() string {
	if srv.log == "" {
		return ""
	}
	if _, err := os.Stat(srv.log); err != nil {
		return ""
	}
	return "; its stderr is in " + srv.log
}

// fail marks the server down for reason and records a failure note.
func (srv *server) fail(reason string) {
	srv.mu.Lock()
	if srv.st == closed {
		srv.mu.Unlock()
		return
	}
	// While it has restarts left, a server that stopped keeps offering the
	// tools it had: calling one starts it again.
	srv.st, srv.err = down, reason
	again := ""
	if srv.restarts < maxRestarts {
		again = "; it is started again on its next call"
	} else {
		srv.tools = nil
	}
	srv.mu.Unlock()
	srv.set.note("", failures.KindMCP, "MCP server "+srv.spec.Name+" "+reason+again+srv.logHint(), "")
	srv.set.changed(srv.spec.Name)
}

// connect starts the server (its process for stdio), initializes the
// session and lists its tools. The caller holds connMu.
func (srv *server) connect(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(srv.life, cancel)()
	tr, proc, err := srv.transport(ctx)
	if err != nil {
		return err
	}
	cs, err := srv.client.Connect(ctx, tr, nil)
	if err != nil {
		return proc.startErr(err)
	}
	tools, err := listTools(ctx, cs)
	if err != nil {
		cs.Close()
		return proc.startErr(fmt.Errorf("tools/list: %w", err))
	}
	srv.mu.Lock()
	if srv.st == closed {
		srv.mu.Unlock()
		cs.Close()
		proc.stop()
		return errors.New("harness is closing")
	}
	srv.st, srv.err, srv.session, srv.proc = ready, "", cs, proc
	skipped := srv.setTools(tools)
	srv.mu.Unlock()
	srv.noteSkipped(skipped)
	go srv.watch(cs, proc)
	srv.set.changed(srv.spec.Name)
	return nil
}

// transport returns a new connection's transport, starting the process of
// a stdio server.
func (srv *server) transport(ctx context.Context) (mcp.Transport, *process, error) {
	sp := srv.spec
	switch {
	case sp.Dial != nil:
		tr, err := sp.Dial(ctx)
		return tr, nil, err
	case sp.URL != "":
		tr, err := httpTransport(sp)
		return tr, nil, err
	}
	return startProcess(sp, srv.set.opts, srv.log)
}

func listTools(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	var out []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// setTools replaces the tool list; the caller holds mu. It returns the
// names of the tools left out as unusable, for noteSkipped once mu is
// released.
func (srv *server) setTools(list []*mcp.Tool) (skipped []string) {
	srv.tools = srv.tools[:0:0]
	seen := map[string]bool{}
	for _, t := range list {
		if !usableName(t.Name) {
			skipped = append(skipped, t.Name)
			continue
		}
		name := exposedName(srv.spec.Name, t.Name, false)
		if seen[name] {
			name = exposedName(srv.spec.Name, t.Name, true)
		}
		seen[name] = true
		desc := t.Description
		if desc == "" {
			desc = t.Title
		}
		srv.tools = append(srv.tools, Tool{
			Server: srv.spec.Name, Name: t.Name, Exposed: name, Description: desc,
			InputSchema: objectSchema(t.InputSchema), Allowed: srv.spec.allowed(t.Name),
		})
	}
	return skipped
}

// noteSkipped records a failure note for the tools setTools left out.
func (srv *server) noteSkipped(skipped []string) {
	if len(skipped) == 0 {
		return
	}
	names := make([]string, len(skipped))
	for i, n := range skipped {
		names[i] = strconv.Quote(n)
	}
	srv.set.note("", failures.KindMCP, fmt.Sprintf("MCP server %s offers %d tools with unusable names (empty, or with whitespace or control characters), left out: %s",
		srv.spec.Name, len(skipped), strings.Join(names, ", ")), "")
}

// watch waits for the connection to end or the process to exit, then
// marks the server down (unless that connection was replaced or closed).
func (srv *server) watch(cs *mcp.ClientSession, proc *process) {
	ended := make(chan struct{})
	go func() { cs.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-proc.exitedCh():
	}
	srv.lost(cs, proc)
}

// lost handles the end of connection cs: the process group is killed, and
// a server that was running is marked down with a failure note.
func (srv *server) lost(cs *mcp.ClientSession, proc *process) {
	srv.mu.Lock()
	current := srv.session == cs && srv.st == ready
	if current {
		srv.session = nil
	}
	srv.mu.Unlock()
	cs.Close()
	proc.stop()
	if current {
		srv.fail("stopped (" + proc.status() + ")")
	}
}

// toolsChanged handles notifications/tools/list_changed: the list is read
// again off the connection's goroutine.
func (srv *server) toolsChanged(_ context.Context, req *mcp.ToolListChangedRequest) {
	cs := req.Session
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		tools, err := listTools(ctx, cs)
		if err != nil {
			return // a lost connection is reported by watch
		}
		var skipped []string
		srv.mu.Lock()
		if srv.session == cs {
			skipped = srv.setTools(tools)
		}
		srv.mu.Unlock()
		srv.noteSkipped(skipped)
		srv.set.changed(srv.spec.Name)
	}()
}

// info describes the server now. A server that is down may still list
// the tools it had (see fail).
func (srv *server) info() ServerInfo {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	i := ServerInfo{Name: srv.spec.Name, Log: srv.log, Tools: append([]Tool(nil), srv.tools...)}
	switch srv.st {
	case starting:
		i.Err = "still starting"
	case down:
		i.Err = srv.err + srv.logHint()
	case closed:
		i.Err = "closed"
	}
	return i
}

// conn is one connection: its session and, for stdio, its process.
type conn struct {
	cs   *mcp.ClientSession
	proc *process
}

// ensure returns the server's connection, starting it again when it is
// down and has restarts left. A call to a server still starting waits for
// it, as long as the call itself may take (timeout_s): a server that never
// finishes its handshake must not hold the call for the whole start
// timeout.
func (srv *server) ensure(ctx context.Context) (conn, error) {
	if err := srv.awaitStart(ctx); err != nil {
		return conn{}, err
	}
	srv.connMu.Lock()
	defer srv.connMu.Unlock()
	srv.mu.Lock()
	st, c, reason := srv.st, conn{srv.session, srv.proc}, srv.err
	srv.mu.Unlock()
	switch st {
	case ready:
		return c, nil
	case closed:
		return conn{}, fmt.Errorf("MCP server %s is closed", srv.spec.Name)
	}
	srv.mu.Lock()
	if srv.restarts >= maxRestarts {
		srv.tools = nil
		srv.mu.Unlock()
		return conn{}, fmt.Errorf("MCP server %s %s; it was started again %d times this session and stays stopped%s", srv.spec.Name, reason, maxRestarts, srv.logHint())
	}
	srv.restarts++
	srv.mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := srv.connect(sctx); err != nil {
		if ctx.Err() != nil {
			return conn{}, ctx.Err()
		}
		srv.fail("failed to start again: " + err.Error())
		return conn{}, fmt.Errorf("MCP server %s %s", srv.spec.Name, srv.info().Err)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return conn{srv.session, srv.proc}, nil
}

// awaitStart waits until the server's first start has ended, at most its
// call timeout.
func (srv *server) awaitStart(ctx context.Context) error {
	select {
	case <-srv.settled:
		return nil
	default:
	}
	timeout := srv.spec.timeout()
	expired := make(chan struct{})
	stop := srv.set.opts.Clock.AfterFunc(timeout, func() { close(expired) })
	defer stop()
	select {
	case <-srv.settled:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-expired:
		return fmt.Errorf("MCP server %s is still starting after %v ([mcp.servers.%s] timeout_s); try the call again later, or do the work without it%s",
			srv.spec.Name, timeout.Round(time.Second), srv.spec.Name, srv.logHint())
	}
}

// close stops the server for good and waits for a start under way to end.
func (srv *server) close() {
	srv.mu.Lock()
	srv.st = closed
	cs, proc := srv.session, srv.proc
	srv.session = nil
	srv.mu.Unlock()
	srv.kill()
	if cs != nil {
		cs.Close()
	}
	proc.stop()
	<-srv.settled
}

// tool returns the tool named name and whether it exists.
func (srv *server) tool(name string) (Tool, bool) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for _, t := range srv.tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

func (srv *server) toolNames() []string {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	out := make([]string, len(srv.tools))
	for i, t := range srv.tools {
		out[i] = t.Name
	}
	return out
}
