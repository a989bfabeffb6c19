// Package rlm runs harness's agents: the root agent the user talks to, and
// the subagents it delegates to with the rlm tool, recursively up to
// [rlm] max_depth.
//
// # The flow of one turn
//
//	ui / headless  --Turn(prompt)-->  rlm.Runner (root agent)  --request-->  llm (SSE)
//	llm  --deltas-->  rlm  --events (Stream)-->  ui / headless
//	rlm  --tool call-->  tools | patch | repl (Starlark)  --result-->  rlm  --Save-->  sessions
//	root  --rlm call-->  subagent (same loop, one level deeper)  --answer-->  root
//	repl  --wire frames-->  worker process (Starlark)  --host calls (run, …)-->  repl
//
// Front ends only consume events and call Turn; they hold no agent logic.
// rlm imports no UI code.
//
// # Agents
//
// The root (depth 0) has two tools, rlm and FYI, and no file access. A
// subagent (depth d ≥ 1) has repl (described by [repl] tool_description,
// verbatim), read_file, apply_patch, grep and list, plus rlm while
// d < max_depth. The file tools take an optional root: repository (the
// default), store when [rlm.store] is configured, and library (this
// session's root and depth-1 conversation files, read-only) at depth ≥ 2;
// apply_patch never offers library. The root argument is offered only when
// there is more than the repository to choose from.
//
// With Options.MCP, each subagent (never the root, which only delegates)
// is also offered every tool of the running MCP servers as
// mcp__<server>__<tool>, with the server's description and input schema,
// after the tools above. The first subagent waits for servers still
// starting (mcpclient: at most 30 s) before its AgentStart; before each
// request the list is read again, and a change (a server started, stopped
// or sent list_changed) is offered from that request on and announced by
// ToolsChanged. A direct MCP call's result is the tool's content as text
// (mcpclient.Result), "The tool reported an error:" first when the tool
// says so, capped at output_limit; refusals and failures are the result
// text. Progress notifications are ToolOutput events of the call. The
// subagent's REPL reaches the same servers (REPLEnv.MCP, for mcp() and
// mcp_tools()): every call, direct or from code, goes through the
// subagent's approvals, so a tool off its server's allow list asks each
// time.
//
// An rlm call's task becomes the subagent's first user message verbatim.
// The subagent works until it answers without a tool call; that answer, cut
// to [repl] output_limit, is the call's result. A subagent never runs
// again after answering. The rlm calls of one response run one after
// another, in order, unless [rlm] parallel is N > 1 (parallel.go):
// consecutive rlm calls then start at once, at most N subagents run in the
// whole tree at any moment (tickets served in call order; a Queued event
// frames a wait), and a caller waiting on its own subagents gives its slot
// back meanwhile, so no depth deadlocks. Their ToolCall events come first,
// in order; each result is appended once every earlier one is, so the
// conversation holds them in call order whatever order they finish in. The system message is [chat] prompt or
// --system-prompt (Options.System) for every agent, except that subagents
// get [rlm] subagent_prompt verbatim when it is set.
//
// Synthetic calls: each root turn starts, after the user message, with an
// FYI call made on the model's behalf, after every earlier FYI call and its
// result were removed from the conversation (and so from its file). Each
// subagent starts, after its task, with one repl call running FYI(), help(),
// store_summary() (with a store) and library_summary() (at depth ≥ 2).
// They are saved and shown like other calls.
//
// Instruction files (Options.Instructions, package instructions): every
// agent is given the person's own file and those from the repository's
// top down to the launch directory once, appended to its start-up call's
// result (the root's FYI, a subagent's start-up REPL call), never in the
// system message or the task. At each root turn the files are read again:
// a file whose current text no visible tool result holds (it changed, or
// the turn that gave it was hidden) is given in that turn's start-up call,
// marked as replacing the earlier text, which stays where it was; an FYI
// call that gave instruction files is never removed. When a subagent's
// read_file, apply_patch, grep, list or REPL call touches a repository path
// below a directory with its own instruction file not given to it yet,
// that file is appended once to the call's result, read through the
// repository's jail (so only when the permission level allows reading). A
// file that cannot be read is skipped with a note in the text and a Notice.
//
// # Stopping and failures
//
// Cancelling Turn's context stops every agent. The deepest agent's partial
// response followed by "[stopped by user]" becomes the rlm result at every
// level (and Result.Text). A subagent whose request or save fails returns
// its partial response followed by "[branch failed: <error>]" and its
// caller continues. Calls left without a result get "[not run: turn
// stopped]", so every saved conversation stays valid for the endpoint.
//
// New repairs the root conversation a killed process left behind
// (recover.go): a call that never started gets "[not run: turn stopped]";
// an rlm call whose subagent had started (its conversation file exists)
// gets the subagent's answer followed by "[recovered: …]" when its file
// ends with one, else its latest partial response followed by
// "[interrupted: …]", which names the subagent and its conversation file,
// counts the tool calls it had made, warns that files may have changed when
// it made any, and names the deeper subagent it was waiting for.
//
// Requests are retried by the client (llm.Decide, [endpoint] max_retries):
// before each wait the agent emits Retry, and the deltas it streamed since
// its last message are void; nothing of a failed attempt is saved or sent
// back, and only the last attempt's partial message is kept with its
// error. A request the server refuses as longer than the model's context
// teaches the window when the refusal names it, is fitted again and sent
// once more (see Context window); when that cannot help it fails with its
// size (as the context overlay counts it) and how to make room
// (Options.RoomAdvice at the root; at a subagent, that its caller should
// split the task), and a root turn that failed so is hidden from later
// requests (sessions.HiddenByRefusal) so that they can fit.
// Every error text shown or returned passes through Options.Redactor. A
// reply that finished with finish_reason "length" is kept and a Notice
// says it was cut; a subagent's result then ends with a marker saying so.
// A reply the server's content filter stopped (finish_reason
// "content_filter") is handled the same way, with words of its own.
//
// Bad calls never crash a turn: invalid JSON, unknown or missing arguments,
// wrong types and unknown tools get a result text saying what to fix
// ("Unknown tool: X", with a pointer to call X inside REPL code when X is a
// REPL or helper function, and the agent's tool names). The saved reply,
// which later requests send back, holds a JSON object for every call's
// arguments ({} for empty ones, the object for one sent as a JSON string,
// which also runs, and {"invalid_arguments": text} for the rest),
// because servers such as vLLM and llama.cpp parse them and refuse the
// whole request otherwise; ToolCall events carry the text the model sent.
//
// # Context window
//
// Options.Window is the model's window (llm.Window: configured, asked of
// the server, or learnt from refusals). While it is known, every request
// is fitted before it is sent (fit.go): its size (system message and
// tools estimated, each turn by the root's turn_token_cache or estimated,
// remembered per turn so that a long session is not walked again) is held
// to [chat] compact_at of the window less a reserve for the answer
// (budget.go). Over it, the root hides its oldest settled turns, marked
// sessions.HiddenByCompaction, and puts one sessions.Compaction entry
// with the model's summary of them in their place (compact.go; "hide"
// mode leaves the summary out); then any agent leaves the oldest tool
// outputs of its current turn out of the request, each replaced by a
// stub, the newest cut to fit only when it alone cannot (elide.go). The
// files keep everything. Each fitting emits ContextCompacted.
// Runner.Compact (/compact), ContextReport (/context) and SetEntryOff
// (the overlay's entry row) are the front ends' handles on it.
//
// # Saving
//
// Every message is saved (sessions.Session.Save, atomic) as soon as it is
// appended, before its event is emitted: the root's file is
// library/root.json, a subagent's is named by its rlm call ID. Secrets are
// redacted (Options.Redactor) before a message is kept, so what is sent
// later is exactly what was saved.
//
// # Events
//
// Agents emit typed events (events.go) on one Stream: deltas may be
// coalesced, everything else is delivered exactly once, in order.
//
// # Front ends
//
// A front end builds Options (cmd/harness wires the endpoint client,
// roots, REPLs and file tools), calls New with the loaded root file (nil
// for a new session), consumes the Stream on its own goroutine and calls
// Turn for each prompt, cancelling its context to stop. Besides Turn:
// Running (a turn is running: /new refuses), SubagentRunning (/rename
// refuses, see sessions.Session.Rename), Conversation and Local (the root
// file's items and _harness_local, for the transcript and the context
// editor), SetHidden and SetTurnTokenCache (the context editor's changes,
// saved at once), RootTools, AgentStart.Tools and ToolsChanged (/tools).
//
// Approvals: a REPL operation or a refused write is put to
// Options.Approver, between an ApprovalRequested and its ApprovalAnswered.
// With [rlm] parallel several agents may ask at once, so an Approver that
// implements AgentApprover is told which agent and call asks (the UI
// queues them at one prompt, ACP names each request's own call); the
// headless Approver refuses them all.
package rlm
