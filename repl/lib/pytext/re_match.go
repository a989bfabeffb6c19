// re's match objects and Python's replacement templates (\1, \g<name>, \n).

package pytext

import (
	"fmt"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

// match is a match object; positions are character offsets, as string
// indexing is (loc holds byte offsets into s).
type match struct {
	s           string
	loc         []int
	names       []string
	p           *Pattern
	pos, endpos int // in characters, as given to the search
}

func (m *match) String() string {
	return fmt.Sprintf("<re.Match object; span=(%d, %d), match=%s>", pystr.ByteToChar(m.s, m.loc[0]), pystr.ByteToChar(m.s, m.loc[1]), pystr.Quote(m.s[m.loc[0]:m.loc[1]]))
}
func (m *match) Type() string          { return "re.Match" }
func (m *match) Freeze()               {}
func (m *match) Truth() starlark.Bool  { return true }
func (m *match) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: re.Match") }
func (m *match) AttrNames() []string {
	return []string{"end", "endpos", "expand", "group", "groupdict", "groups", "lastgroup", "lastindex", "pos", "re", "span", "start", "string"}
}

// lastIndex is Python's lastindex: the group that closed last (the
// greatest end; of two ending together, an outer group over the one it
// holds, a later one after an earlier one), or 0 when none matched.
func (m *match) lastIndex() int {
	best := 0
	for g := 1; 2*g+1 < len(m.loc); g++ {
		start, end := m.loc[2*g], m.loc[2*g+1]
		switch {
		case start < 0:
		case best == 0 || end > m.loc[2*best+1]:
			best = g
		case end == m.loc[2*best+1] && start >= m.loc[2*best+1]:
			best = g
		}
	}
	return best
}

func (m *match) group(g int, missing starlark.Value) starlark.Value {
	if m.loc[2*g] < 0 {
		return missing
	}
	return starlark.String(m.s[m.loc[2*g]:m.loc[2*g+1]])
}

// index resolves a group number or name.
func (m *match) index(v starlark.Value) (int, error) {
	if v == nil {
		return 0, nil
	}
	if s, ok := starlark.AsString(v); ok {
		for i, n := range m.names {
			if n == s && n != "" {
				return i, nil
			}
		}
		return 0, pyrt.PyErrorf(pyrt.ExcIndexError, "no such group")
	}
	g, err := starlark.AsInt32(pyrt.BoolToInt(v)) // m.group(True) is group 1
	if err != nil || g < 0 || 2*g >= len(m.loc) {
		return 0, pyrt.PyErrorf(pyrt.ExcIndexError, "no such group")
	}
	return g, nil
}

func (m *match) Attr(name string) (starlark.Value, error) {
	switch name {
	case "string":
		return starlark.String(m.s), nil
	case "pos":
		return starlark.MakeInt(m.pos), nil
	case "endpos":
		return starlark.MakeInt(m.endpos), nil
	case "re":
		if m.p == nil {
			return starlark.None, nil
		}
		return m.p, nil
	case "lastindex", "lastgroup":
		g := m.lastIndex()
		switch {
		case g == 0, name == "lastgroup" && (g >= len(m.names) || m.names[g] == ""):
			return starlark.None, nil
		case name == "lastgroup":
			return starlark.String(m.names[g]), nil
		}
		return starlark.MakeInt(g), nil
	case "group", "start", "end", "span", "groups", "groupdict", "expand":
	default:
		return nil, nil
	}
	return starlark.NewBuiltin("re.Match."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return m.call(name, b.Name(), args, kw)
	}), nil
}

func (m *match) call(name, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	switch name {
	case "groups", "groupdict":
		return m.allGroups(name, fn, args, kw)
	case "expand":
		var tmpl string
		if err := pyrt.UnpackArgs(fn, args, kw, "template", &tmpl); err != nil {
			return nil, err
		}
		var sb strings.Builder
		if err := m.expand(&sb, tmpl); err != nil {
			return nil, err
		}
		return starlark.String(sb.String()), nil
	case "group":
		if len(kw) > 0 {
			return nil, fmt.Errorf("%s: unexpected keyword arguments", fn)
		}
		if len(args) <= 1 {
			var a starlark.Value
			if len(args) == 1 {
				a = args[0]
			}
			g, err := m.index(a)
			if err != nil {
				return nil, err
			}
			return m.group(g, starlark.None), nil
		}
		t := starlark.Tuple{}
		for _, a := range args {
			g, err := m.index(a)
			if err != nil {
				return nil, err
			}
			t = append(t, m.group(g, starlark.None))
		}
		return t, nil
	}
	var a starlark.Value
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &a); err != nil {
		return nil, err
	}
	g, err := m.index(a)
	if err != nil {
		return nil, err
	}
	start, end := starlark.MakeInt(-1), starlark.MakeInt(-1)
	if m.loc[2*g] >= 0 {
		start, end = starlark.MakeInt(pystr.ByteToChar(m.s, m.loc[2*g])), starlark.MakeInt(pystr.ByteToChar(m.s, m.loc[2*g+1]))
	}
	switch name {
	case "start":
		return start, nil
	case "end":
		return end, nil
	}
	return starlark.Tuple{start, end}, nil
}

// allGroups implements groups(default=None) and groupdict(default=None).
func (m *match) allGroups(name, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var def starlark.Value = starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "default?", &def); err != nil {
		return nil, err
	}
	if name == "groupdict" {
		d := starlark.NewDict(len(m.names))
		for i, n := range m.names {
			if n != "" {
				_ = d.SetKey(starlark.String(n), m.group(i, def))
			}
		}
		return d, nil
	}
	t := starlark.Tuple{}
	for g := 1; 2*g < len(m.loc); g++ {
		t = append(t, m.group(g, def))
	}
	return t, nil
}

// A tmplPiece is literal text or, when group >= 0, a group's text.
type tmplPiece struct {
	text  string
	group int
}

// parseTemplate reads a replacement template as Python does: \1 to \99
// and \g<n> or \g<name> are groups (an unmatched one is empty), \0 and
// three octal digits are characters, \n \t \r \f \v \a \b \\ are escapes,
// another backslash before an ASCII letter is an error and before
// anything else stays as written.
func parseTemplate(tmpl string, names []string) ([]tmplPiece, error) {
	var out []tmplPiece
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, tmplPiece{text: lit.String(), group: -1})
			lit.Reset()
		}
	}
	groups := len(names) - 1
	group := func(g int) error {
		if g > groups {
			return reErrorf("invalid group reference %d", g)
		}
		flush()
		out = append(out, tmplPiece{group: g})
		return nil
	}
	octal := func(c byte) bool { return c >= '0' && c <= '7' }
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c != '\\' {
			lit.WriteByte(c)
			continue
		}
		if i+1 == len(tmpl) {
			return nil, reErrorf("bad escape (end of pattern)")
		}
		i++
		e := tmpl[i]
		switch {
		case e == 'g':
			end := strings.IndexByte(tmpl[i:], '>')
			if i+1 >= len(tmpl) || tmpl[i+1] != '<' {
				return nil, reErrorf("missing <")
			}
			if end < 0 {
				return nil, reErrorf("missing >, unterminated name")
			}
			ref := tmpl[i+2 : i+end]
			g, err := strconv.Atoi(ref)
			if err != nil {
				g = -1
				for k, n := range names {
					if n == ref && n != "" {
						g = k
					}
				}
				if g < 0 {
					return nil, pyrt.PyErrorf(pyrt.ExcIndexError, "unknown group name %s", pystr.Quote(ref))
				}
			}
			if err := group(g); err != nil {
				return nil, err
			}
			i += end
		case e == '0':
			j := i + 1
			for j < len(tmpl) && j < i+3 && octal(tmpl[j]) {
				j++
			}
			v, _ := strconv.ParseUint(tmpl[i:j], 8, 32)
			lit.WriteRune(rune(v & 0xff))
			i = j - 1
		case digit(e):
			j := i + 1
			if j < len(tmpl) && digit(tmpl[j]) {
				j++
				if octal(e) && octal(tmpl[j-1]) && j < len(tmpl) && octal(tmpl[j]) {
					v, _ := strconv.ParseUint(tmpl[i:j+1], 8, 32)
					if v > 0o377 {
						return nil, reErrorf("octal escape value \\%s outside of range 0-0o377", tmpl[i:j+1])
					}
					lit.WriteRune(rune(v))
					i = j
					continue
				}
			}
			g, _ := strconv.Atoi(tmpl[i:j])
			if err := group(g); err != nil {
				return nil, err
			}
			i = j - 1
		default:
			if r, ok := templateEscapes[e]; ok {
				lit.WriteByte(r)
				continue
			}
			if e < 0x80 && ('a' <= e && e <= 'z' || 'A' <= e && e <= 'Z') {
				return nil, reErrorf("bad escape \\%c at position %d", e, i-1)
			}
			lit.WriteByte('\\')
			lit.WriteByte(e)
		}
	}
	flush()
	return out, nil
}

var templateEscapes = map[byte]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\\': '\\'}

func reErrorf(format string, args ...any) error {
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ReError, Text: fmt.Sprintf(format, args...)}}
}

// expand writes the template with m's groups.
func (m *match) expand(sb *strings.Builder, tmpl string) error {
	pieces, err := parseTemplate(tmpl, m.names)
	if err != nil {
		return err
	}
	m.Write(sb, pieces)
	return nil
}

func (m *match) Write(sb *strings.Builder, pieces []tmplPiece) {
	for _, p := range pieces {
		if p.group < 0 {
			sb.WriteString(p.text)
		} else if m.loc[2*p.group] >= 0 {
			sb.WriteString(m.s[m.loc[2*p.group]:m.loc[2*p.group+1]])
		}
	}
}
