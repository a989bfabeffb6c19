// Finding matching lines in a buffer: literal search, prefilters, then the regexp or the DFA.

package tools

import (
	"bytes"
)

// matcher finds the matching lines of buffers for one pattern. It holds
// scratch space, so each worker has its own.
type matcher struct {
	p       *pattern
	literal finder   // for p.literal
	finders []finder // for p.needles
	lower   []byte   // text lowercased, for folded needles
	next    []int    // per needle: next occurrence (absolute), or -2 unknown
	dfa     *dfa
}

func newMatcher(p *pattern) *matcher {
	m := &matcher{p: p, next: make([]int, len(p.needles))}
	if p.literal != nil {
		m.literal = newFinder(p.literal)
	}
	for _, n := range p.needles {
		m.finders = append(m.finders, newFinder(n))
	}
	if p.prog != nil && len(p.prog.Inst) <= maxDFAInsts {
		m.dfa = newDFA(p.prog)
	}
	return m
}

// lines calls emit(start, end) for each matching line of text, in order;
// end is the index of the line's '\n' or len(text). text holds complete
// lines (the last may lack its '\n' only at the end of the file).
func (m *matcher) lines(text []byte, emit func(start, end int)) {
	switch {
	case m.p.literal != nil:
		m.literalLines(text, emit)
	case m.p.needles != nil:
		m.needleLines(text, emit)
	default:
		m.scanLines(text, 0, len(text), emit)
	}
}

func lineBounds(text []byte, i int) (start, end int) {
	start = bytes.LastIndexByte(text[:i], '\n') + 1
	end = bytes.IndexByte(text[i:], '\n')
	if end < 0 {
		return start, len(text)
	}
	return start, i + end
}

// literalLines: the pattern is one exact string, so an occurrence is a match.
func (m *matcher) literalLines(text []byte, emit func(start, end int)) {
	for pos := 0; pos < len(text); {
		i := m.literal.index(text[pos:])
		if i < 0 {
			return
		}
		start, end := lineBounds(text, pos+i)
		emit(start, end)
		pos = end + 1
	}
}

// needleLines finds candidate lines holding one of the needles and checks
// each with the full expression.
func (m *matcher) needleLines(text []byte, emit func(start, end int)) {
	hay := text
	if m.p.fold {
		m.lower = lowerASCII(m.lower, text)
		hay = m.lower
	}
	for i := range m.next {
		m.next[i] = -2
	}
	for pos := 0; pos < len(text); {
		first := -1
		for i, f := range m.finders {
			if m.next[i] == -1 {
				continue
			}
			if m.next[i] < pos {
				j := f.index(hay[pos:])
				if j < 0 {
					m.next[i] = -1
					continue
				}
				m.next[i] = pos + j
			}
			if first < 0 || m.next[i] < first {
				first = m.next[i]
			}
		}
		if first < 0 {
			return
		}
		start, end := lineBounds(text, first)
		if m.lineMatches(text[start:end]) {
			emit(start, end)
		}
		pos = end + 1
	}
}

func (m *matcher) lineMatches(line []byte) bool {
	if m.dfa != nil {
		if ok, sure := m.dfa.matchLine(line); sure {
			return ok
		}
	}
	return m.p.re.Match(line)
}

// scanLines runs the expression over text[from:to] (whole lines).
func (m *matcher) scanLines(text []byte, from, to int, emit func(start, end int)) {
	if m.dfa != nil && m.dfa.scan(text[from:to], func(s, e int) { emit(from+s, from+e) }) {
		return
	}
	for pos := from; pos < to; {
		loc := m.p.re.FindIndex(text[pos:to])
		if loc == nil || pos+loc[0] == to && text[to-1] == '\n' {
			return // none, or an empty match after the last line's '\n'
		}
		start, end := lineBounds(text[:to], pos+loc[0])
		emit(start, end)
		pos = end + 1
	}
}
