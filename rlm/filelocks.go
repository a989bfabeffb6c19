// Per-file locks: one apply_patch at a time touches a given file, whichever
// agent sends it, so a sibling's patch never reads a file another is
// rewriting.

package rlm

import (
	"slices"
	"sync"

	"harness/patch"
)

// fileLocks are the files being patched now, by root and path.
type fileLocks struct {
	mu     sync.Mutex
	held   map[string]chan struct{} // closed when the holder unlocks
	onWait func(key string)         // tests: told when a lock must wait
}

// lock waits until no other holder has any of keys and takes them all at
// once (so two patches naming the same files in another order cannot
// deadlock); the function returned unlocks them.
func (l *fileLocks) lock(keys []string) func() {
	keys = slices.Compact(slices.Sorted(slices.Values(keys)))
	l.mu.Lock()
	for {
		var busy chan struct{}
		for _, k := range keys {
			if ch, ok := l.held[k]; ok {
				busy = ch
				break
			}
		}
		if busy == nil {
			break
		}
		if l.onWait != nil {
			l.onWait(keys[0])
		}
		l.mu.Unlock()
		<-busy
		l.mu.Lock()
	}
	if l.held == nil {
		l.held = map[string]chan struct{}{}
	}
	done := make(chan struct{})
	for _, k := range keys {
		l.held[k] = done
	}
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		for _, k := range keys {
			delete(l.held, k)
		}
		l.mu.Unlock()
		close(done)
	}
}

// patchKeys are the files a patch to root writes (its paths and move
// destinations); nil when it does not parse, since applying it then
// changes nothing.
func patchKeys(root, text string) []string {
	p, err := patch.Parse(text)
	if err != nil {
		return nil
	}
	var keys []string
	for _, op := range p.Ops {
		keys = append(keys, root+":"+op.Path)
		if op.MoveTo != "" {
			keys = append(keys, root+":"+op.MoveTo)
		}
	}
	return keys
}
