// difflib's algorithms as CPython 3.11 has them: SequenceMatcher over
// interned elements, the grouped opcodes and the unified, context and
// ndiff formats built on them, so that their output is CPython's byte for
// byte.

package pytext

import (
	"sort"

	"harness/repl/pyrt"
)

// seqMatch is SequenceMatcher's state over sequences of interned element
// ids (equal elements have equal ids).
type seqMatch struct {
	a, b       []int
	autojunk   bool
	junk       func(id int) (bool, error) // nil: no junk
	b2j        map[int][]int
	bjunk      map[int]bool
	bpopular   map[int]bool
	blocks     [][3]int
	fullbcount map[int]int
}

type opcode struct {
	tag            string
	i1, i2, j1, j2 int
}

func (m *seqMatch) setA(a []int) { m.a, m.blocks = a, nil }

func (m *seqMatch) setB(b []int) error {
	m.b, m.blocks, m.fullbcount = b, nil, nil
	return m.chainB()
}

// chainB is __chain_b: b2j maps each element of b to its indices, less
// junk and (with autojunk, b of 200 or more) popular elements.
func (m *seqMatch) chainB() error {
	m.b2j = map[int][]int{}
	var order []int
	for i, e := range m.b {
		if _, ok := m.b2j[e]; !ok {
			order = append(order, e)
		}
		m.b2j[e] = append(m.b2j[e], i)
	}
	m.bjunk, m.bpopular = map[int]bool{}, map[int]bool{}
	if m.junk != nil {
		for _, e := range order {
			j, err := m.junk(e)
			if err != nil {
				return err
			}
			if j {
				m.bjunk[e] = true
			}
		}
		for e := range m.bjunk {
			delete(m.b2j, e)
		}
	}
	if n := len(m.b); m.autojunk && n >= 200 {
		ntest := n/100 + 1
		for e, idx := range m.b2j {
			if len(idx) > ntest {
				m.bpopular[e] = true
			}
		}
		for e := range m.bpopular {
			delete(m.b2j, e)
		}
	}
	return nil
}

// longest is find_longest_match(alo, ahi, blo, bhi), for bounds within a
// (checkBounds); its size is -1 when it would read b past its end.
func (m *seqMatch) longest(alo, ahi, blo, bhi int) (int, int, int) {
	a, b := m.a, m.b
	besti, bestj, bestsize := alo, blo, 0
	j2len := map[int]int{}
	for i := alo; i < ahi; i++ {
		newj2len := map[int]int{}
		for _, j := range m.b2j[a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := j2len[j-1] + 1
			newj2len[j] = k
			if k > bestsize {
				besti, bestj, bestsize = i-k+1, j-k+1, k
			}
		}
		j2len = newj2len
	}
	for _, wantJunk := range []bool{false, true} {
		for besti > alo && bestj > blo && m.bjunk[b[bestj-1]] == wantJunk && a[besti-1] == b[bestj-1] {
			besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
		}
		for besti+bestsize < ahi && bestj+bestsize < bhi {
			if bestj+bestsize >= len(b) {
				return besti, bestj, -1 // a bhi past b's end, where CPython raises IndexError
			}
			if m.bjunk[b[bestj+bestsize]] != wantJunk || a[besti+bestsize] != b[bestj+bestsize] {
				break
			}
			bestsize++
		}
	}
	return besti, bestj, bestsize
}

func (m *seqMatch) matchingBlocks() [][3]int {
	if m.blocks != nil {
		return m.blocks
	}
	la, lb := len(m.a), len(m.b)
	queue := [][4]int{{0, la, 0, lb}}
	var found [][3]int
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		alo, ahi, blo, bhi := q[0], q[1], q[2], q[3]
		i, j, k := m.longest(alo, ahi, blo, bhi)
		if k > 0 {
			found = append(found, [3]int{i, j, k})
			if alo < i && blo < j {
				queue = append(queue, [4]int{alo, i, blo, j})
			}
			if i+k < ahi && j+k < bhi {
				queue = append(queue, [4]int{i + k, ahi, j + k, bhi})
			}
		}
	}
	sort.Slice(found, func(x, y int) bool {
		p, q := found[x], found[y]
		if p[0] != q[0] {
			return p[0] < q[0]
		}
		if p[1] != q[1] {
			return p[1] < q[1]
		}
		return p[2] < q[2]
	})
	var out [][3]int
	i1, j1, k1 := 0, 0, 0
	for _, f := range found {
		if i1+k1 == f[0] && j1+k1 == f[1] {
			k1 += f[2]
			continue
		}
		if k1 > 0 {
			out = append(out, [3]int{i1, j1, k1})
		}
		i1, j1, k1 = f[0], f[1], f[2]
	}
	if k1 > 0 {
		out = append(out, [3]int{i1, j1, k1})
	}
	m.blocks = append(out, [3]int{la, lb, 0})
	return m.blocks
}

func (m *seqMatch) opcodes() []opcode {
	var out []opcode
	i, j := 0, 0
	for _, blk := range m.matchingBlocks() {
		ai, bj, size := blk[0], blk[1], blk[2]
		tag := ""
		switch {
		case i < ai && j < bj:
			tag = "replace"
		case i < ai:
			tag = "delete"
		case j < bj:
			tag = "insert"
		}
		if tag != "" {
			out = append(out, opcode{tag, i, ai, j, bj})
		}
		i, j = ai+size, bj+size
		if size > 0 {
			out = append(out, opcode{"equal", ai, i, bj, j})
		}
	}
	return out
}

// groupedOpcodes is get_grouped_opcodes(n): hunks with n lines of context.
func (m *seqMatch) groupedOpcodes(n int) [][]opcode {
	codes := m.opcodes()
	if len(codes) == 0 {
		codes = []opcode{{"equal", 0, 1, 0, 1}}
	}
	if c := &codes[0]; c.tag == "equal" {
		c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
	}
	if c := &codes[len(codes)-1]; c.tag == "equal" {
		c.i2, c.j2 = min(c.i2, c.i1+n), min(c.j2, c.j1+n)
	}
	var groups [][]opcode
	var group []opcode
	for _, c := range codes {
		if c.tag == "equal" && c.i2-c.i1 > 2*n {
			group = append(group, opcode{c.tag, c.i1, min(c.i2, c.i1+n), c.j1, min(c.j2, c.j1+n)})
			groups = append(groups, group)
			group = nil
			c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
		}
		group = append(group, c)
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].tag == "equal") {
		groups = append(groups, group)
	}
	return groups
}

func diffRatio(matches, length int) float64 {
	if length > 0 {
		return 2.0 * float64(matches) / float64(length)
	}
	return 1.0
}

func (m *seqMatch) ratio() float64 {
	n := 0
	for _, b := range m.matchingBlocks() {
		n += b[2]
	}
	return diffRatio(n, len(m.a)+len(m.b))
}

func (m *seqMatch) quickRatio() float64 {
	if m.fullbcount == nil {
		m.fullbcount = map[int]int{}
		for _, e := range m.b {
			m.fullbcount[e]++
		}
	}
	avail := map[int]int{}
	matches := 0
	for _, e := range m.a {
		numb, ok := avail[e]
		if !ok {
			numb = m.fullbcount[e]
		}
		avail[e] = numb - 1
		if numb > 0 {
			matches++
		}
	}
	return diffRatio(matches, len(m.a)+len(m.b))
}

func (m *seqMatch) realQuickRatio() float64 {
	la, lb := len(m.a), len(m.b)
	return diffRatio(min(la, lb), la+lb)
}

// runeIDs interns a string's characters as their code points.
func runeIDs(s string) []int {
	out := make([]int, 0, len(s))
	for _, r := range s {
		out = append(out, int(r))
	}
	return out
}

// stringIDs interns lines through ids, shared by both sides of a diff.
func stringIDs(ids map[string]int, lines []string) []int {
	out := make([]int, len(lines))
	for i, l := range lines {
		id, ok := ids[l]
		if !ok {
			id = len(ids)
			ids[l] = id
		}
		out[i] = id
	}
	return out
}

func rangeUnified(start, stop int) string {
	beginning, length := start+1, stop-start
	if length == 1 {
		return pyrt.Itoa(beginning)
	}
	if length == 0 {
		beginning--
	}
	return pyrt.Itoa(beginning) + "," + pyrt.Itoa(length)
}

func rangeContext(start, stop int) string {
	beginning, length := start+1, stop-start
	if length == 0 {
		beginning--
	}
	if length <= 1 {
		return pyrt.Itoa(beginning)
	}
	return pyrt.Itoa(beginning) + "," + pyrt.Itoa(beginning+length-1)
}

// diffHeader holds unified_diff's and context_diff's file arguments.
type diffHeader struct {
	fromfile, tofile, fromdate, todate, lineterm string
	n                                            int
}

func dated(name, date string) string {
	if date != "" {
		return name + "\t" + date
	}
	return name
}

func lineMatcher(a, b []string) *seqMatch {
	ids := map[string]int{}
	m := &seqMatch{autojunk: true}
	m.setA(stringIDs(ids, a))
	m.setB(stringIDs(ids, b))
	return m
}

func unifiedDiff(a, b []string, h diffHeader) []string {
	var out []string
	for gi, group := range lineMatcher(a, b).groupedOpcodes(h.n) {
		if gi == 0 {
			out = append(out, "--- "+dated(h.fromfile, h.fromdate)+h.lineterm, "+++ "+dated(h.tofile, h.todate)+h.lineterm)
		}
		first, last := group[0], group[len(group)-1]
		out = append(out, "@@ -"+rangeUnified(first.i1, last.i2)+" +"+rangeUnified(first.j1, last.j2)+" @@"+h.lineterm)
		for _, c := range group {
			if c.tag == "equal" {
				for _, l := range a[c.i1:c.i2] {
					out = append(out, " "+l)
				}
				continue
			}
			if c.tag != "insert" {
				for _, l := range a[c.i1:c.i2] {
					out = append(out, "-"+l)
				}
			}
			if c.tag != "delete" {
				for _, l := range b[c.j1:c.j2] {
					out = append(out, "+"+l)
				}
			}
		}
	}
	return out
}

var contextPrefix = map[string]string{"insert": "+ ", "delete": "- ", "replace": "! ", "equal": "  "}

func contextDiff(a, b []string, h diffHeader) []string {
	var out []string
	for gi, group := range lineMatcher(a, b).groupedOpcodes(h.n) {
		if gi == 0 {
			out = append(out, "*** "+dated(h.fromfile, h.fromdate)+h.lineterm, "--- "+dated(h.tofile, h.todate)+h.lineterm)
		}
		first, last := group[0], group[len(group)-1]
		out = append(out, "***************"+h.lineterm, "*** "+rangeContext(first.i1, last.i2)+" ****"+h.lineterm)
		has := func(skip string) bool {
			for _, c := range group {
				if c.tag != "equal" && c.tag != skip {
					return true
				}
			}
			return false
		}
		if has("insert") {
			for _, c := range group {
				if c.tag != "insert" {
					for _, l := range a[c.i1:c.i2] {
						out = append(out, contextPrefix[c.tag]+l)
					}
				}
			}
		}
		out = append(out, "--- "+rangeContext(first.j1, last.j2)+" ----"+h.lineterm)
		if has("delete") {
			for _, c := range group {
				if c.tag != "delete" {
					for _, l := range b[c.j1:c.j2] {
						out = append(out, contextPrefix[c.tag]+l)
					}
				}
			}
		}
	}
	return out
}
