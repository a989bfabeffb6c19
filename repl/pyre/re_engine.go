// The engine under re: Go's RE2 run so that matches, spans and the order of matches are Python's.

package pyre

import (
	"context"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"harness/repl/pystr"
)

// A pyRegexp is one Python pattern compiled for RE2. Python and RE2 agree
// on what a match is (leftmost, then the first alternative a backtracking
// engine would take) except in three places this type handles:
//
//   - Python's $ outside MULTILINE also matches just before a final "\n".
//     The subject chooses the regexp: without a final "\n" the $ is \z;
//     when that newline is the only one, the $ is (?m:$); otherwise the
//     other newlines are replaced by a sentinel the pattern treats as a
//     newline (sentinelize), so that (?m:$) again matches only there.
//   - Python searches again from the end of each match and accepts an
//     empty match next to the previous one; after an empty match it first
//     tries a non-empty match at the same place. Go's FindAll skips both,
//     so a pattern that can match empty is iterated here (each), searching
//     from a position with the rune before it as context (exec).
//   - Python's \b is Unicode; RE2's is ASCII. Where a text has non-ASCII
//     word characters at a place the pattern could test a boundary, the
//     call is refused (checkBounds) instead of answering differently.
type Regexp struct {
	src        string
	tr         *reTranslation
	Names      []string
	nullable   bool // can match the empty string
	contextual bool // tests the rune before a position (\A, ^, \b, \B)
	bounds     []wordBound
	ahead      int // the group of a trailing lookahead's text, or 0 (re_ahead.go)
	mu         sync.Mutex
	forms      map[reForm]*regexp.Regexp
	back       *backRegexp // the pattern runs on the backtracking engine (re_back.go), not RE2
	twinOnce   sync.Once
	twin       *Regexp // the pattern compiled for the backtracking engine (backTwin)
	twinErr    error
}

// Flags are the flags the pattern was compiled with, leading
// (?aimsux) folded in.
func (p *Regexp) Flags() int {
	if p.back != nil {
		return p.back.tr.flags
	}
	return p.tr.flags
}

type reVariant uint8

const (
	vEnd  reVariant = iota // $ is \z
	vNL                    // $ is (?m:$): the subject's only "\n" ends it
	vSent                  // as vNL, over a subject whose other newlines are sentinels
)

type Kind uint8

const (
	Search Kind = iota
	Match       // anchored at the start
	Full        // anchored at both ends
	kLong       // anchored at the start, the longest match
)

type reForm struct {
	v    reVariant
	k    Kind
	from bool // preceded by the rune before the position, as context
}

// reSentinel stands for the newlines of a subject other than its last
// (vSent): a noncharacter, which no text should hold.
const reSentinel = '\uFDD0'

// Compile compiles src for RE2, or, when it needs what RE2 lacks
// (lookaround but a trailing lookahead, backreferences, conditionals,
// atomic groups, possessive quantifiers), for the backtracking engine.
func Compile(fn, src string, flags int) (*Regexp, error) {
	p, err := compileRE2(fn, src, flags)
	if e, ok := err.(*Error); ok && e.back {
		return compileBack(fn, src, flags)
	}
	return p, err
}

func compileRE2(fn, src string, flags int) (*Regexp, error) {
	run := src
	x, y, ahead := trailingLookahead(src) // re_ahead.go
	if ahead {
		run = x + "(?P<" + aheadGroup + ">" + y + ")"
	}
	tr, err := pyTranslate(fn, run, flags)
	if e, ok := err.(*Error); ok && ahead {
		e.msg = strings.Replace(e.msg, pystr.Quote(run), pystr.Quote(src), 1)
	}
	if err != nil {
		return nil, err
	}
	base, err := regexp.Compile(tr.end)
	if err != nil {
		if strings.Contains(err.Error(), "invalid nested repetition operator") {
			return nil, &Error{msg: err.Error(), back: true} // a possessive quantifier
		}
		if m := pySyntaxError(src); m != "" {
			return nil, &Error{msg: m} // what CPython's parser says of it
		}
		return nil, reRefusal(fn, src, "bad regular expression: %s", err)
	}
	tree, err := syntax.Parse(tr.end, syntax.Perl)
	if err != nil {
		return nil, reRefusal(fn, src, "bad regular expression: %v", err)
	}
	p := &Regexp{src: src, tr: tr, Names: base.SubexpNames(), forms: map[reForm]*regexp.Regexp{{}: base}}
	if ahead {
		for i, n := range p.Names {
			if n == aheadGroup {
				p.ahead = i
			}
		}
		p.Names = append(p.Names[:p.ahead:p.ahead], p.Names[p.ahead+1:]...)
	}
	p.nullable = nullable(tree)
	p.contextual = hasOp(tree, syntax.OpBeginText, syntax.OpBeginLine, syntax.OpWordBoundary, syntax.OpNoWordBoundary)
	if tr.wordB {
		p.bounds = collectBounds(tree, nil)
	}
	return p, nil
}

// form returns (compiling once) the regexp of one variant and kind.
func (p *Regexp) form(f reForm) (*regexp.Regexp, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if re := p.forms[f]; re != nil {
		return re, nil
	}
	x := p.tr.end
	if f.v != vEnd {
		x = p.tr.nl
	}
	if f.v == vSent {
		tree, err := syntax.Parse(x, syntax.Perl)
		if err != nil {
			return nil, err
		}
		x = sentinelize(tree).String()
	}
	lead, open := `\A(?:`, ")"
	if f.from {
		lead, open = `\A(?s:.)(`, ")"
	}
	switch f.k {
	case Search:
		if f.from {
			x = `\A(?s:.)(?s:.*?)(` + x + ")"
		}
	case Match, kLong:
		x = lead + x + open
	case Full:
		x = lead + x + open + `\z`
	}
	re, err := regexp.Compile(x)
	if err != nil {
		return nil, fmt.Errorf("re: internal form of %q: %v", p.src, err)
	}
	if f.k == kLong {
		re.Longest()
	}
	p.forms[f] = re
	return re, nil
}

// Subject is a string prepared for one variant: s is the text searched
// (cut at endpos), text what the regexps run over.
type Subject struct {
	S, text string
	v       reVariant
	marks   []int           // vSent: the offsets in text of the sentinels
	back    *backSubject    // the text as runes, for the backtracking engine
	twin    *Regexp         // the pattern on the backtracking engine, for a text RE2 cannot search with Python's meaning
	Ctx     context.Context // when done, a match of the backtracking engine stops
	fn      string          // the function searching, for errors
}

// Prepare chooses the variant for s and checks its word boundaries.
func (p *Regexp) Prepare(fn, s string) (*Subject, error) {
	sub := &Subject{S: s, text: s, fn: fn}
	if p.back != nil {
		return sub, nil
	}
	if p.tr.dollar && strings.HasSuffix(s, "\n") {
		sub.v = vNL
		if strings.IndexByte(s, '\n') < len(s)-1 {
			if err := p.sentinelSubject(fn, sub); err != nil {
				return p.twinSubject(fn, s, err)
			}
		}
	}
	if len(p.bounds) > 0 {
		if err := p.checkBounds(fn, s); err != nil {
			return p.twinSubject(fn, s, err)
		}
	}
	return sub, nil
}

func (p *Regexp) sentinelSubject(fn string, sub *Subject) error {
	s := sub.S
	if p.tr.multi {
		return reRefusal(fn, p.src, "a $ outside MULTILINE together with a MULTILINE part ((?m:...)) is not available over a text with several lines; apply re.M to the whole pattern or split the text into lines")
	}
	if strings.ContainsRune(s, reSentinel) {
		return reRefusal(fn, p.src, "a $ outside MULTILINE over a text holding U+FDD0 is not available; pass re.M and anchor with \\Z, or strip the final newline")
	}
	var sb strings.Builder
	sb.Grow(len(s) + 2*strings.Count(s, "\n"))
	last := 0
	for i := 0; i < len(s)-1; i++ {
		if s[i] == '\n' {
			sb.WriteString(s[last:i])
			sub.marks = append(sub.marks, sb.Len())
			sb.WriteRune(reSentinel)
			last = i + 1
		}
	}
	sb.WriteString(s[last:])
	sub.text, sub.v = sb.String(), vSent
	return nil
}

// ToS maps an offset in text to one in s.
func (sub *Subject) ToS(off int) int {
	if off < 0 || sub.marks == nil {
		return off
	}
	return off - 2*sort.SearchInts(sub.marks, off)
}

// ToText maps an offset in s to one in text.
func (sub *Subject) ToText(off int) int {
	if sub.marks == nil {
		return off
	}
	k := sort.Search(len(sub.marks), func(k int) bool { return sub.marks[k]-2*k >= off })
	return off + 2*k
}

// LocS maps a location in text to one in s.
func (sub *Subject) LocS(loc []int) []int {
	if sub.marks != nil {
		for i := range loc {
			loc[i] = sub.ToS(loc[i])
		}
	}
	return loc
}

// Exec runs one kind at offset pos of text; the location is in text.
func (p *Regexp) Exec(sub *Subject, k Kind, pos int) ([]int, error) {
	if pos > len(sub.text) {
		return nil, nil
	}
	if p.back != nil {
		return p.backExec(sub, k, pos)
	}
	if sub.twin != nil {
		return sub.twin.backExec(sub, k, pos)
	}
	if pos == 0 || !p.contextual {
		re, err := p.form(reForm{v: sub.v, k: k})
		if err != nil {
			return nil, err
		}
		loc := re.FindStringSubmatchIndex(sub.text[pos:])
		return cutAhead(shiftLoc(loc, pos), p.ahead, k, len(sub.text)), nil
	}
	re, err := p.form(reForm{v: sub.v, k: k, from: true})
	if err != nil {
		return nil, err
	}
	_, w := utf8.DecodeLastRuneInString(sub.text[:pos])
	loc := re.FindStringSubmatchIndex(sub.text[pos-w:])
	if loc == nil {
		return nil, nil
	}
	return cutAhead(shiftLoc(loc[2:], pos-w), p.ahead, k, len(sub.text)), nil
}

func shiftLoc(loc []int, by int) []int {
	if by != 0 {
		for i, v := range loc {
			if v >= 0 {
				loc[i] = v + by
			}
		}
	}
	return loc
}

// Each calls f with the matches Python's finditer gives from pos (an
// offset in text), at most n of them (n < 0: all), each located in s.
func (p *Regexp) Each(fn string, sub *Subject, pos, n int, f func(loc []int) error) error {
	if p.back != nil {
		return p.backEach(sub, pos, n, f)
	}
	if sub.twin != nil {
		return sub.twin.backEach(sub, pos, n, f)
	}
	if !p.nullable && pos == 0 && p.ahead == 0 {
		re, err := p.form(reForm{v: sub.v})
		if err != nil {
			return err
		}
		for _, loc := range re.FindAllStringSubmatchIndex(sub.text, n) {
			if err := f(sub.LocS(loc)); err != nil {
				return err
			}
		}
		return nil
	}
	locs, refused := p.iterate(sub, pos, n)
	if refused {
		twin, err := p.backTwin()
		if err != nil {
			return reRefusal(fn, p.src, "after its empty match the pattern could also match text at the same place (an empty alternative or a lazy quantifier comes first), which Python would take and RE2 cannot find; write the pattern so that the text match comes first (a? not a??, (a|) not (|a)) or cannot be empty")
		}
		plain := &Subject{S: sub.S, text: sub.S, twin: twin, Ctx: sub.Ctx, fn: fn}
		return twin.backEach(plain, sub.ToS(pos), n, f)
	}
	for _, loc := range locs {
		if err := f(loc); err != nil {
			return err
		}
	}
	return nil
}

// iterate gives the matches of Each on RE2 (located in s), or refused
// when after an empty match the pattern could also match text at the
// same place, which Python would take and RE2 cannot find: the
// backtracking engine then runs the whole iteration.
func (p *Regexp) iterate(sub *Subject, pos, n int) (locs [][]int, refused bool) {
	must := false
	for count := 0; (n < 0 || count < n) && pos <= len(sub.text); count++ {
		at := pos
		if must {
			long, _ := p.Exec(sub, kLong, pos)
			if long != nil && long[1] > long[0] {
				return nil, true
			}
			if pos == len(sub.text) {
				return locs, false
			}
			_, w := utf8.DecodeRuneInString(sub.text[pos:])
			at = pos + w
		}
		loc, _ := p.Exec(sub, Search, at)
		if loc == nil {
			return locs, false
		}
		must, pos = loc[1] == loc[0], loc[1]
		locs = append(locs, sub.LocS(loc))
	}
	return locs, false
}

// nullable reports whether re can match the empty string (assertions
// count as empty).
func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral, syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return false
	case syntax.OpCapture, syntax.OpPlus:
		return nullable(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !nullable(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if nullable(s) {
				return true
			}
		}
		return false
	}
	return true // empty-width assertions, OpEmptyMatch, star, quest
}

func hasOp(re *syntax.Regexp, ops ...syntax.Op) bool {
	for _, op := range ops {
		if re.Op == op {
			return true
		}
	}
	for _, s := range re.Sub {
		if hasOp(s, ops...) {
			return true
		}
	}
	return false
}

// sentinelize makes re treat reSentinel as it treats "\n".
func sentinelize(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpLiteral:
		if strings.ContainsRune(string(re.Rune), '\n') {
			return sentinelLiteral(re)
		}
	case syntax.OpCharClass:
		re.Rune = classWithSentinel(re.Rune)
	case syntax.OpAnyCharNotNL:
		return &syntax.Regexp{Op: syntax.OpCharClass, Flags: re.Flags, Rune: []rune{0, '\n' - 1, '\n' + 1, reSentinel - 1, reSentinel + 1, utf8.MaxRune}}
	}
	for i, s := range re.Sub {
		re.Sub[i] = sentinelize(s)
	}
	return re
}

// sentinelLiteral splits a literal at its newlines, each becoming [\n S].
func sentinelLiteral(re *syntax.Regexp) *syntax.Regexp {
	cat := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags}
	var run []rune
	flush := func() {
		if len(run) > 0 {
			cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Flags: re.Flags, Rune: run})
			run = nil
		}
	}
	for _, r := range re.Rune {
		if r != '\n' {
			run = append(run, r)
			continue
		}
		flush()
		cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpCharClass, Flags: re.Flags, Rune: []rune{'\n', '\n', reSentinel, reSentinel}})
	}
	flush()
	return cat
}

// classWithSentinel returns the ranges with reSentinel in them exactly
// when "\n" is, sorted and merged (String writes a class holding
// MaxRune as its complement, which needs merged ranges).
func classWithSentinel(rs []rune) []rune {
	nl := runeSet(rs).has('\n')
	var pairs [][2]rune
	for k := 0; k+1 < len(rs); k += 2 {
		lo, hi := rs[k], rs[k+1]
		if lo <= reSentinel && reSentinel <= hi {
			if lo < reSentinel {
				pairs = append(pairs, [2]rune{lo, reSentinel - 1})
			}
			if hi > reSentinel {
				pairs = append(pairs, [2]rune{reSentinel + 1, hi})
			}
			continue
		}
		pairs = append(pairs, [2]rune{lo, hi})
	}
	if nl {
		pairs = append(pairs, [2]rune{reSentinel, reSentinel})
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i][0] < pairs[j][0] })
	var out []rune
	for _, pr := range pairs {
		if n := len(out); n > 0 && pr[0] <= out[n-1]+1 {
			out[n-1] = max(out[n-1], pr[1])
			continue
		}
		out = append(out, pr[0], pr[1])
	}
	return out
}
