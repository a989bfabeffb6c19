// Package sandboxtest holds what the network tests of the sandbox and of
// run() under it share: a probe that a test binary runs as a command
// inside the sandbox, dialing a TCP address, and a listener for it to
// dial. The probe's exit code tells the test what the kernel did.
package sandboxtest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
)

// Refused is the probe's exit code when the connection is refused with
// EACCES, as Landlock refuses it (network = false).
const Refused = 13

// Dial is the probe: it connects to addr and returns the exit code, 0
// when it connected, Refused on EACCES, and 1 on any other error, which
// it writes to stderr.
func Dial(addr string) int {
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
		return 0
	}
	fmt.Fprintln(os.Stderr, err)
	if errors.Is(err, syscall.EACCES) {
		return Refused
	}
	return 1
}

// Listen starts a TCP listener on 127.0.0.1 that accepts and closes every
// connection until the test ends, and returns its address.
func Listen(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln.Addr().String()
}
