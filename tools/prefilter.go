// Required-literal prefilters: byte strings one of which every matching line contains.

package tools

import (
	"bytes"
	"encoding/binary"
	"regexp/syntax"
	"unicode/utf8"
)

// needle is a byte string searched with bytes.Index (in lowercased text when
// the pattern's needles fold case).
type needle []byte

const maxNeedles = 8

// requiredNeedles returns needles such that every line the expression
// matches contains at least one of them, or nil when there is no useful set.
// fold reports that the needles are lowercase ASCII and must be searched in
// ASCII-lowercased text.
func requiredNeedles(re *syntax.Regexp) (needles []needle, fold bool) {
	set, ok := required(re)
	if !ok {
		return nil, false
	}
	for _, l := range set {
		fold = fold || l.fold
	}
	for _, l := range set {
		n := l.text
		if fold {
			n = foldNeedle(l.text)
			if len(n) == 0 {
				return nil, false
			}
		}
		needles = append(needles, n)
	}
	return needles, fold
}

type lit struct {
	text []byte
	fold bool
}

// required computes a set of literals of which every match contains one.
func required(re *syntax.Regexp) ([]lit, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return []lit{{[]byte(string(re.Rune)), re.Flags&syntax.FoldCase != 0}}, true
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []lit
		for _, sub := range mergeLiterals(re.Sub) {
			if set, ok := required(sub); ok && score(set) > score(best) {
				best = set
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []lit
		for _, sub := range re.Sub {
			set, ok := required(sub)
			if !ok || len(all)+len(set) > maxNeedles {
				return nil, false
			}
			all = append(all, set...)
		}
		return all, true
	}
	return nil, false
}

// mergeLiterals joins adjacent literals of a concatenation with the same
// case folding, so that "ab" "c" yields the needle "abc".
func mergeLiterals(subs []*syntax.Regexp) []*syntax.Regexp {
	var out []*syntax.Regexp
	for _, s := range subs {
		if n := len(out); n > 0 && s.Op == syntax.OpLiteral && out[n-1].Op == syntax.OpLiteral &&
			(s.Flags^out[n-1].Flags)&syntax.FoldCase == 0 {
			merged := *out[n-1]
			merged.Rune = append(append([]rune(nil), out[n-1].Rune...), s.Rune...)
			out[n-1] = &merged
			continue
		}
		out = append(out, s)
	}
	return out
}

// score rates a literal set: the length of its shortest usable needle, with
// a smaller set winning ties. Zero means useless.
func score(set []lit) int {
	if len(set) == 0 {
		return 0
	}
	shortest := -1
	for _, l := range set {
		n := len(l.text)
		if l.fold {
			n = len(foldNeedle(l.text))
		}
		if shortest < 0 || n < shortest {
			shortest = n
		}
	}
	return shortest*maxNeedles*2 - len(set)
}

// foldNeedle returns the longest run of l that ASCII lowercasing finds under
// Unicode case folding, lowercased: ASCII letters other than k and s (which
// also fold to the Kelvin sign and long s) and other ASCII bytes.
func foldNeedle(l []byte) []byte {
	var best []byte
	start := 0
	for i := 0; i <= len(l); i++ {
		if i < len(l) && l[i] < utf8.RuneSelf && !foldsOutside(l[i]) {
			continue
		}
		if i-start > len(best) {
			best = l[start:i]
		}
		start = i + 1
	}
	return bytes.ToLower(best)
}

func foldsOutside(c byte) bool {
	return c == 'k' || c == 'K' || c == 's' || c == 'S'
}

// lowerASCII writes src with ASCII letters lowercased into dst (grown as
// needed) and returns it; other bytes are copied, so offsets are preserved.
// Eight bytes are handled at a time: for each byte below 0x80, adding
// 0x80-'A' sets its top bit when it is >= 'A', adding 0x80-'Z'-1 when it is
// > 'Z'; the bytes with the first but not the second get 0x20 added.
func lowerASCII(dst, src []byte) []byte {
	if cap(dst) < len(src) {
		dst = make([]byte, len(src), len(src)+len(src)/4)
	}
	dst = dst[:len(src)]
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(src); i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		low7 := x &^ high
		ge := low7 + ones*(0x80-'A')
		gt := low7 + ones*(0x80-'Z'-1)
		upper := ge &^ gt &^ x & high
		binary.LittleEndian.PutUint64(dst[i:], x|upper>>2)
	}
	for ; i < len(src); i++ {
		c := src[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
	return dst
}

// finder searches for one needle by its rarest byte: memchr for that byte
// (bytes.IndexByte), then a comparison of the whole needle around it. Text
// rarely holds the rarest byte of a needle, so candidates are few.
type finder struct {
	needle []byte
	rare   int // offset of the rarest byte in needle
}

func newFinder(needle []byte) finder {
	f := finder{needle: needle}
	for i, c := range needle {
		if byteRank[c] < byteRank[needle[f.rare]] {
			f.rare = i
		}
	}
	return f
}

// index returns the first occurrence of the needle in hay, or -1.
func (f finder) index(hay []byte) int {
	n, r, c := len(f.needle), f.rare, f.needle[f.rare]
	for pos := r; pos < len(hay); {
		i := bytes.IndexByte(hay[pos:], c)
		if i < 0 {
			return -1
		}
		start := pos + i - r
		if start+n > len(hay) {
			return -1
		}
		if bytes.Equal(hay[start:start+n], f.needle) {
			return start
		}
		pos += i + 1
	}
	return -1
}

// byteRank orders bytes by how common they are in source code and prose:
// lower is rarer. Letters and punctuation common in code rank high.
var byteRank = func() (rank [256]uint8) {
	for i := range rank {
		rank[i] = 10 // control characters and non-ASCII bytes: rare
	}
	const common = "etaoinsrhldcumfpgwybvkxjqz" // most common first
	for i, c := range common {
		rank[c] = uint8(200 - i*4)
		rank[c-'a'+'A'] = uint8(120 - i*3)
	}
	for _, c := range " \t\n" {
		rank[c] = 255
	}
	for _, c := range "()[]{}.,;:=_\"'/*-+<>&|!0123456789#" {
		rank[c] = 150
	}
	return rank
}()
