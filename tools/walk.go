// Depth-first walks through the jail, in path order, and the include filter.

package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
)

// visitFunc is called for every entry below the walked directory, in path
// order (component by component, so a directory's entries directly follow
// it). rel is root-relative; dir is an open handle on the entry's directory
// (nil when the file system gives none), valid during the call: acquire it
// to keep it. Returning an error stops the walk.
type visitFunc func(rel string, d fs.DirEntry, dir *sharedDir) error

// dirErrFunc is called when a directory below the start cannot be read; a nil
// return skips the directory and continues.
type dirErrFunc func(rel string, err error) error

// maxHandleDepth bounds the directory handles a walk holds open (one per
// level); deeper directories are opened by their whole path.
var maxHandleDepth = 64 // a variable so tests can exercise the fallback

// walk visits the entries of dir (root-relative, already known to be a
// directory, described by info) and, when recursive, of every directory
// below it. Symlinks are never followed: a symlink to a directory is visited
// as a symlink entry. A directory that is one of its own ancestors (a bind
// mount of a parent) is reported to dirErr as errDirLoop instead of entered.
// The context is checked before each directory is read and every 256
// entries. With a *jail.Root, each directory is opened once, through its
// parent's handle, instead of by walking its whole path again.
func walk(ctx context.Context, r fileSystem, dir string, info fs.FileInfo, recursive bool, visit visitFunc, dirErr dirErrFunc) error {
	w := walker{ctx: ctx, r: r, recursive: recursive, visit: visit, dirErr: dirErr, ancestors: map[dirID]bool{}}
	var h *sharedDir
	if o, ok := r.(dirOpener); ok {
		d, err := o.OpenDir(dir)
		if err != nil {
			return err
		}
		h = newSharedDir(d)
		defer h.release()
	}
	entries, err := w.readDir(dir, h)
	if err != nil {
		return err
	}
	if id, ok := idOf(info); ok {
		w.ancestors[id] = true
	}
	return w.entries(dir, h, entries, 1)
}

// errDirLoop is given to dirErr for a directory that is its own ancestor.
var errDirLoop = errors.New("directory loop: it is the same directory as one of its parents (a bind mount?), so it is not entered")

type walker struct {
	ctx       context.Context
	r         fileSystem
	recursive bool
	visit     visitFunc
	dirErr    dirErrFunc
	ancestors map[dirID]bool
}

// readDir lists rel through its handle h, or by path when h is nil.
func (w *walker) readDir(rel string, h *sharedDir) ([]fs.DirEntry, error) {
	if h != nil {
		return h.d.ReadDir()
	}
	return w.r.ReadDir(rel)
}

func (w *walker) entries(dir string, h *sharedDir, entries []fs.DirEntry, depth int) error {
	for i, d := range entries {
		if i%256 == 0 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		rel := join(dir, d.Name())
		if err := w.visit(rel, d, h); err != nil {
			return err
		}
		if w.recursive && d.IsDir() {
			if err := w.descend(rel, h, d, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// descend walks the subdirectory d (at rel) of the directory parent.
func (w *walker) descend(rel string, parent *sharedDir, d fs.DirEntry, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	var id dirID
	known := false
	if info, err := d.Info(); err == nil {
		id, known = idOf(info)
	}
	if known && w.ancestors[id] {
		return w.dirErr(rel, errDirLoop)
	}
	var h *sharedDir
	if parent != nil && depth < maxHandleDepth {
		sub, err := parent.d.OpenDir(d.Name())
		if err != nil {
			return w.dirErr(rel, err)
		}
		h = newSharedDir(sub)
		defer h.release()
	}
	sub, err := w.readDir(rel, h)
	if err != nil {
		return w.dirErr(rel, err)
	}
	if known {
		w.ancestors[id] = true
		defer delete(w.ancestors, id)
	}
	return w.entries(rel, h, sub, depth+1)
}

// dirID identifies a directory on its file system.
type dirID struct{ dev, ino uint64 }

func idOf(info fs.FileInfo) (dirID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return dirID{}, false
	}
	return dirID{uint64(st.Dev), st.Ino}, true
}

// join joins a root-relative directory and a name ("." is the root).
func join(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// cleanArg normalises a path argument for display and lookup: "" means ".".
// Validation (absolute paths, "..") is the jail's; only the spelling is
// normalised here so that output paths are consistent.
func cleanArg(p string) string {
	if p == "" {
		return "."
	}
	if strings.HasPrefix(p, "/") || strings.Contains(p, "\x00") {
		return p // the jail refuses it with the right message
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return p
		}
	}
	return path.Clean(p)
}

// includeFilter is a compiled include argument: a case-sensitive glob matched
// against base names (doublestar syntax: * ? [...] {a,b}). Empty matches
// everything. A leading "**/" is accepted and ignored, since the filter
// applies at every depth anyway; any other "/" is an error because a base
// name never contains one.
type includeFilter string

func newIncludeFilter(include string) (includeFilter, error) {
	p := include
	for strings.HasPrefix(p, "**/") {
		p = p[3:]
	}
	if unescapedAny(p, ", ") && !strings.Contains(p, "{") {
		return "", fmt.Errorf("include %q: include is one glob; for several patterns write {a,b}, e.g. \"*.{go,md}\" or \"{Makefile,*.mk}\" (write \\, or \\  for a literal comma or space)", include)
	}
	if strings.Contains(p, "/") {
		return "", fmt.Errorf("include %q: include matches file names only, at every depth; "+
			"put the directory in path instead (for example path=%q, include=%q)",
			include, path.Dir(p), path.Base(p))
	}
	if p == "**" {
		p = "*"
	}
	if !doublestar.ValidatePattern(p) {
		return "", fmt.Errorf("include %q is not a valid glob: use * ? [abc] {a,b} (escape a literal with \\)", include)
	}
	return includeFilter(p), nil
}

func (f includeFilter) match(name string) bool {
	if f == "" {
		return true
	}
	return doublestar.MatchUnvalidated(string(f), name)
}

// unescapedAny reports whether glob holds one of chars not escaped by a
// backslash.
func unescapedAny(glob, chars string) bool {
	for i := 0; i < len(glob); i++ {
		switch {
		case glob[i] == '\\':
			i++
		case strings.IndexByte(chars, glob[i]) >= 0:
			return true
		}
	}
	return false
}
