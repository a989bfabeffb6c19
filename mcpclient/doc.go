// Package mcpclient connects harness to MCP (Model Context Protocol)
// servers, the [mcp.servers.NAME] tables of config.toml, and calls their
// tools for subagents. It is built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk/mcp) and knows nothing of agents:
// rlm offers the tools as direct tools and to REPL code, and asks this
// package to call them.
//
// # Use
//
//	set := mcpclient.Start(mcpclient.FromConfig(cfg), mcpclient.Options{RepoDir: dir, ...})
//	defer set.Close()                  // stops every server it started
//	servers := set.Servers(ctx)        // the first call waits for servers still starting
//	res, err := set.Call(ctx, mcpclient.Call{Server: "s", Tool: "t", Arguments: args, Approver: ap})
//
// Start returns at once: each server connects on a goroutine of its own,
// so nothing on screen waits for it. The first Servers call (a subagent's
// first request) waits for servers still starting, up to StartupWait (30
// s, on Options.Clock), then answers with those that are running; a server
// that starts later is in the answers after that. A call to a server still
// starting waits for it at most the call's timeout (Spec.Timeout), then
// fails saying the server is still starting. Set.With builds a
// session's Set from the configured one plus extra servers (an editor's).
//
// # Servers
//
// A stdio server (Spec.Command) is a host process like a REPL run()
// command: it starts in the repository with Options.Environ (harness
// passes its environment without the API key variables) minus
// Options.EnvFilter ([commands] env_filter), plus the server's own env;
// values from .env reach it only through ${NAME} references in its own
// config. It runs in a session and process group of its own with no
// terminal (on Linux the kernel also kills it if harness dies), its stderr
// is appended to Options.LogDir/NAME.log (emptied first past 4 MiB), and
// stopping it closes its stdin, then sends SIGTERM and SIGKILL to the whole
// group. A Streamable HTTP server (Spec.URL) gets Spec.Headers with every
// request. ${NAME} references in the command, args, env, url and headers
// are expanded each time the server starts (Spec.Expand); an unset
// variable fails that start.
//
// The client declares the roots capability and answers roots/list with the
// repository (file://RepoDir, named "repository"). It handles
// notifications/tools/list_changed by reading the tool list again, and
// notifications/progress by passing them to the call that sent the token
// (Call.Progress), never after that call returned.
//
// # Failures
//
// A server that fails to start (a missing command, an unset variable, an
// exit, no answer within two minutes) or stops later (its process exits or
// the connection closes) is marked down with the reason (ServerInfo.Err)
// and gets a failure note of kind "mcp" (Options.Failures and OnFailure).
// A server that is down is started again by its next Call, at most three
// times per Set; after that, calls fail saying so. A broken server never
// affects the others, nor harness.
//
// # Tools
//
// Each tool of a running server is a Tool: its name on the server, the
// direct-tool name mcp__<server>__<tool> (characters other than letters,
// digits, _ and - become _; a hash replaces the end of a name past 64
// characters or one that would collide), the server's description (its
// title when it has none) and its input schema (a schema that is not an
// object schema is replaced by {"type":"object"}, which endpoints accept).
//
// # Calls
//
// Call checks the server and tool, then the allow list: a tool on its
// server's allow list runs at once; any other call is put to Call.Approver
// first, every time, as the operation
//
//	{"operation": "mcp", "server": "s", "tool": "t", "arguments": {...}}
//
// A refusal (no Approver, an Approver error such as headless mode's, or
// the user's no) fails the call with a PermissionError the model can act
// on and is recorded as a failure note of kind "denied". The call is sent
// with a progress token and a timeout (Spec.Timeout, default 120 s, on
// Options.Clock). Cancelling ctx (Esc) and the timeout both send
// notifications/cancelled. A connection that closes during the call marks
// the server down, so the next call starts it again.
//
// A Result holds the content as text (see Result.Text: images and audio
// as "[image: image/png, 1,234 bytes]", resource links as their URI and
// name), the structured content as JSON, and whether the tool reported an
// error. Capping the text at output_limit is the caller's job.
package mcpclient
