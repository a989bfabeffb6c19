// Package acp makes harness an Agent Client Protocol agent (harness acp):
// an editor such as Zed starts harness, speaks ACP version 1 to it over
// stdin and stdout (newline-delimited JSON-RPC 2.0, through the Go SDK
// github.com/coder/acp-go-sdk), and shows the conversation, the tool
// calls and the approval prompts itself. stdout carries protocol messages
// only; diagnostics go to Options.Log (stderr).
//
// Like the UI and headless mode, acp holds no agent logic: it maps ACP
// requests onto rlm's Runner and approvals, and rlm's events onto ACP
// notifications. cmd/harness builds each session's root agent
// (Options.Start) as it does for the UI.
//
//	editor  --session/prompt-->  acp  --Turn-->  rlm.Runner
//	rlm  --events (Stream)-->  acp pump  --session/update-->  editor
//	repl run() / MCP call  --Approve-->  acp  --session/request_permission-->  editor
//
// # Methods
//
//	initialize            loads config.toml and .env (Options.Load): a bad
//	                      configuration is this request's error, naming the
//	                      file, line and fix. Advertises loadSession, embedded
//	                      context in prompts, HTTP MCP servers, and the
//	                      session list, close and resume methods.
//	authenticate          nothing to do (the endpoint's key is configured)
//	session/new           cwd must be an absolute directory: the repository,
//	                      checked with the UI's rules (the configuration is
//	                      loaded again for it: the store may be neither inside
//	                      nor around it). Creates a harness session named as
//	                      the UI names one (YYYYMMDD-HHMMSS); the name is the
//	                      sessionId. A session that never gets a prompt leaves
//	                      no folder behind when it closes.
//	session/load          reopens a saved session and takes its lock: a
//	                      session open in another harness (the UI, a headless
//	                      run, another editor) is refused, naming that
//	                      process. Its history is replayed (below) before the
//	                      answer. Loading a session this connection has open
//	                      replaces it. A prompt cancelled before it started
//	                      is saved as stopped, so the replay shows it.
//	session/resume        session/load without the replay.
//	session/list          the saved sessions, most recently updated first
//	                      (with cwd: that repository's only); the title is
//	                      the first prompt, cwd the repository it was saved in.
//	                      A session whose file cannot be read is left out
//	                      (and logged): it has no cwd, and cannot be loaded.
//	session/close         stops the session's turn, saves, and releases it.
//	session/prompt        one root turn (below).
//	session/cancel        stops the running turn as Esc does.
//	session/set_mode      sets the permission level (below).
//
// Malformed input never reaches the SDK (which would drop it without an
// answer): a line that is not JSON is answered with -32700 and id null; a
// batch, a non-object, an object that is neither request, notification
// nor response, or a line over 8 MiB gets -32600 (a long request under its
// id when the id comes before the params, as the SDKs write it, so the
// editor is not left waiting); each is logged, and the connection goes on. Unknown methods get -32601 and params that do not
// decode -32602 from the SDK; params harness refuses (a cwd that is not an
// absolute directory or that the store rules refuse, a sessionId that is
// no session name, an unknown mode, an empty prompt or an image) get
// -32602 with the reason in the message ("Invalid params: cwd … does not
// exist; …"), which editors show, and in data.error. session/load and
// session/resume refuse an empty sessionId, or one no saved session has,
// with -32602 before anything starts (no workers, no MCP servers); a
// prompt to a session not open is -32002 (resource not found). A failed
// session/new or session/load releases whatever it had started.
//
// # Commands
//
// A session's commands are /init and the repository's prompt files
// (Agent.Commands), then /compact [focus] and /context when the Runner
// has them (compact.go: harness answers them itself, with a message),
// sent as available_commands_update: for session/new just
// after its answer (an editor knows the session only from it), for
// session/load and session/resume at once. Each has its name without the
// slash, its description (a repository's prompt marked "(repository)") and
// an input hint when it takes arguments. Prompt files that did not become
// commands are logged.
//
// # Prompts
//
// A prompt whose text is "/init" or "/NAME arguments" for a prompt file
// sends the expanded text (prompts.Set.Resolve), as the UI does.
// The prompt's text blocks are joined as they are; a mentioned file
// (resource_link) becomes @path, relative to the repository when inside
// it, and an embedded one (resource) becomes @path with its text appended
// in a fenced block. A URI naming lines (Zed's selections and symbols,
// file:///…/main.go#L10:20) becomes @path:10-20, so the model knows the
// text is a part of the file. Images and audio are refused (not advertised). The
// turn's events become updates:
//
//	root reasoning            agent_thought_chunk
//	root answer text          agent_message_chunk
//	subagent reasoning, text  agent_thought_chunk, each run of them opened by
//	                          "NAME: " (the subagent's work is the root's thinking;
//	                          its answer is also its rlm call's result)
//	ToolCall                  tool_call (status pending), then tool_call_update
//	                          in_progress
//	ToolOutput (REPL prints,  tool_call_update with the text printed so far
//	  MCP progress)             (its last 32 KiB)
//	ToolResult                tool_call_update completed or failed, content the
//	                          result text exactly as the model got it (and
//	                          rawOutput {"content": …}); apply_patch's changes
//	                          first, as ACP diffs
//	Notice, Retry, Error      agent_thought_chunk of their own ("NAME: " first
//	                          for a subagent); errors are logged too; a retry
//	                          after the failed attempt streamed some text says
//	                          that text is void (chunks cannot be taken back)
//
// Every tool call of every agent is a tool_call: its title is the calling
// subagent's name, " · ", the tool and its main argument ("lister ·
// read_file main.go", "rlm lister: list the files" for the root's
// delegation, "MCP server tool" for an MCP tool); its kind is think (rlm),
// execute (repl), read (read_file), search (grep, list), edit (apply_patch;
// delete or move when that is all the patch does) or other (FYI, MCP); its
// locations are the host files of read_file (with start_line), grep, list
// and apply_patch, inside their root. rawInput is the arguments the model
// sent. Updates about a subagent carry _meta {"harness": {"agent",
// "depth", "agentId"}}, and synthetic calls (FYI, a subagent's startup
// repl call) "synthetic": true.
//
// A call is failed when it did not do its work: "[not run: turn stopped]",
// a stopped or failed subagent, arguments or a tool the model got wrong, a
// file tool's or apply_patch's error, a REPL call that raised an error or
// lost its state, an MCP tool's error or refusal; else it is completed.
// Live calls say so in rlm.ToolResult.Failed; a replayed call's saved
// result is read for the same markers.
//
// An apply_patch diff has the file's host path, each hunk's old lines
// (unchanged and removed) as oldText and new lines (unchanged and added)
// as newText, and an added file's text as newText without oldText; deletes
// and whole-file replacements are described by the result text only (harness
// keeps no copy of the old text).
//
// The answer's stopReason is cancelled after session/cancel (the turn
// stops as with Esc: partial replies are saved, and a stopped subagent's
// result ends with "[stopped by user]"), refusal when the root's last reply carries a refusal (its text
// is sent as agent_message_chunk) or the server's content filter stopped
// it (finish_reason "content_filter"), max_tokens when the root's last
// reply was cut at the token limit (finish_reason "length"; both are
// Notice events, sent as thoughts), else end_turn; the usage
// is the turn's. A failed turn is a JSON-RPC error with the failure's
// message. After each turn a session_info_update gives the time and the
// first prompt as the title. Prompts of one session run one at a time: a
// prompt sent while one runs stops that one (the SDK cancels it), then runs.
//
// # Approvals
//
// A REPL operation or MCP call that needs approval is put to the editor as
// session/request_permission on the tool call running it, with the
// operation described in words and as JSON (and, with
// [approval_description], the description when it arrives). The options
// are allow_once, allow_always — offered for a command run in the
// repository and for an MCP call; like the UI's a, it allows the same
// command with the same arguments (the same tool with the same
// arguments) for the rest of this session, in memory only, never in
// config.toml (approval.Session) —
// and reject_once. An answer of cancelled, an unknown option or a failed
// request denies, with a message the model sees; session/cancel cancels
// the pending request with the turn.
//
// The approver emits the request on the session's stream, just after the
// ApprovalRequested rlm emitted, so the pump sends it in order, naming the
// call that asks (rlm.AgentApprover tells it, so subagents running at once
// under [rlm] parallel each name their own), and goes on while the editor
// answers; several requests may be pending at once.
//
// # Modes
//
// The permission levels none, read-only and read-write are the session's
// modes; the current one starts from [repl] permission. session/set_mode
// changes it at once (the repository's jail reads it at every operation,
// as with Shift+Tab in the UI) and saves it to config.toml
// (config.SavePermission, keeping every other byte); a failed save keeps
// the level for this session and says so in an agent_message_chunk.
//
// # MCP servers
//
// The mcpServers of session/new, session/load and session/resume are
// added to that session's subagents beside the configured [mcp.servers]
// (one of the same name replaces the configured one): stdio (command,
// args, env) and Streamable HTTP (url, headers). SSE and MCP-over-ACP
// servers are refused. Names become server names (characters other than
// letters, digits, - and _ become _; a repeated name gets -2, -3, …).
// Header values (and the TOKEN of "Bearer TOKEN"), and env values whose
// names look like credentials (KEY, TOKEN, SECRET, …), of 8 bytes or more,
// are redacted from what is saved, as API keys are.
//
// # Replay
//
// session/load sends the saved conversation as the live turns showed it,
// by feeding the saved messages to the same mapping: the root's user
// messages as user_message_chunk, reasoning and answers, every tool call
// with its result, and each subagent's work (read from its own file)
// between its rlm call and that call's result. Hidden turns are included:
// each of their updates carries _meta {"harness": {"hidden": true}}, and a
// thought after their user message says the model no longer sees them.
//
// # Lifetime
//
// Serve returns when stdin ends or its context is cancelled (a stop
// signal): it then stops every turn, waits for each to save, stops the
// sessions' MCP servers and releases their locks.
package acp
