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
	"io/fs"
	"os"

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
	name  string
	dir   string
	root  *os.Root
	level func() config.Permission // nil for store and library
}

var _ = fs.ModePerm
