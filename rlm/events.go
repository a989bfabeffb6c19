// The typed events agents emit for the UI and the headless printer.

package rlm

import (
	"encoding/json"
	"time"

	"harness/llm"
	"harness/sessions"
)

// Agent identifies the agent an event is about.
type Agent struct {
	Name  string // the session name for the root, the rlm name for a subagent
	Depth int    // 0 for the root
	ID    string // the ID of the rlm call that started it; "" for the root
}

// Event is one thing that happened during a turn. The concrete types are
// listed below; consumers switch on them. Every event except SessionReady
// is about one agent (Of). A root turn's events run from AgentStart to
// TurnDone, with each subagent's between its AgentStart and AgentEnd.
type Event interface {
	Of() Agent
}

// Status is how an agent's run ended.
type Status int

const (
	Done    Status = iota // answered without a tool call
	Stopped               // stopped by the user (Esc, SIGINT)
	Failed                // the endpoint or saving failed
)

func (s Status) String() string {
	return [...]string{"done", "stopped", "failed"}[s]
}

// Delta events: consecutive undelivered deltas of the same kind, agent and
// call may be merged into one (see Stream).
type (
	// ReasoningDelta is a fragment of the model's readable reasoning.
	ReasoningDelta struct {
		Agent Agent
		Text  string
	}
	// TextDelta is a fragment of the answer text.
	TextDelta struct {
		Agent Agent
		Text  string
	}
	// ToolArgsDelta is a fragment of a streaming tool call's arguments.
	ToolArgsDelta struct {
		Agent Agent
		ID    string
		Text  string
	}
	// ToolOutput is text a running tool printed (REPL print()).
	ToolOutput struct {
		Agent Agent
		ID    string
		Text  string
	}
)

// Must-deliver events: each is delivered exactly once, in order.
type (
	// SessionReady says the session's directory exists and holds the
	// root's file: sent once per Runner, after its first save.
	SessionReady struct {
		Name, Dir string
	}
	// AgentStart says an agent began; Task is its first user message (for
	// the root: the turn's prompt).
	AgentStart struct {
		Agent Agent
		Task  string
		Tools []llm.Tool // the tools the agent is offered (for /tools)
	}
	// ToolsChanged gives an agent's tools after they changed while it ran
	// (an MCP server started, stopped or sent list_changed); the next
	// request offers them.
	ToolsChanged struct {
		Agent Agent
		Tools []llm.Tool
	}
	// Queued says a subagent waits for one of the [rlm] parallel slots
	// (Waiting true), or got one and runs (Waiting false). It is sent only
	// around a wait: after its AgentStart when the slots were all taken,
	// or when its own subagents ended and it must wait to go on.
	Queued struct {
		Agent   Agent
		Waiting bool
	}
	// AgentEnd says an agent finished; Result is what its caller gets.
	AgentEnd struct {
		Agent  Agent
		Status Status
		Result string
	}
	// MessageAdded is a message appended to an agent's conversation (and
	// saved): the user message, each assistant reply, each tool result.
	MessageAdded struct {
		Agent   Agent
		Message llm.Message
	}
	// Conversation is the root's whole conversation, sent when a turn starts
	// after earlier FYI calls were removed, so a view can redraw it.
	Conversation struct {
		Agent Agent
		Items []sessions.Item
	}
	// ToolCallStarted says a streaming reply began tool call Index.
	ToolCallStarted struct {
		Agent Agent
		Index int
		ID    string
		Name  string
	}
	// ToolCall is a complete tool call about to run (also for the synthetic
	// calls harness makes on the model's behalf), or one left without
	// running when the turn stopped or the reply failed, whose ToolResult
	// follows at once. Every ToolResult comes after its ToolCall.
	ToolCall struct {
		Agent     Agent
		ID        string
		Name      string
		Arguments string // the JSON text the model sent
		Synthetic bool
	}
	// ToolResult is the result of a call, exactly as the model gets it.
	// Failed says the call did not do what it was asked: bad arguments,
	// an unknown tool, an error from the tool (a missing file, a patch
	// that does not apply, an MCP tool's error), a REPL call that ended
	// in an error, a subagent stopped or failed, a call never run. The
	// model learns it from Content alone; Failed is for front ends.
	ToolResult struct {
		Agent   Agent
		ID      string
		Name    string
		Content string
		Failed  bool
	}
	// ApprovalRequested says a REPL operation waits for an approval.
	ApprovalRequested struct {
		Agent     Agent
		ID        string // the tool call running the operation
		Operation json.RawMessage
	}
	// ApprovalAnswered gives the decision on an ApprovalRequested.
	ApprovalAnswered struct {
		Agent     Agent
		ID        string
		Operation json.RawMessage
		Allowed   bool
		Reason    string // the refusal's message, when there is one
	}
	// CommandStarted says a run() command of the REPL call ID started
	// (Argv[0] is the name as the code wrote it); CommandEnded follows
	// when it has ended. For front ends that show what runs; never saved.
	CommandStarted struct {
		Agent Agent
		ID    string
		Argv  []string
	}
	CommandEnded struct {
		Agent Agent
		ID    string
	}
	// Usage is the token usage the endpoint reported for one request.
	Usage struct {
		Agent Agent
		Usage llm.Usage
	}
	// Error is a failure shown to the user (an endpoint error, a failed save).
	Error struct {
		Agent   Agent
		Message string
	}
	// Retry says the agent's request failed and is sent again after
	// Delay (an Esc during the wait stops the turn at once). The deltas
	// the agent streamed since its latest MessageAdded were the failed
	// attempt's: they are void, and the new attempt's follow. Attempt
	// counts from 1 up to Max ([endpoint] max_retries).
	Retry struct {
		Agent   Agent
		Attempt int
		Max     int
		Delay   time.Duration
		Reason  string // what failed, in a few words ("429 Too Many Requests")
	}
	// Notice is a warning about the agent's work for the person, shown and
	// never saved or sent: a reply cut at the token limit, or stopped by
	// the server's content filter (FinishReason is then that reply's
	// finish_reason, "length" or "content_filter"), or an instruction file
	// that could not be given (FinishReason "").
	Notice struct {
		Agent        Agent
		Message      string
		FinishReason string
	}
	// ContextCompacted says a request was made to fit the model's context
	// window before it was sent: at the root, the oldest settled turns
	// were hidden (Turns, 0-based) and, when Summarised, stand in the
	// request as one compaction entry; at any agent, the oldest tool
	// outputs of the current turn were left out of the request (Elided;
	// Cut when the newest was cut to fit). Before and After are the
	// request's tokens as harness counts them; Message is the line front
	// ends show ("context: turns 1–3 summarised to fit the 12k window";
	// the UI adds how to restore them).
	ContextCompacted struct {
		Agent         Agent
		Window        int
		Before, After int
		Turns         []int
		Summarised    bool
		Elided        int
		Cut           bool
		Message       string
	}
	// TurnDone ends a root turn. Text is the root's final answer (or, when
	// stopped or failed, the partial text with its marker); Usage sums every
	// request of the turn, subagents included.
	TurnDone struct {
		Agent  Agent
		Status Status
		Text   string
		Usage  llm.Usage
	}
)

func (e ReasoningDelta) Of() Agent    { return e.Agent }
func (e TextDelta) Of() Agent         { return e.Agent }
func (e ToolArgsDelta) Of() Agent     { return e.Agent }
func (e ToolOutput) Of() Agent        { return e.Agent }
func (e SessionReady) Of() Agent      { return Agent{Name: e.Name} }
func (e AgentStart) Of() Agent        { return e.Agent }
func (e AgentEnd) Of() Agent          { return e.Agent }
func (e Queued) Of() Agent            { return e.Agent }
func (e ToolsChanged) Of() Agent      { return e.Agent }
func (e MessageAdded) Of() Agent      { return e.Agent }
func (e Conversation) Of() Agent      { return e.Agent }
func (e ToolCallStarted) Of() Agent   { return e.Agent }
func (e ToolCall) Of() Agent          { return e.Agent }
func (e ToolResult) Of() Agent        { return e.Agent }
func (e ApprovalRequested) Of() Agent { return e.Agent }
func (e ApprovalAnswered) Of() Agent  { return e.Agent }
func (e Usage) Of() Agent             { return e.Agent }
func (e CommandStarted) Of() Agent    { return e.Agent }
func (e CommandEnded) Of() Agent      { return e.Agent }
func (e Error) Of() Agent             { return e.Agent }
func (e Retry) Of() Agent             { return e.Agent }
func (e Notice) Of() Agent            { return e.Agent }
func (e TurnDone) Of() Agent          { return e.Agent }
func (e ContextCompacted) Of() Agent  { return e.Agent }
