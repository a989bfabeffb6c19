// The re module's Python additions: re.error, escape, finditer, subn, m[g] and Unicode classes.

package repl

import (
	"strings"

	"go.starlark.net/starlark"
)

// reError is re.error, raised for bad patterns.
var reError = &excType{name: "error", module: "re", base: excException}

// pyEscape is re.escape: every character that is not alphanumeric or _
// gets a backslash, as Python 3.7+ does for its special characters.
func pyEscape(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`()[]{}?*+-|^$\.&~# `+"\t\n\r\v\f", r) {
			sb.WriteByte('\\')
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// finditer is Pattern.finditer: the matches, one by one.
func (p *pattern) finditer(fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, s, err := p.onString(fn, args, kw)
	if err != nil {
		return nil, err
	}
	ms := p.all(s, -1)
	out := make([]starlark.Value, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return newListIter("callable_iterator", out), nil
}

// subn is Pattern.subn: (the new string, the number of replacements).
func (p *pattern) subn(fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	s, n, err := p.replace(fn, args, kw)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{starlark.String(s), starlark.MakeInt(n)}, nil
}

// Get is m[g], as m.group(g).
func (m *match) Get(k starlark.Value) (starlark.Value, bool, error) {
	g, err := m.index("re.Match", k)
	if err != nil {
		return nil, false, pyErrorf(excIndexError, "no such group")
	}
	return m.group(g, starlark.None), true, nil
}

// translatePattern gives a Python pattern its Python meaning in RE2: \w,
// \d and \s match Unicode letters, digits and spaces (unless re.ASCII),
// \Z is the end of the text, and re.VERBOSE drops whitespace and comments.
// Word boundaries (\b) stay ASCII, as RE2 has them.
func translatePattern(p string, flags int) string {
	var sb strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			e := p[i]
			switch {
			case e == 'Z':
				sb.WriteString(`\z`)
			case flags&reASCII != 0:
				sb.WriteByte('\\')
				sb.WriteByte(e)
			case e == 'w' && inClass:
				sb.WriteString(`\p{L}\p{N}_`)
			case e == 'w':
				sb.WriteString(`[\p{L}\p{N}_]`)
			case e == 'W' && !inClass:
				sb.WriteString(`[^\p{L}\p{N}_]`)
			case e == 'd':
				sb.WriteString(`\p{Nd}`)
			case e == 'D':
				sb.WriteString(`\P{Nd}`)
			case e == 's' && inClass:
				sb.WriteString(`\s\v\p{Z}`)
			case e == 's':
				sb.WriteString(`[\s\v\p{Z}]`)
			case e == 'S' && !inClass:
				sb.WriteString(`[^\s\v\p{Z}]`)
			default:
				sb.WriteByte('\\')
				sb.WriteByte(e)
			}
		case inClass:
			if c == ']' {
				inClass = false
			}
			sb.WriteByte(c)
		case c == '[':
			inClass = true
			sb.WriteByte(c)
			if i+1 < len(p) && p[i+1] == '^' {
				sb.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				sb.WriteByte(']')
				i++
			}
		case flags&reVerbose != 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
		case flags&reVerbose != 0 && c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
