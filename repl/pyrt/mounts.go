package pyrt

import (
	"errors"
	"fmt"
	"io/fs"
)

// Root is one mount (/repository, /store or /library) as the runtime and
// the standard modules see it. Paths are relative to the mount and
// slash-separated; every method confines them to the mount and checks the
// person's permission level, so code here never sees a host path. Package
// repl implements it over a jail.Root; the runtime never imports jail.
type Root interface {
	Name() string   // the mount's name, without the slash: "repository"
	Writable() bool // whether the permission level allows writing now
	Stat(p string) (fs.FileInfo, error)
	Lstat(p string) (fs.FileInfo, error)
	ReadDir(p string) ([]fs.DirEntry, error)
	ReadFile(p string) ([]byte, error)
	WriteFile(p string, data []byte, perm fs.FileMode) error
	Mkdir(p string, perm fs.FileMode) error
	MkdirAll(p string, perm fs.FileMode) error
	Remove(p string) error
	Rename(oldpath, newpath string) error
	Chmod(p string, mode fs.FileMode) error
	CheckWrite(op, p string) error // whether writing p would be allowed
}

// FsKind is the kind of a file error: what the runtime tests for and what
// picks the Python exception (FileNotFoundError, PermissionError, …).
type FsKind int

// The kinds of file errors, in the order and with the names of jail's.
const (
	FsOther FsKind = iota
	FsNotFound
	FsExists
	FsPermission
	FsEscape
	FsNotDir
	FsIsDir
	FsInvalid
)

func (k FsKind) String() string {
	return [...]string{"error", "not found", "already exists", "permission denied",
		"outside the root", "not a directory", "is a directory", "invalid path"}[k]
}

// KindedError is an error of a Root that says its kind. Errors that do not
// say it (a read of an opened file, say) are of kind FsOther.
type KindedError interface {
	error
	FsKind() FsKind
}

// The short names the runtime's files use.
type fsKind = FsKind

const (
	fsNotFound   = FsNotFound
	fsExists     = FsExists
	fsPermission = FsPermission
	fsEscape     = FsEscape
	fsNotDir     = FsNotDir
	fsIsDir      = FsIsDir
	fsInvalid    = FsInvalid
)

// fsKindOf is the kind of an error of a Root (FsOther for any other error).
func FsKindOf(err error) fsKind {
	var k KindedError
	if errors.As(err, &k) {
		return k.FsKind()
	}
	return FsOther
}

// FsError is a file error as the model sees it: a virtual path and a kind.
type FsError struct {
	Op, Vpath string
	Kind      FsKind
	Reason    string
}

func (e *FsError) Error() string {
	msg := fmt.Sprintf("%s %s: %s", e.Op, e.Vpath, e.Kind)
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// Virtual returns the virtual path of rel inside root.
func Virtual(root Root, rel string) string {
	if rel == "." || rel == "" {
		return "/" + root.Name()
	}
	return "/" + root.Name() + "/" + rel
}
