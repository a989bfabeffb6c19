// Tests of run() under [commands] sandbox = "workspace", against the
// real kernel.

package repl

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"harness/config"
	"harness/sandbox"
	"harness/sandbox/sandboxtest"
)

// withSandbox confines run() to the workspace: the repository, the store,
// the temp folder and writable.
func withSandbox(network bool, writable ...string) envOption {
	return func(e *env, o *Options) {
		self, _ := os.Executable()
		o.Commands = config.Commands{Allow: map[string]string{"sh": "/bin/sh", "probe": self},
			Sandbox: config.SandboxWorkspace, Writable: writable, Network: network}
		o.Sandbox = &sandbox.Policy{Write: append([]string{e.repo, e.store, os.TempDir()}, writable...), Network: network}
		o.Environ = func() []string { return append(hostEnviron(), "REPL_TEST_PROBE=dial") }
	}
}

func needABI(t *testing.T, abi int) {
	t.Helper()
	if got := sandbox.ABI(); got < abi {
		t.Skipf("needs Landlock ABI %d; this kernel offers %d (%s)", abi, got, sandbox.Missing())
	}
}

// homeDir returns a directory of the user's home outside the temp folder,
// for writes that the workspace must refuse; it skips when there is none.
func homeDir(t *testing.T) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		t.Skip("no home directory")
	}
	home, _ = filepath.EvalSymlinks(home)
	tmp, _ := filepath.EvalSymlinks(os.TempDir())
	if inside(tmp, home) || inside(home, tmp) {
		t.Skipf("the home directory %s and the temp folder %s overlap", home, tmp)
	}
	if err := syscall.Access(home, 2); err != nil {
		t.Skipf("the home directory %s is not writable", home)
	}
	return home
}

func randName() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func TestSandboxWrites(t *testing.T) {
	needABI(t, 3)
	home := homeDir(t)
	writable, err := os.MkdirTemp(home, ".harness-sandbox-writable-")
	if err != nil {
		t.Skipf("cannot create a directory in %s: %v", home, err)
	}
	t.Cleanup(func() { os.RemoveAll(writable) })
	forbidden := filepath.Join(home, ".harness-sandbox-test-"+randName())
	t.Cleanup(func() { os.Remove(forbidden) })
	e := newEnv(t, withSandbox(true, writable))
	run := func(script string) string {
		return e.exec(fmt.Sprintf("r = run([\"sh\", \"-c\", %q])\nprint(str(r[\"exit_code\"]) + r[\"stderr\"])", script))
	}
	if out := run("echo in > inside.txt && mkdir -p d && mv inside.txt d/moved.txt"); out != "0" {
		t.Errorf("write in the repository: %q", out)
	}
	if data, _ := os.ReadFile(filepath.Join(e.repo, "d", "moved.txt")); string(data) != "in\n" {
		t.Errorf("the repository file: %q", data)
	}
	if out := run("echo s > " + filepath.Join(e.store, "s.txt")); out != "0" {
		t.Errorf("write in the store: %q", out)
	}
	if out := run("echo w > " + filepath.Join(writable, "w.txt")); out != "0" {
		t.Errorf("write in a writable directory: %q", out)
	}
	out := run("echo x > " + forbidden)
	if strings.HasPrefix(out, "0") || !strings.Contains(out, "Permission denied") && !strings.Contains(out, "Read-only file system") {
		t.Errorf("write in $HOME: %q", out)
	}
	if _, err := os.Stat(forbidden); err == nil {
		t.Errorf("%s was written", forbidden)
	}
	if out := run("cat /etc/hostname > /dev/null && ls " + home + " > /dev/null"); out != "0" {
		t.Errorf("reads outside the workspace: %q", out)
	}
	// The approval shows the sandbox.
	e.approver.answer = true
	e.exec(`run(["true"])`)
	if len(e.approver.seen) != 1 || e.approver.seen[0]["sandbox"] != "workspace" {
		t.Errorf("approvals: %v", e.approver.seen)
	}
	help := e.exec("help()")
	if !strings.Contains(help, `Sandbox: every command runs confined (sandbox = "workspace"): it may read and execute anything but write only in the repository, /store, the system temp folder, `+writable) {
		t.Errorf("help() lacks the sandbox line:\n%s", help)
	}
	if !strings.Contains(help, metadataLine()) {
		t.Errorf("help() does not say what becomes of metadata:\n%s", help)
	}
}

func TestSandboxNetwork(t *testing.T) {
	needABI(t, 4)
	addr := sandboxtest.Listen(t)
	code := fmt.Sprintf("run([\"probe\", %q])[\"exit_code\"]", addr)
	for _, tt := range []struct {
		network bool
		want    string
	}{{true, "0"}, {false, strconv.Itoa(sandboxtest.Refused)}} {
		e := newEnv(t, withSandbox(tt.network))
		if got := e.exec(code); got != tt.want {
			t.Errorf("network = %v: exit %s, want %s", tt.network, got, tt.want)
		}
	}
	e := newEnv(t, withSandbox(false))
	if help := e.exec("help()"); !strings.Contains(help, "TCP connections are blocked (network = false)") {
		t.Errorf("help() does not say TCP is blocked")
	}
}

// TestSandboxFailsClosed runs run() as on a kernel without Landlock: the
// command is refused, naming the requirement, and never starts.
func TestSandboxFailsClosed(t *testing.T) {
	for _, tt := range []struct {
		abi     int
		network bool
		want    string
	}{
		{0, true, `run: [commands] sandbox = "workspace" needs Landlock ABI 3 (Linux 6.2 or later), and this kernel does not offer Landlock`},
		{3, false, `run: [commands] sandbox = "workspace" with network = false needs Landlock ABI 4 (Linux 6.7 or later), and this kernel offers Landlock ABI 3`},
	} {
		restore := sandbox.OverrideABI(tt.abi)
		e := newEnv(t, withSandbox(tt.network))
		out := e.exec(`run(["sh", "-c", "echo ran > ran.txt"])`)
		restore()
		if !strings.Contains(out, tt.want) {
			t.Errorf("ABI %d: %q, want %q", tt.abi, out, tt.want)
		}
		if _, err := os.Stat(filepath.Join(e.repo, "ran.txt")); err == nil {
			t.Errorf("ABI %d: the command ran", tt.abi)
		}
	}
}
