// MCP tools in the agents: offered to subagents only, results, approvals
// from direct calls and from REPL code, progress, and list_changed between
// requests; against an in-process server built with the SDK.

package rlm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/failures"
	"harness/llmtest"
	"harness/mcpclient"
)

// mcpRig is a server "t" (echo allowed) in a Set wired into a rig.
type mcpRig struct {
	*rig
	srv      *mcp.Server
	set      *mcpclient.Set
	changed  chan string
	notes    chan failures.Note
	approver *answerApprover
	progress chan struct{} // receives when a progress line reached the event consumer
}

type answerApprover struct {
	mu  sync.Mutex
	ok  bool
	err error
	ops []string
}

func (a *answerApprover) Approve(_ context.Context, op json.RawMessage) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ops = append(a.ops, string(op))
	return a.ok, a.err
}

func newMCPRig(t *testing.T, replies ...llmtest.Reply) *mcpRig {
	t.Helper()
	m := &mcpRig{rig: newRig(t, replies...), changed: make(chan string, 64), notes: make(chan failures.Note, 16), approver: &answerApprover{ok: true}, progress: make(chan struct{}, 8)}
	m.onEvent = func(e Event) {
		if o, ok := e.(ToolOutput); ok && strings.HasPrefix(o.Text, "progress") {
			m.progress <- struct{}{}
		}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	object := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	add := func(name, desc string, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: object}, h)
	}
	add("echo", "Echo the text.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("echo " + string(req.Params.Arguments)), nil
	})
	add("sum", "Structured.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{StructuredContent: map[string]any{"sum": 3}}, nil
	})
	add("fail", "Fails.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no such issue"}}}, nil
	})
	add("big", "Long.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(strings.Repeat("é", 3000)), nil
	})
	add("work", "Progress.", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1, Total: 2, Message: "half"})
		select { // progress is only shown while the call runs
		case <-m.progress:
		case <-time.After(10 * time.Second):
			return nil, fmt.Errorf("the progress was not shown")
		}
		return text("worked"), nil
	})
	add("grow", "Adds a tool.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.AddTool(&mcp.Tool{Name: "grown", Description: "New.", InputSchema: object},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("grown!"), nil })
		select { // the client has read the new list before this call ends
		case <-m.changed:
		case <-time.After(10 * time.Second):
			return nil, fmt.Errorf("no list_changed refresh")
		}
		return text("grew"), nil
	})
	m.srv = s
	m.set = mcpclient.Start([]mcpclient.Spec{{Name: "t", Allow: []string{"echo", "grow"}, Dial: func(ctx context.Context) (mcp.Transport, error) {
		c, sv := mcp.NewInMemoryTransports()
		if _, err := s.Connect(ctx, sv, nil); err != nil {
			return nil, err
		}
		return c, nil
	}}}, mcpclient.Options{
		OnFailure: func(n failures.Note, _ int) { m.notes <- n },
		OnChange:  func(name string) { m.changed <- name },
	})
	t.Cleanup(m.set.Close)
	m.set.Servers(context.Background())
	for len(m.changed) > 0 {
		<-m.changed
	}
	m.opts.MCP = m.set
	m.opts.Approver = m.approver
	return m
}

// subagent delegates once; the subagent makes calls, then answers.
func subagent(calls ...llmtest.Reply) []llmtest.Reply {
	out := []llmtest.Reply{llmtest.Call("rlm", `{"task":"use the tools","name":"worker"}`)}
	out = append(out, calls...)
	return append(out, llmtest.Text("sub done"), llmtest.Text("root done"))
}

func lastTool(r *rig, chat int) string {
	msgs := r.chat(chat).Messages
	return msgs[len(msgs)-1].Content
}

func TestMCPToolsOfferedToSubagentsOnly(t *testing.T) {
	m := newMCPRig(t, subagent(llmtest.Call("mcp__t__echo", `{"text":"hi","gone":null}`))...)
	if _, err := m.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range m.chat(0).ToolNames() {
		if strings.HasPrefix(name, "mcp__") {
			t.Errorf("the root is offered %s", name)
		}
	}
	names := strings.Join(m.chat(1).ToolNames(), " ")
	if !strings.HasSuffix(names, "rlm mcp__t__big mcp__t__echo mcp__t__fail mcp__t__grow mcp__t__sum mcp__t__work") {
		t.Errorf("subagent tools: %s", names)
	}
	var echo map[string]any
	for _, raw := range m.chat(1).Tools {
		if strings.Contains(string(raw), `"mcp__t__echo"`) {
			json.Unmarshal(raw, &echo)
		}
	}
	fn, _ := echo["function"].(map[string]any)
	if fn["description"] != "Echo the text." || !strings.Contains(fmt.Sprint(fn["parameters"]), "text") {
		t.Errorf("echo tool = %v", echo)
	}
	if got := lastTool(m.rig, 2); got != `echo {"text":"hi"}` {
		t.Errorf("echo result %q (null arguments are left out)", got)
	}
	starts := eventsOf[AgentStart](m.rig)
	if len(starts) != 2 || len(starts[1].Tools) != len(m.chat(1).Tools) {
		t.Errorf("AgentStart tools (for /tools): %d, offered %d", len(starts[1].Tools), len(m.chat(1).Tools))
	}
	if len(m.approver.ops) != 0 {
		t.Errorf("an allowed tool asked: %v", m.approver.ops)
	}
}

func TestMCPDirectResults(t *testing.T) {
	m := newMCPRig(t, subagent(
		llmtest.Call("mcp__t__sum", `{}`),
		llmtest.Call("mcp__t__fail", ``),
		llmtest.Call("mcp__t__big", `{}`),
		llmtest.Call("mcp__t__echo", `[1]`),
		llmtest.Call("mcp__t__work", `{}`),
	)...)
	if _, err := m.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if got := lastTool(m.rig, 2); got != `{"sum":3}` {
		t.Errorf("structured: %q", got)
	}
	if got := lastTool(m.rig, 3); got != "The tool reported an error:\nno such issue" {
		t.Errorf("isError: %q", got)
	}
	big := lastTool(m.rig, 4)
	if len(big) > 2000 || !strings.HasSuffix(big, "bytes omitted (output_limit is 2000 bytes)]") || !strings.Contains(big, "[MCP result cut: ") {
		t.Errorf("capped result (%d bytes): ...%s", len(big), big[max(0, len(big)-80):])
	}
	if got := lastTool(m.rig, 5); !strings.Contains(got, "Invalid arguments for mcp__t__echo: the arguments are not a JSON object") {
		t.Errorf("bad arguments: %q", got)
	}
	if got := lastTool(m.rig, 6); got != "worked" {
		t.Errorf("work: %q", got)
	}
	var progress []string
	calls := eventsOf[ToolCall](m.rig)
	workID := ""
	for _, c := range calls {
		if c.Name == "mcp__t__work" {
			workID = c.ID
		}
	}
	for _, o := range eventsOf[ToolOutput](m.rig) {
		if o.ID == workID {
			progress = append(progress, o.Text)
		}
	}
	if strings.Join(progress, "") != "progress 1/2: half\n" {
		t.Errorf("progress under the call: %q", progress)
	}
	if len(m.approver.ops) != 4 { // sum, fail, big and work; the bad arguments never reach the server
		t.Errorf("asked: %v", m.approver.ops)
	}
}

func TestMCPApprovalsDirect(t *testing.T) {
	m := newMCPRig(t, subagent(llmtest.Call("mcp__t__sum", `{"a":1}`), llmtest.Call("mcp__t__echo", `{"text":"x"}`))...)
	m.approver.ok = false
	if _, err := m.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if got := lastTool(m.rig, 2); got != "PermissionError: the user refused the call to t/sum; do not retry it, choose another way or ask in your answer" {
		t.Errorf("refused: %q", got)
	}
	if got := lastTool(m.rig, 3); got != `echo {"text":"x"}` {
		t.Errorf("allowed: %q", got)
	}
	req, ans := eventsOf[ApprovalRequested](m.rig), eventsOf[ApprovalAnswered](m.rig)
	if len(req) != 1 || len(ans) != 1 || ans[0].Allowed || string(req[0].Operation) != `{"arguments":{"a":1},"operation":"mcp","server":"t","tool":"sum"}` {
		t.Fatalf("approval events %+v %+v", req, ans)
	}
	if req[0].Agent.Name != "worker" || req[0].ID == "" {
		t.Errorf("approval of %+v", req[0])
	}
	select {
	case n := <-m.notes:
		if n.Kind != failures.KindDenied || !strings.Contains(n.Message, "refused the call to t/sum") || n.Session != req[0].Agent.ID {
			t.Errorf("note = %+v", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no failure note for the denial")
	}
}

// mcpREPL runs "mcp SERVER TOOL ARGS" through its REPLEnv.MCP.
type mcpREPL struct{ env REPLEnv }

func (f *mcpREPL) Exec(ctx context.Context, code string) string {
	parts := strings.SplitN(code, " ", 4)
	if len(parts) != 4 || parts[0] != "mcp" {
		return "ran: " + code
	}
	res, err := f.env.MCP.Call(ctx, parts[1], parts[2], json.RawMessage(parts[3]))
	if err != nil {
		return "Error: " + err.Error()
	}
	return fmt.Sprintf("%s structured=%s error=%v", res.Text, res.Structured, res.IsError)
}

func (f *mcpREPL) Close() {}

func TestMCPApprovalsFromREPL(t *testing.T) {
	m := newMCPRig(t, subagent(
		llmtest.Call("repl", `{"code":"mcp t sum {\"a\":2}"}`),
		llmtest.Call("repl", `{"code":"mcp t echo {}"}`),
		llmtest.Call("repl", `{"code":"mcp t work {}"}`),
	)...)
	m.opts.NewREPL = func(env REPLEnv) (REPL, error) {
		if env.MCP == nil {
			t.Error("the subagent's REPL has no MCP")
		}
		return &mcpREPL{env: env}, nil
	}
	if _, err := m.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if got := lastTool(m.rig, 2); got != `{"sum":3} structured={"sum":3} error=false` {
		t.Errorf("sum from the REPL: %q", got)
	}
	if got := lastTool(m.rig, 3); got != `echo {} structured= error=false` {
		t.Errorf("echo from the REPL: %q", got)
	}
	req := eventsOf[ApprovalRequested](m.rig)
	if len(req) != 2 || string(req[0].Operation) != `{"arguments":{"a":2},"operation":"mcp","server":"t","tool":"sum"}` {
		t.Fatalf("approvals %+v", req)
	}
	calls := eventsOf[ToolCall](m.rig)
	var replWork string
	for _, c := range calls {
		if strings.Contains(c.Arguments, "work") {
			replWork = c.ID
		}
	}
	found := false
	for _, o := range eventsOf[ToolOutput](m.rig) {
		found = found || (o.ID == replWork && o.Text == "progress 1/2: half\n")
	}
	if !found {
		t.Errorf("progress of a REPL call is not shown under the repl call %s: %+v", replWork, eventsOf[ToolOutput](m.rig))
	}
}

func TestMCPListChangedBetweenRequests(t *testing.T) {
	m := newMCPRig(t, subagent(llmtest.Call("mcp__t__grow", `{}`), llmtest.Call("mcp__t__grown", `{}`))...)
	if _, err := m.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if names := strings.Join(m.chat(1).ToolNames(), " "); strings.Contains(names, "grown") {
		t.Fatalf("grown offered before it existed: %s", names)
	}
	if names := strings.Join(m.chat(3).ToolNames(), " "); !strings.Contains(names, "mcp__t__grown") {
		t.Errorf("the request after list_changed offers %s", names)
	}
	if got := lastTool(m.rig, 3); got != "grown!" {
		t.Errorf("grown: %q", got)
	}
	changed := eventsOf[ToolsChanged](m.rig)
	if len(changed) != 1 || changed[0].Agent.Name != "worker" || len(changed[0].Tools) != len(m.chat(3).Tools) {
		t.Errorf("ToolsChanged = %+v", changed)
	}
}

func TestNoMCPNoREPLHook(t *testing.T) {
	r := newRig(t, subagent()...)
	r.opts.NewREPL = func(env REPLEnv) (REPL, error) {
		if env.MCP != nil {
			t.Error("a REPL got MCP without servers")
		}
		return &mcpREPL{env: env}, nil
	}
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
}
