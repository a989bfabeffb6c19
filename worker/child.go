// The worker's end: accepting the connection and setting the ceiling.

package worker

import (
	"fmt"
	"os"
	"runtime/debug"
	"syscall"

	"harness/wire"
)

// RuntimeAllowanceMB is what the memory ceiling allows beyond
// max_memory_mb: the Go runtime's own mappings (about 40 MiB of data
// before the first REPL call, mostly reserved and never touched), the
// interpreter and the worker's buffers.
const RuntimeAllowanceMB = 64

// CeilingMB returns the data-segment ceiling of a worker whose REPL has
// maxMemoryMB, or 0 (none) when maxMemoryMB is 0 or this binary cannot
// take a ceiling (race-detector builds).
func CeilingMB(maxMemoryMB int) int {
	if maxMemoryMB <= 0 || raceEnabled {
		return 0
	}
	return maxMemoryMB + RuntimeAllowanceMB
}

// Accept returns the connection of a worker started by Start (descriptor
// 3) after sending Hello. It fails, with a message for a person, when the
// process was not started that way.
func Accept() (*wire.Conn, error) {
	if os.Getenv(cookieVar) == "" {
		return nil, errNotWorker
	}
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

// SetCeiling limits the process's data segment to mb MiB (soft and hard,
// so it cannot be raised again without privilege) and sets the Go memory
// limit to the same figure. mb == 0 sets nothing.
func SetCeiling(mb int) error {
	if mb <= 0 {
		return nil
	}
	limit := uint64(mb) << 20
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		return fmt.Errorf("set the memory ceiling (RLIMIT_DATA %d MiB): %w", mb, err)
	}
	debug.SetMemoryLimit(int64(limit))
	return nil
}
