// Package sessions stores conversations on disk: one directory per session
// under $HARNESS_HOME/sessions, one JSON file per agent.
//
// # Layout
//
//	sessions/<name>/library/root.json   the conversation with the root agent
//	sessions/<name>/library/<id>.json   a depth-1 subagent, named by the ID of
//	                                    the rlm call that started it
//	sessions/<name>/deep/<id>.json      a subagent at depth 2 or deeper
//	sessions/<name>/lock                the lock of the process that has
//	                                    the session open (its PID inside)
//
// Only directories holding library/root.json are sessions: List and Open
// ignore everything else (for example a directory left by a process killed
// before its first save).
//
// # Names
//
// Store.Create names a new session after the local time it is given, as
// YYYYMMDD-HHMMSS. When that name is taken (two sessions started within the
// same second, or a session renamed to a timestamp), the first free name of
// YYYYMMDD-HHMMSS-2, YYYYMMDD-HHMMSS-3, … is used; the directory is created
// with a single mkdir, so two processes never share one. Callers create the
// session when its first message is sent, so an unused session leaves no trace.
//
// # One process per session
//
// A Session holds an exclusive flock on its lock file from the moment its
// directory is created (or Store.Open opens it) until Close, so a second
// process opening the same session (two terminals resuming one name) is
// refused at once with an *InUseError naming the holder's PID, instead of
// both writing the files and one losing its answers. The kernel drops the
// lock when the holder ends, however it ends: a killed process never leaves
// a stale lock. Rename keeps the lock (it is on the file, which moves with
// the directory); /new and /clear Close the session they leave. InUse, which
// List reports in Info, tells whether a session is open elsewhere without
// disturbing the holder. On a file system without locks a session opens
// unlocked, and LockProblem says why.
//
// Session.Rename applies the /rename rules of CheckName: a name that is empty,
// contains a slash (or the host path separator) or a NUL byte, starts with
// ".", or is already taken is refused; so is any rename while a subagent is
// running (the caller says so with its argument).
//
// # File format
//
// A conversation file is one JSON object with exactly two members:
//
//	{"messages":[
//	{"role":"user","content":"..."},
//	{"role":"assistant","content":"","reasoning":"...","tool_calls":[...]},
//	{"role":"tool","content":"...","tool_call_id":"..."},
//	{"_harness_local":{"hidden":true}}
//	],"_harness_local":{"repository":"/abs/repo","depth":0,"turn_token_cache":[...]}}
//
// messages holds provider messages exactly as llm.Message encodes them (every
// field the endpoint sent is kept byte-for-byte) interleaved with hidden-turn
// markers: a {"_harness_local":{"hidden":true}} element right after the last
// message of a turn hides that turn from model requests (see Visible). The
// system message is never saved; it is resolved again by every invocation.
// A marker harness wrote itself says why: "by":"compaction" (hidden to fit
// the model's context window) or "by":"refused" (a turn the model refused
// as too long, left out so later requests fit). A compaction entry,
// {"_harness_local":{"compaction":{"turns":[0,1],"summary":"…"}}} (with
// "hidden":true when the person hid it), follows the marker of the last
// turn it covers and is sent, where it stands, as a user message holding
// the summary and a short assistant acknowledgement (compaction.go).
// Compaction never removes or rewrites a message.
//
// The top-level _harness_local object is required and never sent to a
// provider: repository is the canonical launch directory, depth is 0 for the
// root, parent is "root" for a depth-1 subagent and the parent's rlm call ID
// deeper (absent for the root), and turn_token_cache (root only) caches the
// context editor's per-turn token counts.
//
// Decoding is strict. An unknown member of the top-level object, of
// _harness_local, of a marker or of a turn_token_cache entry, a missing
// required member, a message with role "system" or a message carrying
// _harness_local is an error that names the file, the line and the field;
// there is no compatibility handling for obsolete fields.
//
// # Durability
//
// Save writes a temporary file in the same directory, fsyncs it, renames it
// over the old file and fsyncs the directory (atomicfile.Write), so a process
// killed at any instant leaves either the old or the new file, never a torn
// one, plus at worst a temporary .<name>.json.harness-PID-RANDOM file. A
// Session removes such files whose writing process is gone the first time
// it saves into library/ or deep/. Callers save at every message boundary
// and when a turn stops.
//
// # Secrets
//
// A redact.Redactor replaces secret values (API keys) by "[REDACTED]" in messages
// before they are kept; Session.Save applies the same Redactor again so no
// secret reaches a file even when a caller forgot.
package sessions
