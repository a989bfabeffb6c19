// A lazily built DFA over Go's compiled regexp program, answering "does this line match?".

package tools

import (
	"bytes"
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// dfa decides, line by line, whether a line-safe program (see lineSafe)
// matches anywhere in a line. States are sets of program instructions built
// on demand (subset construction) and cached, so each byte of text costs one
// table lookup once the states it visits exist. Empty-width assertions (^ $
// \b \B) are resolved when the next character is known: a state remembers
// whether the previous character was a line start, a word character or
// another character. It reads text as UTF-8 the way Go's regexp does (an
// invalid byte is U+FFFD), so it agrees with the regexp it stands in for.
//
// A dfa is not safe for concurrent use. When a pattern needs more than
// maxStates states, the dfa gives up and callers fall back to the regexp.
type dfa struct {
	prog    *syntax.Prog
	states  map[string]*dstate
	start   *dstate
	matched *dstate // sentinel: the line matched before the character
	failed  bool

	look, pend sparseSet
	key        []byte
	hits       []hit // scan's matches, emitted once the scan succeeded
	pcs        int   // instructions held by all states
}

type hit struct{ s, e int }

// Limits on the work a DFA may do before giving up: the number of states,
// the instructions held across them, and (in newMatcher) the program size.
const (
	maxStates   = 2000
	maxStatePCs = 1 << 18
	maxDFAInsts = 1500
)

type dstate struct {
	pcs   []uint32
	prev  byte // what preceded: prevLine, prevWord, prevOther
	ascii [utf8.RuneSelf]*dstate
	other map[rune]*dstate
	eol   int8 // 0 unknown, 1 no match at the end of the line, 2 match
}

const (
	prevLine = iota
	prevWord
	prevOther
)

var prevRune = [...]rune{prevLine: '\n', prevWord: 'a', prevOther: ' '}

func newDFA(prog *syntax.Prog) *dfa {
	d := &dfa{
		prog:    prog,
		states:  map[string]*dstate{},
		matched: &dstate{},
		look:    newSparseSet(len(prog.Inst)),
		pend:    newSparseSet(len(prog.Inst)),
	}
	d.pend.clear()
	d.addPending(uint32(prog.Start))
	d.start = d.intern(prevLine)
	return d
}

// scan calls emit(start, end) for every matching line of text (whole lines)
// and reports true, or reports false (having emitted nothing) when the
// pattern needs too many states.
func (d *dfa) scan(text []byte, emit func(start, end int)) bool {
	if d.failed {
		return false
	}
	hits := d.hits[:0]
	defer func() { d.hits = hits[:0] }()
	lineStart := 0
	s := d.start
	for i := 0; i < len(text); {
		// Fast path: ASCII other than '\n' through cached transitions.
		c := text[i]
		if c < utf8.RuneSelf && c != '\n' {
			if n := s.ascii[c]; n != nil && n != d.matched {
				s = n
				i++
				continue
			}
		}
		if c == '\n' {
			if d.eolMatch(s) {
				hits = append(hits, hit{lineStart, i})
			}
			i++
			lineStart, s = i, d.start
			continue
		}
		next, w := d.next(s, text[i:])
		if next == nil {
			return false
		}
		if next == d.matched {
			end := bytes.IndexByte(text[i:], '\n')
			if end < 0 {
				hits = append(hits, hit{lineStart, len(text)})
				lineStart = len(text)
				break
			}
			hits = append(hits, hit{lineStart, i + end})
			i += end + 1
			lineStart, s = i, d.start
			continue
		}
		s = next
		i += w
	}
	if lineStart < len(text) && d.eolMatch(s) {
		hits = append(hits, hit{lineStart, len(text)})
	}
	if d.failed {
		return false
	}
	for _, h := range hits {
		emit(h.s, h.e)
	}
	return true
}

// matchLine reports whether one line (without its '\n') matches; sure is
// false when the dfa gave up.
func (d *dfa) matchLine(line []byte) (ok, sure bool) {
	if d.failed {
		return false, false
	}
	s := d.start
	for i := 0; i < len(line); {
		next, w := d.next(s, line[i:])
		if next == nil {
			return false, false
		}
		if next == d.matched {
			return true, true
		}
		s = next
		i += w
	}
	return d.eolMatch(s), !d.failed
}

// next returns the state after the first character of text and that
// character's width; d.matched when the line matched before it; nil when the
// dfa gave up.
func (d *dfa) next(s *dstate, text []byte) (*dstate, int) {
	if c := text[0]; c < utf8.RuneSelf {
		if n := s.ascii[c]; n != nil {
			return n, 1
		}
		n := d.step(s, rune(c))
		s.ascii[c] = n
		return n, 1
	}
	r, w := utf8.DecodeRune(text)
	if n := s.other[r]; n != nil {
		return n, w
	}
	n := d.step(s, r)
	if n != nil {
		if s.other == nil {
			s.other = map[rune]*dstate{}
		}
		s.other[r] = n
	}
	return n, w
}

func (d *dfa) eolMatch(s *dstate) bool {
	if s.eol == 0 {
		s.eol = 1
		if d.lookahead(s, '\n') {
			s.eol = 2
		}
	}
	return s.eol == 2
}

// lookahead expands s's pending instructions knowing the next character r
// into d.look, and reports whether a match was reached.
func (d *dfa) lookahead(s *dstate, r rune) bool {
	ctx := syntax.EmptyOpContext(prevRune[s.prev], r)
	d.look.clear()
	matched := false
	for _, pc := range s.pcs {
		if d.addLook(pc, ctx) {
			matched = true
		}
	}
	return matched
}

// step computes the state after character r (never '\n').
func (d *dfa) step(s *dstate, r rune) *dstate {
	if d.lookahead(s, r) {
		return d.matched
	}
	d.pend.clear()
	for _, pc := range d.look.dense {
		inst := &d.prog.Inst[pc]
		if matchRune(inst, r) {
			d.addPending(inst.Out)
		}
	}
	d.addPending(uint32(d.prog.Start)) // unanchored: a match may start anywhere
	prev := byte(prevOther)
	if syntax.IsWordChar(r) {
		prev = prevWord
	}
	return d.intern(prev)
}

func matchRune(inst *syntax.Inst, r rune) bool {
	switch inst.Op {
	case syntax.InstRune1:
		return r == inst.Rune[0]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	case syntax.InstRune:
		return inst.MatchRune(r)
	}
	return false
}

// addLook follows pc through alternations and satisfied assertions, adding
// the character-consuming instructions to d.look; it reports a match.
func (d *dfa) addLook(pc uint32, ctx syntax.EmptyOp) bool {
	for {
		if d.look.has(pc) {
			return false
		}
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstMatch:
			return true
		case syntax.InstFail:
			return false
		case syntax.InstAlt, syntax.InstAltMatch:
			d.look.mark(pc)
			if d.addLook(inst.Out, ctx) {
				return true
			}
			pc = inst.Arg
		case syntax.InstNop, syntax.InstCapture:
			d.look.mark(pc)
			pc = inst.Out
		case syntax.InstEmptyWidth:
			d.look.mark(pc)
			if syntax.EmptyOp(inst.Arg)&^ctx != 0 {
				return false
			}
			pc = inst.Out
		default:
			d.look.add(pc)
			return false
		}
	}
}

// addPending follows pc through alternations, adding consuming
// instructions, assertions and matches to d.pend.
func (d *dfa) addPending(pc uint32) {
	for {
		if d.pend.has(pc) {
			return
		}
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstFail:
			return
		case syntax.InstAlt, syntax.InstAltMatch:
			d.pend.mark(pc)
			d.addPending(inst.Out)
			pc = inst.Arg
		case syntax.InstNop, syntax.InstCapture:
			d.pend.mark(pc)
			pc = inst.Out
		default:
			d.pend.add(pc)
			return
		}
	}
}

// intern returns the cached state for d.pend's instructions and prev.
func (d *dfa) intern(prev byte) *dstate {
	pcs := d.pend.dense
	slices.Sort(pcs)
	d.key = append(d.key[:0], prev)
	for _, pc := range pcs {
		d.key = binary.LittleEndian.AppendUint32(d.key, pc)
	}
	if s, ok := d.states[string(d.key)]; ok {
		return s
	}
	if len(d.states) >= maxStates || d.pcs+len(pcs) > maxStatePCs {
		d.failed = true
		return nil
	}
	d.pcs += len(pcs)
	s := &dstate{pcs: slices.Clone(pcs), prev: prev}
	d.states[string(d.key)] = s
	return s
}

// sparseSet is a set of instruction indexes with O(1) clear. Members added
// with add are listed in dense; mark records a visit without listing.
type sparseSet struct {
	gen   []uint32
	cur   uint32
	dense []uint32
}

func newSparseSet(n int) sparseSet { return sparseSet{gen: make([]uint32, n)} }

func (s *sparseSet) clear() {
	s.cur++
	s.dense = s.dense[:0]
}

func (s *sparseSet) has(pc uint32) bool { return s.gen[pc] == s.cur }
func (s *sparseSet) mark(pc uint32)     { s.gen[pc] = s.cur }

func (s *sparseSet) add(pc uint32) {
	s.gen[pc] = s.cur
	s.dense = append(s.dense, pc)
}
