package jail

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/config"
)

// fixture builds:
//
//	outside/secret            a file outside the root
//	root/a.txt
//	root/dir/b.txt
//	root/link-in -> dir/b.txt      relative, inside
//	root/dir/up -> ../a.txt        relative, inside
//	root/link-out -> ../outside/secret
//	root/dir-out -> ../outside
//	root/parent -> ..
//	root/abs-in -> <root>/a.txt    absolute target inside the root
//	root/loop1 -> loop2, root/loop2 -> loop1
func fixture(t *testing.T) (rootDir, outside string) {
	t.Helper()
	base := t.TempDir()
	rootDir = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside")
	must(t, os.MkdirAll(filepath.Join(rootDir, "dir"), 0o755))
	must(t, os.MkdirAll(outside, 0o755))
	must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644))
	must(t, os.WriteFile(filepath.Join(rootDir, "a.txt"), []byte("A"), 0o644))
	must(t, os.WriteFile(filepath.Join(rootDir, "dir", "b.txt"), []byte("B"), 0o644))
	links := map[string]string{
		"link-in":  "dir/b.txt",
		"dir/up":   "../a.txt",
		"link-out": "../outside/secret",
		"dir-out":  "../outside",
		"parent":   "..",
		"abs-in":   filepath.Join(rootDir, "a.txt"),
		"loop1":    "loop2",
		"loop2":    "loop1",
	}
	for name, target := range links {
		must(t, os.Symlink(target, filepath.Join(rootDir, name)))
	}
	return rootDir, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func openRoot(t *testing.T, dir string, lv *config.Permission) *Root {
	t.Helper()
	r, err := Open(Repository, dir, func() config.Permission { return *lv })
	must(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

func TestReadFollowsInRootLinks(t *testing.T) {
	dir, _ := fixture(t)
	lv := config.PermReadOnly
	r := openRoot(t, dir, &lv)
	for p, want := range map[string]string{"a.txt": "A", "link-in": "B", "dir/up": "A", "./dir/../a.txt": ""} {
		b, err := r.ReadFile(p)
		if want == "" {
			if KindOf(err) != KindEscape {
				t.Errorf("%s: want escape error, got %v", p, err)
			}
			continue
		}
		if err != nil || string(b) != want {
			t.Errorf("%s: got %q, %v; want %q", p, b, err, want)
		}
	}
}

func TestEscapeCorpus(t *testing.T) {
	dir, outside := fixture(t)
	lv := config.PermReadWrite
	r := openRoot(t, dir, &lv)
	paths := []string{
		"/etc/passwd", "../outside/secret", "../../etc/passwd", "dir/../../outside/secret",
		"link-out", "dir-out/secret", "parent/outside/secret", "abs-in", "loop1", "dir-out",
		"parent", "dir/up/../../outside/secret",
	}
	ops := map[string]func(string) error{
		"ReadFile": func(p string) error { _, err := r.ReadFile(p); return err },
		"Open":     func(p string) error { f, err := r.Open(p); closeIf(f); return err },
		"Stat":     func(p string) error { _, err := r.Stat(p); return err },
		"ReadDir":  func(p string) error { _, err := r.ReadDir(p); return err },
		"Write":    func(p string) error { return r.WriteFile(p, []byte("x"), 0o644) },
		"WriteIn":  func(p string) error { return r.WriteFile(p+"/new", []byte("x"), 0o644) },
		"Mkdir":    func(p string) error { return r.MkdirAll(p+"/sub", 0o755) },
		"Rename":   func(p string) error { return r.Rename("a.txt", p+"/moved") },
		"RenameIn": func(p string) error { return r.Rename(p+"/secret", "stolen") },
		"Chmod":    func(p string) error { return r.Chmod(p, 0o777) },
		"Mkdir1":   func(p string) error { return r.Mkdir(p+"/sub", 0o755) },
		"Remove":   func(p string) error { return r.Remove(p + "/secret") },
		"Lstat":    func(p string) error { _, err := r.Lstat(p + "/secret"); return err },
		"Readlink": func(p string) error { _, err := r.Readlink(p + "/secret"); return err },
		"OpenDir":  func(p string) error { d, err := r.OpenDir(p); closeIf2(d); return err },
		"Resolve":  func(p string) error { _, err := r.Resolve(p + "/secret"); return err },
	}
	for name, op := range ops {
		for _, p := range paths {
			err := op(p)
			if err == nil {
				t.Errorf("%s(%q) succeeded", name, p)
				continue
			}
			if strings.Contains(err.Error(), filepath.Dir(dir)) {
				t.Errorf("%s(%q) error shows a host path: %v", name, p, err)
			}
			var je *Error
			if !errors.As(err, &je) {
				t.Errorf("%s(%q): not a *jail.Error: %v", name, p, err)
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(outside, "secret"))
	if fi, err := os.Stat(filepath.Join(outside, "secret")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("outside file's mode changed: %v %v", fi.Mode(), err)
	}
	if err != nil || string(b) != "SECRET" {
		t.Fatalf("outside file changed: %q %v", b, err)
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 {
		t.Fatalf("something was created outside: %v", ents)
	}
}

func closeIf2(d *Dir) {
	if d != nil {
		d.Close()
	}
}

func closeIf(f *os.File) {
	if f != nil {
		f.Close()
	}
}

func TestPermissionLevels(t *testing.T) {
	dir, _ := fixture(t)
	lv := config.PermNone
	r := openRoot(t, dir, &lv)
	if _, err := r.ReadFile("a.txt"); KindOf(err) != KindPermission {
		t.Fatalf("none: read allowed: %v", err)
	}
	lv = config.PermReadOnly // applies to the next operation
	if _, err := r.ReadFile("a.txt"); err != nil {
		t.Fatalf("read-only: read refused: %v", err)
	}
	if err := r.WriteFile("a.txt", []byte("x"), 0o644); KindOf(err) != KindPermission || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("read-only: write allowed or unclear: %v", err)
	}
	lv = config.PermReadWrite
	if err := r.WriteFile("a.txt", []byte("x"), 0o644); err != nil {
		t.Fatalf("read-write: %v", err)
	}

	store, err := Open(Store, t.TempDir(), nil)
	must(t, err)
	lv = config.PermNone
	if err := store.WriteFile("s", []byte("x"), 0o644); err != nil {
		t.Fatalf("store must be writable at every level: %v", err)
	}
	lib, err := Open(Library, dir, nil)
	must(t, err)
	if _, err := lib.ReadFile("a.txt"); err != nil {
		t.Fatalf("library read: %v", err)
	}
	if err := lib.WriteFile("a.txt", []byte("x"), 0o644); KindOf(err) != KindPermission {
		t.Fatalf("library write allowed: %v", err)
	}
}

func TestWriteFileReplacesIdentityAndFollowsLinks(t *testing.T) {
	dir, _ := fixture(t)
	lv := config.PermReadWrite
	r := openRoot(t, dir, &lv)
	must(t, os.Link(filepath.Join(dir, "dir", "b.txt"), filepath.Join(dir, "hard")))
	must(t, r.WriteFile("link-in", []byte("new"), 0o755))
	if fi, err := os.Lstat(filepath.Join(dir, "link-in")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the symlink itself was replaced: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "dir", "b.txt"))
	if string(b) != "new" {
		t.Fatalf("target not written: %q", b)
	}
	fi, _ := os.Stat(filepath.Join(dir, "dir", "b.txt"))
	if fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v", fi.Mode())
	}
	h, _ := os.ReadFile(filepath.Join(dir, "hard"))
	if string(h) != "B" {
		t.Fatalf("hard link updated: %q", h)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "dir"))
	for _, e := range ents {
		if strings.Contains(e.Name(), "harness-") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
}

func TestRenameRemove(t *testing.T) {
	dir, _ := fixture(t)
	lv := config.PermReadWrite
	r := openRoot(t, dir, &lv)
	if err := r.Rename("a.txt", "dir/b.txt"); KindOf(err) != KindExists {
		t.Fatalf("rename over existing: %v", err)
	}
	must(t, r.Rename("link-in", "moved-link"))
	if fi, err := os.Lstat(filepath.Join(dir, "moved-link")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("rename must move the link itself: %v", err)
	}
	must(t, r.Remove("link-out"))
	if _, err := os.Lstat(filepath.Join(dir, "link-out")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("link not removed")
	}
	if err := r.Remove("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("remove missing: %v", err)
	}
	if err := r.Remove("dir"); err == nil {
		t.Fatal("removed a non-empty directory")
	}
}

func TestResolve(t *testing.T) {
	dir, _ := fixture(t)
	lv := config.PermReadOnly
	r := openRoot(t, dir, &lv)
	cases := []struct {
		in, want string
		kind     Kind
	}{
		{"link-in", "dir/b.txt", 0},
		{"dir/up", "a.txt", 0},
		{"new/file", "new/file", 0},
		{".", ".", 0},
		{"link-out", "", KindEscape},
		{"abs-in", "", KindEscape},
		{"parent/x", "", KindEscape},
		{"loop1", "", KindInvalid},
		{"../x", "", KindEscape},
	}
	for _, c := range cases {
		got, err := r.Resolve(c.in)
		if c.kind != 0 {
			if KindOf(err) != c.kind {
				t.Errorf("Resolve(%q) = %q, %v; want kind %v", c.in, got, err, c.kind)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestSpecialFilesAreRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	lv := config.PermReadOnly
	r := openRoot(t, dir, &lv)
	if _, err := r.ReadFile("fifo"); KindOf(err) != KindInvalid {
		t.Fatalf("ReadFile(fifo) = %v, want a not-a-regular-file error", err)
	}
	if f, err := r.Open("fifo"); err == nil {
		f.Close()
		t.Fatal("Open(fifo) succeeded")
	}
}

func TestDir(t *testing.T) {
	dir, _ := fixture(t)
	lv := config.PermReadOnly
	r := openRoot(t, dir, &lv)
	d, err := r.OpenDir("dir")
	must(t, err)
	defer d.Close()
	f, err := d.Open("b.txt")
	must(t, err)
	f.Close()
	if f, err := d.Open("up"); err != nil { // ../a.txt stays inside the root
		t.Fatalf("up: %v", err)
	} else {
		f.Close()
	}
	for _, name := range []string{"../a.txt", "x/y", "", ".."} {
		if _, err := d.Open(name); err == nil {
			t.Errorf("Open(%q) succeeded", name)
		}
	}
	if _, err := r.OpenDir("dir-out"); KindOf(err) != KindEscape {
		t.Fatalf("OpenDir(dir-out) = %v, want escape", err)
	}
	top, err := r.OpenDir(".")
	must(t, err)
	defer top.Close()
	ents, err := top.ReadDir()
	must(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "a.txt abs-in dir dir-out link-in link-out loop1 loop2 parent" {
		t.Errorf("ReadDir() = %s", got)
	}
	sub, err := top.OpenDir("dir")
	must(t, err)
	defer sub.Close()
	if ents, err := sub.ReadDir(); err != nil || len(ents) != 2 {
		t.Errorf("dir: ReadDir() = %v, %v", ents, err)
	}
	for _, name := range []string{"dir-out", "parent", "link-in", "a.txt", "loop1"} {
		if _, err := top.OpenDir(name); KindOf(err) != KindNotDir {
			t.Errorf("OpenDir(%q) = %v, want not a directory (links are not followed)", name, err)
		}
	}
	for _, name := range []string{"..", "dir/up", "", "missing"} {
		if _, err := top.OpenDir(name); err == nil || strings.Contains(err.Error(), dir) {
			t.Errorf("OpenDir(%q) = %v", name, err)
		}
	}
	lv = config.PermNone
	if _, err := d.Open("b.txt"); KindOf(err) != KindPermission {
		t.Fatalf("permission not rechecked: %v", err)
	}
	if _, err := top.ReadDir(); KindOf(err) != KindPermission {
		t.Fatalf("ReadDir: permission not rechecked: %v", err)
	}
	if _, err := top.OpenDir("dir"); KindOf(err) != KindPermission {
		t.Fatalf("OpenDir: permission not rechecked: %v", err)
	}
}

// TestDirectoryCallsOnNonDirectories: ReadDir and OpenDir on a named pipe
// must not block (opening a FIFO for reading waits for a writer), and on any
// non-directory they report KindNotDir.
func TestDirectoryCallsOnNonDirectories(t *testing.T) {
	dir := t.TempDir()
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o644))
	must(t, os.Symlink("file", filepath.Join(dir, "link")))
	lv := config.PermReadOnly
	r := openRoot(t, dir, &lv)
	calls := map[string]func(string) error{
		"ReadDir": func(p string) error { _, err := r.ReadDir(p); return err },
		"OpenDir": func(p string) error {
			d, err := r.OpenDir(p)
			if err == nil {
				d.Close()
			}
			return err
		},
	}
	for name, call := range calls {
		for _, p := range []string{"fifo", "file", "link"} {
			done := make(chan error, 1)
			go func() { done <- call(p) }()
			select {
			case err := <-done:
				if KindOf(err) != KindNotDir {
					t.Errorf("%s(%q) = %v, want a not-a-directory error", name, p, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s(%q) blocked", name, p)
			}
		}
	}
}

// TestWriteFileRemovesOrphans: the first write into a directory removes
// the temporaries of writers that are gone, in that directory only, and
// keeps a live writer's; a read-only root never sweeps.
func TestWriteFileRemovesOrphans(t *testing.T) {
	dir, outside := fixture(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	orphan := func(d, base string) string {
		return filepath.Join(dir, d, fmt.Sprintf(".%s.harness-%d-0123456789ab", base, dead.Process.Pid))
	}
	top, sub := orphan(".", "a.txt"), orphan("dir", "b.txt")
	live := filepath.Join(dir, ".c.txt.harness-1-0123456789ab")
	for _, p := range []string{top, sub, live} {
		must(t, os.WriteFile(p, []byte("torn"), 0o644))
	}
	// A symlink with an orphan's name is not a temporary: neither it nor
	// its target outside is touched.
	link := orphan(".", "l")
	must(t, os.Symlink(filepath.Join(outside, "secret"), link))
	lv := config.PermReadOnly
	r := openRoot(t, dir, &lv)
	if err := r.WriteFile("new.txt", []byte("x"), 0o644); KindOf(err) != KindPermission {
		t.Fatalf("write at read-only: %v", err)
	}
	if _, err := os.Stat(top); err != nil {
		t.Fatal("a refused write swept the directory")
	}
	lv = config.PermReadWrite
	must(t, r.WriteFile("new.txt", []byte("x"), 0o644))
	for p, want := range map[string]bool{top: false, sub: true, live: true, link: true} {
		if _, err := os.Lstat(p); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "SECRET" {
		t.Error("the symlink's target changed")
	}
	must(t, r.WriteFile("dir/new.txt", []byte("x"), 0o644))
	if _, err := os.Stat(sub); err == nil {
		t.Error("the first write into dir kept its orphan")
	}
}
