// Calling a tool: the allow list and approvals, the timeout, progress,
// cancellation, and what each failure tells the model.

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"harness/approval"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/failures"
)

// Approver decides on a call that is not on its server's allow list
// (rlm's approvals; the UI asks the person, headless refuses). A non-nil
// error is a refusal whose text the model sees.
type Approver interface {
	Approve(ctx context.Context, operation json.RawMessage) (bool, error)
}

// Call is one tool call.
type Call struct {
	Server, Tool string
	Arguments    json.RawMessage // a JSON object; empty means {}
	// Approver is asked unless the tool is on the server's allow list; nil
	// refuses every call that needs approval.
	Approver Approver
	// Progress receives the server's progress notifications while the call
	// runs, never after Call returns; may be nil.
	Progress func(Progress)
	// Session names the agent in failure notes (the rlm call ID).
	Session string
}

// Progress is one progress notification.
type Progress struct {
	Progress, Total float64 // Total is 0 when unknown
	Message         string
}

// String is the line shown under the call: "progress 2/5: message".
func (p Progress) String() string {
	s := "progress " + num(p.Progress)
	if p.Total > 0 {
		s += "/" + num(p.Total)
	}
	if p.Message != "" {
		s += ": " + p.Message
	}
	return s
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

var errTimeout = errors.New("timeout")

// tokens numbers progress tokens across every Set.
var tokens atomic.Int64

// Call runs one tool call and returns its result. The error, when not nil,
// is a refusal or a failure whose message is written for the model: an
// unknown server or tool, a denied approval (recorded as a failure note),
// a server that is unavailable, a timeout, the user's Esc (ctx cancelled;
// the server is sent notifications/cancelled), a protocol error. A tool
// that reports an error gives a Result with IsError instead.
func (s *Set) Call(ctx context.Context, c Call) (Result, error) {
	srv := s.find(c.Server)
	if srv == nil {
		return Result{}, fmt.Errorf("there is no MCP server %q; the servers are: %s", c.Server, strings.Join(s.names(), ", "))
	}
	args := c.Arguments
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return Result{}, fmt.Errorf("the arguments of %s/%s must be a JSON object", c.Server, c.Tool)
	}
	cn, err := srv.ensure(ctx)
	if err != nil {
		return Result{}, srv.callErr(ctx, err)
	}
	tool, ok := srv.tool(c.Tool)
	if !ok {
		return Result{}, fmt.Errorf("MCP server %s has no tool %q; its tools are: %s", c.Server, c.Tool, strings.Join(srv.toolNames(), ", "))
	}
	if !tool.Allowed {
		if err := s.approve(ctx, c, args); err != nil {
			return Result{}, err
		}
	}
	return srv.call(ctx, cn, c, args)
}

// approve asks c.Approver about a call not on the allow list.
func (s *Set) approve(ctx context.Context, c Call, args json.RawMessage) error {
	op, _ := json.Marshal(map[string]any{"operation": "mcp", "server": c.Server, "tool": c.Tool, "arguments": args})
	deny := func(format string, a ...any) error {
		err := fmt.Errorf(format, a...)
		s.note(c.Session, failures.KindDenied, err.Error(), string(op))
		return err
	}
	what := c.Server + "/" + c.Tool
	if c.Approver == nil {
		return deny("PermissionError: calling %s needs approval and no one can approve it here; use another way, or ask the user to add %q to [mcp.servers.%s] allow", what, c.Tool, c.Server)
	}
	ok, err := c.Approver.Approve(ctx, op)
	var refusal *approval.Refusal
	switch {
	case ctx.Err() != nil:
		return errors.New("cancelled: the call was stopped by the user (Esc) before it was approved")
	case errors.As(err, &refusal):
		return deny("PermissionError: the user refused the call to %s and wrote: %s", what, refusal.Note)
	case err != nil:
		return deny("PermissionError: %s was not approved: %v; to let it run without asking, the user adds %q to [mcp.servers.%s] allow", what, err, c.Tool, c.Server)
	case !ok:
		return deny("PermissionError: the user refused the call to %s; do not retry it, choose another way or ask in your answer", what)
	}
	return nil
}

// call sends tools/call with a progress token and the server's timeout.
func (srv *server) call(ctx context.Context, cn conn, c Call, args json.RawMessage) (Result, error) {
	tctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timeout := srv.spec.timeout()
	stop := srv.set.opts.Clock.AfterFunc(timeout, func() { cancel(errTimeout) })
	defer stop()
	params := &mcp.CallToolParams{Name: c.Tool, Arguments: args}
	if c.Progress != nil {
		token := "harness-" + strconv.FormatInt(tokens.Add(1), 10)
		sink := &progressSink{f: c.Progress}
		srv.mu.Lock()
		srv.progress[token] = sink
		srv.mu.Unlock()
		defer func() {
			srv.mu.Lock()
			delete(srv.progress, token)
			srv.mu.Unlock()
			sink.close()
		}()
		params.SetProgressToken(token)
	}
	res, err := cn.cs.CallTool(tctx, params)
	switch {
	case err == nil:
		return mapResult(res), nil
	case ctx.Err() != nil:
		return Result{}, errors.New("cancelled: the call was stopped by the user (Esc); the server was told to cancel it")
	case context.Cause(tctx) == errTimeout:
		return Result{}, fmt.Errorf("%s/%s did not answer within %v ([mcp.servers.%s] timeout_s) and was cancelled; try a smaller request",
			c.Server, c.Tool, timeout.Round(time.Second), c.Server)
	case srv.lostDuring(cn, err):
		srv.lost(cn.cs, cn.proc)
		return Result{}, fmt.Errorf("MCP server %s stopped during the call (%s); it is started again on the next call, so retry only if the call is safe to repeat%s",
			c.Server, cn.proc.status(), srv.logHint())
	}
	return Result{}, srv.callErr(ctx, err)
}

// lostDuring reports whether err from a call on cs means the connection
// is gone: it closed, the stream ended, the process exited, or an HTTP
// request could not be made.
func (srv *server) lostDuring(cn conn, err error) bool {
	var ue *url.Error
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &ue) {
		return true
	}
	srv.mu.Lock()
	current := srv.session == cn.cs
	srv.mu.Unlock()
	return !current || (cn.proc != nil && cn.proc.waitFor(exitGrace))
}

// callErr describes an error from ensure or from the server.
func (srv *server) callErr(ctx context.Context, err error) error {
	var je *jsonrpc.Error
	switch {
	case ctx.Err() != nil:
		return errors.New("cancelled: the call was stopped by the user (Esc)")
	case errors.As(err, &je) && je.Code == codeTooLarge:
		return fmt.Errorf("MCP server %s: %s; the server is still connected: ask for less (a smaller page, range or query)", srv.spec.Name, je.Message)
	case errors.As(err, &je):
		return fmt.Errorf("MCP server %s refused the call: %s", srv.spec.Name, je.Message)
	}
	return err
}

// progressed handles notifications/progress: the call that sent the token
// gets it, while it runs.
func (srv *server) progressed(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p := req.Params
	token := fmt.Sprint(p.ProgressToken)
	srv.mu.Lock()
	sink := srv.progress[token]
	srv.mu.Unlock()
	if sink != nil {
		sink.send(Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

// progressSink passes progress to a call until the call has returned.
type progressSink struct {
	mu     sync.Mutex
	f      func(Progress)
	closed bool
}

func (s *progressSink) send(p Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.f(p)
	}
}

func (s *progressSink) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}
