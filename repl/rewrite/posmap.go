// Positions in rewritten code mapped back to the user's line and column.

package rewrite

import (
	"sort"
	"unicode/utf8"
)

// piece is a run of output text: a copy of the source at orig (exact), or
// inserted text attributed to the source position orig.
type piece struct {
	text  string
	orig  int
	exact bool
	mark  markKind // the text is a token the AST pass must find again
}

// markKind names what a marked piece of rewritten code stands for.
type markKind uint8

const (
	markNone markKind = iota
	markPow           // "[" of x [y], standing for x ** y
	markIs            // "==" or "!=" standing for is / is not
	markGen           // "[" of a comprehension standing for a generator expression
)

// frag is a rewritten stretch of code.
type frag []piece

func (f *frag) copy(src string, a, b int) {
	if b > a {
		*f = append(*f, piece{text: src[a:b], orig: a, exact: true})
	}
}

// copyText adds text that is a copy of the source at orig.
func (f *frag) copyText(text string, orig int) {
	if text != "" {
		*f = append(*f, piece{text: text, orig: orig, exact: true})
	}
}

func (f *frag) add(text string, orig int) {
	if text != "" {
		*f = append(*f, piece{text: text, orig: orig})
	}
}

func (f *frag) addFrag(g frag) { *f = append(*f, g...) }

func (f *frag) mark(text string, orig int, k markKind) {
	*f = append(*f, piece{text: text, orig: orig, mark: k})
}

func (f frag) String() string {
	n := 0
	for _, p := range f {
		n += len(p.text)
	}
	b := make([]byte, 0, n)
	for _, p := range f {
		b = append(b, p.text...)
	}
	return string(b)
}

// PosMap maps byte offsets of the rewritten text to offsets of the
// original, and line/column positions between the two texts.
type PosMap struct {
	orig, out string
	segs      []seg // by out offset
	outLines  []int // start offset of each line of out
	origLines []int
}

type seg struct {
	out, orig, n int
	exact        bool
}

func newPosMap(orig string, f frag) *PosMap {
	m := &PosMap{orig: orig}
	off := 0
	for _, p := range f {
		m.segs = append(m.segs, seg{out: off, orig: p.orig, n: len(p.text), exact: p.exact})
		off += len(p.text)
	}
	m.out = f.String()
	m.outLines = LineStarts(m.out)
	m.origLines = LineStarts(orig)
	return m
}

func LineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// offset returns the byte offset of the 1-based line and rune column in
// text (whose line starts are given).
func offset(text string, starts []int, line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(starts) {
		return len(text)
	}
	i := starts[line-1]
	for c := 1; c < col && i < len(text) && text[i] != '\n'; c++ {
		_, w := utf8.DecodeRuneInString(text[i:])
		i += w
	}
	return i
}

// LineCol returns the 1-based line and rune column of offset i.
func LineCol(text string, starts []int, i int) (int, int) {
	if i > len(text) {
		i = len(text)
	}
	line := sort.Search(len(starts), func(k int) bool { return starts[k] > i })
	col := utf8.RuneCountInString(text[starts[line-1]:i]) + 1
	return line, col
}

// toOrig maps an output offset to the original offset.
func (m *PosMap) toOrig(i int) int {
	k := sort.Search(len(m.segs), func(j int) bool { return m.segs[j].out+m.segs[j].n > i })
	if k == len(m.segs) {
		return len(m.orig)
	}
	s := m.segs[k]
	if s.exact {
		return s.orig + (i - s.out)
	}
	return s.orig
}

// Position maps a 1-based line and column of the rewritten text to the
// original text.
func (m *PosMap) Position(line, col int) (int, int) {
	if m == nil {
		return line, col
	}
	return LineCol(m.orig, m.origLines, m.toOrig(offset(m.out, m.outLines, line, col)))
}

// outPosition returns the line and column of an output offset, for marks.
func (m *PosMap) outPosition(i int) (int, int) { return LineCol(m.out, m.outLines, i) }
