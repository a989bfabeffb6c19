// Shared directory handles: the walk opens each directory once through its
// parent, and grep's workers open a walked file with one openat through its
// directory instead of walking the whole path again.

package tools

import (
	"os"
	"path"
	"sync/atomic"

	"harness/jail"
)

// dirOpener is implemented by *jail.Root; fileSystems without it (test
// doubles) open every file by its full path.
type dirOpener interface {
	OpenDir(path string) (*jail.Dir, error)
}

// sharedDir is a jail.Dir used by the walker and by the jobs of the files
// listed in it; the last one to release it closes it.
type sharedDir struct {
	d    *jail.Dir
	refs atomic.Int32
}

// newSharedDir wraps d with one reference, the walker's.
func newSharedDir(d *jail.Dir) *sharedDir {
	s := &sharedDir{d: d}
	s.refs.Store(1)
	return s
}

// acquire adds a reference (nil stays nil).
func (s *sharedDir) acquire() *sharedDir {
	if s != nil {
		s.refs.Add(1)
	}
	return s
}

func (s *sharedDir) release() {
	if s != nil && s.refs.Add(-1) == 0 {
		s.d.Close()
	}
}

// openJob opens a job's file through its directory handle when it has one.
func openJob(r fileSystem, j grepJob) (*os.File, error) {
	if j.dir != nil {
		return j.dir.d.Open(path.Base(j.rel))
	}
	return r.Open(j.rel)
}
