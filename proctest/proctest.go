// Package proctest answers what tests ask of processes, from Linux's
// /proc: whether one still runs, which processes carry a marker in their
// command line, and how much memory one holds. It is for tests, as llmtest
// is: a test that starts processes (REPL workers, MCP servers, harness
// itself, their children) checks with it that they end when they should.
//
// A zombie (an ended process its parent has not reaped) counts as ended:
// what a test asks is whether the process still runs.
//
// # Markers
//
// A test names the processes it starts by a unique argument, a sleep
// duration from Marker ("sleep 1000.123456"), and counts them with
// WithArg or WaitCount: a count by command line finds the grandchildren a
// test never learns the PIDs of.
package proctest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// poll is how often the waits look again: signals are delivered, and
// processes end, asynchronously.
const poll = 10 * time.Millisecond

// State returns pid's state letter from /proc/PID/stat ('R', 'S', 'Z', …),
// or 0 when there is no such process (or no /proc).
func State(pid int) byte {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	return statState(data)
}

// statState is the state in a stat line: "pid (comm) S …", where comm may
// hold spaces and parentheses, so the state follows the last ')'.
func statState(stat []byte) byte {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return 0
	}
	return stat[i+2]
}

// ended reports whether a state is that of an ended process: a zombie
// ('Z') or a dead one ('X').
func ended(state byte) bool { return state == 'Z' || state == 'X' }

// Alive reports whether pid runs: it exists and is not a zombie. Without
// /proc, it reports whether a signal can reach pid.
func Alive(pid int) bool {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	s := State(pid)
	return s != 0 && !ended(s)
}

// Zombie reports whether pid has ended and waits to be reaped.
func Zombie(pid int) bool { return ended(State(pid)) }

// WaitGone waits until pid no longer runs, for at most timeout, and
// reports whether it ended.
func WaitGone(pid int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for Alive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(poll)
	}
	return true
}

// Marker returns a unique sleep duration, "1000.NNNNNN" seconds: an
// argument that names the processes a test starts.
func Marker() string { return fmt.Sprintf("1000.%06d", rand.IntN(1000000)) }

// WithArg returns the running (not zombie) processes whose command line
// contains arg.
func WithArg(arg string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		cmdline, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(arg)) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil || ended(statState(stat)) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(d)); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// WaitCount waits until exactly n running processes carry arg, for at
// most timeout, and returns how many there are at the end (n, or the
// count when it timed out).
func WaitCount(arg string, n int, timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	for {
		got := len(WithArg(arg))
		if got == n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(poll)
	}
}

// StatusBytes returns a size field of /proc/PID/status ("VmRSS", "VmHWM",
// …) in bytes, or -1 when it cannot be read.
func StatusBytes(pid int, field string) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field+":" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return -1
			}
			return kb << 10
		}
	}
	return -1
}
