package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// hideEnvChild hides this process's environment, then reports what
// /proc/self/environ, os.Getenv and a child started afterwards see of
// HARNESS_TEST_SECRET.
func hideEnvChild() int {
	hideEnviron()
	proc, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		fmt.Println("read environ:", err)
		return 1
	}
	child, err := exec.Command("sh", "-c", `printf %s "$HARNESS_TEST_SECRET"`).Output()
	if err != nil {
		fmt.Println("child:", err)
		return 1
	}
	fmt.Printf("proc=%v getenv=%s child=%s\n", bytes.Contains(proc, []byte("s3cr3t-value")), os.Getenv("HARNESS_TEST_SECRET"), child)
	return 0
}

// TestHideEnviron: after hideEnviron, /proc/PID/environ no longer shows
// harness's environment, while harness itself and the commands it starts
// still have it.
func TestHideEnviron(t *testing.T) {
	if _, err := os.OpenFile("/proc/self/mem", os.O_WRONLY, 0); err != nil {
		t.Skipf("/proc/self/mem is not writable here (%v): hideEnviron does nothing", err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "HARNESS_TEST_HIDEENV=1", "HARNESS_TEST_SECRET=s3cr3t-value")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), "proc=false getenv=s3cr3t-value child=s3cr3t-value"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
