// Python regular expressions rewritten into Go's RE2 syntax with their Python meaning, or refused.

package pyre

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"

	"harness/repl/pystr"
)

// reTranslation is a Python pattern in RE2 syntax. Python's $ without
// MULTILINE matches at the end and just before a newline ending the text;
// RE2 has no such assertion, so the pattern comes in two texts, chosen by
// the subject (re_engine.go): end, where that $ is \z (a subject not
// ending in "\n"), and nl, where it is (?m:$) (a subject whose only "\n"
// is its last character, or one whose other newlines were replaced).
type reTranslation struct {
	end, nl string
	dollar  bool // a $ outside MULTILINE
	multi   bool // some part is MULTILINE (re.M, (?m) or (?m:...))
	wordB   bool // \b or \B with Unicode word characters
	flags   int  // the flags given, with leading (?aimsux) folded in
}

// Flags, as in Python.
const (
	IgnoreCase = 2
	Multiline  = 8
	DotAll     = 16
	Unicode    = 32
	Verbose    = 64
	ASCII      = 256
)

// Error is a pattern refused (a Python form RE2 cannot give its
// meaning) or found bad. Its text names the function and the pattern; the
// re module raises it as re.error.
type Error struct {
	msg  string
	back bool // what RE2 lacks and the backtracking engine has
}

func (e *Error) Error() string { return e.msg }

// reRefusal is a Python form RE2 cannot give its meaning.
func reRefusal(fn, pattern, format string, args ...any) error {
	return &Error{msg: fmt.Sprintf("%s: %s: ", fn, pystr.Quote(pattern)) + fmt.Sprintf(format, args...)}
}

// pyTranslate rewrites the Python pattern p with flags into RE2 syntax.
func pyTranslate(fn, p string, flags int) (*reTranslation, error) {
	tr := &reTranslation{}
	i, err := leadingFlags(fn, p, &flags)
	if err != nil {
		return nil, err
	}
	tr.flags = flags
	t := &translator{fn: fn, p: p, flags: flags, tr: tr, mstack: []bool{flags&Multiline != 0}}
	tr.multi = flags&Multiline != 0
	for t.i = i; t.i < len(p) && t.err == nil; t.i++ {
		t.step()
	}
	if t.err != nil {
		return nil, t.err
	}
	prefix := ""
	for _, f := range []struct {
		bit int
		c   string
	}{{IgnoreCase, "i"}, {Multiline, "m"}, {DotAll, "s"}} {
		if flags&f.bit != 0 {
			prefix += f.c
		}
	}
	if prefix != "" {
		prefix = "(?" + prefix + ")"
	}
	tr.end, tr.nl = prefix+t.end.String(), prefix+t.nl.String()
	return tr, nil
}

// leadingFlags folds Python's global inline flags at the start of p,
// (?i)(?m)..., into flags and returns where the pattern proper begins.
func leadingFlags(fn, p string, flags *int) (int, error) {
	i := 0
	for strings.HasPrefix(p[i:], "(?") {
		j := i + 2
		for j < len(p) && strings.IndexByte("aiLmsux", p[j]) >= 0 {
			j++
		}
		if j == i+2 || j >= len(p) || p[j] != ')' {
			return i, nil
		}
		for _, c := range p[i+2 : j] {
			switch c {
			case 'a':
				*flags |= ASCII
			case 'i':
				*flags |= IgnoreCase
			case 'm':
				*flags |= Multiline
			case 's':
				*flags |= DotAll
			case 'x':
				*flags |= Verbose
			case 'L':
				return 0, reRefusal(fn, p, "bad inline flags: cannot use 'L' flag with a str pattern")
			}
		}
		i = j + 1
	}
	return i, nil
}

// translator writes the two texts of a reTranslation.
type translator struct {
	fn, p   string
	flags   int
	tr      *reTranslation
	i       int
	inClass bool
	end, nl strings.Builder
	mstack  []bool // MULTILINE in each open group
	err     error
}

func (t *translator) w(s string) { t.end.WriteString(s); t.nl.WriteString(s) }

func (t *translator) fail(format string, args ...any) {
	if t.err == nil {
		t.err = reRefusal(t.fn, t.p, format, args...)
	}
}

// needBack stops the translation: the pattern needs the backtracking
// engine.
func (t *translator) needBack(what string) {
	if t.err == nil {
		t.err = &Error{msg: what, back: true}
	}
}

// step translates the pattern from t.i, leaving t.i at the last byte used.
func (t *translator) step() {
	p, c := t.p, t.p[t.i]
	switch {
	case c == '\\' && t.i+1 < len(p):
		t.i++
		t.escape()
	case t.inClass:
		switch c {
		case ']':
			t.inClass = false
		case '[':
			t.w(`\[`) // Python has no [:alpha:] classes: a literal [
			return
		}
		t.end.WriteByte(c)
		t.nl.WriteByte(c)
	case c == '[':
		t.inClass = true
		t.w("[")
		if t.i+1 < len(p) && p[t.i+1] == '^' {
			t.w("^")
			t.i++
		}
		if t.i+1 < len(p) && p[t.i+1] == ']' {
			t.w(`\]`)
			t.i++
		}
	case t.flags&Verbose != 0 && strings.IndexByte(" \t\n\r\v\f", c) >= 0:
	case t.flags&Verbose != 0 && c == '#':
		for t.i < len(p) && p[t.i] != '\n' {
			t.i++
		}
	case c == '(':
		t.group()
	case c == ')':
		if len(t.mstack) > 1 {
			t.mstack = t.mstack[:len(t.mstack)-1]
		}
		t.w(")")
	case c == '$':
		if t.mstack[len(t.mstack)-1] {
			t.w("$")
			return
		}
		t.tr.dollar = true
		t.end.WriteString(`\z`)
		t.nl.WriteString(`(?m:$)`)
	case c == '{':
		t.brace()
	default:
		t.end.WriteByte(c)
		t.nl.WriteByte(c)
	}
}

// brace writes a repetition {m,n}; Python's {,n} is {0,n}.
func (t *translator) brace() {
	p := t.p[t.i:]
	j := 1
	for j < len(p) && p[j] >= '0' && p[j] <= '9' {
		j++
	}
	if j == 1 && j < len(p) && p[j] == ',' {
		k := j + 1
		for k < len(p) && p[k] >= '0' && p[k] <= '9' {
			k++
		}
		if k < len(p) && p[k] == '}' {
			t.w("{0," + p[j+1:k] + "}")
			t.i += k
			return
		}
	}
	t.w("{")
}

// group writes the opening of a group, refusing what RE2 lacks.
func (t *translator) group() {
	p := t.p[t.i:]
	multi := t.mstack[len(t.mstack)-1]
	switch {
	case strings.HasPrefix(p, "(?#"):
		end := strings.IndexByte(p, ')')
		if end < 0 {
			t.fail("missing ), unterminated comment")
			return
		}
		t.i += end
		return
	case strings.HasPrefix(p, "(?="), strings.HasPrefix(p, "(?!"), strings.HasPrefix(p, "(?<="), strings.HasPrefix(p, "(?<!"):
		t.needBack("lookaround")
		return
	case strings.HasPrefix(p, "(?P="):
		t.needBack("backreference")
		return
	case strings.HasPrefix(p, "(?<") && len(p) > 3:
		t.fail("unknown extension ?<%c", p[3])
		return
	case strings.HasPrefix(p, "(?P<"):
		if end := strings.IndexByte(p, '>'); end > 0 && !isIdent(p[4:end]) {
			t.fail("bad character in group name %s", pystr.Quote(p[4:end]))
			return
		}
	case strings.HasPrefix(p, "(?("):
		t.needBack("conditional group")
		return
	case strings.HasPrefix(p, "(?>"):
		t.needBack("atomic group")
		return
	case strings.HasPrefix(p, "(?"):
		if f, n, ok := scopedFlags(p); ok {
			if strings.Contains(f, "x") && !strings.ContainsAny(f, "auL") {
				t.needBack("scoped verbose flag")
				return
			}
			if strings.ContainsAny(f, "xauL") {
				t.fail("the inline flags (?%s:...) are not available here; give the flag to the whole pattern (re.X, re.A)", f)
				return
			}
			on, off, _ := strings.Cut(f, "-")
			switch {
			case strings.Contains(on, "m"):
				multi = true
				t.tr.multi = true
			case strings.Contains(off, "m"):
				multi = false
			}
			t.mstack = append(t.mstack, multi)
			t.w(p[:n])
			t.i += n - 1
			return
		}
	}
	t.mstack = append(t.mstack, multi)
	t.w("(")
}

// scopedFlags reads (?flags:, (?flags-flags: or (?-flags: at the start of
// p: the flags and the length of the opening.
func scopedFlags(p string) (string, int, bool) {
	j := 2
	for j < len(p) && (strings.IndexByte("aiLmsux-", p[j]) >= 0) {
		j++
	}
	if j == 2 || j >= len(p) || p[j] != ':' {
		return "", 0, false
	}
	return p[2:j], j + 1, true
}

// escape writes the escape whose letter is at t.i.
func (t *translator) escape() {
	p, e := t.p, t.p[t.i]
	ascii := t.flags&ASCII != 0
	switch {
	case e == 'Z' && !t.inClass:
		t.w(`\z`)
	case (e == 'b' || e == 'B') && !t.inClass:
		t.w(`\` + string(e))
		t.tr.wordB = t.tr.wordB || !ascii
	case e == 'b':
		t.w(`\x08`)
	case e >= '0' && e <= '9':
		t.number()
	case e == 'u' || e == 'U':
		n := 4
		if e == 'U' {
			n = 8
		}
		if t.i+1+n > len(p) {
			t.fail("incomplete escape \\%c", e)
			return
		}
		v, err := strconv.ParseUint(p[t.i+1:t.i+1+n], 16, 32)
		if err != nil || v > 0x10FFFF {
			t.fail("bad escape \\%c%s", e, p[t.i+1:t.i+1+n])
			return
		}
		t.w(fmt.Sprintf(`\x{%x}`, v))
		t.i += n
	case e == 's' || e == 'S' || e == 'w' || e == 'W' || e == 'd' || e == 'D':
		t.w(charClassText(e, ascii, t.inClass))
	default:
		t.w(`\` + string(e))
	}
}

// number writes \0, \012 (octal characters) or refuses \1 (a backreference).
func (t *translator) number() {
	p := t.p
	j := t.i
	for j < len(p) && j < t.i+3 && p[j] >= '0' && p[j] <= '7' {
		j++
	}
	digits := p[t.i:j]
	switch {
	case p[t.i] == '0' || len(digits) == 3:
		v, _ := strconv.ParseUint(digits, 8, 32)
		if v > 0o377 {
			t.fail("octal escape value \\%s outside of range 0-0o377", digits)
			return
		}
		t.w(fmt.Sprintf(`\x{%x}`, v))
		t.i = j - 1
	case t.inClass:
		v, _ := strconv.ParseUint(digits, 8, 32)
		t.w(fmt.Sprintf(`\x{%x}`, v))
		t.i = j - 1
	default:
		t.needBack("backreference")
	}
}

// pySpace is the set of characters Python's \s matches in a str pattern
// (str.isspace), as RE2 class items.
const pySpace = `\t-\r\x1c-\x20\x85\xa0\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`

// charClassText is the RE2 text of \s \S \w \W \d \D with Python's
// meaning, outside or inside a class.
func charClassText(e byte, ascii, inClass bool) string {
	var pos string
	switch {
	case ascii && (e == 's' || e == 'S'):
		pos = `\t-\r `
	case ascii:
		return `\` + string(e) // RE2's ASCII \w \d are Python's
	case e == 's' || e == 'S':
		pos = pySpace
	case e == 'w' || e == 'W':
		pos = `\p{L}\p{N}_`
	default:
		if e == 'd' {
			return `\p{Nd}`
		}
		return `\P{Nd}`
	}
	return classForm(pos, e == 'S' || e == 'W', inClass)
}

// classForm writes the class items pos as a class escape does: the items
// alone inside a class, else a class of them; negated, their complement.
func classForm(pos string, negated, inClass bool) string {
	switch {
	case !negated && inClass:
		return pos
	case !negated:
		return "[" + pos + "]"
	case !inClass:
		return "[^" + pos + "]"
	}
	return complementRanges(pos)
}

var complements sync.Map // class text → its complement as RE2 class items

// complementRanges returns the characters not in the class items pos,
// written as class items, for \S and \W inside a class.
func complementRanges(pos string) string {
	if v, ok := complements.Load(pos); ok {
		return v.(string)
	}
	re, err := syntax.Parse("[^"+pos+"]", syntax.Perl)
	if err != nil || re.Op != syntax.OpCharClass {
		panic("repl: complementRanges: " + pos)
	}
	var sb strings.Builder
	for k := 0; k+1 < len(re.Rune); k += 2 {
		lo, hi := re.Rune[k], re.Rune[k+1]
		fmt.Fprintf(&sb, `\x{%x}`, lo)
		if hi != lo {
			fmt.Fprintf(&sb, `-\x{%x}`, hi)
		}
	}
	complements.Store(pos, sb.String())
	return sb.String()
}
