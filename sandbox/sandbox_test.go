package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"harness/sandbox/sandboxtest"
)

// TestMain lets the test binary act as the shim and as the probes below.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == Subcommand {
		os.Exit(Main(os.Args[2:], os.Stderr))
	}
	switch os.Getenv("SANDBOX_PROBE") {
	case "dial":
		os.Exit(sandboxtest.Dial(os.Args[1]))
	case "worker":
		os.Exit(workerProbe())
	case "unix":
		os.Exit(dialUnix(os.Args[1]))
	}
	os.Exit(m.Run())
}

func needLandlock(t *testing.T, abi int) {
	t.Helper()
	if got := ABI(); got < abi {
		t.Skipf("needs Landlock ABI %d; this kernel offers %d (%s)", abi, got, Missing())
	}
}

// confined runs argv through the shim under p and returns its combined
// output and exit code.
func confined(t *testing.T, p Policy, env []string, argv ...string) (string, int) {
	t.Helper()
	exe, err := exec.LookPath(argv[0])
	if err != nil {
		exe = argv[0]
	}
	path, args := p.Command("/proc/self/exe", exe, argv)
	cmd := &exec.Cmd{Path: path, Args: args, Env: append(os.Environ(), env...)}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

func TestPolicyConfinesWrites(t *testing.T) {
	needLandlock(t, 3)
	allowed, other := t.TempDir(), t.TempDir()
	script := fmt.Sprintf(`echo in > %s/a && echo done-allowed; echo out > %s/b; mv %s/a %s/sub-moved 2>&1; mkdir %s/sub && echo in2 > %s/sub/c && mv %s/sub/c %s/c2 && echo moved; cat /etc/hostname >/dev/null && echo read-ok; echo x > /dev/null && echo devnull-ok`,
		allowed, other, allowed, other, allowed, allowed, allowed, allowed)
	out, code := confined(t, Policy{Write: []string{allowed}, Network: true}, nil, "sh", "-c", script)
	for _, want := range []string{"done-allowed", "Permission denied", "moved", "read-ok", "devnull-ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q (exit %d):\n%s", want, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(other, "b")); err == nil {
		t.Error("a write outside the policy succeeded")
	}
	if _, err := os.Stat(filepath.Join(other, "sub-moved")); err == nil {
		t.Error("a move out of the writable tree succeeded")
	}
	if data, _ := os.ReadFile(filepath.Join(allowed, "c2")); string(data) != "in2\n" {
		t.Errorf("a move inside the writable tree: %q", data)
	}
}

func TestPolicyNetwork(t *testing.T) {
	needLandlock(t, 4)
	addr := sandboxtest.Listen(t)
	self, _ := os.Executable()
	for _, tt := range []struct {
		network bool
		code    int
	}{{true, 0}, {false, sandboxtest.Refused}} {
		out, code := confined(t, Policy{Network: tt.network}, []string{"SANDBOX_PROBE=dial"}, self, addr)
		if code != tt.code {
			t.Errorf("network = %v: exit %d, want %d:\n%s", tt.network, code, tt.code, out)
		}
	}
}

func TestCheckNamesTheRequirement(t *testing.T) {
	defer func(v int) { abiOverride = v }(abiOverride)
	tests := []struct {
		abi     int
		network bool
		want    string
	}{
		{0, true, "needs Landlock ABI 3 (Linux 6.2 or later), and this kernel does not offer Landlock"},
		{2, true, "needs Landlock ABI 3 (Linux 6.2 or later), and this kernel offers Landlock ABI 2"},
		{3, false, "with network = false needs Landlock ABI 4 (Linux 6.7 or later), and this kernel offers Landlock ABI 3"},
		{3, true, ""},
		{4, false, ""},
	}
	for _, tt := range tests {
		abiOverride = tt.abi
		err := Policy{Network: tt.network}.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("ABI %d network %v: %v", tt.abi, tt.network, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("ABI %d network %v: %v, want %q", tt.abi, tt.network, err, tt.want)
		}
		if d := Describe(); d == "" || (tt.abi == 0 && !strings.Contains(d, "no Landlock")) {
			t.Errorf("Describe at ABI %d: %q", tt.abi, d)
		}
	}
}

func TestShimErrors(t *testing.T) {
	var sb strings.Builder
	if code := Main([]string{"{"}, &sb); code != 126 || !strings.Contains(sb.String(), "internal command") {
		t.Errorf("short args: %d %q", code, sb.String())
	}
	sb.Reset()
	if code := Main([]string{"{", "/bin/true", "true"}, &sb); code != 126 || !strings.Contains(sb.String(), "bad policy") {
		t.Errorf("bad policy: %d %q", code, sb.String())
	}
	needLandlock(t, 3)
	out, code := confined(t, Policy{Network: true}, nil, "/nonexistent/cmd")
	if code != 126 || !strings.Contains(out, "execute /nonexistent/cmd") {
		t.Errorf("missing executable: %d %q", code, out)
	}
}

// probeResult is one operation the worker probe tried.
type probeResult struct {
	Op    string `json:"op"`
	Errno string `json:"errno"` // "" on success
}

// TestRestrictWorker runs a child that restricts itself as a REPL worker
// over two directories passed as descriptors, then tries to get out.
func TestRestrictWorker(t *testing.T) {
	needLandlock(t, 1)
	rw, ro, outside := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(rw, "in.txt"), []byte("in"), 0o644)
	os.WriteFile(filepath.Join(ro, "lib.txt"), []byte("lib"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(rw, "link"))
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	rwf, _ := os.Open(rw)
	rof, _ := os.Open(ro)
	defer rwf.Close()
	defer rof.Close()
	self, _ := os.Executable()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), "SANDBOX_PROBE=worker", "PROBE_OUTSIDE="+filepath.Join(outside, "secret"), "PROBE_ADDR="+ln.Addr().String())
	cmd.ExtraFiles = []*os.File{rwf, rof}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r probeResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("probe line %q: %v", line, err)
		}
		got[r.Op] = r.Errno
	}
	want := map[string]string{
		"read rw": "", "write rw": "", "read ro": "", "write ro": "EACCES",
		"open /etc/passwd": "EACCES", "open outside by host path": "EACCES",
		"open through a symlink to outside": "EACCES", "exec /bin/true": "EACCES",
		"null signal to another process": "", // atomicfile.Sweep asks whether a writer is alive
	}
	if ABI() >= 4 {
		want["tcp connect"] = "EACCES"
	}
	for op, errno := range want {
		if g, ok := got[op]; !ok || g != errno {
			t.Errorf("%s: got %q (ran %v), want %q", op, g, ok, errno)
		}
	}
}

// workerProbe restricts itself over fds 3 (rw) and 4 (ro) and reports
// each attempt on stdout.
func workerProbe() int {
	rw, ro := os.NewFile(3, "rw"), os.NewFile(4, "ro")
	if _, err := RestrictWorker([]*os.File{rw}, []*os.File{ro}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	report := func(op string, err error) {
		r := probeResult{Op: op}
		var errno syscall.Errno
		if errors.As(err, &errno) {
			r.Errno = map[syscall.Errno]string{syscall.EACCES: "EACCES", syscall.EPERM: "EPERM"}[errno]
			if r.Errno == "" {
				r.Errno = errno.Error()
			}
		} else if err != nil {
			r.Errno = err.Error()
		}
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
	}
	at := func(dir *os.File, name string, flags int) error {
		fd, err := syscall.Openat(int(dir.Fd()), name, flags|syscall.O_CLOEXEC, 0o644)
		if err == nil {
			syscall.Close(fd)
		}
		return err
	}
	report("read rw", at(rw, "in.txt", syscall.O_RDONLY))
	report("write rw", at(rw, "new.txt", syscall.O_WRONLY|syscall.O_CREAT))
	report("read ro", at(ro, "lib.txt", syscall.O_RDONLY))
	report("write ro", at(ro, "new.txt", syscall.O_WRONLY|syscall.O_CREAT))
	_, err := os.ReadFile("/etc/passwd")
	report("open /etc/passwd", err)
	_, err = os.ReadFile(os.Getenv("PROBE_OUTSIDE"))
	report("open outside by host path", err)
	report("open through a symlink to outside", at(rw, "link", syscall.O_RDONLY))
	report("exec /bin/true", exec.Command("/bin/true").Run())
	report("null signal to another process", syscall.Kill(os.Getppid(), 0))
	c, err := net.Dial("tcp", os.Getenv("PROBE_ADDR"))
	if err == nil {
		c.Close()
	}
	report("tcp connect", err)
	return 0
}

// dialUnix is a probe connecting to the Unix socket addr ("@name" for an
// abstract one): exit 0 when it connected, 13 on EPERM or EACCES.
func dialUnix(addr string) int {
	c, err := net.Dial("unix", addr)
	if err == nil {
		c.Close()
		return 0
	}
	fmt.Fprintln(os.Stderr, err)
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) {
		return 13
	}
	return 1
}

// TestPolicyScopes: from ABI 6 a confined command signals nothing outside
// its sandbox (harness, here the test process: kill -STOP $PPID must
// fail) and reaches no abstract Unix socket made outside it; it still
// signals its own children.
func TestPolicyScopes(t *testing.T) {
	needLandlock(t, 6)
	ln, err := net.Listen("unix", fmt.Sprintf("@harness-sandbox-test-%d", os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	self, _ := os.Executable()
	for _, network := range []bool{true, false} {
		out, code := confined(t, Policy{Network: network}, nil, "sh", "-c",
			fmt.Sprintf("kill -0 %d && echo signalled-outside; sleep 5 & kill $! && echo signalled-child", os.Getpid()))
		if strings.Contains(out, "signalled-outside") || !strings.Contains(out, "signalled-child") {
			t.Errorf("network = %v: exit %d:\n%s", network, code, out)
		}
		out, code = confined(t, Policy{Network: network}, []string{"SANDBOX_PROBE=unix"}, self, ln.Addr().String())
		if code != 13 {
			t.Errorf("network = %v: the abstract socket: exit %d, want 13:\n%s", network, code, out)
		}
	}
}

// TestMetadataOutsideIsReadOnly: with read-only mounts (where this system
// can make namespaces), chmod, touch -d and setxattr fail outside the
// writable folders and work inside them.
func TestMetadataOutsideIsReadOnly(t *testing.T) {
	needLandlock(t, 3)
	if !MetadataProtected() {
		t.Skip("harness protects metadata with a mount namespace only when it runs as root")
	}
	allowed, other := t.TempDir(), t.TempDir()
	for _, d := range []string{allowed, other} {
		os.WriteFile(filepath.Join(d, "f"), []byte("x"), 0o644)
	}
	p := Policy{Write: []string{allowed}, Network: true}.WithMounts()
	exe, args := p.Command("/proc/self/exe", "/bin/sh", []string{"sh", "-c", fmt.Sprintf(
		`chmod 600 %[1]s/f && echo chmod-in; chmod 600 %[2]s/f && echo chmod-out; touch -d 2001-01-01 %[2]s/f && echo touch-out; touch -d 2001-01-01 %[1]s/f && echo touch-in; echo x > %[1]s/new && echo write-in; echo x > /dev/null && echo devnull`, allowed, other)})
	cmd := &exec.Cmd{Path: exe, Args: args, SysProcAttr: p.Attr(&syscall.SysProcAttr{})}
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "Read-only file system") {
		t.Errorf("no EROFS:\n%s", out)
	}
	for _, want := range []string{"chmod-in", "touch-in", "write-in", "devnull"} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	for _, bad := range []string{"chmod-out", "touch-out"} {
		if strings.Contains(string(out), bad) {
			t.Errorf("%s succeeded:\n%s", bad, out)
		}
	}
	if fi, _ := os.Stat(filepath.Join(other, "f")); fi.Mode().Perm() != 0o644 || fi.ModTime().Year() == 2001 {
		t.Errorf("the file outside changed: %v %v", fi.Mode(), fi.ModTime())
	}
}
