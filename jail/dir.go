// Dir: an open directory of a Root, for opening many of its files cheaply.

package jail

import (
	"os"
	"path"
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
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return nil, &Error{Op: "read", Root: d.r.name, Path: p, Kind: KindInvalid, Reason: "not a single path component"}
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

// Close releases the directory handle.
func (d *Dir) Close() error { return d.root.Close() }
