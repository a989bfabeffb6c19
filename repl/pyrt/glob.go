// The glob walker behind Path.glob/rglob and the replib glob() helper.

package pyrt

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globber walks one root matching a pattern component by component.
// "**" matches zero or more directories and never enters directory
// symlinks; other components may pass through a symlink to a directory.
// Entries whose name is in skip are neither reported nor entered.
type globber struct {
	r     *Interp
	c     CallState
	root  Root
	op    string
	skip  map[string]bool
	seen  map[string]bool
	found []string
}

func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[{\`) }

func JoinRel(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

func (w *globber) add(rel string) {
	if !w.seen[rel] {
		w.seen[rel] = true
		w.found = append(w.found, rel)
	}
}

func (w *globber) readDir(dir string) ([]string, []bool, error) {
	if err := w.c.Ctx().Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: cancelled", w.op)
	}
	entries, err := w.root.ReadDir(dir)
	if err != nil {
		return nil, nil, w.r.Host.FsErr(w.op, Virtual(w.root, dir), err)
	}
	names := make([]string, 0, len(entries))
	dirs := make([]bool, 0, len(entries))
	for _, e := range entries {
		if w.skip[e.Name()] {
			continue
		}
		names = append(names, e.Name())
		dirs = append(dirs, e.IsDir()) // false for symlinks: entries are not followed
	}
	return names, dirs, nil
}

// walk matches comps against the entries of dir; prefix is dir relative to
// the starting directory.
func (w *globber) walk(dir, prefix string, comps []string) error {
	comp, rest := comps[0], comps[1:]
	if comp == "**" {
		if len(rest) == 0 {
			return w.all(dir, prefix)
		}
		if err := w.walk(dir, prefix, rest); err != nil {
			return err
		}
		names, dirs, err := w.readDir(dir)
		if err != nil {
			return err
		}
		for i, n := range names {
			if dirs[i] {
				if err := w.walk(JoinRel(dir, n), JoinRel(prefix, n), comps); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if !hasMeta(comp) {
		return w.literal(dir, prefix, comp, rest)
	}
	names, dirs, err := w.readDir(dir)
	if err != nil {
		return err
	}
	for i, n := range names {
		ok, err := doublestar.Match(comp, n)
		if err != nil {
			return fmt.Errorf("%s: bad pattern component %q: %v", w.op, comp, err)
		}
		if !ok {
			continue
		}
		if len(rest) == 0 {
			w.add(JoinRel(prefix, n))
			continue
		}
		if !dirs[i] && !w.isDirFollowing(JoinRel(dir, n)) {
			continue
		}
		if err := w.walk(JoinRel(dir, n), JoinRel(prefix, n), rest); err != nil {
			return err
		}
	}
	return nil
}

// literal handles a component without wildcards.
func (w *globber) literal(dir, prefix, comp string, rest []string) error {
	if w.skip[comp] {
		return nil
	}
	p := JoinRel(dir, comp)
	if len(rest) == 0 {
		_, err := w.root.Lstat(p)
		switch {
		case err == nil:
			w.add(JoinRel(prefix, comp))
		case FsKindOf(err) != fsNotFound && FsKindOf(err) != fsNotDir:
			return w.r.Host.FsErr(w.op, Virtual(w.root, p), err)
		}
		return nil
	}
	fi, err := w.root.Stat(p)
	switch {
	case err == nil && fi.IsDir():
		return w.walk(p, JoinRel(prefix, comp), rest)
	case err == nil, FsKindOf(err) == fsNotFound, FsKindOf(err) == fsNotDir:
		return nil // nothing below a missing entry or a file
	}
	return w.r.Host.FsErr(w.op, Virtual(w.root, p), err) // a named directory that cannot be entered
}

func (w *globber) isDirFollowing(p string) bool {
	fi, err := w.root.Stat(p)
	return err == nil && fi.IsDir()
}

// all adds every entry below dir, not entering directory symlinks.
func (w *globber) all(dir, prefix string) error {
	names, dirs, err := w.readDir(dir)
	if err != nil {
		return err
	}
	for i, n := range names {
		w.add(JoinRel(prefix, n))
		if dirs[i] {
			if err := w.all(JoinRel(dir, n), JoinRel(prefix, n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// matchPath reports whether p matches pattern the way PurePath.match does:
// a relative pattern matches from the right.
func matchPath(pattern, p string) (bool, error) {
	if !doublestar.ValidatePattern(pattern) {
		return false, fmt.Errorf("bad pattern %q", pattern)
	}
	if strings.HasPrefix(pattern, "/") {
		return doublestar.Match(pattern, p)
	}
	if ok, _ := doublestar.Match(pattern, p); ok {
		return true, nil
	}
	return doublestar.Match("**/"+pattern, path.Clean(p))
}

func SortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}
