// string.Template ($-substitution with CPython's errors) and
// string.Formatter (format, vformat, parse).

package pytext

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyre"
	"harness/repl/pyrt"
)

var (
	templateType  = &pyrt.PyType{TypeName: "Template", Module: "string"}
	formatterType = &pyrt.PyType{TypeName: "Formatter", Module: "string"}
)

func init() {
	templateType.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := pyrt.UnpackArgs("Template", args, kw, "template", &s); err != nil {
			return nil, err
		}
		r, _ := thread.Local(pyrt.ThreadInterp).(*pyrt.Interp)
		return &template{text: s, r: r}, nil
	}
	templateType.Attrs = starlark.StringDict{"delimiter": starlark.String("$"), "idpattern": starlark.String("(?a:[_a-z][_a-z0-9]*)")}
	formatterType.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs("Formatter", args, kw, 0); err != nil {
			return nil, err
		}
		return &strFormatter{}, nil
	}
}

type template struct {
	text string
	r    *pyrt.Interp // for pattern
}

// templatePattern is CPython's Template.pattern, compiled with
// re.IGNORECASE | re.VERBOSE.
const templatePattern = `
            \$(?:
              (?P<escaped>\$)  |   # Escape sequence of two delimiters
              (?P<named>(?a:[_a-z][_a-z0-9]*))       |   # delimiter and a Python identifier
              {(?P<braced>(?a:[_a-z][_a-z0-9]*))} |   # delimiter and a braced identifier
              (?P<invalid>)             # Other ill-formed delimiter exprs
            )
            `

func (t *template) String() string        { return "<string.Template object>" }
func (t *template) Type() string          { return "Template" }
func (t *template) PyClass() *pyrt.PyType { return templateType }
func (t *template) Freeze()               {}
func (t *template) Truth() starlark.Bool  { return true }
func (t *template) Hash() (uint32, error) { return starlark.String(t.text).Hash() }
func (t *template) AttrNames() []string {
	return []string{"delimiter", "get_identifiers", "is_valid", "pattern", "safe_substitute", "substitute", "template"}
}

// placeholder is one match of Template's pattern at text[start:end]:
// kind 'e' ($$), 'n' ($name), 'b' (${name}) or 'i' (invalid).
type placeholder struct {
	start, end int
	kind       byte
	name       string
}

func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentByte(c byte) bool  { return isIdentStart(c) || '0' <= c && c <= '9' }

func (t *template) placeholders() []placeholder {
	s := t.text
	var out []placeholder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		j := i + 1
		switch {
		case j < len(s) && s[j] == '$':
			out = append(out, placeholder{i, j + 1, 'e', ""})
		case j < len(s) && isIdentStart(s[j]):
			k := j
			for k < len(s) && isIdentByte(s[k]) {
				k++
			}
			out = append(out, placeholder{i, k, 'n', s[j:k]})
		default:
			k := j + 1
			if j < len(s) && s[j] == '{' && k < len(s) && isIdentStart(s[k]) {
				for k < len(s) && isIdentByte(s[k]) {
					k++
				}
				if k < len(s) && s[k] == '}' {
					out = append(out, placeholder{i, k + 1, 'b', s[j+1 : k]})
					break
				}
			}
			out = append(out, placeholder{i, j, 'i', ""})
		}
		i = out[len(out)-1].end - 1
	}
	return out
}

// invalidAt is CPython's ValueError for an invalid placeholder at i.
func (t *template) invalidAt(i int) error {
	lines := splitLinesKeep(t.text[:i])
	col, line := 1, 1
	if len(lines) > 0 {
		col = len([]rune(t.text[:i])) - len([]rune(strings.Join(lines[:len(lines)-1], "")))
		line = len(lines)
	}
	return pyrt.PyErrorf(pyrt.ExcValueError, "Invalid placeholder in string: line %d, col %d", line, col)
}

// splitLinesKeep is str.splitlines(keepends=True).
func splitLinesKeep(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '\r':
			if i+1 < len(rs) && rs[i+1] == '\n' {
				i++
			}
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		default:
			continue
		}
		out = append(out, string(rs[start:i+1]))
		start = i + 1
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

func (t *template) substitute(args starlark.Tuple, kw []starlark.Tuple, safe bool) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Too many positional arguments")
	}
	lookup := func(name string) (starlark.Value, bool, error) {
		for _, kv := range kw {
			if string(kv[0].(starlark.String)) == name {
				return kv[1], true, nil
			}
		}
		if len(args) == 0 {
			return nil, false, nil
		}
		m, ok := args[0].(starlark.Mapping)
		if !ok {
			return nil, false, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object is not subscriptable", pyrt.PyTypeName(args[0]))
		}
		v, found, err := m.Get(starlark.String(name))
		if err != nil {
			return nil, false, err
		}
		return v, found, nil
	}
	var sb strings.Builder
	last := 0
	for _, p := range t.placeholders() {
		sb.WriteString(t.text[last:p.start])
		last = p.end
		switch p.kind {
		case 'e':
			sb.WriteByte('$')
		case 'i':
			if !safe {
				return nil, t.invalidAt(p.end)
			}
			sb.WriteByte('$')
		default:
			v, found, err := lookup(p.name)
			if err != nil {
				return nil, err
			}
			if !found {
				if safe {
					sb.WriteString(t.text[p.start:p.end])
					continue
				}
				return nil, &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcKeyError, Args: starlark.Tuple{starlark.String(p.name)}}}
			}
			sb.WriteString(pyrt.PyStr(v))
		}
	}
	sb.WriteString(t.text[last:])
	return starlark.String(sb.String()), nil
}

func (t *template) Attr(name string) (starlark.Value, error) {
	switch name {
	case "template":
		return starlark.String(t.text), nil
	case "delimiter":
		return starlark.String("$"), nil
	case "pattern":
		if t.r == nil {
			return nil, nil
		}
		// The regex engines take ASCII for the whole pattern only, which
		// means the same here: the pattern's only letters are ASCII ranges.
		flags := pyre.IgnoreCase | pyre.Verbose
		rx, err := t.r.ReCache.Compile("Template", strings.ReplaceAll(templatePattern, "(?a:", "(?:"), flags|pyre.ASCII)
		if err != nil {
			return nil, err
		}
		return &Pattern{R: t.r, Src: templatePattern, Flags: flags, Rx: rx}, nil
	case "substitute", "safe_substitute":
		return pyrt.Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return t.substitute(args, kw, name == "safe_substitute")
		}), nil
	case "get_identifiers":
		return pyrt.Builtin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			var ids []starlark.Value
			seen := map[string]bool{}
			for _, p := range t.placeholders() {
				if (p.kind == 'n' || p.kind == 'b') && !seen[p.name] {
					seen[p.name] = true
					ids = append(ids, starlark.String(p.name))
				}
			}
			return starlark.NewList(ids), nil
		}), nil
	case "is_valid":
		return pyrt.Builtin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			for _, p := range t.placeholders() {
				if p.kind == 'i' {
					return starlark.False, nil
				}
			}
			return starlark.True, nil
		}), nil
	}
	return nil, nil
}

// strFormatter is string.Formatter(): format and vformat are str.format;
// parse splits a format string as _string.formatter_parser does.
type strFormatter struct{}

func (f *strFormatter) String() string        { return "<string.Formatter object>" }
func (f *strFormatter) Type() string          { return "Formatter" }
func (f *strFormatter) PyClass() *pyrt.PyType { return formatterType }
func (f *strFormatter) Freeze()               {}
func (f *strFormatter) Truth() starlark.Bool  { return true }
func (f *strFormatter) Hash() (uint32, error) { return 0, nil }
func (f *strFormatter) AttrNames() []string   { return []string{"format", "parse", "vformat"} }
func (f *strFormatter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "format":
		return pyrt.Builtin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "format() missing 1 required positional argument: 'format_string'")
			}
			return pyrt.CallMethod(thread, args[0], "format", args[1:], kw)
		}), nil
	case "vformat":
		return pyrt.Builtin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s, pos, kws starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 3, &s, &pos, &kws); err != nil {
				return nil, err
			}
			posv, err := pyrt.ListOf(pos)
			if err != nil {
				return nil, err
			}
			var kwv []starlark.Tuple
			if m, ok := kws.(starlark.IterableMapping); ok {
				kwv = m.Items()
			}
			return pyrt.CallMethod(thread, s, "format", starlark.Tuple(posv), kwv)
		}), nil
	case "parse":
		return pyrt.Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &s); err != nil {
				return nil, err
			}
			items, err := formatParse(s)
			if err != nil {
				return nil, err
			}
			return pyrt.NewListIter("formatteriterator", items), nil
		}), nil
	}
	return nil, nil
}

// formatParse is _string.formatter_parser(s): (literal, field_name,
// format_spec, conversion) tuples.
func formatParse(s string) ([]starlark.Value, error) {
	var out []starlark.Value
	none := starlark.Value(starlark.None)
	var lit strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c != '{' && c != '}' {
			lit.WriteByte(c)
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == c {
			lit.WriteByte(c)
			out = append(out, starlark.Tuple{starlark.String(lit.String()), none, none, none})
			lit.Reset()
			i += 2
			continue
		}
		if c == '}' {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Single '}' encountered in format string")
		}
		depth, j := 1, i+1
		for ; j < len(s) && depth > 0; j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		if depth > 0 {
			if i+1 == len(s) {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Single '{' encountered in format string")
			}
			if strings.IndexByte(s[i+1:], ':') >= 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "unmatched '{' in format spec")
			}
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "expected '}' before end of string")
		}
		field := s[i+1 : j-1]
		name, conv, spec := field, none, starlark.Value(starlark.String(""))
		bracket := false
		for k := 0; k < len(field); k++ {
			if field[k] == '[' {
				bracket = true
			} else if field[k] == ']' {
				bracket = false
			} else if !bracket && (field[k] == '!' || field[k] == ':') {
				name = field[:k]
				rest := field[k:]
				if rest[0] == '!' {
					if len(rest) < 2 {
						return nil, pyrt.PyErrorf(pyrt.ExcValueError, "end of string while looking for conversion specifier")
					}
					conv = starlark.String(rest[1:2])
					rest = rest[2:]
					if rest != "" && rest[0] != ':' {
						return nil, pyrt.PyErrorf(pyrt.ExcValueError, "expected ':' after conversion specifier")
					}
				}
				if rest != "" {
					spec = starlark.String(rest[1:])
				}
				break
			}
		}
		out = append(out, starlark.Tuple{starlark.String(lit.String()), starlark.String(name), spec, conv})
		lit.Reset()
		i = j
	}
	if lit.Len() > 0 {
		out = append(out, starlark.Tuple{starlark.String(lit.String()), none, none, none})
	}
	return out, nil
}
