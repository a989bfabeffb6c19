// Depth-first walks through the jail, in path order, and the include filter.

package tools

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// visitFunc is called for every entry below the walked directory, in path
// order (component by component, so a directory's entries directly follow
// it). rel is root-relative. Returning an error stops the walk.
type visitFunc func(rel string, d fs.DirEntry) error

// dirErrFunc is called when a directory below the start cannot be read; a nil
// return skips the directory and continues.
type dirErrFunc func(rel string, err error) error

// walk visits the entries of dir (root-relative, already known to be a
// directory) and, when recursive, of every directory below it. Symlinks are
// never followed: a symlink to a directory is visited as a symlink entry.
// The context is checked before each directory is read and every 256 entries.
func walk(ctx context.Context, r fileSystem, dir string, recursive bool, visit visitFunc, dirErr dirErrFunc) error {
	entries, err := r.ReadDir(dir)
	if err != nil {
		return err
	}
	return walkEntries(ctx, r, dir, entries, recursive, visit, dirErr)
}

func walkEntries(ctx context.Context, r fileSystem, dir string, entries []fs.DirEntry, recursive bool, visit visitFunc, dirErr dirErrFunc) error {
	for i, d := range entries {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rel := join(dir, d.Name())
		if err := visit(rel, d); err != nil {
			return err
		}
		if !recursive || !d.IsDir() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		sub, err := r.ReadDir(rel)
		if err != nil {
			if err := dirErr(rel, err); err != nil {
				return err
			}
			continue
		}
		if err := walkEntries(ctx, r, rel, sub, recursive, visit, dirErr); err != nil {
			return err
		}
	}
	return nil
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
