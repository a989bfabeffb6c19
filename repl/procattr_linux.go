// The process attributes of run() commands on Linux.

package repl

import "syscall"

// procAttr puts a command in its own session and process group (no
// terminal; Esc kills the whole group) and has the kernel SIGKILL it when
// harness dies, even by SIGKILL (Pdeathsig: the signal follows the thread
// that started the command, and Go never ends its threads unless a
// goroutine locked to one exits). Processes the command itself starts do
// not inherit Pdeathsig: Options.Watch (a reaper) kills the group for them.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
