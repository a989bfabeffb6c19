// run()'s workspace sandbox: the policy, the check, and the re-exec shim.

package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// Subcommand is the hidden first argument that makes the harness binary
// act as the shim: `harness __sandbox-exec POLICY EXE ARGV0 ARGS...`.
const Subcommand = "__sandbox-exec"

// Policy is what a confined command may do besides reading and executing
// anything: write beneath Write, and make TCP connections when Network.
type Policy struct {
	Write   []string `json:"write"` // absolute directories
	Network bool     `json:"network"`
	// ReadOnlyMounts: the shim was started in namespaces of its own (Attr)
	// and mounts everything outside Write read-only before confining
	// itself, so file metadata outside Write cannot change either.
	ReadOnlyMounts bool `json:"read_only_mounts,omitempty"`
}

// devices are the device files every command may write.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full"}

// need is the least ABI that enforces p.
func (p Policy) need() int {
	if !p.Network {
		return 4
	}
	return 3
}

// Check returns an error naming the requirement when this kernel cannot
// enforce p; run() then refuses to start the command.
func (p Policy) Check() error {
	abi, need := ABI(), p.need()
	if abi >= need {
		return nil
	}
	have := Missing()
	if abi > 0 {
		have = fmt.Sprintf("this kernel offers Landlock ABI %d", abi)
	}
	want := `[commands] sandbox = "workspace" needs Landlock ABI 3 (Linux 6.2 or later)`
	if need == 4 {
		want = `[commands] sandbox = "workspace" with network = false needs Landlock ABI 4 (Linux 6.7 or later)`
	}
	return fmt.Errorf("%s, and %s; the command was not started (set sandbox = \"none\" to run commands unconfined, or network = true if only the network rule is missing)", want, have)
}

// Command returns the program and arguments that run exe (with argv as
// its arguments, argv[0] first) confined to p: the running executable
// re-executed as the shim. self is the path of the running executable
// ("/proc/self/exe" on Linux).
func (p Policy) Command(self, exe string, argv []string) (string, []string) {
	data, _ := json.Marshal(p)
	return self, append([]string{"harness-sandbox", Subcommand, string(data), exe}, argv...)
}

// Main is the shim: args are POLICY EXE ARGV0 ARGS... (after Subcommand).
// It restricts itself to the policy and replaces itself with EXE; it
// returns only on failure, with 126 after a message on stderr.
func Main(args []string, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "harness sandbox: "+format+"\n", a...)
		return 126
	}
	if len(args) < 3 {
		return fail("internal command; harness runs it itself")
	}
	var p Policy
	if err := json.Unmarshal([]byte(args[0]), &p); err != nil {
		return fail("bad policy: %v", err)
	}
	if p.ReadOnlyMounts {
		if err := readOnlyMounts(append(append([]string(nil), p.Write...), devices...)); err != nil {
			// The command runs as it would without them: Landlock
			// still confines its writes, not file metadata.
			fmt.Fprintf(stderr, "harness sandbox: file metadata outside the writable folders is not protected: %v\n", err)
		}
	}
	if err := p.Restrict(); err != nil {
		return fail("%v", err)
	}
	err := syscall.Exec(args[1], args[2:], os.Environ())
	return fail("execute %s: %v", args[1], err)
}

// Restrict confines the calling process (and what it executes) to p,
// failing when the kernel cannot enforce all of it.
func (p Policy) Restrict() error {
	if err := p.Check(); err != nil {
		return err
	}
	for _, dir := range p.Write {
		if !filepath.IsAbs(dir) {
			return fmt.Errorf("writable directory %q is not absolute", dir)
		}
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWFiles(devices...).IgnoreIfMissing(),
	}
	if len(p.Write) > 0 {
		rules = append(rules, landlock.RWDirs(p.Write...).WithRefer().IgnoreIfMissing())
	}
	// V4 handles files up to truncate, and TCP; from ABI 6 the command
	// can neither signal a process outside its sandbox (harness, the
	// person's other programs) nor reach an abstract Unix socket created
	// outside it. ioctl on devices stays as it would be unconfined.
	cfg := landlock.V4
	cfg.Scoped = landlock.V6.Scoped
	if p.Network {
		cfg.HandledAccessNet = 0
	}
	return cfg.BestEffort().Restrict(rules...) // no network rules: TCP bind and connect denied
}

// Self returns the path that re-executes the running binary: the
// /proc/self/exe link where it exists (the same file even when the one on
// disk was replaced), else os.Executable.
func Self() string {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe"
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return os.Args[0]
}

// metadataOverride, when set, answers MetadataProtected (a worker, which
// cannot start a process to find out, is told its parent's answer).
var metadataOverride *bool

// SetMetadataProtected makes MetadataProtected answer v in this process.
func SetMetadataProtected(v bool) { metadataOverride = &v }

// MetadataProtected reports whether confined commands run with everything
// outside their writable folders mounted read-only, so that they cannot
// change files' metadata there either.
func MetadataProtected() bool {
	if metadataOverride != nil {
		return *metadataOverride
	}
	return ABI() >= 3 && namespaces()
}

// Attr returns attr with what starting the shim under p needs: the
// namespaces of the read-only mounts, when p.ReadOnlyMounts is set.
func (p Policy) Attr(attr *syscall.SysProcAttr) *syscall.SysProcAttr {
	if p.ReadOnlyMounts {
		return nsAttr(attr)
	}
	return attr
}

// WithMounts returns p asking for read-only mounts where this system
// allows them (MetadataProtected).
func (p Policy) WithMounts() Policy {
	p.ReadOnlyMounts = MetadataProtected()
	return p
}
