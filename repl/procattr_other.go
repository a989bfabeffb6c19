//go:build !linux

// The process attributes of run() commands where Pdeathsig does not exist.

package repl

import "syscall"

// procAttr puts a command in its own session and process group (no
// terminal; Esc kills the whole group).
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
