// Hiding harness's own environment from the commands it runs.

package main

import (
	"bytes"
	"os"
	"strconv"
)

// hideEnviron zeroes the environment block the kernel shows as
// /proc/PID/environ, so a command cannot read harness's environment, the
// names [commands] env_filter keeps from it included, through its
// parent's /proc entry (root can read any process's). Go copied the
// environment at start (os.Environ is unaffected), and commands get
// theirs from that copy. It does nothing where /proc/self/mem is not
// writable.
func hideEnviron() {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return
	}
	// Fields 50 and 51 (env_start, env_end); counting after the comm,
	// which may hold spaces, field N is at N-3.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 49 {
		return
	}
	start, err1 := strconv.ParseInt(string(f[47]), 10, 64)
	end, err2 := strconv.ParseInt(string(f[48]), 10, 64)
	if err1 != nil || err2 != nil || end <= start || end-start > 64<<20 {
		return
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer mem.Close()
	mem.WriteAt(make([]byte, end-start), start)
}
