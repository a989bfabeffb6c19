// Package wire is the protocol between harness and its REPL workers: the
// child processes (harness re-executed with a hidden subcommand) that run
// one subagent's Starlark REPL each. It defines the frames, their bodies and
// a connection that carries them over a Unix socket pair, with open files
// (directory descriptors) attached where a frame needs them.
//
// Goals: small, easy to read in a hex dump, cheap for the frames sent most
// (printed output, the result of a one-line call), and strict: a frame that
// does not follow the format is an error, never a guess. Non-goals: talking
// to other programs or other versions (both ends are the same binary, see
// Version), streams other than a socket pair, more than one call at a time.
//
// # Format
//
// A connection carries frames in both directions. Each frame is
//
//	length  4 bytes, big-endian: the bytes of type, id and body together (9 … MaxFrame)
//	type    1 byte: one of the types below; any other value is an error
//	id      8 bytes, big-endian: the call the frame belongs to (0 when none)
//	body    length-9 bytes: UTF-8 text for Output, JSON for every other type
//	        (empty is allowed where the body has no fields)
//
// Open files ride with a frame as SCM_RIGHTS control data on the socket.
// Only Bind carries files (Send refuses them on any other frame), so a
// received Bind takes every file that arrived since the previous one; the
// worker checks their count against the body.
//
// # Frames
//
// C is the child (the worker), P the parent (harness). A worker's life:
// Hello, then one Bind and its Ready, then calls: Exec, then any number of
// Output, Call/Reply, Note and Stopping frames, then Result; Cancel,
// Level and Ping (answered by Pong) may arrive at any time. The parent ends it by closing its end (the
// worker exits on end of file) or by killing its process group.
//
//	type       dir  id       body
//	Hello      C→P  0        {"version", "pid"}: the first frame; the parent
//	                         checks the version
//	Bind       P→C  0        Bind: the REPL's options and its mounts, one
//	                         directory descriptor per mount in order
//	Ready      C→P  0        Ready: the helpers loaded, their load errors, and
//	                         the protection in force (Landlock or the jail alone)
//	Exec       P→C  call     {"code", "level"}: run one chunk of REPL code
//	Output     C→P  call     the text print wrote, as it is printed
//	Call       C→P  request  {"service", "request"}: a host service the REPL
//	                         needs from the parent (run, fyi, home, level, …);
//	                         the id is the worker's request number
//	Reply      P→C  request  {"result", "error", "notes", "level"}: the answer
//	                         to the Call with the same id
//	Note       C→P  call     a failures.Note the call recorded
//	Stopping   C→P  call     {"reason"}: the worker stopped the call itself
//	                         (the memory limit); the parent starts its grace timer
//	Result     C→P  call     Result: the call's text, whether it failed, and,
//	                         after a state reset, the reloaded helpers
//	Cancel     P→C  call     empty: stop the call (Esc, or the REPL closing)
//	Level      P→C  0        {"level"}: the repository's permission level changed
//	Ping       P→C  seq      empty: a liveness check, sent every few seconds of a call
//	Pong       C→P  seq      empty: the answer to the Ping with the same id, sent
//	                         by the worker's reading goroutine whatever the call does
//
// Host services are named so that REPL functions added later (for example
// ones that call MCP servers) cross to the parent the same way run() does:
// the worker sends Call{service, request} and blocks until the Reply with
// the same id; the parent looks the service up by name.
//
// # Errors
//
// Read returns ErrFormat (wrapped, with the reason) for a length below 9 or
// above MaxFrame, an unknown type, or a frame cut off by the end of the
// stream; io.EOF when the stream ends cleanly between frames.
package wire

// Version is the protocol version. Hello carries it and the parent refuses
// a worker that speaks another one (a binary replaced while harness ran).
const Version = 1
