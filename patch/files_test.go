// File-system behaviour the golden cases cannot express: modes, hard links, roots, cancellation.

package patch

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"harness/config"
	"harness/jail"
)

func openRoot(t *testing.T, name string, level config.Permission) (*jail.Root, string) {
	t.Helper()
	dir := t.TempDir()
	r, err := jail.Open(name, dir, func() config.Permission { return level })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

func writeFile(t *testing.T, dir, name, text string, mode fs.FileMode) {
	t.Helper()
	p := filepath.Join(dir, name)
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(text), mode))
	must(t, os.Chmod(p, mode)) // exact, whatever the umask
}

func TestModesKept(t *testing.T) {
	for _, tc := range []struct {
		name, patch, result string
		mode                fs.FileMode
	}{
		{"update executable", "*** Update File: run.sh\n@@\n-echo a\n+echo b\n", "run.sh", 0o755},
		{"replace executable", "*** Replace File: run.sh\n+echo c\n", "run.sh", 0o755},
		{"update read-only bits", "*** Update File: run.sh\n@@\n-echo a\n+echo b\n", "run.sh", 0o600},
		{"move with changes", "*** Update File: run.sh\n*** Move to: bin/run.sh\n@@\n-echo a\n+echo b\n", "bin/run.sh", 0o750},
		{"rename only", "*** Update File: run.sh\n*** Move to: bin/run.sh\n", "bin/run.sh", 0o711},
		{"setgid kept", "*** Update File: run.sh\n@@\n-echo a\n+echo b\n", "run.sh", 0o755 | fs.ModeSetgid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, dir := openRoot(t, jail.Repository, config.PermReadWrite)
			writeFile(t, dir, "run.sh", "#!/bin/sh\necho a\n", tc.mode)
			fi, err := os.Stat(filepath.Join(dir, "run.sh"))
			must(t, err)
			if fi.Mode()&keptMode != tc.mode {
				t.Skipf("the file system does not keep mode %v", tc.mode)
			}
			if _, err := Apply(context.Background(), r, "*** Begin Patch\n"+tc.patch+"*** End Patch\n", 0); err != nil {
				t.Fatal(err)
			}
			fi, err = os.Stat(filepath.Join(dir, tc.result))
			must(t, err)
			if got := fi.Mode() & keptMode; got != tc.mode {
				t.Errorf("mode %v, want %v", got, tc.mode)
			}
		})
	}
}

func TestAddedFileMode(t *testing.T) {
	r, dir := openRoot(t, jail.Repository, config.PermReadWrite)
	if _, err := Apply(context.Background(), r, "*** Begin Patch\n*** Add File: a/b.txt\n+x\n*** End Patch", 0); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "a/b.txt"))
	must(t, err)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("added file mode %v, want 0644", fi.Mode().Perm())
	}
}

// TestHardLinkIdentityReplaced checks that an update writes a new file: the
// other hard link keeps the old text and the updated path has a new inode.
func TestHardLinkIdentityReplaced(t *testing.T) {
	for _, patch := range []string{
		"*** Update File: a.txt\n@@\n-old\n+new\n",
		"*** Replace File: a.txt\n+new\n",
	} {
		r, dir := openRoot(t, jail.Repository, config.PermReadWrite)
		writeFile(t, dir, "a.txt", "old\n", 0o644)
		must(t, os.Link(filepath.Join(dir, "a.txt"), filepath.Join(dir, "other.txt")))
		before := inode(t, filepath.Join(dir, "a.txt"))
		if _, err := Apply(context.Background(), r, "*** Begin Patch\n"+patch+"*** End Patch", 0); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, dir, "a.txt"); got != "new\n" {
			t.Errorf("a.txt = %q", got)
		}
		if got := readFile(t, dir, "other.txt"); got != "old\n" {
			t.Errorf("the other hard link changed to %q; it must keep the old text", got)
		}
		if inode(t, filepath.Join(dir, "a.txt")) == before {
			t.Errorf("a.txt kept its inode; the update must replace the file's identity")
		}
		if inode(t, filepath.Join(dir, "other.txt")) != before {
			t.Errorf("other.txt lost its inode")
		}
	}
}

// TestRenameKeepsIdentity checks that a rename-only move uses rename: the
// moved file keeps its inode (its text is not read and rewritten).
func TestRenameKeepsIdentity(t *testing.T) {
	r, dir := openRoot(t, jail.Repository, config.PermReadWrite)
	writeFile(t, dir, "a.txt", "x\n", 0o644)
	before := inode(t, filepath.Join(dir, "a.txt"))
	if _, err := Apply(context.Background(), r, "*** Begin Patch\n*** Update File: a.txt\n*** Move to: d/b.txt\n*** End Patch", 0); err != nil {
		t.Fatal(err)
	}
	if inode(t, filepath.Join(dir, "d/b.txt")) != before {
		t.Errorf("the renamed file has a new inode; a rename-only move must not rewrite it")
	}
}

// TestSymlinkUpdateKeepsLink checks that the link stays a link to the same target.
func TestSymlinkUpdateKeepsLink(t *testing.T) {
	r, dir := openRoot(t, jail.Repository, config.PermReadWrite)
	writeFile(t, dir, "t/target.txt", "old\n", 0o755)
	must(t, os.Symlink("t/target.txt", filepath.Join(dir, "link")))
	if _, err := Apply(context.Background(), r, "*** Begin Patch\n*** Update File: link\n@@\n-old\n+new\n*** End Patch", 0); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "link")); err != nil || target != "t/target.txt" {
		t.Errorf("link now %q, %v", target, err)
	}
	fi, err := os.Stat(filepath.Join(dir, "t/target.txt"))
	must(t, err)
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("target mode %v, want 0755", fi.Mode().Perm())
	}
}

func TestRoots(t *testing.T) {
	const patch = "*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch"
	t.Run("store is writable at permission none", func(t *testing.T) {
		r, dir := openRoot(t, jail.Store, config.PermNone)
		if _, err := Apply(context.Background(), r, patch, 0); err != nil {
			t.Fatal(err)
		}
		if readFile(t, dir, "n.txt") != "x\n" {
			t.Error("n.txt not written")
		}
	})
	t.Run("library is refused", func(t *testing.T) {
		r, dir := openRoot(t, jail.Library, config.PermReadWrite)
		_, err := Apply(context.Background(), r, patch, 0)
		if err == nil || !strings.Contains(err.Error(), "Nothing was changed") {
			t.Fatalf("got %v", err)
		}
		if _, serr := os.Stat(filepath.Join(dir, "n.txt")); serr == nil {
			t.Error("n.txt written into the library")
		}
	})
}

// TestPermissionChangeMidPatch lowers the level after the first operation:
// the second is refused and the error lists what was applied.
func TestPermissionChangeMidPatch(t *testing.T) {
	dir := t.TempDir()
	r, err := jail.Open(jail.Repository, dir, func() config.Permission {
		if _, err := os.Stat(filepath.Join(dir, "a.txt")); err == nil {
			return config.PermReadOnly // lowered once the first operation is done
		}
		return config.PermReadWrite
	})
	must(t, err)
	defer r.Close()
	_, err = Apply(context.Background(), r, "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: b.txt\n+b\n*** End Patch", 0)
	if err == nil {
		t.Fatal("the second Add File succeeded at read-only")
	}
	msg := err.Error()
	for _, want := range []string{"Operation 2 of 2 failed", "Applied:\n  A a.txt", "Not applied:\n  *** Add File: b.txt", "read-only"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if readFile(t, dir, "a.txt") != "a\n" {
		t.Error("a.txt was not kept")
	}
}

func TestCancelled(t *testing.T) {
	r, dir := openRoot(t, jail.Repository, config.PermReadWrite)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Apply(ctx, r, "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", 0)
	if err == nil || !strings.Contains(err.Error(), "cancelled") || !strings.Contains(err.Error(), "Nothing was changed") {
		t.Fatalf("got %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "a.txt")); serr == nil {
		t.Error("a.txt written after cancellation")
	}
}

// TestNoHostPathInErrors runs failing patches and checks that no message
// names the host directory.
func TestNoHostPathInErrors(t *testing.T) {
	r, dir := openRoot(t, jail.Repository, config.PermReadWrite)
	writeFile(t, dir, "a.txt", "a\n", 0o644)
	must(t, os.Symlink(filepath.Join(dir, "a.txt"), filepath.Join(dir, "abs")))
	must(t, os.Symlink("../../x", filepath.Join(dir, "up")))
	must(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	for _, p := range []string{
		"*** Update File: abs\n@@\n-a\n+b\n",
		"*** Update File: up\n@@\n-a\n+b\n",
		"*** Add File: up/x\n+b\n",
		"*** Delete File: d\n",
		"*** Update File: a.txt\n@@\n-zzz\n+b\n",
		"*** Update File: a.txt\n*** Move to: abs\n",
		"*** Add File: " + dir + "/x\n+b\n",
	} {
		_, err := Apply(context.Background(), r, "*** Begin Patch\n"+p+"*** End Patch", 0)
		if err == nil {
			t.Fatalf("patch %q succeeded", p)
		}
		if msg := strings.ReplaceAll(err.Error(), strings.TrimPrefix(dir, "/")+"/x", ""); strings.Contains(msg, dir) {
			t.Errorf("error names the host path:\n%s", err)
		}
	}
}

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Stat(p)
	must(t, err)
	return fi.Sys().(*syscall.Stat_t).Ino
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	must(t, err)
	return string(b)
}

// TestSpecialFileRefused checks that a named pipe is neither read nor replaced.
func TestSpecialFileRefused(t *testing.T) {
	r, dir := openRoot(t, jail.Repository, config.PermReadWrite)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, p := range []string{"*** Update File: pipe\n@@\n-a\n+b\n", "*** Replace File: pipe\n+b\n"} {
		_, err := Apply(context.Background(), r, "*** Begin Patch\n"+p+"*** End Patch", 0)
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("got %v, want a not-a-regular-file error", err)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "pipe")); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi, err)
	}
}
