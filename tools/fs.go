// The slice of jail.Root the tools use, and the translation of file errors into tool results.

package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"harness/jail"
)

// fileSystem is what the tools need from a *jail.Root. Every file access goes
// through it, so the permission level and the confinement are checked by the
// jail at the moment of each operation, never here.
type fileSystem interface {
	Name() string
	CheckRead(op, path string) error
	Open(path string) (*os.File, error)
	Stat(path string) (fs.FileInfo, error)
	Lstat(path string) (fs.FileInfo, error)
	ReadDir(path string) ([]fs.DirEntry, error)
}

// ioError turns an error met while reading an already opened file into one
// that names the root-relative path. Errors from *os.File carry the host path
// (os.Root names files by their host path), so only the underlying cause is
// kept.
func ioError(op, rel string, err error) error {
	var je *jail.Error
	if errors.As(err, &je) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s %s: %v", op, quotePath(rel), err)
}

// pathError explains a jail error for the model: the tool's name, the
// jail's message (which names the root-relative path and the reason), and
// for a missing path what to do.
func pathError(tool string, r fileSystem, err error) error {
	var je *jail.Error
	if !errors.As(err, &je) {
		return ioError(tool, ".", err)
	}
	switch je.Kind {
	case jail.KindNotFound:
		return fmt.Errorf("%s: %v (paths are relative to the %s root; use list to see what exists)", tool, err, r.Name())
	case jail.KindNotDir:
		return fmt.Errorf("%s: %v (a component of the path is a file, not a directory)", tool, err)
	}
	return fmt.Errorf("%s: %w", tool, err)
}

// denied reports whether err means the root itself can no longer be read
// (for example the permission level changed to none during a walk); a walk
// stops with that error instead of warning about every remaining entry.
func denied(r fileSystem, op string) error {
	return r.CheckRead(op, ".")
}
