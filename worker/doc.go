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
// process group, so the terminal's Ctrl+C does not reach it. It exits when
// its socket reaches end of file (the parent closed it), and dies with the
// parent however the parent ends: the kernel's parent-death signal
// (SIGKILL) on Linux, and Config.Watch (harness's reaper, which kills the
// listed process groups when harness is gone).
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
// SetCeiling sets RLIMIT_DATA (soft and hard) to the data segment the
// worker has mapped when it is bound plus max_memory_mb plus
// RuntimeAllowanceMB (24 MiB: garbage not yet collected, fragmentation,
// stacks, the interpreter's buffers), and debug.SetMemoryLimit to the same
// growth over the runtime's total, so the collector works harder as the
// worker nears it. RLIMIT_DATA rather than RLIMIT_AS: the Go runtime
// reserves gigabytes of address space it never uses, while data counts
// only writable private mappings. The ceiling is relative because what is
// mapped at start depends on the binary and the runtime (about 110 MiB in
// harness, almost none of it resident: a 32 MiB buffer of the crypto
// packages, the heap's arena index, thread stacks). A worker re-executes
// itself once at start with a soft RLIMIT_STACK of 1 MiB, so its threads
// get 1 MiB stacks instead of 8, and runs with GOMAXPROCS=2, so a many-core
// machine does not multiply them. A worker that passes the ceiling cannot
// allocate: the Go runtime ends it ("fatal error: out of memory", or a
// fault inside the runtime when the collector's own allocation fails), and
// Exit.OutOfMemory reports it. In binaries built with the race detector
// the ceiling is not set (its shadow memory counts as data).
package worker
