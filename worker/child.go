// The worker's end: accepting the connection and setting the ceiling.

package worker

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"

	"harness/wire"
)

// RuntimeAllowanceMB is what the memory ceiling allows beyond
// max_memory_mb for the worker's own growth: garbage the collector has not
// yet returned, heap fragmentation, goroutine and thread stacks, the
// interpreter's buffers.
const RuntimeAllowanceMB = 24

// threadStack is the stack size of the worker's threads (see Accept).
const threadStack = 1 << 20

// CeilingMB returns how far a worker whose REPL has maxMemoryMB may grow
// beyond what it has mapped when bound, or 0 (no ceiling) when
// maxMemoryMB is 0 or this binary cannot take a ceiling (race builds).
func CeilingMB(maxMemoryMB int) int {
	if maxMemoryMB <= 0 || raceEnabled {
		return 0
	}
	return maxMemoryMB + RuntimeAllowanceMB
}

// Accept returns the connection of a worker started by Start (descriptor
// 3) after sending Hello. It fails, with a message for a person, when the
// process was not started that way.
//
// A worker first re-executes itself once with a soft RLIMIT_STACK of 1
// MiB, so that the C library gives its threads 1 MiB stacks instead of 8:
// thread stacks count against the data ceiling, one per thread.
func Accept() (*wire.Conn, error) {
	if os.Getenv(cookieVar) == "" {
		return nil, errNotWorker
	}
	smallStacks()
	os.Unsetenv(cookieVar)
	conn, err := wire.FromFile(os.NewFile(3, "wire"))
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", errNotWorker, err)
	}
	if err := conn.Send(wire.Make(wire.Hello, 0, wire.HelloBody{Version: wire.Version, PID: os.Getpid()})); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// smallStacks re-executes the process with a soft RLIMIT_STACK of
// threadStack unless it has that already; on any failure it carries on.
func smallStacks() {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_STACK, &rl) != nil || rl.Cur <= threadStack {
		return
	}
	rl.Cur = threadStack
	if syscall.Setrlimit(syscall.RLIMIT_STACK, &rl) != nil {
		return
	}
	exe := "/proc/self/exe"
	if _, err := os.Stat(exe); err != nil {
		return
	}
	syscall.Exec(exe, os.Args, os.Environ()) // returns only on failure
}

// SetCeiling limits the process's data segment (RLIMIT_DATA, soft and
// hard, so it cannot be raised again without privilege) to what it maps
// now plus mb MiB, and sets the Go memory limit likewise, so the collector
// works harder as the worker nears the ceiling. It must run before the
// process is confined (it reads /proc/self/status). mb == 0 sets nothing.
func SetCeiling(mb int) error {
	if mb <= 0 {
		return nil
	}
	base, err := dataSize()
	if err != nil {
		return fmt.Errorf("set the memory ceiling: %w", err)
	}
	grow := int64(mb) << 20
	limit := uint64(base + grow)
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		return fmt.Errorf("set the memory ceiling (RLIMIT_DATA %d MiB): %w", limit>>20, err)
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	debug.SetMemoryLimit(int64(s[0].Value.Uint64()-s[1].Value.Uint64()) + grow)
	return nil
}

// dataSize returns the process's data segment size (VmData) in bytes.
func dataSize() (int64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmData:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmData in /proc/self/status")
}
