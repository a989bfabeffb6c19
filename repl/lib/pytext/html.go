// html: escape and unescape (HTML5's named and numeric character
// references, as Python's html.unescape).

package pytext

import (
	"html"
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")
var htmlEscaperNoQuote = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func htmlModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("html", starlark.StringDict{
		"escape": pyrt.Builtin("escape", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			quote := true
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "s", &s, "quote?", &quote); err != nil {
				return nil, err
			}
			str, ok := s.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'replace'", pyrt.PyTypeName(s))
			}
			if quote {
				return starlark.String(htmlEscaper.Replace(string(str))), nil
			}
			return starlark.String(htmlEscaperNoQuote.Replace(string(str))), nil
		}),
		"unescape": pyrt.Builtin("unescape", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "s", &s); err != nil {
				return nil, err
			}
			str, ok := s.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "a bytes-like object is required, not '%s'", pyrt.PyTypeName(s))
			}
			if !strings.Contains(string(str), "&") {
				return str, nil
			}
			return starlark.String(charref.ReplaceAllStringFunc(string(str), replaceCharref)), nil
		}),
	})
}

var (
	charref = regexp.MustCompile(`&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)`)
	// missingEntities are the two of HTML5's table Go's lacks.
	missingEntities = map[string]string{"nGt;": "\u226b\u20d2", "nLt;": "\u226a\u20d2"}
	entityName      = regexp.MustCompile(`^[A-Za-z0-9]+;?$`)
	cp1252Runes     = []rune("\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
		"\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178")
)

// replaceCharref is html._replace_charref for one match "&...".
func replaceCharref(m string) string {
	s := m[1:]
	if s[0] == '#' {
		digits, base := strings.TrimSuffix(s[1:], ";"), 10
		if digits[0] == 'x' || digits[0] == 'X' {
			digits, base = digits[1:], 16
		}
		n, _ := new(big.Int).SetString(digits, base)
		if !n.IsInt64() || n.Int64() > 0x10FFFF {
			return "\uFFFD"
		}
		return numericCharref(n.Int64())
	}
	if v, ok := html5Entity(s); ok {
		return v
	}
	for x := len(s) - 1; x > 1; x-- {
		if v, ok := html5Entity(s[:x]); ok {
			return v + s[x:]
		}
	}
	return "&" + s
}

func numericCharref(n int64) string {
	switch {
	case n == 0:
		return "\uFFFD"
	case n == 0x0d:
		return "\r"
	case 0x80 <= n && n <= 0x9f:
		return string(cp1252Runes[n-0x80])
	case 0xD800 <= n && n <= 0xDFFF:
		return "\uFFFD"
	case 1 <= n && n <= 8, n == 0xb, 0xe <= n && n <= 0x1f, n == 0x7f, 0xfdd0 <= n && n <= 0xfdef, n&0xfffe == 0xfffe:
		return ""
	}
	return string(rune(n))
}

// html5Entity looks name ("amp;", or a legacy "amp") up in HTML5's table
// of named references, which Go's html package holds: an exact match
// there leaves nothing of the name; a value never ends in a letter or
// digit of the name, nor (but for "semi;") in ";".
func html5Entity(name string) (string, bool) {
	if !entityName.MatchString(name) {
		return "", false
	}
	if v, ok := missingEntities[name]; ok {
		return v, true
	}
	r := html.UnescapeString("&" + name)
	if r == "&"+name {
		return "", false
	}
	last, _ := utf8.DecodeLastRuneInString(r)
	if strings.HasSuffix(name, ";") {
		return r, last != ';' || name == "semi;"
	}
	alnum := 'a' <= last && last <= 'z' || 'A' <= last && last <= 'Z' || '0' <= last && last <= '9'
	return r, !alnum
}
