// Tests against an in-process server built with the SDK (in-memory
// transport): listing, content, errors, approvals, timeouts, cancellation,
// progress, roots, list_changed, restarts and the start-up wait.

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"harness/approval"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/failures"
)

func TestServersListTools(t *testing.T) {
	ts := newTestServer(t)
	s, _, _, _ := startSet(t, ts.spec("test", "echo"))
	infos := s.Servers(context.Background())
	if len(infos) != 1 || infos[0].Name != "test" || infos[0].Err != "" {
		t.Fatalf("servers = %+v", infos)
	}
	byName := map[string]Tool{}
	for _, tool := range infos[0].Tools {
		byName[tool.Name] = tool
	}
	echo := byName["echo"]
	if echo.Exposed != "mcp__test__echo" || echo.Description != "Echo the text." || !echo.Allowed || echo.Server != "test" {
		t.Errorf("echo = %+v", echo)
	}
	var schema map[string]any
	if err := json.Unmarshal(echo.InputSchema, &schema); err != nil || schema["type"] != "object" || !strings.Contains(string(echo.InputSchema), `"text"`) {
		t.Errorf("echo schema = %s", echo.InputSchema)
	}
	if byName["sum"].Allowed {
		t.Error("sum is not on the allow list")
	}
	if len(byName) != 8 {
		t.Errorf("tools = %v", byName)
	}
}

func TestCallResults(t *testing.T) {
	ts := newTestServer(t)
	s, _, _, _ := startSet(t, ts.spec("test", "echo", "sum", "image", "links", "fail"))
	for _, tc := range []struct {
		tool, args string
		want       Result
	}{
		{tool: "echo", args: `{"text":"hi"}`, want: Result{Text: "echo: hi"}},
		{tool: "sum", args: `{"a":2,"b":3}`, want: Result{Text: `{"sum":5,"terms":["2","3"]}`, Structured: json.RawMessage(`{"sum":5,"terms":["2","3"]}`)}},
		{tool: "image", want: Result{Text: "here:\n[image: image/png, 1,234 bytes]\n[audio: audio/wav, 5 bytes]"}},
		{tool: "links", want: Result{Text: "[resource link: test://doc/1 (Doc 1)]\n[resource: test://doc/2]\ninline text\n[resource: test://blob/3, application/zip, 2,048 bytes]"}},
		{tool: "fail", want: Result{Text: "the disk is on fire", IsError: true}},
		{tool: "echo", args: `{"text":3}`, want: Result{Text: `validating "arguments": validating root: validating /properties/text: type: 3 has type "integer", want "string"`, IsError: true}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			got, err := s.Call(context.Background(), Call{Server: "test", Tool: tc.tool, Arguments: json.RawMessage(tc.args)})
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != tc.want.Text || got.IsError != tc.want.IsError || string(got.Structured) != string(tc.want.Structured) {
				t.Errorf("got %+v (structured %s)\nwant %+v (structured %s)", got, got.Structured, tc.want, tc.want.Structured)
			}
		})
	}
}

func TestCallErrors(t *testing.T) {
	ts := newTestServer(t)
	s, _, ns, _ := startSet(t, ts.spec("test", "echo", "broken"))
	for _, tc := range []struct {
		name string
		call Call
		want string
	}{
		{"unknown server", Call{Server: "nope", Tool: "echo"}, `there is no MCP server "nope"; the servers are: test`},
		{"unknown tool", Call{Server: "test", Tool: "nope"}, `MCP server test has no tool "nope"; its tools are: broken, echo, fail, image, links, roots, slow, sum`},
		{"arguments not an object", Call{Server: "test", Tool: "echo", Arguments: json.RawMessage(`[1]`)}, "must be a JSON object"},
		{"protocol error", Call{Server: "test", Tool: "broken"}, "MCP server test refused the call: internal failure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Call(context.Background(), tc.call)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if len(ns.list) != 0 {
		t.Errorf("errors that are no denials made notes: %+v", ns.list)
	}
}

func TestApprovals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ap       *approver
		tool     string
		asked    bool
		wantErr  string
		wantNote bool
	}{
		{name: "allowed tool runs without asking", ap: &approver{ok: false}, tool: "echo"},
		{name: "other tool asks and runs", ap: &approver{ok: true}, tool: "sum", asked: true},
		{name: "refused", ap: &approver{ok: false}, tool: "sum", asked: true, wantErr: "PermissionError: the user refused the call to test/sum; do not retry it", wantNote: true},
		{name: "approver error", ap: &approver{err: errors.New("denied: harness runs headless (-p)")}, tool: "sum", asked: true,
			wantErr: `PermissionError: test/sum was not approved: denied: harness runs headless (-p); to let it run without asking, the user adds "sum" to [mcp.servers.test] allow`, wantNote: true},
		{name: "refused with a note", ap: &approver{err: &approval.Refusal{Note: "sum them in the REPL"}}, tool: "sum", asked: true,
			wantErr: "PermissionError: the user refused the call to test/sum and wrote: sum them in the REPL", wantNote: true},
		{name: "no approver", tool: "sum", wantErr: `needs approval and no one can approve it here; use another way, or ask the user to add "sum" to [mcp.servers.test] allow`, wantNote: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServer(t)
			s, _, ns, _ := startSet(t, ts.spec("test", "echo"))
			c := Call{Server: "test", Tool: tc.tool, Arguments: json.RawMessage(`{"text":"x","a":1,"b":2}`), Session: "call_7"}
			if tc.tool == "echo" {
				c.Arguments = json.RawMessage(`{"text":"x"}`)
			}
			if tc.ap != nil {
				c.Approver = tc.ap
			}
			_, err := s.Call(context.Background(), c)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
			if tc.ap != nil {
				asked := tc.ap.asked()
				if (len(asked) == 1) != tc.asked {
					t.Fatalf("asked %v", asked)
				}
				if tc.asked && asked[0] != `{"arguments":{"text":"x","a":1,"b":2},"operation":"mcp","server":"test","tool":"sum"}` {
					t.Errorf("operation = %s", asked[0])
				}
			}
			if tc.wantNote {
				n := ns.wait(t)
				if n.Kind != failures.KindDenied || n.Session != "call_7" || n.Message != err.Error() || !strings.Contains(n.Code, `"tool":"sum"`) {
					t.Errorf("note = %+v", n)
				}
			}
		})
	}
}

func TestApprovalEveryTime(t *testing.T) {
	ts := newTestServer(t)
	s, _, _, _ := startSet(t, ts.spec("test"))
	ap := &approver{ok: true}
	for range 3 {
		if _, err := s.Call(context.Background(), Call{Server: "test", Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`), Approver: ap}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(ap.asked()); n != 3 {
		t.Errorf("asked %d times, want every time (3)", n)
	}
}

// slowCall starts the slow tool and returns its outcome channel once the
// server is running it, with the progress it reported.
func slowCall(t *testing.T, s *Set, ts *testServer, ctx context.Context) (chan error, chan Progress) {
	t.Helper()
	progress := make(chan Progress, 8)
	done := make(chan error, 1)
	go func() {
		res, err := s.Call(ctx, Call{Server: "test", Tool: "slow", Progress: func(p Progress) { progress <- p }})
		if err == nil && res.Text != "done" {
			err = errors.New("result " + res.Text)
		}
		done <- err
	}()
	select {
	case <-ts.slowStart:
	case <-time.After(waitTimeout):
		t.Fatal("slow never ran")
	}
	return done, progress
}

func waitErr(t *testing.T, ch chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(waitTimeout):
		t.Fatal("the call did not return")
	}
	return nil
}

func TestProgress(t *testing.T) {
	ts := newTestServer(t)
	s, _, _, _ := startSet(t, ts.spec("test", "slow"))
	done, progress := slowCall(t, s, ts, context.Background())
	var got []string
	for range 2 {
		select {
		case p := <-progress:
			got = append(got, p.String())
		case <-time.After(waitTimeout):
			t.Fatalf("progress so far: %v", got)
		}
	}
	close(ts.release)
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "progress 1/3: step 1|progress 2/3: step 2" {
		t.Errorf("progress = %v", got)
	}
	if len(progress) != 0 {
		t.Errorf("progress after the call returned: %v", <-progress)
	}
}

func TestCancelSendsCancelled(t *testing.T) {
	ts := newTestServer(t)
	s, _, _, _ := startSet(t, ts.spec("test", "slow"))
	ctx, cancel := context.WithCancel(context.Background())
	done, _ := slowCall(t, s, ts, ctx)
	cancel() // Esc
	if err := waitErr(t, done); err == nil || !strings.Contains(err.Error(), "cancelled: the call was stopped by the user (Esc); the server was told to cancel it") {
		t.Errorf("err = %v", err)
	}
	select {
	case err := <-ts.cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("server saw %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("the server's handler was never cancelled (no notifications/cancelled)")
	}
}

func TestTimeout(t *testing.T) {
	ts := newTestServer(t)
	spec := ts.spec("test", "slow")
	spec.Timeout = 7 * time.Second
	s, clock, _, _ := startSet(t, spec)
	done, _ := slowCall(t, s, ts, context.Background())
	clock.waitTimer(t, 7*time.Second)
	clock.fire(7 * time.Second)
	err := waitErr(t, done)
	if err == nil || !strings.Contains(err.Error(), "test/slow did not answer within 7s ([mcp.servers.test] timeout_s) and was cancelled") {
		t.Errorf("err = %v", err)
	}
	select {
	case <-ts.cancelled:
	case <-time.After(waitTimeout):
		t.Fatal("the server was not told to cancel")
	}
}

func TestDefaultTimeout(t *testing.T) {
	ts := newTestServer(t)
	s, clock, _, _ := startSet(t, ts.spec("test", "echo"))
	if _, err := s.Call(context.Background(), Call{Server: "test", Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)}); err != nil {
		t.Fatal(err)
	}
	clock.waitTimer(t, DefaultTimeout)
}

func TestRoots(t *testing.T) {
	ts := newTestServer(t)
	s, _, _, _ := startSet(t, ts.spec("test", "roots"))
	res, err := s.Call(context.Background(), Call{Server: "test", Tool: "roots"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != `[{"name":"repository","uri":"file:///work/repo%20dir"}]` {
		t.Errorf("roots = %s", res.Text)
	}
}

func TestToolListChanged(t *testing.T) {
	ts := newTestServer(t)
	s, _, _, changed := startSet(t, ts.spec("test"))
	s.Servers(context.Background())
	ts.srv.AddTool(&mcp.Tool{Name: "late", Description: "Added later.", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "late!"}}}, nil
		})
	ts.srv.RemoveTools("echo")
	deadline := time.After(waitTimeout)
	for {
		names := map[string]bool{}
		for _, tool := range s.Servers(context.Background())[0].Tools {
			names[tool.Name] = true
		}
		if names["late"] && !names["echo"] {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("tools after list_changed: %v", names)
		}
	}
	res, err := s.Call(context.Background(), Call{Server: "test", Tool: "late", Approver: &approver{ok: true}})
	if err != nil || res.Text != "late!" {
		t.Fatalf("late = %+v, %v", res, err)
	}
}

func TestStartupWait(t *testing.T) {
	ts, slow := newTestServer(t), newTestServer(t)
	slow.dialGate = make(chan struct{})
	s, clock, _, changed := startSet(t, ts.spec("fast"), slow.spec("slow"))
	waitChange(t, changed, "fast")
	got := make(chan []ServerInfo, 1)
	go func() { got <- s.Servers(context.Background()) }()
	clock.waitTimer(t, StartupWait)
	select {
	case infos := <-got:
		t.Fatalf("answered before the wait ended: %+v", infos)
	default:
	}
	clock.fire(StartupWait)
	var infos []ServerInfo
	select {
	case infos = <-got:
	case <-time.After(waitTimeout):
		t.Fatal("Servers kept waiting after StartupWait")
	}
	if infos[0].Name != "fast" || infos[0].Err != "" || infos[1].Name != "slow" || infos[1].Err != "still starting" || len(infos[1].Tools) != 0 {
		t.Fatalf("servers = %+v", infos)
	}
	// Later calls do not wait; the slow server joins once it has started.
	if infos := s.Servers(context.Background()); infos[1].Err != "still starting" {
		t.Fatalf("second call: %+v", infos)
	}
	close(slow.dialGate)
	waitChange(t, changed, "slow")
	if infos := s.Servers(context.Background()); infos[1].Err != "" || len(infos[1].Tools) == 0 {
		t.Fatalf("after the slow start: %+v", infos)
	}
}

// TestCallWaitsForAStartAtMostItsTimeout: a call to a server still in its
// handshake waits for it, but no longer than the call's timeout_s (not the
// two minutes a start may take), and says the server is still starting.
func TestCallWaitsForAStartAtMostItsTimeout(t *testing.T) {
	slow := newTestServer(t)
	slow.dialGate = make(chan struct{})
	spec := slow.spec("slow", "echo")
	spec.Timeout = 9 * time.Second
	s, clock, _, changed := startSet(t, spec)
	call := func() chan error {
		done := make(chan error, 1)
		go func() {
			res, err := s.Call(context.Background(), Call{Server: "slow", Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)})
			if err == nil && res.Text != "echo: x" {
				err = errors.New("result " + res.Text)
			}
			done <- err
		}()
		return done
	}
	done := call()
	clock.waitTimer(t, 9*time.Second)
	clock.fire(9 * time.Second)
	err := waitErr(t, done)
	if err == nil || !strings.Contains(err.Error(), "MCP server slow is still starting after 9s ([mcp.servers.slow] timeout_s); try the call again later") {
		t.Fatalf("err = %v", err)
	}
	done = call()
	clock.waitTimer(t, 9*time.Second)
	close(slow.dialGate)
	waitChange(t, changed, "slow")
	if err := waitErr(t, done); err != nil {
		t.Fatalf("the call waiting when the start ended: %v", err)
	}
}

func TestFailedStartAndRestarts(t *testing.T) {
	ts := newTestServer(t)
	ts.dialErr = errors.New("no such server")
	s, _, ns, _ := startSet(t, ts.spec("test", "echo"))
	n := ns.wait(t)
	if n.Kind != failures.KindMCP || n.Message != "MCP server test failed to start: no such server; it is started again on its next call" {
		t.Errorf("note = %+v", n)
	}
	if infos := s.Servers(context.Background()); infos[0].Err != "failed to start: no such server" || len(infos[0].Tools) != 0 {
		t.Fatalf("servers = %+v", infos)
	}
	echo := Call{Server: "test", Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)}
	for i := range maxRestarts {
		_, err := s.Call(context.Background(), echo)
		if err == nil || !strings.Contains(err.Error(), "MCP server test failed to start again: no such server") {
			t.Fatalf("restart %d: %v", i+1, err)
		}
		ns.wait(t)
	}
	dials := len(ts.dials)
	_, err := s.Call(context.Background(), echo)
	if err == nil || !strings.Contains(err.Error(), "it was started again 3 times this session and stays stopped") {
		t.Fatalf("after the restarts: %v", err)
	}
	if len(ts.dials) != dials {
		t.Error("a fourth restart was tried")
	}
}

func TestLostConnectionRestartsOnNextCall(t *testing.T) {
	ts := newTestServer(t)
	s, _, ns, _ := startSet(t, ts.spec("test", "echo"))
	echo := Call{Server: "test", Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)}
	if _, err := s.Call(context.Background(), echo); err != nil {
		t.Fatal(err)
	}
	ts.dropConnections()
	if n := ns.wait(t); n.Kind != failures.KindMCP || !strings.HasPrefix(n.Message, "MCP server test stopped (the connection closed); it is started again on its next call") {
		t.Errorf("note = %+v", n)
	}
	if info := s.Servers(context.Background())[0]; info.Err != "stopped (the connection closed)" || len(info.Tools) != 8 {
		t.Errorf("a stopped server keeps offering its tools (a call starts it again): %+v", info)
	}
	res, err := s.Call(context.Background(), echo)
	if err != nil || res.Text != "echo: x" {
		t.Fatalf("after the restart: %+v, %v", res, err)
	}
	if infos := s.Servers(context.Background()); infos[0].Err != "" || len(infos[0].Tools) == 0 {
		t.Errorf("servers = %+v", infos)
	}
}

func TestWith(t *testing.T) {
	a, b, c := newTestServer(t), newTestServer(t), newTestServer(t)
	base, _, _, _ := startSet(t, a.spec("a"), b.spec("b"))
	session := base.With([]Spec{c.spec("b"), c.spec("c")})
	var names []string
	for _, i := range session.Servers(context.Background()) {
		names = append(names, i.Name)
	}
	if strings.Join(names, " ") != "a b c" {
		t.Fatalf("servers = %v", names)
	}
	if session.find("b") == base.find("b") || session.find("a") != base.find("a") {
		t.Error("the session's b must replace the configured one, and a be shared")
	}
	session.Close()
	if _, err := base.Call(context.Background(), Call{Server: "a", Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)}); err == nil {
		t.Error("echo is not allowed, so a nil approver must refuse it") // and a must still run
	} else if !strings.Contains(err.Error(), "needs approval") {
		t.Errorf("a after closing the session's Set: %v", err)
	}
}

func TestExposedName(t *testing.T) {
	long := strings.Repeat("x", 80)
	for _, tc := range []struct{ server, tool, want string }{
		{"gh", "create_issue", "mcp__gh__create_issue"},
		{"everything", "get-sum", "mcp__everything__get-sum"},
		{"s", "a.b/c d", "mcp__s__a_b_c_d"},
	} {
		if got := exposedName(tc.server, tc.tool, false); got != tc.want {
			t.Errorf("exposedName(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.want)
		}
	}
	a, b := exposedName("s", long, false), exposedName("s", long+"y", false)
	if len(a) != maxToolName || len(b) != maxToolName || a == b {
		t.Errorf("long names %q %q", a, b)
	}
	if h := exposedName("s", "a.b", true); h == "mcp__s__a_b" || !strings.HasPrefix(h, "mcp__s__a_b_") {
		t.Errorf("hashed = %q", h)
	}
}

func TestCollidingNames(t *testing.T) {
	srv := &server{set: &Set{}, spec: Spec{Name: "s"}}
	schema := map[string]any{"type": "object"}
	srv.setTools([]*mcp.Tool{{Name: "a.b", InputSchema: schema}, {Name: "a_b", InputSchema: schema}, {Name: "t", Title: "Title only", InputSchema: "nonsense"}})
	if srv.tools[0].Exposed == srv.tools[1].Exposed {
		t.Errorf("two tools got the same name %q", srv.tools[0].Exposed)
	}
	if srv.tools[2].Description != "Title only" || string(srv.tools[2].InputSchema) != `{"type":"object"}` {
		t.Errorf("t = %+v", srv.tools[2])
	}
}

func TestProbe(t *testing.T) {
	ts := newTestServer(t)
	info, took := Probe(context.Background(), ts.spec("test"), Options{})
	if info.Err != "" || len(info.Tools) != 8 || took <= 0 {
		t.Errorf("probe = %+v in %v", info, took)
	}
	slow := newTestServer(t)
	slow.dialGate = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if info, _ := Probe(ctx, slow.spec("slow"), Options{}); !strings.HasPrefix(info.Err, "did not start within") {
		t.Errorf("slow probe = %+v", info)
	}
}

// TestToolNamesAndDirectCap: tools with unusable names are left out with
// one failure note; past MaxDirectTools, tools are marked Indirect.
func TestToolNamesAndDirectCap(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "odd", Version: "1"}, nil)
	for _, name := range []string{"ok_a", "", "has space", "ctl\x01", "ok_b", "ok_c"} {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	sp := Spec{Name: "odd", Dial: func(ctx context.Context) (mcp.Transport, error) {
		c, sv := mcp.NewInMemoryTransports()
		if _, err := s.Connect(ctx, sv, nil); err != nil {
			return nil, err
		}
		return c, nil
	}}
	ns := newNotes()
	set := Start([]Spec{sp}, Options{Clock: newFakeClock(), OnFailure: ns.add, MaxDirectTools: 2})
	t.Cleanup(set.Close)
	info := set.Servers(context.Background())[0]
	var got []string
	for _, tool := range info.Tools {
		got = append(got, fmt.Sprintf("%s:%v", tool.Name, tool.Indirect))
	}
	if strings.Join(got, " ") != "ok_a:false ok_b:false ok_c:true" {
		t.Errorf("tools %v", got)
	}
	n := ns.wait(t)
	if n.Kind != failures.KindMCP || !strings.Contains(n.Message, `MCP server odd offers 3 tools with unusable names (empty, or with whitespace or control characters), left out: "", "ctl\x01", "has space"`) {
		t.Errorf("note %+v", n)
	}
	none := Start([]Spec{sp}, Options{Clock: newFakeClock(), MaxDirectTools: -1})
	t.Cleanup(none.Close)
	for _, tool := range none.Servers(context.Background())[0].Tools {
		if !tool.Indirect {
			t.Errorf("%s is direct with MaxDirectTools < 0", tool.Name)
		}
	}
}
