// Bases: the texts files had before a Replace File patch, kept for the UI.

package diffview

import (
	"sync"

	"harness/patch"
)

// maxBase is the largest old text kept per file; a larger file's diff is
// shown as its new text (Lines' "old text was not kept").
const maxBase = 4 << 20

// maxBases is how many applied patches Bases remembers; the oldest go.
const maxBases = 256

// Bases remembers, for each apply_patch call that ran, the texts its
// Replace File operations replaced: the wiring records them just before
// the patch is applied (Record), and the UI takes them once the call's
// result arrived (Take), so the diff it draws is against the file as it
// was, whatever happened to it since. Calls are told apart by their root
// and patch text; the same patch applied twice is taken in the order it
// ran. It is safe for concurrent use. The zero value is ready.
type Bases struct {
	mu    sync.Mutex
	m     map[string][]map[string]string
	order []string
}

// Record reads the old text of each Replace File of text (when it parses)
// with read, and remembers them under root and text.
func (b *Bases) Record(root, text string, read func(path string) ([]byte, error)) {
	p, err := patch.Parse(text)
	if err != nil {
		return
	}
	olds := map[string]string{}
	for _, op := range p.Ops {
		if op.Kind != patch.Replace {
			continue
		}
		if data, err := read(op.Path); err == nil && len(data) <= maxBase {
			olds[op.Path] = string(data)
		}
	}
	if len(olds) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string][]map[string]string{}
	}
	k := root + "\x00" + text
	b.m[k] = append(b.m[k], olds)
	b.order = append(b.order, k)
	for len(b.order) > maxBases {
		old := b.order[0]
		b.order = b.order[1:]
		if q := b.m[old]; len(q) > 1 {
			b.m[old] = q[1:]
		} else {
			delete(b.m, old)
		}
	}
}

// Take returns the old texts recorded for the earliest run of text on
// root not taken yet, and forgets them.
func (b *Bases) Take(root, text string) (map[string]string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := root + "\x00" + text
	q := b.m[k]
	if len(q) == 0 {
		return nil, false
	}
	if len(q) == 1 {
		delete(b.m, k)
	} else {
		b.m[k] = q[1:]
	}
	for i, o := range b.order {
		if o == k {
			b.order = append(b.order[:i], b.order[i+1:]...)
			break
		}
	}
	return q[0], true
}
