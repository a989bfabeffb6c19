// Package jail confines file access to one directory: the repository, the
// store, or the library. Every tool and the REPL reach files only through a
// Root, which opens paths with os.Root (refusing ".." and symlink escapes by
// construction) and checks the permission level at the moment of each
// operation.
//
// Paths given to a Root are relative to it, slash-separated, without ".."
// components; "" and "." name the root itself. Absolute paths, ".."
// components, symlinks resolving outside the root and symlinks with absolute
// targets are refused without any prompt. Errors are *Error values naming the
// root-relative path, never a host path.
//
// Access: the repository follows the level returned by its getter (read at
// every operation, so a change applies to the next one); the store is
// read-write at every level; the library is read-only.
package jail

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"harness/atomicfile"
	"harness/config"
)

// Root names.
const (
	Repository = "repository"
	Store      = "store"
	Library    = "library"
)

// Kind classifies an Error.
type Kind int

const (
	KindOther      Kind = iota
	KindNotFound        // no such file or directory
	KindExists          // the destination already exists
	KindPermission      // denied by the permission level, or not permitted by the system
	KindEscape          // the path leaves the root (absolute, "..", symlink escape, absolute symlink target)
	KindNotDir          // a directory was expected
	KindIsDir           // a file was expected
	KindInvalid         // malformed path or argument
)

func (k Kind) String() string {
	return [...]string{"error", "not found", "already exists", "permission denied",
		"outside the root", "not a directory", "is a directory", "invalid path"}[k]
}

// Error is a failed operation on a Root.
type Error struct {
	Op     string // "read", "write", "list", "stat", "remove", "rename", "mkdir", …
	Root   string // Repository, Store or Library
	Path   string // root-relative, slash-separated
	Kind   Kind
	Reason string // human text, e.g. "the repository is read-only (permission read-only)"
}

func (e *Error) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("%s %s: %s: %s", e.Op, e.Path, e.Kind, e.Reason)
	}
	return fmt.Sprintf("%s %s: %s", e.Op, e.Path, e.Kind)
}

// Is lets errors.Is(err, fs.ErrNotExist) and friends work on *Error.
func (e *Error) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e.Kind == KindNotFound
	case fs.ErrExist:
		return e.Kind == KindExists
	case fs.ErrPermission:
		return e.Kind == KindPermission || e.Kind == KindEscape
	}
	return false
}

// KindOf returns the Kind of err (KindOther when err is not an *Error).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindOther
}

// Root is one confined directory. Its methods are safe for concurrent use.
type Root struct {
	name    string
	dir     string
	root    *os.Root
	level   func() config.Permission // nil for store and library
	sweeper *atomicfile.Sweeper      // orphaned temporaries, per directory
	ask     WriteAsk                 // Asking: refused writes are put to it first
	view    bool                     // made by Asking: the directory handle is the original's
}

// Open opens dir as the root called name (Repository, Store or Library).
// level gives the repository's permission level at each operation; it is
// ignored for the store (always read-write) and the library (read-only).
func Open(name, dir string, level func() config.Permission) (*Root, error) {
	switch name {
	case Repository, Store, Library:
	default:
		return nil, fmt.Errorf("jail: unknown root %q", name)
	}
	if name == Repository && level == nil {
		return nil, fmt.Errorf("jail: the repository needs a permission getter")
	}
	rt, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s root: %w", name, err)
	}
	return &Root{name: name, dir: dir, root: rt, level: level, sweeper: new(atomicfile.Sweeper)}, nil
}

// OpenFile opens the directory f as the root called name, for a process
// that received the directory as a descriptor and never learns its path
// (a REPL worker). f stays the caller's to close.
func OpenFile(name string, f *os.File, level func() config.Permission) (*Root, error) {
	return Open(name, fmt.Sprintf("/proc/self/fd/%d", f.Fd()), level)
}

// DirFile returns a new descriptor of the root's directory, opened
// through the root itself (not by path), to hand to another process.
func (r *Root) DirFile() (*os.File, error) {
	f, err := r.root.Open(".")
	if err != nil {
		return nil, r.wrap("open", ".", err)
	}
	return f, nil
}

// Name returns the root's name: Repository, Store or Library.
func (r *Root) Name() string { return r.name }

// Close releases the root's directory handle (a view made by Asking has
// none of its own: closing it does nothing).
func (r *Root) Close() error {
	if r.view {
		return nil
	}
	return r.root.Close()
}

// Level returns the access level in force now for this root.
func (r *Root) Level() config.Permission {
	switch r.name {
	case Store:
		return config.PermReadWrite
	case Library:
		return config.PermReadOnly
	}
	return r.level()
}

// CheckRead returns an error unless the current level allows reading.
func (r *Root) CheckRead(op, p string) error {
	if r.Level().CanRead() {
		return nil
	}
	return &Error{Op: op, Root: r.name, Path: p, Kind: KindPermission,
		Reason: "the repository cannot be read at permission none; the person can raise it (Shift+Tab in harness, the session mode in an editor)"}
}

// CheckWrite returns an error unless the current level allows writing p
// (or the root's WriteAsk lets it through).
func (r *Root) CheckWrite(op, p string) error { return r.checkWrite(op, []string{p}) }

// Clean validates a root-relative path and returns its clean slash form,
// "." for the root itself. Absolute paths, ".." components and NUL bytes
// are refused.
func Clean(p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", &Error{Op: "open", Path: strconv.Quote(p), Kind: KindInvalid, Reason: "the path contains a NUL byte"}
	}
	if p == "" {
		return ".", nil
	}
	if strings.HasPrefix(p, "/") {
		return "", &Error{Op: "open", Path: p, Kind: KindEscape,
			Reason: "absolute paths are not allowed; give a path relative to the root"}
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return "", &Error{Op: "open", Path: p, Kind: KindEscape,
				Reason: "'..' components are not allowed; give a path relative to the root"}
		}
	}
	return path.Clean(p), nil
}

// prepare validates p and checks the permission for op.
func (r *Root) prepare(op, p string, write bool) (string, error) {
	c, err := Clean(p)
	if err != nil {
		e := err.(*Error)
		e.Op, e.Root = op, r.name
		return "", e
	}
	if write {
		err = r.CheckWrite(op, c)
	} else {
		err = r.CheckRead(op, c)
	}
	return c, err
}

// wrap converts an os error for path p into an *Error with no host path.
func (r *Root) wrap(op, p string, err error) error {
	if err == nil {
		return nil
	}
	var je *Error
	if errors.As(err, &je) {
		return err
	}
	e := &Error{Op: op, Root: r.name, Path: p}
	var errno syscall.Errno
	errors.As(err, &errno)
	switch {
	case strings.Contains(err.Error(), "escapes from parent"):
		e.Kind, e.Reason = KindEscape, "the path leaves the "+r.name+" (through '..' or a symlink)"
	case errno == syscall.ELOOP:
		e.Kind, e.Reason = KindInvalid, "too many levels of symbolic links"
	case errno == syscall.ENOTDIR:
		e.Kind = KindNotDir
	case errno == syscall.EISDIR:
		e.Kind = KindIsDir
	case errno == syscall.ENOTEMPTY || errno == syscall.EEXIST && op == "remove":
		e.Kind, e.Reason = KindOther, "the directory is not empty"
	case errors.Is(err, fs.ErrNotExist):
		e.Kind = KindNotFound
	case errors.Is(err, fs.ErrExist):
		e.Kind = KindExists
	case errors.Is(err, fs.ErrPermission):
		e.Kind, e.Reason = KindPermission, "not permitted by the system"
	default:
		e.Kind = KindOther
		if errno != 0 {
			e.Reason = errno.Error()
		} else {
			e.Reason = "failed"
		}
	}
	return e
}

// Open opens a file or directory for reading, following in-root relative symlinks.
func (r *Root) Open(p string) (*os.File, error) {
	c, err := r.prepare("read", p, false)
	if err != nil {
		return nil, err
	}
	return r.openRead(c)
}

// openRead opens c without blocking on a named pipe and refuses anything
// that is not a regular file or a directory: reading a FIFO, socket or
// device would hang or never end.
func (r *Root) openRead(c string) (*os.File, error) {
	f, err := r.root.OpenFile(c, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, r.explain("read", c, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, r.wrap("read", c, err)
	}
	if m := fi.Mode(); !m.IsRegular() && !m.IsDir() {
		f.Close()
		return nil, &Error{Op: "read", Root: r.name, Path: c, Kind: KindInvalid,
			Reason: "not a regular file (a named pipe, socket or device); only regular files can be read"}
	}
	return f, nil
}

// ReadFile reads a whole file, following in-root relative symlinks.
func (r *Root) ReadFile(p string) ([]byte, error) {
	c, err := r.prepare("read", p, false)
	if err != nil {
		return nil, err
	}
	f, err := r.openRead(c)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := readAll(f)
	return b, r.wrap("read", c, err)
}

// readAll reads f to its end into a buffer sized from its metadata, as
// os.ReadFile does, rather than growing one from 512 bytes (for a 10 MB
// file that is some 20 MB of copying and clearing saved).
func readAll(f *os.File) ([]byte, error) {
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < 1<<40 {
		size = int(fi.Size())
	}
	b := make([]byte, 0, size+1) // +1: the read that finds the end needs room
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew: let append pick a larger size
		}
	}
}

// Stat returns the metadata of the entry p names, following symlinks.
func (r *Root) Stat(p string) (fs.FileInfo, error) {
	c, err := r.prepare("stat", p, false)
	if err != nil {
		return nil, err
	}
	fi, err := r.root.Stat(c)
	return fi, r.explain("stat", c, err)
}

// Lstat returns the metadata of the entry p names, not following a final symlink.
func (r *Root) Lstat(p string) (fs.FileInfo, error) {
	c, err := r.prepare("stat", p, false)
	if err != nil {
		return nil, err
	}
	fi, err := r.root.Lstat(c)
	if err != nil && path.Dir(c) != "." {
		if _, rerr := r.Resolve(path.Dir(c)); rerr != nil {
			return nil, rerr
		}
	}
	return fi, r.wrap("stat", c, err)
}

// ReadDir lists a directory, sorted by name. Entries are not followed.
func (r *Root) ReadDir(p string) ([]fs.DirEntry, error) {
	c, err := r.prepare("list", p, false)
	if err != nil {
		return nil, err
	}
	f, err := r.openDir("list", c)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, r.wrap("list", c, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents, nil
}

// openDir opens the directory c, following in-root symlinks. O_DIRECTORY
// makes anything else fail with ENOTDIR at once, and O_NONBLOCK keeps a
// named pipe swapped in at the last moment from blocking the open.
func (r *Root) openDir(op, c string) (*os.File, error) {
	f, err := r.root.OpenFile(c, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, r.explain(op, c, err)
	}
	return f, nil
}

// Readlink returns the target of the symlink p.
func (r *Root) Readlink(p string) (string, error) {
	c, err := r.prepare("readlink", p, false)
	if err != nil {
		return "", err
	}
	t, err := r.root.Readlink(c)
	return t, r.wrap("readlink", c, err)
}

// explain turns err from an operation on c into an *Error, using Resolve
// to name the symlink responsible when the path escapes or loops.
func (r *Root) explain(op, c string, err error) error {
	if err == nil {
		return nil
	}
	if _, rerr := r.Resolve(c); rerr != nil {
		e := rerr.(*Error)
		e.Op = op
		return e
	}
	return r.wrap(op, c, err)
}

// maxHops bounds symlink resolution, as the kernel's ELOOP limit does.
const maxHops = 40

// Resolve follows in-root relative symlinks in p and returns the final
// root-relative path. Components that do not exist are kept as they are, so
// the result also names where a new file would be created. A symlink with an
// absolute target or one that leads outside the root is KindEscape.
func (r *Root) Resolve(p string) (string, error) {
	c, err := Clean(p)
	if err != nil {
		e := err.(*Error)
		e.Op, e.Root = "resolve", r.name
		return "", e
	}
	rest := splitPath(c)
	cur := "."
	for hops := 0; len(rest) > 0; {
		next := path.Join(cur, rest[0])
		fi, err := r.root.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return path.Join(append([]string{cur}, rest...)...), nil
		}
		if err != nil {
			return "", r.wrap("resolve", c, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur, rest = next, rest[1:]
			continue
		}
		if hops++; hops > maxHops {
			return "", &Error{Op: "resolve", Root: r.name, Path: c, Kind: KindInvalid, Reason: "too many levels of symbolic links"}
		}
		target, err := r.root.Readlink(next)
		if err != nil {
			return "", r.wrap("resolve", c, err)
		}
		if path.IsAbs(target) {
			return "", &Error{Op: "resolve", Root: r.name, Path: c, Kind: KindEscape,
				Reason: fmt.Sprintf("symlink %s has an absolute target; only relative symlinks inside the %s are followed", next, r.name)}
		}
		joined := path.Join(cur, target)
		if joined == ".." || strings.HasPrefix(joined, "../") {
			return "", &Error{Op: "resolve", Root: r.name, Path: c, Kind: KindEscape,
				Reason: fmt.Sprintf("symlink %s points outside the %s", next, r.name)}
		}
		// The target may itself contain symlinks: resolve it from the root again.
		rest = append(splitPath(joined), rest[1:]...)
		cur = "."
	}
	return cur, nil
}

func splitPath(c string) []string {
	if c == "." || c == "" {
		return nil
	}
	return strings.Split(c, "/")
}

// WriteFile replaces the file p with data atomically: it writes a temporary
// file in the same directory (named by atomicfile.TempName), syncs it, and
// renames it over p, so the file's identity is replaced (other hard links
// keep the old contents). When p is an in-root relative symlink, its target
// is written. The first write into a directory removes the temporaries that
// writers which are gone (killed halfway) left there.
func (r *Root) WriteFile(p string, data []byte, perm fs.FileMode) error {
	c, err := r.prepare("write", p, true)
	if err != nil {
		return err
	}
	target, err := r.Resolve(c)
	if err != nil {
		return err
	}
	if fi, err := r.root.Lstat(target); err == nil && fi.IsDir() {
		return &Error{Op: "write", Root: r.name, Path: c, Kind: KindIsDir}
	}
	r.sweeper.Once(sweepDir{r.root}, path.Dir(target))
	tmp := path.Join(path.Dir(target), atomicfile.TempName(path.Base(target)))
	f, err := r.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm&fs.ModePerm)
	if err != nil {
		return r.wrap("write", c, err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = r.root.Rename(tmp, target)
	}
	if werr != nil {
		r.root.Remove(tmp)
		return r.wrap("write", c, werr)
	}
	return nil
}

// sweepDir lets atomicfile sweep orphaned temporaries through the os.Root,
// so the sweep cannot leave the root either.
type sweepDir struct{ root *os.Root }

func (d sweepDir) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(d.root.FS(), name)
}

func (d sweepDir) Remove(name string) error { return d.root.Remove(name) }

// Mkdir creates one directory.
func (r *Root) Mkdir(p string, perm fs.FileMode) error {
	c, err := r.prepare("mkdir", p, true)
	if err != nil {
		return err
	}
	return r.wrap("mkdir", c, r.root.Mkdir(c, perm))
}

// MkdirAll creates a directory and any missing parents.
func (r *Root) MkdirAll(p string, perm fs.FileMode) error {
	c, err := r.prepare("mkdir", p, true)
	if err != nil {
		return err
	}
	if _, err := r.Resolve(c); err != nil {
		return err
	}
	return r.wrap("mkdir", c, r.root.MkdirAll(c, perm))
}

// Remove removes the entry p itself (a symlink, not its target; an empty
// directory).
func (r *Root) Remove(p string) error {
	c, err := r.prepare("remove", p, true)
	if err != nil {
		return err
	}
	if c == "." {
		return &Error{Op: "remove", Root: r.name, Path: c, Kind: KindInvalid, Reason: "the root itself cannot be removed"}
	}
	if _, err := r.Resolve(path.Dir(c)); err != nil {
		return err
	}
	return r.wrap("remove", c, r.root.Remove(c))
}

// Rename moves the entry oldpath to newpath, which must not exist.
func (r *Root) Rename(oldpath, newpath string) error {
	o, err := r.prepare("rename", oldpath, false)
	if err != nil {
		return err
	}
	n, err := r.prepare("rename", newpath, false)
	if err != nil {
		return err
	}
	if err := r.checkWrite("rename", []string{o, n}); err != nil { // asked once for both
		return err
	}
	if o == "." || n == "." {
		return &Error{Op: "rename", Root: r.name, Path: o, Kind: KindInvalid, Reason: "the root itself cannot be renamed"}
	}
	for _, d := range []string{path.Dir(o), path.Dir(n)} {
		if _, err := r.Resolve(d); err != nil {
			return err
		}
	}
	if _, err := r.root.Lstat(n); err == nil {
		return &Error{Op: "rename", Root: r.name, Path: n, Kind: KindExists}
	}
	return r.wrap("rename", o, r.root.Rename(o, n))
}

// Chmod changes the mode of the file p (following in-root symlinks).
func (r *Root) Chmod(p string, mode fs.FileMode) error {
	c, err := r.prepare("chmod", p, true)
	if err != nil {
		return err
	}
	target, err := r.Resolve(c)
	if err != nil {
		return err
	}
	return r.wrap("chmod", c, r.root.Chmod(target, mode))
}
