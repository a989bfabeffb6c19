// The backtracking engine: patterns RE2 cannot run (lookaround,
// backreferences, conditionals, atomic groups, possessive quantifiers)
// run on github.com/dlclark/regexp2 with a match timeout.

package pyre

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"

	"harness/repl/pystr"
)

// MatchTimeout bounds one match of the backtracking engine (one search,
// or one step of findall, sub or split): a pattern whose backtracking
// grows exponentially raises TimeoutError instead of hanging the call.
// Tests lower it; a Regexp reads it when it first runs a kind.
var MatchTimeout = 2 * time.Second

// backStack bounds the backtracking stack of one match, in integer slots
// (regexp2's default, 100000, stops legitimate patterns over a long text).
const backStack = 1 << 23

// TimeoutError is a match of the backtracking engine that ran longer
// than MatchTimeout; the re module raises it as Python's TimeoutError.
// Memory marks a match stopped by the backtracking stack's bound, raised
// as MemoryError.
type TimeoutError struct {
	msg    string
	Memory bool
}

func (e *TimeoutError) Error() string { return e.msg }

// backKind is a Kind, or kNonEmpty: anchored at the position and not
// empty there (Python's search after an empty match).
const kNonEmpty = kLong

// backRegexp is a pattern compiled for regexp2, one program per kind.
type backRegexp struct {
	tr    *backTranslation
	opts  regexp2.RegexOptions
	mu    sync.Mutex
	forms map[Kind]*regexp2.Regexp
}

// Engine names the engine a compiled pattern runs on: "RE2" (linear
// time) or "backtracking" (regexp2, with MatchTimeout).
func (p *Regexp) Engine() string {
	if p.back != nil {
		return "backtracking"
	}
	return "RE2"
}

// compileBack compiles src for the backtracking engine.
func compileBack(fn, src string, flags int) (*Regexp, error) {
	tr, err := backTranslate(fn, src, flags)
	if err != nil {
		return nil, err
	}
	b := &backRegexp{tr: tr, forms: map[Kind]*regexp2.Regexp{}}
	for _, f := range []struct {
		bit int
		o   regexp2.RegexOptions
	}{{IgnoreCase, regexp2.IgnoreCase}, {Multiline, regexp2.Multiline}, {DotAll, regexp2.Singleline}} {
		if tr.flags&f.bit != 0 {
			b.opts |= f.o
		}
	}
	if _, err := b.form(Search); err != nil {
		if m := pySyntaxError(src); m != "" {
			return nil, &Error{msg: m} // what CPython's parser says of it
		}
		return nil, reRefusal(fn, src, "bad regular expression: %v", err)
	}
	return &Regexp{src: src, Names: tr.names, back: b, nullable: true}, nil
}

// backTwin returns (compiling once) p for the backtracking engine, which
// runs a text where RE2 cannot give Python's meaning (Unicode word
// boundaries around non-ASCII letters, a $ outside MULTILINE with a
// MULTILINE part over several lines, a match after an empty one).
func (p *Regexp) backTwin() (*Regexp, error) {
	p.twinOnce.Do(func() {
		p.twin, p.twinErr = compileBack("re", p.src, p.Flags()) // Flags holds the leading (?aimsux): ORed in again
	})
	return p.twin, p.twinErr
}

// twinSubject prepares s for p's twin, or gives the refusal when p has
// none.
func (p *Regexp) twinSubject(fn, s string, refusal error) (*Subject, error) {
	twin, err := p.backTwin()
	if err != nil {
		return nil, refusal
	}
	return &Subject{S: s, text: s, twin: twin, fn: fn}, nil
}

// form returns (compiling once) the program of one kind.
func (b *backRegexp) form(k Kind) (*regexp2.Regexp, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if re := b.forms[k]; re != nil {
		return re, nil
	}
	x := b.tr.text
	switch k {
	case Match:
		x = `\G(?:` + x + ")"
	case Full:
		x = `\G(?:` + x + `)\z`
	case kNonEmpty:
		x = `\G(?:` + x + `)(?<=\G[\s\S]+)`
	}
	re, err := regexp2.Compile(x, b.opts, regexp2.OptionMaintainCaptureOrder(), regexp2.OptionMaxBacktrackingStackSize(backStack))
	if err != nil {
		return nil, err
	}
	if n := len(re.GetGroupNumbers()); n != len(b.tr.names) {
		return nil, fmt.Errorf("internal: %d groups, want %d", n, len(b.tr.names))
	}
	re.MatchTimeout = MatchTimeout
	b.forms[k] = re
	return re, nil
}

// backSubject is a subject's text as runes, with the byte offset of each.
type backSubject struct {
	runes []rune
	offs  []int // offs[i] is the byte offset of runes[i]; one more for the end
}

func newBackSubject(s string) *backSubject {
	b := &backSubject{runes: make([]rune, 0, len(s)), offs: make([]int, 0, len(s)+1)}
	for i, r := range s {
		b.runes = append(b.runes, r)
		b.offs = append(b.offs, i)
	}
	b.offs = append(b.offs, len(s))
	return b
}

func (b *backSubject) runeAt(off int) int { return sort.SearchInts(b.offs, off) }

// backExec runs kind k from byte offset pos of the subject.
func (p *Regexp) backExec(sub *Subject, k Kind, pos int) ([]int, error) {
	re, err := p.back.form(k)
	if err != nil {
		return nil, err
	}
	if sub.back == nil {
		sub.back = newBackSubject(sub.text)
	}
	b := sub.back
	m, err := runBack(sub.Ctx, re, b.runes, b.runeAt(pos))
	if err != nil {
		return nil, p.backErr(sub, err)
	}
	if m == nil {
		return nil, nil
	}
	loc := make([]int, 2*len(p.Names))
	for g := range p.Names {
		loc[2*g], loc[2*g+1] = -1, -1
		grp := m.GroupByNumber(g)
		if grp == nil || len(grp.Captures) == 0 {
			continue
		}
		c := grp.Captures[len(grp.Captures)-1]
		loc[2*g], loc[2*g+1] = b.offs[c.RuneIndex], b.offs[c.RuneIndex+c.RuneLength]
	}
	return loc, nil
}

// errCancelled is a match stopped because the call was.
var errCancelled = errors.New("re: cancelled: the call was stopped")

// runBack runs re on r from rune at, stopped by ctx as well as by the
// timeout: the match runs aside and is abandoned (it ends by its timeout).
func runBack(ctx context.Context, re *regexp2.Regexp, r []rune, at int) (*regexp2.Match, error) {
	if ctx == nil || ctx.Done() == nil {
		return re.FindRunesMatchStartingAt(r, at)
	}
	if ctx.Err() != nil {
		return nil, errCancelled
	}
	type result struct {
		m   *regexp2.Match
		err error
	}
	ch := make(chan result, 1)
	go func() {
		m, err := re.FindRunesMatchStartingAt(r, at)
		ch <- result{m, err}
	}()
	select {
	case res := <-ch:
		return res.m, res.err
	case <-ctx.Done():
		return nil, errCancelled
	}
}

// backErr words the engine's errors for the user.
func (p *Regexp) backErr(sub *Subject, err error) error {
	switch {
	case err == errCancelled:
		return err
	case errors.Is(err, regexp2.ErrBacktrackingStackLimit):
		return &TimeoutError{fmt.Sprintf("%s: %s: the pattern backtracks more than its memory limit allows on a text of %d characters; make repeated parts exclusive (no (a+)+ or (a|a)*) or match a shorter text",
			sub.fn, pystr.Quote(p.src), utf8.RuneCountInString(sub.S)), true}
	}
	return &TimeoutError{fmt.Sprintf("%s: %s: the match ran longer than the regex time limit (%v) on a text of %d characters: its backtracking grows exponentially; make repeated parts exclusive (no nested quantifiers such as (a+)+ or (\\w+\\s?)*) or match a shorter text",
		sub.fn, pystr.Quote(p.src), MatchTimeout, utf8.RuneCountInString(sub.S)), false}
}

// backEach is Each on the backtracking engine: after an empty match,
// Python looks first for a non-empty match at the same place, then
// searches on from the next character.
func (p *Regexp) backEach(sub *Subject, pos, n int, f func(loc []int) error) error {
	must := false
	for count := 0; (n < 0 || count < n) && pos <= len(sub.text); count++ {
		var loc []int
		var err error
		if must {
			if loc, err = p.backExec(sub, kNonEmpty, pos); err != nil {
				return err
			}
			if loc == nil {
				if pos == len(sub.text) {
					return nil
				}
				_, w := utf8.DecodeRuneInString(sub.text[pos:])
				loc, err = p.backExec(sub, Search, pos+w)
			}
		} else {
			loc, err = p.backExec(sub, Search, pos)
		}
		if err != nil || loc == nil {
			return err
		}
		must, pos = loc[1] == loc[0], loc[1]
		if err := f(loc); err != nil {
			return err
		}
	}
	return nil
}
