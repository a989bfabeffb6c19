// Test helpers: an in-process MCP server built with the SDK, a fake clock,
// approvers and a failure recorder.

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/failures"
)

// waitTimeout bounds every wait on a channel in these tests.
const waitTimeout = 10 * time.Second

// testServer is an in-process server with one tool per content type and
// behaviour under test.
type testServer struct {
	srv       *mcp.Server
	slowStart chan struct{} // receives when slow starts running
	cancelled chan error    // receives slow's ctx error when it ends
	release   chan struct{} // closed to let slow return normally
	dials     chan struct{} // receives on each Dial
	dialGate  chan struct{} // when non-nil, Dial waits for it to close
	dialErr   error         // when set, Dial fails with it
	sessions  []*mcp.ServerSession
	mu        sync.Mutex
}

func newTestServer(t *testing.T) *testServer {
	ts := &testServer{slowStart: make(chan struct{}, 4), cancelled: make(chan error, 4), release: make(chan struct{}), dials: make(chan struct{}, 16)}
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	type echoIn struct {
		Text string `json:"text" jsonschema:"what to echo"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo the text."}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: text("echo: " + in.Text)}, nil, nil
	})
	type sumIn struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type sumOut struct {
		Sum   int      `json:"sum"`
		Terms []string `json:"terms"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "sum", Description: "Add two numbers."}, func(_ context.Context, _ *mcp.CallToolRequest, in sumIn) (*mcp.CallToolResult, sumOut, error) {
		return nil, sumOut{Sum: in.A + in.B, Terms: []string{fmt.Sprint(in.A), fmt.Sprint(in.B)}}, nil
	})
	empty := &mcp.Tool{InputSchema: map[string]any{"type": "object"}}
	add := func(name, desc string, h mcp.ToolHandler) {
		tool := *empty
		tool.Name, tool.Description = name, desc
		s.AddTool(&tool, h)
	}
	add("image", "A 1234-byte image and a 5-byte clip.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "here:"},
			&mcp.ImageContent{MIMEType: "image/png", Data: make([]byte, 1234)},
			&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF!")},
		}}, nil
	})
	add("links", "Resource links and embedded resources.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.ResourceLink{URI: "test://doc/1", Name: "Doc 1"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://doc/2", MIMEType: "text/plain", Text: "inline text"}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://blob/3", MIMEType: "application/zip", Blob: make([]byte, 2048)}},
		}}, nil
	})
	add("fail", "Always reports an error.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: text("the disk is on fire")}, nil
	})
	add("broken", "Answers with a protocol error.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("internal failure")
	})
	add("slow", "Reports progress, then runs until cancelled or released.", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		for i := 1; i <= 2; i++ {
			req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)})
		}
		ts.slowStart <- struct{}{}
		select {
		case <-ctx.Done():
			ts.cancelled <- ctx.Err()
			return nil, ctx.Err()
		case <-ts.release:
			return &mcp.CallToolResult{Content: text("done")}, nil
		}
	})
	add("roots", "Lists the client's roots.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if len(req.Params.InputResponses) == 0 {
			//lint:ignore SA1019 the client answers roots/list on purpose
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}}, nil
		}
		//lint:ignore SA1019 the client answers roots/list on purpose
		res := req.Params.InputResponses["roots"].(*mcp.ListRootsResult)
		b, _ := json.Marshal(res.Roots)
		return &mcp.CallToolResult{Content: text(string(b))}, nil
	})
	ts.srv = s
	return ts
}

// spec returns a Spec connecting to ts in process.
func (ts *testServer) spec(name string, allow ...string) Spec {
	return Spec{Name: name, Allow: allow, Dial: func(ctx context.Context) (mcp.Transport, error) {
		ts.dials <- struct{}{}
		if ts.dialGate != nil {
			select {
			case <-ts.dialGate:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if ts.dialErr != nil {
			return nil, ts.dialErr
		}
		c, sv := mcp.NewInMemoryTransports()
		ss, err := ts.srv.Connect(ctx, sv, nil)
		if err != nil {
			return nil, err
		}
		ts.mu.Lock()
		ts.sessions = append(ts.sessions, ss)
		ts.mu.Unlock()
		return c, nil
	}}
}

// dropConnections closes every server-side session, as a crash would.
func (ts *testServer) dropConnections() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, ss := range ts.sessions {
		ss.Close()
	}
	ts.sessions = nil
}

// fakeClock runs timers only when the test fires them.
type fakeClock struct {
	mu     sync.Mutex
	timers []*fakeTimer
	added  chan time.Duration
}

type fakeTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func newFakeClock() *fakeClock { return &fakeClock{added: make(chan time.Duration, 64)} }

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	t := &fakeTimer{d: d, f: f}
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	c.added <- d
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// waitTimer waits until a timer of duration d has been set.
func (c *fakeClock) waitTimer(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		select {
		case got := <-c.added:
			if got == d {
				return
			}
		case <-deadline:
			t.Fatalf("no timer of %v was set", d)
		}
	}
}

// fire runs every pending timer of duration d.
func (c *fakeClock) fire(d time.Duration) {
	c.mu.Lock()
	var run []func()
	for _, t := range c.timers {
		if t.d == d && !t.stopped {
			t.stopped = true
			run = append(run, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range run {
		f()
	}
}

// approver answers every approval with its fixed answer and records the
// operations it was asked about.
type approver struct {
	ok  bool
	err error
	mu  sync.Mutex
	ops []string
}

func (a *approver) Approve(_ context.Context, op json.RawMessage) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ops = append(a.ops, string(op))
	return a.ok, a.err
}

func (a *approver) asked() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.ops...)
}

// notes collects the failure notes a Set reports.
type notes struct {
	mu   sync.Mutex
	list []failures.Note
	ch   chan failures.Note
}

func newNotes() *notes { return &notes{ch: make(chan failures.Note, 64)} }

func (n *notes) add(note failures.Note, _ int) {
	n.mu.Lock()
	n.list = append(n.list, note)
	n.mu.Unlock()
	n.ch <- note
}

// wait returns the next note.
func (n *notes) wait(t *testing.T) failures.Note {
	t.Helper()
	select {
	case note := <-n.ch:
		return note
	case <-time.After(waitTimeout):
		t.Fatal("no failure note")
	}
	return failures.Note{}
}

// changes delivers the server names Options.OnChange reports.
func changes() (func(string), chan string) {
	ch := make(chan string, 64)
	return func(s string) { ch <- s }, ch
}

// waitChange waits until OnChange reports server name.
func waitChange(t *testing.T, ch chan string, name string) {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		select {
		case got := <-ch:
			if got == name {
				return
			}
		case <-deadline:
			t.Fatalf("no change of %s reported", name)
		}
	}
}

// startSet starts a Set over specs with a fake clock and a note recorder.
func startSet(t *testing.T, specs ...Spec) (*Set, *fakeClock, *notes, chan string) {
	t.Helper()
	clock, ns := newFakeClock(), newNotes()
	onChange, ch := changes()
	s := Start(specs, Options{RepoDir: "/work/repo dir", Clock: clock, OnFailure: ns.add, OnChange: onChange})
	t.Cleanup(s.Close)
	return s, clock, ns, ch
}
