// The re module's Python additions: re.error, escape, finditer, subn and m[g].

package pytext

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

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
func (p *Pattern) finditer(fn string, method bool, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, s, sub, pos, err := p.subject(fn, method, args, kw, nil)
	if err != nil {
		return nil, err
	}
	var ms []*match
	if sub != nil {
		if ms, err = p.all(fn, s, sub, pos, -1); err != nil {
			return nil, err
		}
	}
	out := make([]starlark.Value, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return pyrt.NewListIter("callable_iterator", out), nil
}

// subn is Pattern.subn: (the new string, the number of replacements).
func (p *Pattern) subn(fn string, method bool, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	s, n, err := p.replace(fn, method, args, kw)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{starlark.String(s), starlark.MakeInt(n)}, nil
}

// Get is m[g], as m.group(g).
func (m *match) Get(k starlark.Value) (starlark.Value, bool, error) {
	g, err := m.index(k)
	if err != nil {
		return nil, false, err
	}
	return m.group(g, starlark.None), true, nil
}
