// The process attributes of a worker on Linux.

package worker

import "syscall"

// procAttr puts a worker in its own process group (the terminal's signals
// do not reach it, and Kill ends everything in it) and has the kernel
// SIGKILL it the moment harness dies (Pdeathsig; Go ends no thread unless a
// goroutine locked to it exits), so a worker never outlives harness while it
// notices the end of its socket.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
