// Closing the metadata hole: a private mount namespace in which everything
// outside the writable folders is mounted read-only, where the kernel lets
// harness make one.

package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// Landlock has no access rights for a file's metadata: a confined command
// could still chmod, touch -d or setxattr files outside every writable
// folder. When harness runs as root, the shim starts in a mount namespace
// of its own, binds each
// writable folder onto itself and remounts every other mount read-only
// before it confines itself; Landlock then forbids mounting, so the
// command cannot undo it. Metadata changes outside the writable folders
// fail with EROFS.
//
// Not as any other user: in a user namespace that maps the person's own
// IDs the shim has no capabilities once it has executed (so it cannot
// mount), and mapping them to root would run every command as root inside
// it. Metadata protection is then reported as off.

// namespaces reports whether this system lets harness start the shim in
// new namespaces, trying once.
// nsAttr adds the namespaces the shim starts in to attr.
func nsAttr(attr *syscall.SysProcAttr) *syscall.SysProcAttr {
	attr.Cloneflags |= syscall.CLONE_NEWNS
	return attr
}

// (It starts true, not this binary: a test binary re-executed would run
// its tests again.)
var namespaces = sync.OnceValue(func() bool {
	if os.Geteuid() != 0 {
		return false
	}
	exe, err := exec.LookPath("true")
	if err != nil {
		return false
	}
	cmd := exec.Command(exe)
	cmd.SysProcAttr = nsAttr(&syscall.SysProcAttr{})
	return cmd.Run() == nil
})

// mountFlags maps mountinfo options to the flags a remount must keep (a
// user namespace may not drop them).
var mountFlags = map[string]uintptr{
	"nosuid": syscall.MS_NOSUID, "nodev": syscall.MS_NODEV, "noexec": syscall.MS_NOEXEC,
	"noatime": syscall.MS_NOATIME, "nodiratime": syscall.MS_NODIRATIME, "relatime": syscall.MS_RELATIME,
}

// readOnlyMounts makes every mount read-only except the writable folders
// (bound onto themselves first) and /proc, /sys and /dev.
func readOnlyMounts(writable []string) error {
	// The working directory was entered through the old mounts: enter it
	// again through the new ones at the end.
	if wd, err := os.Getwd(); err == nil {
		defer os.Chdir(wd)
	}
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make the mounts private: %w", err)
	}
	var kept []string
	for _, w := range writable {
		if _, err := os.Stat(w); err != nil {
			continue
		}
		if err := syscall.Mount(w, w, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", w, err)
		}
		kept = append(kept, w)
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	defer f.Close()
	var points []struct {
		dir   string
		flags uintptr
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// id parent major:minor root mountpoint options ...
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		dir := unescape(fields[4])
		var flags uintptr
		for _, o := range strings.Split(fields[5], ",") {
			flags |= mountFlags[o]
		}
		points = append(points, struct {
			dir   string
			flags uintptr
		}{dir, flags})
	}
	for _, p := range points {
		if under(p.dir, kept) || under(p.dir, []string{"/proc", "/sys", "/dev"}) {
			continue
		}
		err := syscall.Mount("", p.dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY|p.flags, "")
		if err != nil && p.dir == "/" {
			return fmt.Errorf("remount / read-only: %w", err)
		}
	}
	return nil
}

// under reports whether dir is one of dirs or inside one.
func under(dir string, dirs []string) bool {
	for _, d := range dirs {
		if rel, err := filepath.Rel(d, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}

// unescape decodes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var c byte
			if _, err := fmt.Sscanf(s[i+1:i+4], "%3o", &c); err == nil {
				b.WriteByte(c)
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
