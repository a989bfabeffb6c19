// Package worker starts, watches and ends REPL worker processes: harness
// re-executed with the hidden subcommand Subcommand, talking the wire
// protocol on a socket pair, in the manner of hashicorp/go-plugin (re-exec,
// handshake, stderr forwarded to a log, the child's process group killed
// when it must go). It knows nothing of Starlark: package repl runs the
// interpreter on both ends of the connection.
//
// # Parent
//
//	pool := worker.NewPool(worker.Config{Log: logFile}) // starts one warm spare
//	p, err := pool.Get()        // the spare (or a new worker), handshake done
//	p.Conn.Send(...); p.Conn.Read()
//	p.Kill("why")                // SIGKILL to its process group
//	<-p.Done(); p.Exit()         // how it ended: status, signal, stderr tail, peak RSS
//
// A worker starts with nothing but its socket (descriptor 3), its stderr
// (a pipe the parent copies line by line to Config.Log, keeping the last
// lines for the exit report) and an environment of its own (Config.Env:
// harness passes only TZ, so API keys never reach it). It runs in its own
// process group, so the terminal's Ctrl+C does not reach it, and it exits
// when its socket reaches end of file: when the parent closes it or dies.
// The pool keeps at most one spare, started ahead so a new subagent's first
// call does not wait for a process to start.
//
// # Child
//
//	conn, err := worker.Accept()  // descriptor 3; sends Hello
//	worker.SetCeiling(mb)         // RLIMIT_DATA and the Go memory limit
//
// # The memory ceiling
//
// SetCeiling sets RLIMIT_DATA (soft and hard) to max_memory_mb plus
// RuntimeAllowanceMB, and debug.SetMemoryLimit to the same figure, so the
// collector works harder as the worker nears it. RLIMIT_DATA rather than
// RLIMIT_AS: the Go runtime reserves far more address space than it uses,
// but data counts only writable private mappings. The allowance covers what
// the runtime maps before any REPL state exists (about 40 MiB of heap
// arenas and metadata on linux/amd64, most of it never touched) and the
// interpreter itself. A worker that passes the ceiling cannot allocate:
// the Go runtime ends it ("fatal error: runtime: out of memory"), and Exit
// reports Exit.OutOfMemory. In binaries built with the race detector the
// ceiling is not set (its shadow memory counts as data).
package worker
