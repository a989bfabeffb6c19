// A line index: where each distinct line occurs, for finding hunks in linear time.

package patch

import (
	"sort"
	"strings"
)

// index maps each distinct line (under a key function) to its sorted line
// numbers, stored compactly: the occurrences of id k are pos[first[k]:first[k+1]].
type index struct {
	ids   []int32          // id of each line
	key   map[string]int32 // line key -> id
	first []int32
	pos   []int32
	keyFn func(string) string
}

// newIndex indexes lines; keyFn (nil for the line itself) chooses what equal means.
func newIndex(lines []string, keyFn func(string) string) *index {
	x := &index{ids: make([]int32, len(lines)), key: make(map[string]int32, len(lines)/2+1), keyFn: keyFn}
	var count []int32
	for i, l := range lines {
		if keyFn != nil {
			l = keyFn(l)
		}
		id, ok := x.key[l]
		if !ok {
			id = int32(len(count))
			x.key[l] = id
			count = append(count, 0)
		}
		x.ids[i] = id
		count[id]++
	}
	x.first = make([]int32, len(count)+1)
	for id, c := range count {
		x.first[id+1] = x.first[id] + c
	}
	fill := append([]int32(nil), x.first[:len(count)]...)
	x.pos = make([]int32, len(lines))
	for i, id := range x.ids {
		x.pos[fill[id]] = int32(i)
		fill[id]++
	}
	return x
}

// lookup returns the id of s, or -1 when no line has it.
func (x *index) lookup(s string) int32 {
	if x.keyFn != nil {
		s = x.keyFn(s)
	}
	if id, ok := x.key[s]; ok {
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

func (x *index) equalAt(s int, ids []int32) bool {
	for k, id := range ids {
		if x.ids[s+k] != id {
			return false
		}
	}
	return true
}

// trimKey compares lines without leading and trailing white space (anchors).
func trimKey(s string) string { return strings.TrimSpace(s) }
