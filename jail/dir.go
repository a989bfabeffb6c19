// Dir: an open directory of a Root, for opening many of its files cheaply.

package jail

import (
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"
)

// Dir is an open directory inside a Root. Opening a file through it costs
// one openat instead of one per path component, which matters on a walk
// over thousands of files. It checks the permission level at each Open, as
// the Root does, and names paths relative to the Root. A Dir is fixed to the
// directory it opened: a later rename of a parent does not move it elsewhere.
type Dir struct {
	r    *Root
	rel  string
	root *os.Root
}

// OpenDir opens the directory p (root-relative, following in-root symlinks).
func (r *Root) OpenDir(p string) (*Dir, error) {
	c, err := r.prepare("list", p, false)
	if err != nil {
		return nil, err
	}
	// os.Root.OpenRoot opens without O_DIRECTORY, so a named pipe would
	// block it and a file would give an error without an errno: check first.
	f, err := r.openDir("list", c)
	if err != nil {
		return nil, err
	}
	f.Close()
	rt, err := r.root.OpenRoot(c)
	if err != nil {
		return nil, r.explain("list", c, err)
	}
	return &Dir{r: r, rel: c, root: rt}, nil
}

// Open opens the entry name of d (a single path component) for reading,
// refusing anything but regular files and directories as Root.Open does.
func (d *Dir) Open(name string) (*os.File, error) {
	p := path.Join(d.rel, name)
	if err := checkComponent(d.r, p, name); err != nil {
		return nil, err
	}
	if err := d.r.CheckRead("read", p); err != nil {
		return nil, err
	}
	f, err := d.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		// A symlink leading to another directory of the Root, or an error to
		// explain: take the Root's path, which follows in-root symlinks and
		// names the one responsible for an escape.
		return d.r.openRead(p)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, d.r.wrap("read", p, err)
	}
	if m := fi.Mode(); !m.IsRegular() && !m.IsDir() {
		f.Close()
		return nil, &Error{Op: "read", Root: d.r.name, Path: p, Kind: KindInvalid,
			Reason: "not a regular file (a named pipe, socket or device); only regular files can be read"}
	}
	return f, nil
}

// ReadDir lists d's entries, sorted by name, as Root.ReadDir does. Entries
// are not followed.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	if err := d.r.CheckRead("list", d.rel); err != nil {
		return nil, err
	}
	// O_NONBLOCK spares the fcntl calls os makes to switch a descriptor to
	// non-blocking mode and back.
	f, err := d.root.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, d.r.wrap("list", d.rel, err)
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, d.r.wrap("list", d.rel, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents, nil
}

// OpenDir opens the subdirectory name of d (a single path component) with
// one openat, where Root.OpenDir walks the whole path again. A symlink or
// any other non-directory is refused as KindNotDir: a walk that descends
// through it must not follow links. (The entry is checked with lstat just
// before it is opened; swapping it in between is a race this does not
// guard against.)
func (d *Dir) OpenDir(name string) (*Dir, error) {
	p := path.Join(d.rel, name)
	if err := checkComponent(d.r, p, name); err != nil {
		return nil, err
	}
	if err := d.r.CheckRead("list", p); err != nil {
		return nil, err
	}
	fi, err := d.root.Lstat(name)
	if err != nil {
		return nil, d.r.wrap("list", p, err)
	}
	if !fi.IsDir() {
		return nil, &Error{Op: "list", Root: d.r.name, Path: p, Kind: KindNotDir}
	}
	rt, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, d.r.wrap("list", p, err)
	}
	return &Dir{r: d.r, rel: p, root: rt}, nil
}

func checkComponent(r *Root, p, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return &Error{Op: "read", Root: r.name, Path: p, Kind: KindInvalid, Reason: "not a single path component"}
	}
	return nil
}

// Close releases the directory handle.
func (d *Dir) Close() error { return d.root.Close() }
