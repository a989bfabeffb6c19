// Python's Unicode \b against RE2's ASCII one: where they could disagree on a text, re refuses.

package pyre

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"

	"harness/repl/pystr"
)

// A wordBound is one \b or \B of a pattern with what the pattern puts
// around it: the sets of the runes just before it (nearest first) and
// just after it, as far as they are fixed. A nil set is any rune.
type wordBound struct {
	before, after []runeSet
}

// runeSet is a syntax.Regexp's class: ranges lo, hi.
type runeSet []rune

func (rs runeSet) has(r rune) bool {
	if rs == nil {
		return true
	}
	for k := 0; k+1 < len(rs); k += 2 {
		if rs[k] <= r && r <= rs[k+1] {
			return true
		}
	}
	return false
}

// boundContext is how many runes around a \b the check looks at.
const boundContext = 8

// collectBounds appends the \b and \B of re to out; their context is
// what their concatenation fixes (it stops at a group's edge).
func collectBounds(re *syntax.Regexp, out []wordBound) []wordBound {
	switch re.Op {
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return append(out, wordBound{})
	case syntax.OpConcat:
		for i, s := range re.Sub {
			if s.Op == syntax.OpWordBoundary || s.Op == syntax.OpNoWordBoundary {
				after, _ := seqSets(re.Sub[i+1:], false)
				before, _ := seqSets(re.Sub[:i], true)
				out = append(out, wordBound{before: before, after: after})
				continue
			}
			out = collectBounds(s, out)
		}
		return out
	}
	for _, s := range re.Sub {
		out = collectBounds(s, out)
	}
	return out
}

// seqSets returns the sets of the runes the nodes consume first (or last,
// backward), as far as they are fixed, and whether the nodes were fixed
// to their end.
func seqSets(nodes []*syntax.Regexp, backward bool) ([]runeSet, bool) {
	var out []runeSet
	for k := range nodes {
		n := nodes[k]
		if backward {
			n = nodes[len(nodes)-1-k]
		}
		if len(out) >= boundContext {
			return out, false
		}
		switch n.Op {
		case syntax.OpLiteral:
			for j := range n.Rune {
				r := n.Rune[j]
				if backward {
					r = n.Rune[len(n.Rune)-1-j]
				}
				out = append(out, literalSet(r, n.Flags&syntax.FoldCase != 0))
			}
		case syntax.OpCharClass:
			out = append(out, runeSet(n.Rune))
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			out = append(out, nil)
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		case syntax.OpCapture:
			sub, full := seqSets([]*syntax.Regexp{n.Sub[0]}, backward)
			out = append(out, sub...)
			if !full {
				return out, false
			}
		case syntax.OpConcat:
			sub, full := seqSets(n.Sub, backward)
			out = append(out, sub...)
			if !full {
				return out, false
			}
		case syntax.OpPlus:
			sub, _ := seqSets([]*syntax.Regexp{n.Sub[0]}, backward)
			if len(sub) > 0 {
				out = append(out, sub[0])
			}
			return out, false
		case syntax.OpRepeat:
			if n.Min > 0 {
				sub, _ := seqSets([]*syntax.Regexp{n.Sub[0]}, backward)
				if len(sub) > 0 {
					out = append(out, sub[0])
				}
			}
			return out, false
		case syntax.OpAlternate:
			if set := firstUnion(n.Sub, backward); set != nil {
				out = append(out, set)
			}
			return out, false
		default:
			return out, false
		}
	}
	return out, true
}

// firstUnion is the union of the first (or last) rune sets of the
// alternatives, or nil when one is not fixed.
func firstUnion(alts []*syntax.Regexp, backward bool) runeSet {
	var u runeSet
	for _, a := range alts {
		sub, _ := seqSets([]*syntax.Regexp{a}, backward)
		if len(sub) == 0 || sub[0] == nil {
			return nil
		}
		u = append(u, sub[0]...)
	}
	return u
}

func literalSet(r rune, fold bool) runeSet {
	set := runeSet{r, r}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			set = append(set, f, f)
		}
	}
	return set
}

// pyWord is Python's \w for a str pattern.
func pyWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// checkBounds refuses s when Python's and RE2's word boundaries differ at
// a position of s where a \b or \B of the pattern could be tested: the
// edges of each run of non-ASCII word characters.
func (p *Regexp) checkBounds(fn, s string) error {
	if pystr.IsASCII(s) {
		return nil
	}
	inRun := false
	for i := 0; i <= len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		naw := i < len(s) && r >= utf8.RuneSelf && pyWord(r)
		if naw != inRun && p.boundAt(s, i) {
			c := r
			if !naw {
				c, _ = utf8.DecodeLastRuneInString(s[:i])
			}
			return reRefusal(fn, p.src, "\\b and \\B count only ASCII letters, digits and _ as word characters in Go's RE2 engine, and this text has %s next to where the pattern tests a word boundary (offset %d), so the result could differ from Python's; pass re.ASCII if ASCII word boundaries are meant, or match without \\b (re.findall(r\"\\w+\", text) gives the words)",
				pystr.Quote(string(c)), pystr.ByteToChar(s, i))
		}
		inRun = naw
		i += max(w, 1)
	}
	return nil
}

// boundAt reports whether some \b or \B of the pattern could be tested at
// offset i of s: the runes around i fit its context.
func (p *Regexp) boundAt(s string, i int) bool {
	for _, b := range p.bounds {
		if fits(s[i:], b.after, false) && fits(s[:i], b.before, true) {
			return true
		}
	}
	return false
}

// fits reports whether the runes at the start of s (at its end, backward)
// are in the sets, one by one.
func fits(s string, sets []runeSet, backward bool) bool {
	for _, set := range sets {
		if s == "" {
			return false
		}
		var r rune
		var w int
		if backward {
			r, w = utf8.DecodeLastRuneInString(s)
			s = s[:len(s)-w]
		} else {
			r, w = utf8.DecodeRuneInString(s)
			s = s[w:]
		}
		if !set.has(r) {
			return false
		}
	}
	return true
}
