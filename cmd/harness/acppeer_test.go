// The editor side for the harness acp tests: the ACP Go SDK's client
// connection to harness acp running as a child process.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// acpPeer is harness acp in a child process, with the SDK client
// connected to its stdin and stdout.
type acpPeer struct {
	t       *testing.T
	cmd     *exec.Cmd
	conn    *sdk.ClientSideConnection
	stdin   io.WriteCloser
	stderr  *syncBuffer
	stopped bool
	*acpClient
}

// startACP starts harness acp in e's repository.
func (e *testEnv) startACP() *acpPeer {
	e.t.Helper()
	cmd := e.command("acp")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	p := &acpPeer{t: e.t, cmd: cmd, stdin: stdin, stderr: &syncBuffer{}, acpClient: newACPClient()}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	pr, pw := io.Pipe()
	p.conn = sdk.NewClientSideConnection(p.acpClient, stdin, pr)
	p.conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	go func() { // harness's output flows once the connection is set up
		io.Copy(pw, stdout)
		pw.Close()
	}()
	e.t.Cleanup(func() {
		if !p.stopped {
			if code := p.stop(); code != 0 {
				e.t.Errorf("harness acp exited %d\nstderr:\n%s", code, p.stderr)
			}
		}
	})
	return p
}

// stop closes harness's stdin (the editor going away) and waits for it to
// exit, killing it after 20 s; it returns the exit code.
func (p *acpPeer) stop() int {
	p.stopped = true
	p.stdin.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill()
		<-done
		p.t.Errorf("harness acp did not exit after its stdin closed\nstderr:\n%s", p.stderr)
	}
	return p.cmd.ProcessState.ExitCode()
}

func (p *acpPeer) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	p.t.Cleanup(cancel)
	return ctx
}

// initialize sends initialize and checks the answer.
func (p *acpPeer) initialize() sdk.InitializeResponse {
	p.t.Helper()
	resp, err := p.conn.Initialize(p.ctx(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientInfo: &sdk.Implementation{Name: "harness-test", Version: "1"}})
	if err != nil {
		p.t.Fatalf("initialize: %v\nstderr:\n%s", err, p.stderr)
	}
	return resp
}

// newSession creates a session in dir.
func (p *acpPeer) newSession(dir string, servers ...sdk.McpServer) sdk.NewSessionResponse {
	p.t.Helper()
	if servers == nil {
		servers = []sdk.McpServer{}
	}
	resp, err := p.conn.NewSession(p.ctx(), sdk.NewSessionRequest{Cwd: dir, McpServers: servers})
	if err != nil {
		p.t.Fatalf("session/new: %v\nstderr:\n%s", err, p.stderr)
	}
	return resp
}

// prompt sends one text prompt and returns the answer.
func (p *acpPeer) prompt(id sdk.SessionId, text string) (sdk.PromptResponse, error) {
	return p.conn.Prompt(p.ctx(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
}

// acpClient records what harness sends and answers permission requests.
type acpClient struct {
	mu      sync.Mutex
	updates []sdk.SessionNotification
	perms   []sdk.RequestPermissionRequest
	changed chan struct{} // receives after each update or request (non-blocking)
	// answer answers a permission request; the default rejects once.
	answer func(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
}

func newACPClient() *acpClient { return &acpClient{changed: make(chan struct{}, 1)} }

func (c *acpClient) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

func (c *acpClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	c.mu.Unlock()
	c.signal()
	return nil
}

func (c *acpClient) RequestPermission(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.perms = append(c.perms, req)
	answer := c.answer
	c.mu.Unlock()
	c.signal()
	if answer == nil {
		return choose(optionOf(req, sdk.PermissionOptionKindRejectOnce)), nil
	}
	return answer(ctx, req)
}

func (c *acpClient) setAnswer(f func(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)) {
	c.mu.Lock()
	c.answer = f
	c.mu.Unlock()
}

// answerWith answers every request with the option of that kind.
func (c *acpClient) answerWith(kind sdk.PermissionOptionKind) {
	c.setAnswer(func(_ context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		return choose(optionOf(req, kind)), nil
	})
}

func optionOf(req sdk.RequestPermissionRequest, kind sdk.PermissionOptionKind) sdk.PermissionOptionId {
	for _, o := range req.Options {
		if o.Kind == kind {
			return o.OptionId
		}
	}
	return "missing-" + sdk.PermissionOptionId(kind)
}

func choose(id sdk.PermissionOptionId) sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
		Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: id, Outcome: "selected"}}}
}

func cancelled() sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
		Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}
}

// of returns the updates of session id, and clears them.
func (c *acpClient) take(id sdk.SessionId) []sdk.SessionUpdate {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []sdk.SessionUpdate
	var rest []sdk.SessionNotification
	for _, n := range c.updates {
		if n.SessionId == id {
			out = append(out, n.Update)
		} else {
			rest = append(rest, n)
		}
	}
	c.updates = rest
	return out
}

func (c *acpClient) permissions() []sdk.RequestPermissionRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sdk.RequestPermissionRequest(nil), c.perms...)
}

// waitFor waits until cond holds of the updates so far.
func (c *acpClient) waitFor(t *testing.T, what string, cond func(us []sdk.SessionNotification, perms []sdk.RequestPermissionRequest) bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		c.mu.Lock()
		ok := cond(c.updates, c.perms)
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-c.changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

var errNoTerminal = errors.New("the test client has no terminal or file system")

func (c *acpClient) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errNoTerminal
}
func (c *acpClient) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errNoTerminal
}
func (c *acpClient) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errNoTerminal
}
func (c *acpClient) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errNoTerminal
}
func (c *acpClient) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errNoTerminal
}
func (c *acpClient) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errNoTerminal
}
func (c *acpClient) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errNoTerminal
}

// Reading updates.

// textOf concatenates the text of the updates of a kind.
func textOf(us []sdk.SessionUpdate, kind string) string {
	var b strings.Builder
	for _, u := range us {
		var c *sdk.ContentBlock
		switch {
		case kind == "agent_message_chunk" && u.AgentMessageChunk != nil:
			c = &u.AgentMessageChunk.Content
		case kind == "agent_thought_chunk" && u.AgentThoughtChunk != nil:
			c = &u.AgentThoughtChunk.Content
		case kind == "user_message_chunk" && u.UserMessageChunk != nil:
			c = &u.UserMessageChunk.Content
		}
		if c != nil && c.Text != nil {
			b.WriteString(c.Text.Text)
		}
	}
	return b.String()
}

// metaOf is an update's _meta.harness object (nil without one).
func metaOf(u sdk.SessionUpdate) map[string]any {
	b, _ := json.Marshal(u)
	var m struct {
		Meta struct {
			Harness map[string]any `json:"harness"`
		} `json:"_meta"`
	}
	json.Unmarshal(b, &m)
	return m.Meta.Harness
}

// acpCall is one tool call as the updates tell it.
type acpCall struct {
	id        string
	title     string
	kind      sdk.ToolKind
	statuses  []sdk.ToolCallStatus
	locations []sdk.ToolCallLocation
	content   []sdk.ToolCallContent // the latest
	meta      map[string]any
	rawOutput any
}

// callsOf gathers the tool calls of updates in the order they started;
// updates about an unknown call fail the test.
func callsOf(t *testing.T, us []sdk.SessionUpdate) []*acpCall {
	t.Helper()
	var out []*acpCall
	byID := map[string]*acpCall{}
	for _, u := range us {
		switch {
		case u.ToolCall != nil:
			tc := u.ToolCall
			c := &acpCall{id: string(tc.ToolCallId), title: tc.Title, kind: tc.Kind, statuses: []sdk.ToolCallStatus{tc.Status},
				locations: tc.Locations, content: tc.Content, meta: metaOf(u)}
			if byID[c.id] != nil {
				t.Errorf("tool_call %s sent twice", c.id)
			}
			byID[c.id] = c
			out = append(out, c)
		case u.ToolCallUpdate != nil:
			tu := u.ToolCallUpdate
			c := byID[string(tu.ToolCallId)]
			if c == nil {
				t.Errorf("tool_call_update for %s before its tool_call", tu.ToolCallId)
				continue
			}
			if tu.Status != nil {
				c.statuses = append(c.statuses, *tu.Status)
			}
			if tu.Content != nil {
				c.content = tu.Content
			}
			if tu.RawOutput != nil {
				c.rawOutput = tu.RawOutput
			}
		}
	}
	return out
}

// resultText is the text content of a finished call.
func (c *acpCall) resultText() string {
	var b strings.Builder
	for _, tc := range c.content {
		if tc.Content != nil && tc.Content.Content.Text != nil {
			b.WriteString(tc.Content.Content.Text.Text)
		}
	}
	return b.String()
}

func (c *acpCall) final() sdk.ToolCallStatus { return c.statuses[len(c.statuses)-1] }

// syncBuffer is a bytes.Buffer safe for a child's stderr and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
