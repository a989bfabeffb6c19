// Process attributes of stdio servers on Linux.

package mcpclient

import "syscall"

// sysProcAttr puts a server in a session (and process group) of its own,
// without a terminal, and has the kernel kill it if harness dies without
// stopping it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
