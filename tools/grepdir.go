// Shared directory handles: grep's workers open a walked file with one
// openat through its directory instead of walking the whole path again.

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

func (s *sharedDir) acquire() *sharedDir { s.refs.Add(1); return s }

func (s *sharedDir) release() {
	if s != nil && s.refs.Add(-1) == 0 {
		s.d.Close()
	}
}

// dirCache keeps the walker's handle for the directory it is listing. The
// walk visits a directory's entries in order, with subdirectories in
// between, so one current handle (reopened after a subdirectory) is enough.
type dirCache struct {
	r   dirOpener
	rel string
	cur *sharedDir
}

// forFile returns a handle on rel's directory with a reference for the job,
// or nil when none can be had (the job then opens by full path).
func (c *dirCache) forFile(rel string) *sharedDir {
	if c.r == nil {
		return nil
	}
	dir := path.Dir(rel)
	if c.cur == nil || c.rel != dir {
		c.close()
		d, err := c.r.OpenDir(dir)
		if err != nil {
			return nil
		}
		c.rel, c.cur = dir, &sharedDir{d: d}
		c.cur.refs.Store(1) // the cache's own reference
	}
	return c.cur.acquire()
}

func (c *dirCache) close() {
	c.cur.release()
	c.cur = nil
}

// openJob opens a job's file through its directory handle when it has one.
func openJob(r fileSystem, j grepJob) (*os.File, error) {
	if j.dir != nil {
		return j.dir.d.Open(path.Base(j.rel))
	}
	return r.Open(j.rel)
}
