// A line index: where each distinct line occurs, for finding hunks in linear time.

package patch

import (
	"sort"
	"strings"
)

// index maps the lines worth looking for (the lines of the hunks, or their
// anchors) to their sorted line numbers in the file, stored compactly: the
// occurrences of id k are pos[first[k]:first[k+1]]. Other lines get id -1,
// so building it costs one hash per line of the file and memory only for
// the lines that matter.
type index struct {
	ids   []int32          // id of each line of the file, -1 when not wanted
	key   map[string]int32 // wanted key -> id
	first []int32
	pos   []int32
	keyFn func(string) string
}

// newIndex indexes the lines whose key (keyFn of the line, or the line
// itself when keyFn is nil) is the key of one of wanted.
func newIndex(t *text, keyFn func(string) string, wanted []string) *index {
	identity := keyFn == nil
	if identity {
		keyFn = func(s string) string { return s }
	}
	x := &index{ids: make([]int32, t.len()), key: make(map[string]int32, len(wanted)), keyFn: keyFn}
	const maxLen = 1 << 12
	var lens [maxLen + 1]bool // lens[n]: some wanted key has n bytes (n == maxLen: at least maxLen)
	for _, w := range wanted {
		k := keyFn(w)
		if _, ok := x.key[k]; !ok {
			x.key[k] = int32(len(x.key))
			lens[min(len(k), maxLen)] = true
		}
	}
	count := make([]int32, len(x.key)+1)
	for i := range x.ids {
		l := t.line(i)
		x.ids[i] = -1
		k := l
		if !identity {
			k = keyFn(l)
		}
		if !lens[min(len(k), maxLen)] {
			continue // no wanted key has this length
		}
		if id, ok := x.key[k]; ok {
			x.ids[i] = id
			count[id+1]++
		}
	}
	x.first = count
	for id := 1; id < len(count); id++ {
		x.first[id] += x.first[id-1]
	}
	fill := append([]int32(nil), x.first[:len(x.key)]...)
	x.pos = make([]int32, x.first[len(x.key)])
	for i, id := range x.ids {
		if id >= 0 {
			x.pos[fill[id]] = int32(i)
			fill[id]++
		}
	}
	return x
}

// lookup returns the id of s, or -1 when no line has it (or it was not wanted).
func (x *index) lookup(s string) int32 {
	if id, ok := x.key[x.keyFn(s)]; ok && x.first[id+1] > x.first[id] {
		return id
	}
	return -1
}

// occurrences returns the sorted line numbers of id that are ≥ lo.
func (x *index) occurrences(id int32, lo int) []int32 {
	ps := x.pos[x.first[id]:x.first[id+1]]
	i := sort.Search(len(ps), func(i int) bool { return int(ps[i]) >= lo })
	return ps[i:]
}

// find returns the first max starts s ≥ lo where lines s, s+1, … equal seq,
// and how many such starts there are in all. It checks only the places where
// the rarest line of seq occurs, so its cost is the number of those places
// times len(seq), not the length of the file.
func (x *index) find(seq []string, lo, max int) (starts []int, count int) {
	if len(seq) == 0 {
		return nil, 0
	}
	ids := make([]int32, len(seq))
	pivot, best := 0, -1
	for k, s := range seq {
		id := x.lookup(s)
		if id < 0 {
			return nil, 0
		}
		ids[k] = id
		if c := len(x.occurrences(id, lo+k)); best < 0 || c < best {
			pivot, best = k, c
		}
	}
	for _, p := range x.occurrences(ids[pivot], lo+pivot) {
		s := int(p) - pivot
		if s+len(seq) > len(x.ids) {
			break
		}
		if x.equalAt(s, ids) {
			if len(starts) < max {
				starts = append(starts, s)
			}
			count++
		}
	}
	return starts, count
}

// equalAt reports whether lines s, s+1, … have the ids (an id of -1, a line
// that occurs nowhere, never matches).
func (x *index) equalAt(s int, ids []int32) bool {
	for k, id := range ids {
		if id < 0 || x.ids[s+k] != id {
			return false
		}
	}
	return true
}

// trimKey compares lines without leading and trailing white space (anchors).
func trimKey(s string) string { return strings.TrimSpace(s) }
