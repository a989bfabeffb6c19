// The agent loop: request, stream, run tool calls in order, save each message.

package rlm

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"harness/jail"
	"harness/llm"
	"harness/sessions"
)

// agent is one running agent: the root (depth 0) or a subagent.
type agent struct {
	r      *Runner
	name   string // subagents only; the root's name is the session's
	depth  int
	id     string // the rlm call that started it; "" for the root
	file   *sessions.File
	tools  []tool
	roots  map[string]*jail.Root // the roots its file tools may use
	rootNs []string              // their names, repository first
	repl   REPL
	mcp    []tool // the MCP servers' tools offered now (subagents); guarded by mu

	fmu sync.Mutex // guards file (the UI may hide root turns during a turn)

	// startup is the instruction-file text the next synthetic start-up
	// call gives after its result (instructions.go), startupFiles the
	// files it was read from; nested the directories whose own
	// instruction file this subagent was given.
	startup      string
	startupFiles []string // the host paths of the start-up files read
	nested       map[string]bool

	// What the budget remembers (budget.go), guarded by fmu: each
	// turn's size, the turn_token_cache by key, and how many outputs the
	// last request left out.
	memo     []turnMemo
	cacheOf  []llm.TurnCount
	cacheMap map[string]llm.TurnCount
	elided   int
	// edits counts the person's changes to what requests hold (a turn
	// hidden or shown, an entry left out or taken back), guarded by fmu:
	// a compaction measured before one of them applies nothing.
	edits int

	mu       sync.Mutex
	call     string             // the tool call running now
	touched  []string           // the repository paths the running REPL call resolved
	launches map[string]*launch // prepared for the subagents of a batch of rlm calls (parallel.go)

	slot *ticket // the [rlm] parallel slot this subagent holds; used by its own goroutine only
}

// outcome is how an agent's run ended; text is what its caller gets.
type outcome struct {
	status Status
	text   string
	err    error // the failure, for Failed
}

func (a *agent) ref() Agent {
	if a.depth == 0 {
		return Agent{Name: a.r.opts.Session.Name()}
	}
	return Agent{Name: a.name, Depth: a.depth, ID: a.id}
}

func (a *agent) emit(e Event) { a.r.emit(e) }

// begin appends the first user message and the synthetic call made on the
// model's behalf, saving after each message.
func (a *agent) begin(ctx context.Context, user, tool, args string) outcome {
	if err := a.add(llm.Message{Role: "user", Content: user}); err != nil {
		return a.failed("", err)
	}
	if a.depth == 0 {
		a.emit(Conversation{Agent: a.ref(), Items: a.r.Conversation()})
	}
	call := llm.ToolCall{ID: llm.NewCallID(), Name: tool, Arguments: args}
	if err := a.add(llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call}}); err != nil {
		return a.failed("", err)
	}
	text, _ := a.run(ctx, call, true)
	if err := a.add(toolMessage(call.ID, text)); err != nil {
		return a.failed("", err)
	}
	return outcome{status: Done}
}

// loop requests replies and runs their tool calls until the model answers
// without one, the context is cancelled, or a request or save fails.
func (a *agent) loop(ctx context.Context) outcome {
	for {
		if ctx.Err() != nil {
			return a.stopped(a.lastContent())
		}
		if a.refreshMCP(ctx) {
			a.emit(ToolsChanged{Agent: a.ref(), Tools: a.llmTools()})
		}
		resp, err := a.request(ctx)
		msg := resp.Message.Redact(a.r.opts.Redactor)
		msg.Role = "assistant"
		if err == nil || msg.Content != "" || len(msg.ToolCalls) > 0 || len(msg.Extra) > 0 {
			// Calls run with the arguments the model sent; the saved
			// message, sent back later, holds JSON objects.
			if serr := a.add(sendable(msg)); serr != nil {
				return a.failed(msg.Content, serr)
			}
		}
		if err != nil {
			if serr := a.notRun(msg.ToolCalls); serr != nil {
				return a.failed(msg.Content, serr)
			}
			if ctx.Err() != nil {
				return a.stopped(msg.Content)
			}
			err = a.failure(err)
			a.emit(Error{Agent: a.ref(), Message: err.Error()})
			return a.failed(msg.Content, err)
		}
		cut, filtered := resp.FinishReason == "length", resp.FinishReason == "content_filter"
		switch {
		case cut:
			a.emit(Notice{Agent: a.ref(), Message: a.lengthNotice(), FinishReason: resp.FinishReason})
		case filtered:
			a.emit(Notice{Agent: a.ref(), Message: filterNotice, FinishReason: resp.FinishReason})
		}
		if len(msg.ToolCalls) == 0 {
			if cut && a.depth > 0 {
				return outcome{status: Done, text: withMarker(msg.Content, a.lengthMarker())}
			}
			if filtered && a.depth > 0 {
				return outcome{status: Done, text: withMarker(msg.Content, filterMarker)}
			}
			return outcome{status: Done, text: msg.Content}
		}
		if out, end := a.runCalls(ctx, msg); end {
			return out
		}
	}
}

func (a *agent) stopped(partial string) outcome {
	return outcome{status: Stopped, text: withMarker(partial, StoppedMarker)}
}

func (a *agent) failed(partial string, err error) outcome {
	err = a.failure(err)
	return outcome{status: Failed, text: withMarker(partial, BranchFailed(err)), err: err}
}

// lastContent is the content of the agent's latest assistant message.
func (a *agent) lastContent() string {
	a.fmu.Lock()
	defer a.fmu.Unlock()
	for i := len(a.file.Items) - 1; i >= 0; i-- {
		if m := a.file.Items[i].Message; !a.file.Items[i].Hidden && m.Role == "assistant" {
			return m.Content
		}
	}
	return ""
}

// send sends msgs and streams the reply as events.
func (a *agent) send(ctx context.Context, msgs []llm.Message, tools []llm.Tool) (llm.Response, error) {
	req := llm.Request{System: a.system(), Messages: msgs, Tools: tools}
	ids := map[int]string{}
	ref := a.ref()
	resp, err := a.r.opts.Client.Stream(ctx, req, func(d llm.Delta) {
		switch d.Kind {
		case llm.DeltaReasoning:
			a.emit(ReasoningDelta{Agent: ref, Text: d.Text})
		case llm.DeltaContent:
			a.emit(TextDelta{Agent: ref, Text: d.Text})
		case llm.DeltaToolCall:
			ids[d.Index] = d.ID
			a.emit(ToolCallStarted{Agent: ref, Index: d.Index, ID: d.ID, Name: d.Name})
		case llm.DeltaToolArgs:
			a.emit(ToolArgsDelta{Agent: ref, ID: ids[d.Index], Text: d.Text})
		case llm.DeltaRetry:
			clear(ids)
			r := d.Retry
			a.emit(Retry{Agent: ref, Attempt: r.Attempt, Max: r.Max, Delay: r.Delay, Reason: a.r.opts.Redactor.String(r.Reason)})
		}
	})
	if resp.Usage != nil {
		a.r.addUsage(*resp.Usage)
		a.emit(Usage{Agent: ref, Usage: *resp.Usage})
	}
	return resp, err
}

// system is the agent's system message: [rlm] subagent_prompt for
// subagents when set, otherwise the invocation's.
func (a *agent) system() *string {
	if a.depth > 0 && a.r.opts.Config.RLM.SubagentPrompt != nil {
		return a.r.opts.Config.RLM.SubagentPrompt
	}
	return a.r.opts.System
}

// llmTools are the tools offered: the agent's own, then the MCP tools.
func (a *agent) llmTools() []llm.Tool {
	var out []llm.Tool
	for _, t := range append(append([]tool(nil), a.tools...), a.mcpTools()...) {
		out = append(out, t.llmTool())
	}
	return out
}

// run executes one tool call, emitting ToolCall and ToolResult.
func (a *agent) run(ctx context.Context, call llm.ToolCall, synthetic bool) (string, Status) {
	a.emit(ToolCall{Agent: a.ref(), ID: call.ID, Name: call.Name, Arguments: call.Arguments, Synthetic: synthetic})
	return a.execute(ctx, call, synthetic)
}

// execute runs call after its ToolCall event and emits its ToolResult.
func (a *agent) execute(ctx context.Context, call llm.ToolCall, synthetic bool) (string, Status) {
	ref := a.ref()
	text, args, st := a.dispatch(ctx, call)
	if synthetic {
		text, a.startup = withText(text, a.startup), ""
	} else if args != nil {
		text = withText(text, a.nestedInstructions(call.Name, args))
	}
	text = a.r.opts.Redactor.String(text)
	a.emit(ToolResult{Agent: ref, ID: call.ID, Name: call.Name, Content: text, Failed: st != Done})
	if st == Failed {
		st = Done // the agent goes on: the model reads what failed
	}
	return text, st
}

// dispatch runs call and returns its result, status and checked arguments
// (nil when the call named no tool of the agent or its arguments were
// refused).
func (a *agent) dispatch(ctx context.Context, call llm.ToolCall) (string, map[string]json.RawMessage, Status) {
	var t *tool
	for _, list := range [][]tool{a.tools, a.mcpTools()} {
		for i := range list {
			if list[i].name == call.Name {
				t = &list[i]
			}
		}
	}
	if t == nil {
		return a.unknownTool(call.Name), nil, Failed
	}
	args, msg := t.check(call.Arguments)
	if msg != "" {
		return msg, nil, Failed
	}
	a.mu.Lock()
	a.call, a.touched = call.ID, nil
	a.mu.Unlock()
	text, st := a.runSafely(ctx, t, call.ID, args)
	return text, args, st
}

// runSafely runs t, turning a panic (a bug in harness) into a result and
// an Error event instead of a crash that would end every agent.
func (a *agent) runSafely(ctx context.Context, t *tool, id string, args map[string]json.RawMessage) (text string, st Status) {
	defer func() {
		if p := recover(); p != nil {
			msg := fmt.Sprintf("%s failed: harness hit an internal error (%v); its effects may be partial. Try another way; the user may report this bug.", t.name, p)
			a.emit(Error{Agent: a.ref(), Message: fmt.Sprintf("internal error in the %s tool (a bug in harness): %v", t.name, p)})
			text, st = msg, Failed
		}
	}()
	if t.runCall != nil {
		return t.runCall(ctx, a, id, args)
	}
	return t.run(ctx, a, args)
}

func (a *agent) currentCall() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.call
}

// unknownTool is the result of a call naming a tool the agent lacks.
func (a *agent) unknownTool(name string) string {
	s := "Unknown tool: " + name
	if fl, ok := a.repl.(functionLister); ok {
		if sig, ok := fl.Functions()[name]; ok {
			s += fmt.Sprintf("\n%s is a REPL function, not a tool: call it in code sent to the %s tool. Signature: %s", name, REPLTool, sig)
		}
	}
	var names []string
	for _, t := range a.llmTools() {
		names = append(names, t.Name)
	}
	b, _ := json.Marshal(names)
	return s + "\nYour tools are " + string(b) + "."
}

// add appends m to the conversation, saves the file and emits MessageAdded.
func (a *agent) add(m llm.Message) error {
	m = m.Redact(a.r.opts.Redactor)
	a.fmu.Lock()
	a.file.Append(m)
	err := a.save()
	a.fmu.Unlock()
	if err != nil {
		a.emit(Error{Agent: a.ref(), Message: err.Error()})
		return err
	}
	a.emit(MessageAdded{Agent: a.ref(), Message: m})
	return nil
}

// save writes the agent's file; the caller holds fmu.
func (a *agent) save() error {
	err := a.r.opts.Session.Save(a.depth, a.id, a.file)
	if err != nil {
		a.r.savedFailed(err)
	}
	return err
}

// notRun answers calls left without a result. Each still gets its ToolCall
// event first, so consumers see every result after its call.
func (a *agent) notRun(calls []llm.ToolCall) error {
	for _, c := range calls {
		a.emit(ToolCall{Agent: a.ref(), ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		a.emit(ToolResult{Agent: a.ref(), ID: c.ID, Name: c.Name, Content: NotRun, Failed: true})
		if err := a.add(toolMessage(c.ID, NotRun)); err != nil {
			return err
		}
	}
	return nil
}

func toolMessage(id, text string) llm.Message {
	return llm.Message{Role: "tool", ToolCallID: id, Content: text}
}

// root returns the named root for a file tool ("" is the repository).
func (a *agent) root(name string) (*jail.Root, error) {
	if name == "" {
		name = jail.Repository
	}
	if r, ok := a.roots[name]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("root %q is not available to this agent; use one of %v", name, a.rootNs)
}

// turnTokens is FYI's count, the one the UI's status line and context
// overlay show: the tokens of the visible conversation, what the next
// request carries in messages (compaction entries included), each settled
// turn counted as the context overlay counts it (its cached /tokenize
// count when unchanged, else estimated, and estimated is then true), from
// the counts the budget remembers. Hidden turns are left out, so hiding
// one changes it at once; the endpoint's reported usage, which cannot
// follow that, is not used.
func (a *agent) turnTokens() (int, bool) {
	a.fmu.Lock()
	defer a.fmu.Unlock()
	s := a.size(nil)
	return s.total - s.fixed, s.estimated
}
