// The escape corpus: every tool, every root, every way out; nothing outside the root is read or listed.

package tools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"harness/config"
	"harness/jail"
	"harness/jail/jailtest"
)

// escapePaths are the path arguments tried with every tool.
func escapePaths(base string) []string {
	return []string{
		"..", "../outside", "../outside/secret.txt", "sub/../../outside/secret.txt",
		"../../../../../../../../etc/passwd", "./../outside", "sub/../..",
		filepath.Join(base, "outside", "secret.txt"), filepath.Join(base, "outside"), "/etc/passwd", "/",
		"to_file", "to_dir", "to_dir/secret.txt", "to_dir/dir", "to_parent", "to_parent/outside/secret.txt",
		"sub/up", "sub/up/outside/secret.txt", "chain", "chain/secret.txt", "abs_out", "abs_out_dir",
		"abs_out_dir/secret.txt", "abs_in", "abs_in_dir", "abs_in_dir/b.txt", "loop1", "loop1/x", "self",
		"sub/via_link", "sub/via_link/x", "a.txt\x00../outside",
	}
}

func TestEscapeCorpus(t *testing.T) {
	base, rootDir := jailtest.EscapeTree(t)
	for _, name := range []string{jail.Repository, jail.Store, jail.Library} {
		root, err := jail.Open(name, rootDir, func() config.Permission { return config.PermReadWrite })
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		ctx := context.Background()
		for _, p := range append(escapePaths(base), ".", "") {
			calls := map[string]func() (string, error){
				"read_file": func() (string, error) { return ReadFile(ctx, root, ReadFileArgs{Path: p}, 100000) },
				"grep": func() (string, error) {
					return Grep(ctx, root, GrepArgs{Pattern: "SECRET|inside", Path: p}, 100000)
				},
				"grep_fixed": func() (string, error) {
					return Grep(ctx, root, GrepArgs{Pattern: "SECRET", Path: p, Fixed: true, Context: 3}, 100000)
				},
				"list":           func() (string, error) { return List(ctx, root, ListArgs{Path: p}, 100000) },
				"list_recursive": func() (string, error) { return List(ctx, root, ListArgs{Path: p, Recursive: true}, 100000) },
			}
			for tool, call := range calls {
				out, err := call()
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				for _, leak := range []string{jailtest.Secret, "inner.txt", base, os.TempDir() + "/"} {
					if strings.Contains(p, leak) {
						// The argument itself is an absolute host path, which
						// messages echo; it leaks nothing the model did not send.
						out = strings.ReplaceAll(out, p, "ARG")
						msg = strings.ReplaceAll(msg, p, "ARG")
					}
					if strings.Contains(out, leak) || strings.Contains(msg, leak) {
						t.Errorf("%s %s(%q) leaks %q:\nresult: %s\nerror: %s", name, tool, p, leak, out, msg)
					}
				}
				if strings.HasPrefix(p, "abs_in") && tool == "read_file" && err == nil {
					t.Errorf("%s read_file(%q) followed an absolute symlink target: %s", name, p, out)
				}
			}
		}
	}
}

// TestEscapeWalkSkipsLinks checks what a whole-root search and listing do
// see: the files inside, and the symlinks as entries or warnings.
func TestEscapeWalkSkipsLinks(t *testing.T) {
	_, rootDir := jailtest.EscapeTree(t)
	root, err := jail.Open(jail.Repository, rootDir, func() config.Permission { return config.PermReadOnly })
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	out, err := Grep(context.Background(), root, GrepArgs{Pattern: "inside|SECRET"}, 100000)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a.txt:1:inside\n", "sub/b.txt:1:inside too\n", "warning: to_dir: skipped symlink", "warning: loop1: skipped symlink"} {
		if !strings.Contains(out, want) {
			t.Errorf("grep output lacks %q:\n%s", want, out)
		}
	}
	out, err = List(context.Background(), root, ListArgs{Recursive: true}, 100000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "to_dir [symlink]") || strings.Contains(out, "to_dir/") {
		t.Errorf("list followed or missed a symlink:\n%s", out)
	}
}

// TestPermissionWithdrawnMidWalk: the level is read at every operation, so
// a search or listing that is running when the level drops to none stops
// with the jail's error instead of warning about every remaining file.
func TestPermissionWithdrawnMidWalk(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		writeFile(t, filepath.Join(dir, "d", strconv.Itoa(i)), []byte("x\n"))
	}
	// list reads metadata with each directory, so it makes fewer calls.
	for tool, allowed := range map[string]int64{"grep": 10, "list": 2} {
		var calls atomic.Int64
		level := func() config.Permission {
			if calls.Add(1) > allowed {
				return config.PermNone
			}
			return config.PermReadOnly
		}
		root, err := jail.Open(jail.Repository, dir, level)
		if err != nil {
			t.Fatal(err)
		}
		var out string
		if tool == "grep" {
			out, err = Grep(context.Background(), root, GrepArgs{Pattern: "x"}, 0)
		} else {
			out, err = List(context.Background(), root, ListArgs{Recursive: true}, 0)
		}
		root.Close()
		if err == nil || !strings.Contains(err.Error(), "permission none") {
			t.Errorf("%s: got %q, %v; want the permission error", tool, out, err)
		}
	}
}

// TestDirectoryLoop: a bind mount of a parent inside itself would make a
// walk endless; grep and list skip it with a warning. Needs permission to
// mount (root in a container); skipped otherwise.
func TestDirectoryLoop(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a", "f.txt"), []byte("x\n"))
	loop := filepath.Join(dir, "a", "loop")
	if err := os.Mkdir(loop, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount(dir, loop, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(loop, syscall.MNT_DETACH) })
	root, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadOnly })
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got, err := Grep(context.Background(), root, GrepArgs{Pattern: "x"}, 0)
	want := "a/f.txt:1:x\nwarning: a/loop: skipped directory loop: it is the same directory as one of its parents (a bind mount?), so it is not entered\n"
	if err != nil || got != want {
		t.Errorf("grep: got %q, %v\nwant %q", got, err, want)
	}
	got, err = List(context.Background(), root, ListArgs{Recursive: true}, 0)
	if err != nil || strings.Count(got, "\n") != 4 || !strings.Contains(got, "warning: a/loop/: directory loop") {
		t.Errorf("list: got %q, %v", got, err)
	}
}
