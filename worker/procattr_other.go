// The process attributes of a worker elsewhere than Linux.

//go:build !linux

package worker

import "syscall"

// procAttr puts a worker in its own process group; it exits when its
// socket reaches end of file, harness's death included.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
