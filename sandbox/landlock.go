// The kernel's Landlock ABI, and a REPL worker restricting itself.

package sandbox

import (
	"fmt"
	"os"
	"sync"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// abiOverride, when not negative, replaces the kernel's answer.
var abiOverride = -1

// OverrideABI makes ABI report v instead of the kernel's answer until the
// returned function is called, so tests can see how harness behaves on
// another kernel. It changes what harness checks, not what the kernel
// enforces.
func OverrideABI(v int) (restore func()) {
	old := abiOverride
	abiOverride = v
	return func() { abiOverride = old }
}

var abiOnce = sync.OnceValue(func() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
})

// ABI returns the Landlock ABI version the running kernel offers, 0 when
// it offers none (too old, or Landlock not enabled in its lsm= list).
func ABI() int {
	if abiOverride >= 0 {
		return abiOverride
	}
	return abiOnce()
}

// Missing explains why Landlock is unavailable, for messages naming the
// requirement.
func Missing() string {
	return "this kernel does not offer Landlock (it needs Linux 5.13 or later with \"landlock\" in the kernel's lsm= list)"
}

// Describe says in one line what protects a REPL worker on this kernel,
// for harness doctor.
func Describe() string {
	switch abi := ABI(); {
	case abi == 0:
		return "no Landlock: " + Missing() + "; REPL workers rely on the jail's path checks alone, and [commands] sandbox = \"workspace\" cannot be used"
	case abi < 3:
		return fmt.Sprintf("Landlock ABI %d: REPL workers can open files only in their directories; [commands] sandbox = \"workspace\" needs ABI 3 (Linux 6.2)", abi)
	case abi < 4:
		return fmt.Sprintf("Landlock ABI %d: REPL workers can open files only in their directories; [commands] sandbox = \"workspace\" works, network = false needs ABI 4 (Linux 6.7)", abi)
	}
	return fmt.Sprintf("Landlock ABI %d: REPL workers can open files only in their directories and make no TCP connections; [commands] sandbox = \"workspace\" works, with network = false too", ABI())
}

// Worker access rights: reading, and the writes the REPL's file functions
// make. Executing, device files, sockets, fifos and symlinks are left out.
const (
	workerRead  = ll.AccessFSReadFile | ll.AccessFSReadDir
	workerWrite = workerRead | ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSTruncate | ll.AccessFSRefer
)

// RestrictWorker confines the calling process, all its threads and any
// process it starts: files may be opened only beneath the directories rw
// (read and write) and ro (read-only), nothing may be executed, and, where
// the kernel can enforce it, no TCP connection made and no abstract Unix
// socket outside the process reached. The directories are
// given as open files, so the caller needs no host path. It is best
// effort: it returns the ABI it used, 0 when the kernel has no Landlock.
func RestrictWorker(rw, ro []*os.File) (int, error) {
	abi := ABI()
	if abi == 0 {
		return 0, nil
	}
	write := landlock.AccessFSSet(workerWrite)
	if abi < 2 {
		// Asking ABI 1 for "refer" would turn Landlock off altogether;
		// without it, moves between directories fail (EXDEV) instead.
		write &^= ll.AccessFSRefer
	}
	var rules []landlock.Rule
	if len(rw) > 0 {
		rules = append(rules, landlock.PathAccess(write, fdPaths(rw)...))
	}
	if len(ro) > 0 {
		rules = append(rules, landlock.PathAccess(workerRead, fdPaths(ro)...))
	}
	// No network rules: every TCP bind and connect is denied. Signals stay
	// unscoped: writers probe with a null signal whether the process that
	// left a temporary file is alive (atomicfile.Sweep), and a scoped
	// probe would call every writer alive.
	cfg := landlock.V7
	cfg.Scoped &= ll.ScopeAbstractUnixSocket
	if err := cfg.BestEffort().Restrict(rules...); err != nil {
		return 0, fmt.Errorf("landlock: %w", err)
	}
	return min(abi, 7), nil
}

// fdPaths names open directories by their /proc/self/fd links, which open
// the directory itself without its path being known.
func fdPaths(files []*os.File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = fmt.Sprintf("/proc/self/fd/%d", f.Fd())
	}
	return out
}
