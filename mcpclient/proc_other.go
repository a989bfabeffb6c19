//go:build !linux

// Process attributes of stdio servers elsewhere.

package mcpclient

import "syscall"

// sysProcAttr puts a server in a session (and process group) of its own,
// without a terminal.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
