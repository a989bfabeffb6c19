// The file-touch hook: which repository paths a call's code resolved, for
// Options.OnTouch.

package repl

import "sync"

// maxTouched bounds the distinct paths one call records; a call walking a
// huge tree reports the first ones.
const maxTouched = 4096

// touches are the repository paths one call resolved, in first-touch
// order, each once. Generators resolve paths on goroutines of their own
// (one side runs at a time), hence the lock.
type touches struct {
	mu   sync.Mutex
	seen map[string]bool
	list []string
}

func (t *touches) add(rel string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seen[rel] || len(t.list) >= maxTouched {
		return
	}
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	t.seen[rel] = true
	t.list = append(t.list, rel)
}

func (t *touches) paths() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.list...)
}

// touch records that the running call resolved rel in the repository.
func (r *interp) touch(root string, rel string) {
	if root != r.opts.Repository.Name() {
		return
	}
	if c := r.call.Load(); c != nil {
		c.touched.add(rel)
	}
}

// reportTouched tells Options.OnTouch the paths of a finished call.
func (o *Options) reportTouched(paths []string) {
	if o.OnTouch == nil {
		return
	}
	for _, p := range paths {
		o.OnTouch(p)
	}
}
