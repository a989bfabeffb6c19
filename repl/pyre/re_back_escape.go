// Escapes and classes of a Python pattern in regexp2's syntax.

package pyre

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// class writes a class [...] from t.i (at its [) and leaves t.i at its ].
func (t *backTranslator) class() {
	p := t.p
	t.w("[")
	t.i++
	if t.i < len(p) && p[t.i] == '^' {
		t.w("^")
		t.i++
	}
	first := true
	for ; t.i < len(p) && t.err == nil; t.i++ {
		c := p[t.i]
		switch {
		case c == ']' && !first:
			t.w("]")
			return
		case c == '\\':
			if t.i+1 >= len(p) {
				t.fail("bad escape (end of pattern)")
				return
			}
			t.i++
			t.escape(true)
		case c == '-':
			t.w("-")
		default:
			r, n := utf8.DecodeRuneInString(p[t.i:])
			t.w(classLit(r))
			t.i += n - 1
		}
		first = false
	}
	if t.err == nil {
		t.fail("unterminated character set")
	}
}

// classLit writes one rune of a class: regexp2 reads [ in a class as the
// start of a subtraction, Python as a literal.
func classLit(r rune) string {
	switch r {
	case '[', ']', '\\', '^':
		return `\` + string(r)
	}
	return string(r)
}

// lit writes one literal rune outside a class.
func lit(r rune) string {
	if r < utf8.RuneSelf && strings.IndexByte(`\.^$|?*+()[]{}# `, byte(r)) >= 0 {
		return `\` + string(r)
	}
	if r < ' ' || r == 0x7f {
		return fmt.Sprintf(`\x{%x}`, r)
	}
	return string(r)
}

func (t *backTranslator) litOrClass(r rune, inClass bool) string {
	if r < ' ' || r == 0x7f {
		return fmt.Sprintf(`\x{%x}`, r)
	}
	if inClass {
		return classLit(r)
	}
	return lit(r)
}

// escape writes the escape whose letter is at t.i, in a class or not.
func (t *backTranslator) escape(inClass bool) {
	p, e := t.p, t.p[t.i]
	ascii := t.flags&ASCII != 0
	switch {
	case e == 'A' && !inClass:
		t.w(`\A`)
	case e == 'Z' && !inClass:
		t.w(`\z`)
	case (e == 'b' || e == 'B') && !inClass:
		t.w(wordBoundary(e == 'B', ascii))
	case e == 'b':
		t.w(`\x{8}`)
	case strings.IndexByte("dDsSwW", e) >= 0:
		t.w(backClassText(e, ascii, inClass))
	case strings.IndexByte("afnrtv", e) >= 0:
		t.w(`\` + string(e))
	case e >= '0' && e <= '9':
		t.number(inClass)
	case e == 'x' || e == 'u' || e == 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
		if t.i+1+n > len(p) || !isHex(p[t.i+1:t.i+1+n]) {
			t.fail("incomplete escape \\%c%s", e, p[t.i+1:min(len(p), t.i+1+n)])
			return
		}
		v, _ := strconv.ParseUint(p[t.i+1:t.i+1+n], 16, 32)
		if v > utf8.MaxRune {
			t.fail("bad escape \\%c%s", e, p[t.i+1:t.i+1+n])
			return
		}
		t.w(fmt.Sprintf(`\x{%x}`, v))
		t.i += n
	case e == 'N':
		t.fail(`named Unicode escapes \N{...} are not available: write the character itself or \uXXXX`)
	case e < utf8.RuneSelf && (e|0x20 >= 'a' && e|0x20 <= 'z'):
		t.fail("bad escape \\%c", e)
	default:
		r, n := utf8.DecodeRuneInString(p[t.i:])
		t.w(t.litOrClass(r, inClass))
		t.i += n - 1
	}
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

// number writes an octal character (\0, \012; any digits in a class) or
// a backreference (\1 to \99), as Python reads them.
func (t *backTranslator) number(inClass bool) {
	p := t.p
	j := t.i
	for j < len(p) && j < t.i+3 && p[j] >= '0' && p[j] <= '7' {
		j++
	}
	octal := p[t.i:j]
	if p[t.i] == '0' || len(octal) == 3 || inClass {
		if octal == "" {
			t.fail("bad escape \\%c", p[t.i])
			return
		}
		v, _ := strconv.ParseUint(octal, 8, 32)
		if v > 0o377 {
			t.fail("octal escape value \\%s outside of range 0-0o377", octal)
			return
		}
		t.w(fmt.Sprintf(`\x{%x}`, v))
		t.i = j - 1
		return
	}
	j = t.i
	for j < len(p) && j < t.i+2 && p[j] >= '0' && p[j] <= '9' {
		j++
	}
	g, _ := strconv.Atoi(p[t.i:j])
	t.backref(g)
	t.i = j - 1
}

// backClassText is \d \D \s \S \w \W with Python's meaning in regexp2's
// syntax, outside or inside a class.
func backClassText(e byte, ascii, inClass bool) string {
	if !ascii {
		return charClassText(e, false, inClass) // RE2's class items are regexp2's too
	}
	var pos string
	switch e | 0x20 {
	case 'd':
		pos = `0-9`
	case 's':
		pos = `\t-\r `
	default:
		pos = `a-zA-Z0-9_`
	}
	return classForm(pos, e < 'a', inClass)
}

// wordBoundary is Python's \b (or \B) as lookaround over Python's \w:
// regexp2's \b uses .NET's \w, and its ASCII form is ECMAScript's mode.
// Python's \B never matches in an empty text.
func wordBoundary(not, ascii bool) string {
	w := backClassText('w', ascii, false)
	if not {
		return `(?:(?<=` + w + `)(?=` + w + `)|(?!\A\z)(?<!` + w + `)(?!` + w + `))`
	}
	return `(?:(?<=` + w + `)(?!` + w + `)|(?<!` + w + `)(?=` + w + `))`
}
