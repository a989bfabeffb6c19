// Subagents: started by an rlm call, run once, answer their caller.

package rlm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"harness/jail"
	"harness/repl"
	"harness/sessions"
)

// delegate runs a subagent for rlm call id and returns the call's result:
// the subagent's answer capped at output_limit, its partial response and
// [stopped by user] (status Stopped), or its partial response and
// [branch failed: …]. The subagent runs once it holds one of the [rlm]
// parallel slots (parallel.go), and gives it back when it ends.
func (a *agent) delegate(ctx context.Context, id, task, name string) (string, Status) {
	parent := sessions.RootParent
	if a.depth > 0 {
		parent = a.id
	}
	c := &agent{r: a.r, name: name, depth: a.depth + 1, id: id}
	c.file = &sessions.File{Local: sessions.Local{Repository: a.r.opts.RepoDir, Depth: c.depth, Parent: parent}}
	a.r.subagents.Add(1)
	defer a.r.subagents.Add(-1)
	l := a.launchFor(id)
	err := c.setup()
	c.refreshMCP(ctx)
	l.waitTurn(ctx)
	a.emit(AgentStart{Agent: c.ref(), Task: task, Tools: c.llmTools()})
	l.announced()
	var out outcome
	switch {
	case err != nil:
		l.ticketOf().drop()
		out = c.failed("", err)
	case c.acquire(ctx, l.ticketOf()) != nil:
		out = c.stopped("")
	default:
		out = c.start(ctx, task)
	}
	if c.repl != nil {
		c.repl.Close()
	}
	if c.roots[jail.Library] != nil {
		c.roots[jail.Library].Close()
	}
	c.release() // after its REPL worker ended: at most N run
	text, st := out.text, out.status
	if st == Done {
		text = capText(out.text, a.r.limit())
	}
	a.emit(AgentEnd{Agent: c.ref(), Status: out.status, Result: text})
	return text, st
}

// setup gives the subagent its roots and tools.
func (c *agent) setup() error {
	o := c.r.opts
	c.roots = map[string]*jail.Root{jail.Repository: o.Repository}
	c.rootNs = []string{jail.Repository}
	if o.Store != nil {
		c.roots[jail.Store] = o.Store
		c.rootNs = append(c.rootNs, jail.Store)
	}
	if c.depth >= 2 {
		lib, err := jail.Open(jail.Library, o.Session.LibraryDir(), nil)
		if err != nil {
			return fmt.Errorf("open /library: %w", err)
		}
		c.roots[jail.Library] = lib
		c.rootNs = append(c.rootNs, jail.Library)
	}
	c.tools = []tool{replTool(o.Config.REPL.ToolDescription), readFileTool(c.rootNs),
		applyPatchTool(c.rootNs), grepTool(c.rootNs), listTool(c.rootNs)}
	if c.depth < o.Config.RLM.MaxDepth {
		c.tools = append(c.tools, rlmTool())
	}
	return nil
}

// start builds the subagent's REPL, sends its task with the synthetic REPL
// call, and runs its loop.
func (c *agent) start(ctx context.Context, task string) outcome {
	o := c.r.opts
	lib := c.roots[jail.Library]
	repl, err := o.NewREPL(REPLEnv{
		Depth:   c.depth,
		Library: lib,
		Output: func(s string) {
			c.emit(ToolOutput{Agent: c.ref(), ID: c.currentCall(), Text: o.Redactor.String(s)})
		},
		Command: func(argv []string) func() {
			ref, id := c.ref(), c.currentCall()
			for i, a := range argv {
				argv[i] = o.Redactor.String(a)
			}
			c.emit(CommandStarted{Agent: ref, ID: id, Argv: argv})
			return func() { c.emit(CommandEnded{Agent: ref, ID: id}) }
		},
		Approver:  approvals{c},
		AskWrites: o.AskWrites,
		Model:     func() string { return o.Config.Endpoint.Model },
		PromptTokens: func() (int, bool) {
			return c.turnTokens()
		},
		Session: c.id,
		MCP:     c.replMCP(),
		Touched: c.touch,
	})
	if err != nil {
		return c.failed("", fmt.Errorf("start the REPL: %w", err))
	}
	c.repl = repl
	c.startup = c.startupInstructions()
	args, _ := json.Marshal(map[string]string{"code": startupCode(o.Store != nil, lib != nil)})
	if out := c.begin(ctx, task, REPLTool, string(args)); out.status != Done {
		return out
	}
	return c.loop(ctx)
}

// replMCP is what the subagent's REPL reaches the MCP servers through; nil
// without servers.
func (c *agent) replMCP() repl.MCP {
	if c.r.opts.MCP == nil {
		return nil
	}
	return replMCP{m: c.r.opts.MCP, call: c.mcpCall}
}

// startupCode is the synthetic first REPL call of every subagent.
func startupCode(store, library bool) string {
	lines := []string{"FYI()", "help()"}
	if store {
		lines = append(lines, "store_summary()")
	}
	if library {
		lines = append(lines, "library_summary()")
	}
	return strings.Join(lines, "\n")
}

// approvals reports a subagent's approval requests as events and passes
// them to the front end's Approver.
type approvals struct{ a *agent }

func (p approvals) Approve(ctx context.Context, op json.RawMessage) (bool, error) {
	ref, id := p.a.ref(), p.a.currentCall()
	p.a.emit(ApprovalRequested{Agent: ref, ID: id, Operation: op})
	ok, err := false, error(errNoApprover)
	switch ap := p.a.r.opts.Approver.(type) {
	case AgentApprover:
		ok, err = ap.ApproveFor(ctx, ref, id, op)
	case Approver:
		ok, err = ap.Approve(ctx, op)
	}
	ans := ApprovalAnswered{Agent: ref, ID: id, Operation: op, Allowed: ok && err == nil}
	if err != nil {
		ans.Reason = err.Error()
	}
	p.a.emit(ans)
	return ans.Allowed, err
}

var errNoApprover = fmt.Errorf("denied: no one can approve operations in this session")
