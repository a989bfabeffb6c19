// Package repl is a subagent's Starlark REPL: one interpreter whose globals
// persist from call to call, which reaches files only through virtual
// mounts and runs host commands only through run().
//
// # Use
//
//	r, err := repl.New(repl.Options{Repository: repoRoot, Store: storeRoot, Workers: pool, ...})
//	defer r.Close()
//	text := r.Exec(ctx, code) // exactly what the model is given
//
// With Options.Workers (a *worker.Pool) the interpreter runs in a worker
// process and this REPL is its parent's side (see Workers); without it the
// interpreter runs in the calling process. Both behave the same for REPL
// code and for the Options' callbacks; the differences are in Limits.
//
// One REPL serves one subagent, from its first call to its final answer.
// Exec calls are serialized; Close and cancelling the context passed to
// Exec may happen from any goroutine. The REPL never writes to stdout or
// stderr: printed text goes to Options.Output as it is printed and into the
// result.
//
// # Results
//
// A result is what print wrote, then the repr of a trailing expression
// statement when it is not None (Python's repr: 'a', {'k': 1}, (1,)),
// then the error with its backtrace (runs of identical frames collapsed)
// ending in a Python-style "Kind: message" line (ValueError: ...,
// FileNotFoundError: [Errno 2] No such file or directory: 'x'). A call
// ended by sys.exit() or sys.exit(0) shows what it printed and no error,
// as a script ends; another code is the uncaught "SystemExit: 3". Empty output is
// "(no output)". Invalid UTF-8 is replaced by U+FFFD, then the whole is
// capped at Options.OutputLimit bytes on a UTF-8 boundary: printed output
// is cut first and the tail keeps at most half the limit (a value keeps its
// start, an error its end, where the message and hint are), with a notice
// "[output truncated: N bytes omitted (output_limit)]". After an error, the
// effects of completed statements and the globals bound so far remain.
// When an error matches a row of the "Use instead" table (Python forms the
// REPL still lacks: async, load, eval; a test checks
// that each row's example still fails with its hint),
// one more line follows:
// "<name> is not available in this REPL; use <alternative>". Helper files
// that failed to load are reported at the start of the first result.
//
// # Dialect: Python habits
//
// Starlark read so that the Python models write runs with Python's
// meaning: the dialect is package pyrt's, and its doc is the manual (the
// stages a call goes through, the builtins, classes, exceptions and the
// standard modules). What repl adds is the host around it: the mounts,
// run(), approvals and limits that pyrt reaches through pyrt.Host and
// pyrt.Root.
//
// # Predeclared names and what they touch
//
//	json, math, time           Python's modules (also importable); json keeps Starlark's
//	                           encode, decode and indent beside dumps, loads, dump, load
//	struct                     go.starlark.net's struct(); nothing outside the interpreter
//	re                         Go regexp with Python's names: search match fullmatch findall
//	                           finditer sub subn split compile escape, flags I M S X A;
//	                           match objects with group groups groupdict start end span and
//	                           m[g]; \w \d \s are Unicode; offsets count characters; a lookahead
//	                           ending the pattern runs as X(Y) cut at Y (package pyre)
//	import x                   the modules listed in help(); help(module) lists its names
//	Path(*parts)               pathlib-style paths (see Files)
//	chdir(p), getcwd()         the REPL's relative base only
//	try_call(f, *a, **kw)      struct(value, error); never catches Esc or a memory stop
//	run(argv, cwd=None)        a host process (see Commands)
//	FYI()                      date, prompt tokens (Options.PromptTokens), model (Options.Model),
//	                           through the "fyi" host service
//	help(name=None)            output limit, $HARNESS_HOME/repl-notes.md, and the sections
//	                           Files, Starlark, REPL functions, Commands, MCP servers (with
//	                           Options.MCP), Helper functions, under 4 KB with 20 helper
//	                           files (helpers past a budget by signature only); help(x)
//	                           shows a helper's docstring, a function's or a module's names
//	lib_source(name)           reads $HARNESS_HOME/replib/<name>.star
//	store_summary()            walks /store (only when Options.Store is set)
//	library_summary()          walks /library (only when Options.Library is set)
//	mcp(server, tool, **kw)    an MCP tool call through Options.MCP (only when it is set)
//	mcp_tools(server=None)     the MCP servers' tools, through Options.MCP
//	helpers                    every name defined by $HARNESS_HOME/replib/*.star
//
// # Files
//
// REPL code sees only virtual paths: /repository (the working directory at
// start), /store and /library, each mapped onto a jail.Root, which checks
// the permission level at every operation (so a change during a call
// applies to the next operation) and refuses escapes. A relative path is
// joined to the working directory and cleaned lexically; a path that does
// not start with a mount name (a host path, or one climbing above a mount)
// is "outside the root". Errors name the virtual path and the kind (not
// found, permission denied, outside the root, not a directory, is a
// directory, already exists) and never a host path. A file open()ed for
// writing keeps its writes until flush, close, the end of its with block
// or the end of the call, and writes them earlier when anything else
// reads or lists its path or a command starts, as CPython's closing of
// an unreferenced file would have. File reads are
// refused, without losing state, when the file is larger than what
// max_memory_mb leaves.
//
// # Commands
//
// run(argv, cwd=None) runs argv[0] without a shell and returns
// {"exit_code", "stdout", "stderr"} (a signal exit is the negative signal
// number; invalid UTF-8 is replaced). A name on the [commands] deny list is
// refused; a name on the allow list runs its configured executable without
// asking; another name is looked up on the PATH of Options.Environ and needs
// approval every time. A relative path with a slash names an executable in
// the repository, resolved against cwd, and needs approval every time
// whatever the lists say. Absolute paths, ".." and paths leading outside
// the repository are refused. cwd is repository-relative without "..",
// must be an existing directory, and needs approval when it resolves
// outside the repository. The child starts in its own session (no
// controlling terminal, its own process group) with stdin from /dev/null
// and Options.Environ minus [commands] env_filter; cancelling the call
// kills the whole group. On Linux the kernel SIGKILLs the child when the
// process running the REPL dies (Pdeathsig), and Options.Watch, when set,
// learns the group while the command runs, so a reaper can kill what the
// command put in the background too. Approvals go to Options.Approver as
// JSON:
//
//	{"operation": "run", "executable": "/usr/bin/make", "arguments": ["test"],
//	 "working_directory": "/repository/sub"}
//
// "executable" is the host path for commands found on PATH or allowed, and
// the virtual path ("/repository/scripts/x.sh") for repository files;
// "working_directory" is always virtual. When cwd resolves outside the
// repository, "working_directory_resolves_to" holds the host directory, and
// "operation" is "working_directory" if only the directory needs approval.
// "sandbox" is "workspace" when Options.Sandbox confines the command, else
// "none". A nil Approver refuses. Denials and refusals raise
// PermissionError-style errors and are recorded as failure notes.
//
// With Options.Sandbox ([commands] sandbox = "workspace") every command,
// allowed or approved, starts through the sandbox shim (harness re-executed
// as sandbox.Subcommand), which confines itself with Landlock and then
// executes the command: it may write only beneath Sandbox.Write, and make
// TCP connections only with Sandbox.Network. On a kernel that cannot
// enforce it, run() refuses before asking, naming the requirement. help()'s
// Commands section describes the sandbox from Options.Commands.
//
// run() is a host service: in a worker the checks, the approval and the
// command all happen in the parent.
//
// # MCP servers
//
// With Options.MCP, mcp(server, tool, **arguments) sends the keyword
// arguments as a JSON object (json.encode's rules) to Options.MCP.Call and
// returns the structured content decoded as Starlark values (dicts, lists,
// strings, numbers, True/False, None) when the tool sent some, else its
// text. A tool that reports an error, and every refusal or failure the
// host returns (a denied approval, an unavailable server, a timeout), fail
// the call with that message, which try_call catches; a stop (Esc) is
// never caught. mcp_tools(server=None) returns a list of dicts with
// server, name, description, input_schema (decoded), allowed and direct
// (false past [mcp] max_direct_tools: mcp() is then the only way). help()
// lists each server on one line with its tool names (* marks those that
// run without asking) or why it is unavailable. The REPL knows nothing of
// allow lists or approvals: the host applies them, so the same rules hold
// for direct calls and REPL code. Options.MCP takes and returns plain
// data, so it can be forwarded to a REPL in another process.
//
// # Limits
//
// max_memory_mb is enforced per REPL by a watchdog that samples the Go heap
// while a call runs (every few milliseconds and every few thousand
// interpreter steps), attributing to the call the growth since the call
// began plus an estimate of the REPL's retained globals; before stopping a
// call it forces a collection and measures again. The retained estimate
// walks the globals only after a call that allocated an eighth of the
// limit since the last walk; otherwise it grows by what the call allocated
// (an upper bound), so small calls stay fast however large the state. A call over the limit, a
// retained state over the limit, or a Go panic discards the REPL's state:
// the result says that every variable and function defined earlier is gone
// and that the helpers were reloaded, and the next call starts fresh.
// Operations that would allocate a lot in one step, which the watchdog
// cannot interrupt, check first and fail with an ordinary error that keeps
// the state: file reads larger than the remaining budget, run() output past
// a third of it (the command is killed), sequence repetition (x * n: every
// "*" in REPL code and helpers runs through a hidden builtin that checks
// the size), list, tuple, sorted, reversed, enumerate and zip of more
// elements than the budget holds, and str.join, str.replace, padding,
// %-formatting, str.format and f-strings whose output or width passes it.
// Concatenation (x + y, not name += y) of strings, bytes, lists and tuples
// runs through a hidden builtin too; one whose result does not fit in what
// the budget leaves stops the call as the watchdog does (the state is
// lost), but before it allocates: s = s + s in a loop would otherwise
// build a value twice the size of the last one the watchdog saw, in one
// step.
// Other single operations allocate in proportion to values that already
// exist (str(), json.encode, a regexp over a large string).
// Cancelling Exec's context stops the interpreter at once (Thread.Cancel)
// and kills run() process groups; state is kept.
//
// In a worker, the watchdog and the checks run inside the worker, and the
// kernel adds a hard ceiling (worker.SetCeiling: RLIMIT_DATA at what the
// worker maps when bound plus max_memory_mb plus a runtime allowance). A
// single step that passes both (a json.decode of a huge string, str() of
// a huge nested value) ends the worker process instead of
// harness; its result is what the call printed, then the state-lost notice
// naming the limit. Builtins stuck past a stop are not abandoned there: the
// parent waits abandonGrace after Esc, Close or the worker's own memory stop
// (a Stopping frame), then kills the worker's process group (SIGKILL) and
// reports the state lost; a worker that crashes or is killed from outside
// is reported the same way, at the call it was running or, when it died
// between calls, at the start of the next result. The next call binds a
// fresh worker. None of this can end harness.
//
// In-process, Starlark notices a stop only between steps, so a single long builtin
// (str() of a list nested a million deep, sorted() of a huge list, a giant
// join, a regexp over a giant string) would outlast it. Each call therefore
// runs on a goroutine of its own, and Exec waits for it or for a stop (Esc,
// Close, the memory limit). After a stop Exec waits at most 1.5 seconds for
// the interpreter to unwind; if it has not, that interpreter is abandoned:
// Exec returns what the call printed so far, the stop message and the
// state-lost notice, and the REPL continues with a fresh interpreter
// (helpers reloaded), exactly as after a memory stop. The abandoned
// goroutine runs until its builtin returns, then stops at its next step;
// it reaches only its own globals and thread, and its printed output, notes
// and result are dropped. Until then it still uses CPU and memory, which
// the memory watchdog of later calls may count against them.
//
// # Helpers
//
// $HARNESS_HOME/replib/*.star files are loaded in name order into every new
// interpreter. Each file sees the predeclared names and what earlier files
// defined; all of its top-level names become globals. help() lists the
// public functions (not starting with "_") with their signatures and
// docstrings; Functions() returns them with the REPL functions, so the app
// can point a mistaken tool call at the REPL. Each file loads like a call,
// under the memory limit and with five seconds to finish. A file that
// fails to load (an error, a stop at either limit) is reported and
// contributes nothing.
//
// # Workers
//
// A worker is harness re-executed (worker.Subcommand) whose main is
// ServeWorker. The parent sends Bind with the options and the mounts as
// directory descriptors; the worker sets its memory ceiling, confines
// itself with Landlock where the kernel has it (sandbox.RestrictWorker:
// files only beneath its mounts, the library read-only, no execution, no
// TCP from ABI 4), opens its jail roots from the descriptors (it never
// learns a host path), loads the helpers and answers Ready. Each Exec runs
// one call; printed text streams back as Output frames and failure notes as
// Note frames, which the parent hands to Options.Output, Failures and
// OnFailure exactly as in-process. See package wire for the frames.
//
// REPL functions that need the host call a host service by name
// (hostServices in host.go: "run", "fyi", "home" for the helper files and
// repl-notes.md of $HARNESS_HOME and nothing else of it, "mcp_servers" and
// "mcp_call" for mcp() and mcp_tools()): in-process the service runs at
// once; in a worker the call crosses to the parent, which runs the same
// function with its own Options (approvals, commands, environment, MCP
// servers) and sends back the result, the error text and the notes it
// recorded. A new REPL function that needs the host registers a service
// there and calls hostCall.
//
// The repository's permission level reaches the worker with each call and
// each reply; while a call runs the parent compares it every 2 ms and
// pushes a change at once (Shift+Tab during a call); and after printed
// output the worker asks before its next file operation, so that a change
// the Output callback makes applies to the very next operation, as
// in-process.
//
// help()'s Files section ends with a Protection line saying what confines
// this REPL: Landlock and its ABI, the path checks alone, or (in-process)
// harness's own process.
//
// # Approval exemptions
//
// IsSynthetic recognizes code made only of FYI(), help(), store_summary()
// and library_summary() calls; IsReasoningOnly recognizes a lone
// reasoning("...") on a string literal, which the app answers
// "(no output)" without running.
//
// # Failure notes
//
// Denials (permission, escapes, deny list, refused approvals) and errors
// matching the "Use instead" table are appended to Options.Failures with
// Options.Session and the code, and reported to Options.OnFailure with
// their occurrence count. So is every failed call that used a Python form
// the REPL still lacks, with a stable first line so that the same gap is
// counted across calls and sessions: "not supported: <the pre-pass's
// refusal>", "import x: module not available" (noted even when the
// code catches the ImportError), "method not available: str.maketrans",
// "builtin not available: vars", the NotImplementedError of a name kept
// out on purpose ("os.environ is not available in this REPL: ..."), or
// "Starlark could not parse: <message>"; the second line is the error.
//
// # Packages
//
// The REPL's packages stand on floors; each imports only floors below it,
// and only repl imports jail, worker, wire, config, rlm or ui. The table of
// allowed edges is in layers_test.go (TestLayers fails on any other; the
// runtime's files are checked one by one by TestRuntimeFilesReachNoHost):
//
//	repl/pystr     character offsets, Python's string repr, character classes
//	repl/pyre      Python's re over RE2 and regexp2: translation and engines
//	repl/modslots  the one read of go.starlark.net internals (reflect, unsafe)
//	repl/rewrite   the pre-pass and the AST pass: pure text and tree rewrites
//	repl/pyast     Python's own parser for the ast module
//	repl/pyrt      the runtime (Python's meaning over Starlark values, the
//	               driver) and the standard modules (pymod_*.go); the host
//	               only through its Host and Root interfaces
//	repl           the REPL as harness sees it: Options, New, Exec, Close,
//	               results and limits, mounts and the jail, run(), help(),
//	               helpers, MCP calls, memory guards, the worker bridge
//
// How a standard module is added is in pyrt's doc.
package repl
