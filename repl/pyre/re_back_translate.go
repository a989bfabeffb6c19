// Python regular expressions rewritten into regexp2's (.NET) syntax for
// the backtracking engine, with their Python meaning, or refused.

package pyre

import (
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"harness/repl/pystr"
)

// backTranslation is a Python pattern in regexp2's syntax: text runs with
// the options of flags (IgnoreCase, Multiline, DotAll) and no others, so
// that $ (end, or before a final "\n"), ^, . and \A keep the meaning
// .NET and Python share. names are the groups' names by number ("" for
// group 0 and unnamed groups).
type backTranslation struct {
	text  string
	names []string
	flags int
}

// backTranslator walks a Python pattern once, writing regexp2 syntax.
type backTranslator struct {
	fn, p   string
	flags   int
	i       int
	out     strings.Builder
	names   []string
	open    []int  // the number of each open group, 0 for a group that does not capture
	verbose []bool // VERBOSE in each open group, the pattern's first
	behind  []int  // where each open lookbehind's body starts in p (-1: not a lookbehind)
	err     error
}

func (t *backTranslator) fail(format string, args ...any) {
	if t.err == nil {
		t.err = reRefusal(t.fn, t.p, format, args...)
	}
}

func (t *backTranslator) w(s string) { t.out.WriteString(s) }

// backTranslate rewrites the Python pattern p with flags for regexp2.
func backTranslate(fn, p string, flags int) (*backTranslation, error) {
	i, err := leadingFlags(fn, p, &flags)
	if err != nil {
		return nil, err
	}
	t := &backTranslator{fn: fn, p: p, flags: flags, names: []string{""}, verbose: []bool{flags&Verbose != 0}}
	for t.i = i; t.i < len(p) && t.err == nil; t.i++ {
		t.step()
	}
	if t.err == nil && len(t.open) > 0 {
		t.fail("missing ), unterminated subpattern")
	}
	if t.err != nil {
		return nil, t.err
	}
	return &backTranslation{text: t.out.String(), names: t.names, flags: flags}, nil
}

// step translates the pattern from t.i outside a class, leaving t.i at
// the last byte used.
func (t *backTranslator) step() {
	p, c := t.p, t.p[t.i]
	switch {
	case c == '\\':
		if t.i+1 >= len(p) {
			t.fail("bad escape (end of pattern)")
			return
		}
		t.i++
		t.escape(false)
	case c == '[':
		t.class()
	case t.verbose[len(t.verbose)-1] && strings.IndexByte(" \t\n\r\v\f", c) >= 0:
	case t.verbose[len(t.verbose)-1] && c == '#':
		for t.i < len(p) && p[t.i] != '\n' {
			t.i++
		}
	case c == '(':
		t.group()
	case c == ')':
		t.close()
	case c == '{':
		t.brace()
	case c == '#' || c == ' ':
		t.w(`\` + string(c)) // literal whatever regexp2's options
	default:
		r, n := utf8.DecodeRuneInString(p[t.i:])
		t.w(string(r))
		t.i += n - 1
	}
}

// brace writes a repetition, {,n} as {0,n}, or a literal { where Python
// reads one.
func (t *backTranslator) brace() {
	p := t.p[t.i:]
	end := strings.IndexByte(p, '}')
	if end > 0 {
		lo, hi, comma := strings.Cut(p[1:end], ",")
		if digits(lo) && digits(hi) && (lo != "" || comma) {
			if lo == "" {
				lo = "0"
			}
			if comma {
				t.w("{" + lo + "," + hi + "}")
			} else {
				t.w("{" + lo + "}")
			}
			t.i += end
			return
		}
	}
	t.w(`\{`)
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// group writes the opening of a group.
func (t *backTranslator) group() {
	p := t.p[t.i:]
	verbose := t.verbose[len(t.verbose)-1]
	push := func(text string, num, skip int) {
		t.w(text)
		t.open = append(t.open, num)
		t.verbose = append(t.verbose, verbose)
		t.behind = append(t.behind, -1)
		t.i += skip - 1
	}
	switch {
	case strings.HasPrefix(p, "(?#"):
		end := strings.IndexByte(p, ')')
		if end < 0 {
			t.fail("missing ), unterminated comment")
			return
		}
		t.i += end
	case strings.HasPrefix(p, "(?P<"):
		end := strings.IndexByte(p, '>')
		if end < 0 {
			t.fail("missing >, unterminated name")
			return
		}
		name := p[4:end]
		if !isIdent(name) {
			t.fail("bad character in group name %s", pystr.Quote(name))
			return
		}
		for _, n := range t.names {
			if n == name {
				t.fail("redefinition of group name %s as group %d; was group %d", pystr.Quote(name), len(t.names), t.groupNum(name))
				return
			}
		}
		t.names = append(t.names, name)
		push("(?<"+name+">", len(t.names)-1, end+1)
	case strings.HasPrefix(p, "(?P="):
		end := strings.IndexByte(p, ')')
		if end < 0 {
			t.fail("missing ), unterminated name")
			return
		}
		name := p[4:end]
		g := t.groupNum(name)
		if g < 0 {
			t.fail("unknown group name %s", pystr.Quote(name))
			return
		}
		t.backref(g)
		t.i += end
	case strings.HasPrefix(p, "(?:"), strings.HasPrefix(p, "(?="), strings.HasPrefix(p, "(?!"), strings.HasPrefix(p, "(?>"):
		push(p[:3], 0, 3)
	case strings.HasPrefix(p, "(?<="), strings.HasPrefix(p, "(?<!"):
		push(p[:4], 0, 4)
		t.behind[len(t.behind)-1] = t.i + 1
	case strings.HasPrefix(p, "(?("):
		t.conditional()
	case strings.HasPrefix(p, "(?"):
		f, n, ok := scopedFlags(p)
		if !ok {
			t.fail("unknown extension %s", p[1:min(len(p), 3)])
			return
		}
		if strings.ContainsAny(f, "auL") {
			t.fail("the inline flags (?%s:...) are not available here; give the flag to the whole pattern (re.A)", f)
			return
		}
		on, off, _ := strings.Cut(f, "-")
		if strings.Contains(on, "x") {
			verbose = true
		} else if strings.Contains(off, "x") {
			verbose = false
		}
		f = strings.ReplaceAll(f, "x", "")
		if f == "" || f == "-" {
			push("(?:", 0, n)
			return
		}
		push("(?"+f+":", 0, n)
	default:
		t.names = append(t.names, "")
		push("(", len(t.names)-1, 1)
	}
}

// conditional writes (?(1)yes|no) or (?(name)yes|no).
func (t *backTranslator) conditional() {
	p := t.p[t.i:]
	end := strings.IndexByte(p, ')')
	if end < 0 {
		t.fail("missing ), unterminated name")
		return
	}
	ref := p[3:end]
	g, err := strconv.Atoi(ref)
	if err != nil {
		g = t.groupNum(ref)
	}
	if g <= 0 || g >= len(t.names) {
		t.fail("invalid group reference %s", ref)
		return
	}
	t.w("(?(" + strconv.Itoa(g) + ")")
	t.open = append(t.open, 0)
	t.verbose = append(t.verbose, t.verbose[len(t.verbose)-1])
	t.behind = append(t.behind, -1)
	t.i += end
}

func (t *backTranslator) close() {
	if len(t.open) == 0 {
		t.fail("unbalanced parenthesis")
		return
	}
	n := len(t.open) - 1
	if start := t.behind[n]; start >= 0 {
		t.checkBehind(t.p[start:t.i])
	}
	t.open, t.verbose, t.behind = t.open[:n], t.verbose[:n+1], t.behind[:n]
	t.w(")")
}

// checkBehind refuses a lookbehind whose body has no fixed width, as
// Python does; a body RE2 cannot read (one with lookaround of its own) is
// let through to regexp2.
func (t *backTranslator) checkBehind(body string) {
	tr, err := pyTranslate(t.fn, body, t.flags&^Multiline)
	if err != nil {
		return
	}
	re, err := syntax.Parse(tr.end, syntax.Perl)
	if err != nil {
		return
	}
	if lo, hi := width(re); lo != hi {
		t.fail("look-behind requires fixed-width pattern")
	}
}

// width is the least and most runes re matches (hi < 0: no bound).
func width(re *syntax.Regexp) (lo, hi int) {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune), len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1, 1
	case syntax.OpCapture:
		return width(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return 0, -1
	case syntax.OpRepeat:
		l, h := width(re.Sub[0])
		if re.Max < 0 || h < 0 {
			return l * re.Min, -1
		}
		return l * re.Min, h * re.Max
	case syntax.OpConcat:
		for _, s := range re.Sub {
			l, h := width(s)
			lo += l
			if hi >= 0 && h >= 0 {
				hi += h
			} else {
				hi = -1
			}
		}
		return lo, hi
	case syntax.OpAlternate:
		lo, hi = width(re.Sub[0])
		for _, s := range re.Sub[1:] {
			l, h := width(s)
			if l != lo || h != hi {
				return 0, -1
			}
		}
		return lo, hi
	}
	return 0, 0
}

// groupNum is the number of the named group, or -1.
func (t *backTranslator) groupNum(name string) int {
	for i, n := range t.names {
		if n == name && i > 0 {
			return i
		}
	}
	return -1
}

// backref writes a reference to group g, refusing one Python refuses.
func (t *backTranslator) backref(g int) {
	if g >= len(t.names) {
		t.fail("invalid group reference %d", g)
		return
	}
	for _, o := range t.open {
		if o == g {
			t.fail("cannot refer to an open group")
			return
		}
	}
	t.w(`(?:\` + strconv.Itoa(g) + ")")
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}
