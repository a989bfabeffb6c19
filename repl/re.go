// The re module: Python's re names over Go's regexp (RE2 syntax).

package repl

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Flags, as in Python.
const (
	reIgnoreCase = 2
	reMultiline  = 8
	reDotAll     = 16
	reVerbose    = 64
	reASCII      = 256
)

type regexpCache struct {
	mu sync.Mutex
	m  map[string]*regexp.Regexp
}

func newRegexpCache() *regexpCache { return &regexpCache{m: map[string]*regexp.Regexp{}} }

func (c *regexpCache) compile(fn, pattern string, flags int) (*regexp.Regexp, error) {
	prefix := ""
	if flags&reIgnoreCase != 0 {
		prefix += "i"
	}
	if flags&reMultiline != 0 {
		prefix += "m"
	}
	if flags&reDotAll != 0 {
		prefix += "s"
	}
	src := translatePattern(pattern, flags)
	if prefix != "" {
		src = "(?" + prefix + ")" + src
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if re, ok := c.m[src]; ok {
		return re, nil
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, &pyError{&pyException{typ: reError, text: fmt.Sprintf("%s: bad regular expression %q: %v (Go RE2 syntax: no backreferences or lookaround)", fn, pattern, err)}}
	}
	if len(c.m) > 256 {
		c.m = map[string]*regexp.Regexp{}
	}
	c.m[src] = re
	return re, nil
}

// pattern is a compiled regular expression. fixed marks re.compile's
// results, whose flags cannot change afterwards.
type pattern struct {
	r     *interp
	src   string
	flags int
	re    *regexp.Regexp
	fixed bool
}

func (p *pattern) String() string        { return fmt.Sprintf("re.compile(%q)", p.src) }
func (p *pattern) Type() string          { return "re.Pattern" }
func (p *pattern) Freeze()               {}
func (p *pattern) Truth() starlark.Bool  { return true }
func (p *pattern) Hash() (uint32, error) { return starlark.String(p.src).Hash() }
func (p *pattern) AttrNames() []string {
	return []string{"findall", "finditer", "flags", "fullmatch", "groups", "match", "pattern", "search", "split", "sub", "subn"}
}

func (p *pattern) Attr(name string) (starlark.Value, error) {
	switch name {
	case "pattern":
		return starlark.String(p.src), nil
	case "flags":
		return starlark.MakeInt(p.flags), nil
	case "groups":
		return starlark.MakeInt(p.re.NumSubexp()), nil
	}
	op, ok := reOps[name]
	if !ok {
		return nil, nil
	}
	return starlark.NewBuiltin("re.Pattern."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return op(p, b.Name(), args, kw)
	}), nil
}

type reOp func(p *pattern, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

var reOps = map[string]reOp{
	"search": func(p *pattern, fn string, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return p.find(fn, a, kw, 0)
	},
	"match": func(p *pattern, fn string, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return p.find(fn, a, kw, 1)
	},
	"fullmatch": func(p *pattern, fn string, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return p.find(fn, a, kw, 2)
	},
	"findall":  (*pattern).findall,
	"finditer": (*pattern).finditer,
	"sub":      (*pattern).sub,
	"subn":     (*pattern).subn,
	"split":    (*pattern).split,
}

// reModule returns the re module; module functions take the pattern first
// and an optional flags argument last.
func (r *interp) reModule() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "re", Members: starlark.StringDict{
		"IGNORECASE": starlark.MakeInt(reIgnoreCase), "I": starlark.MakeInt(reIgnoreCase),
		"MULTILINE": starlark.MakeInt(reMultiline), "M": starlark.MakeInt(reMultiline),
		"DOTALL": starlark.MakeInt(reDotAll), "S": starlark.MakeInt(reDotAll),
		"VERBOSE": starlark.MakeInt(reVerbose), "X": starlark.MakeInt(reVerbose),
		"ASCII": starlark.MakeInt(reASCII), "A": starlark.MakeInt(reASCII), "UNICODE": starlark.MakeInt(0), "U": starlark.MakeInt(0),
	}}
	m.Members["escape"] = starlark.NewBuiltin("re.escape", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &s); err != nil {
			return nil, err
		}
		return starlark.String(pyEscape(s)), nil
	})
	m.Members["error"] = reError
	m.Members["compile"] = starlark.NewBuiltin("re.compile", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var src string
		var flags int
		if err := starlark.UnpackArgs(b.Name(), args, kw, "pattern", &src, "flags?", &flags); err != nil {
			return nil, err
		}
		p, err := r.compilePattern(b.Name(), src, flags)
		if p != nil {
			p.fixed = true
		}
		return p, err
	})
	for name, op := range reOps {
		m.Members[name] = starlark.NewBuiltin("re."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, fmt.Errorf("%s: missing argument for pattern", b.Name())
			}
			var src string
			switch a := args[0].(type) {
			case starlark.String:
				src = string(a)
			case *pattern:
				return op(a, b.Name(), args[1:], kw)
			default:
				return nil, fmt.Errorf("%s: pattern must be a string, got %s", b.Name(), args[0].Type())
			}
			flags, kw, err := takeFlags(b.Name(), kw)
			if err != nil {
				return nil, err
			}
			p, err := r.compilePattern(b.Name(), src, flags)
			if err != nil {
				return nil, err
			}
			return op(p, b.Name(), args[1:], kw)
		})
	}
	return m
}

// takeFlags removes flags=… from kw.
func takeFlags(fn string, kw []starlark.Tuple) (int, []starlark.Tuple, error) {
	var rest []starlark.Tuple
	flags := 0
	for _, kv := range kw {
		if string(kv[0].(starlark.String)) != "flags" {
			rest = append(rest, kv)
			continue
		}
		f, err := starlark.AsInt32(kv[1])
		if err != nil {
			return 0, nil, fmt.Errorf("%s: flags: %v", fn, err)
		}
		flags = f
	}
	return flags, rest, nil
}

func (r *interp) compilePattern(fn, src string, flags int) (*pattern, error) {
	re, err := r.reCache.compile(fn, src, flags)
	if err != nil {
		return nil, err
	}
	return &pattern{r: r, src: src, flags: flags, re: re}, nil
}

// withFlags applies flags given to a module function after the string
// (re.search(p, s, re.I)), as Python allows.
func (p *pattern) withFlags(fn string, flags int) (*pattern, error) {
	if flags == 0 || flags == p.flags {
		return p, nil
	}
	if p.fixed {
		return nil, fmt.Errorf("%s: a compiled pattern keeps its flags; give flags to re.compile(pattern, flags)", fn)
	}
	return p.r.compilePattern(fn, p.src, p.flags|flags)
}

// onString unpacks the arguments of search, match, fullmatch, findall and
// finditer, (string, flags=0), and applies the flags to p.
func (p *pattern) onString(fn string, args starlark.Tuple, kw []starlark.Tuple) (*pattern, string, error) {
	var s string
	var flags int
	if err := starlark.UnpackArgs(fn, args, kw, "string", &s, "flags?", &flags); err != nil {
		return nil, "", err
	}
	p, err := p.withFlags(fn, flags)
	return p, s, err
}

// all returns the first n matches in s (n < 0: all of them).
func (p *pattern) all(s string, n int) []*match {
	var out []*match
	for _, loc := range p.re.FindAllStringSubmatchIndex(s, n) {
		out = append(out, &match{s: s, loc: loc, names: p.re.SubexpNames()})
	}
	return out
}

// limit is the n of all for a count or maxsplit argument: 0 or less is
// no limit.
func limit(k int) int {
	if k > 0 {
		return k
	}
	return -1
}

// find implements search (mode 0), match (1, anchored at the start) and
// fullmatch (2, anchored at both ends).
func (p *pattern) find(fn string, args starlark.Tuple, kw []starlark.Tuple, mode int) (starlark.Value, error) {
	p, s, err := p.onString(fn, args, kw)
	if err != nil {
		return nil, err
	}
	re := p.re
	if mode > 0 {
		src := `\A(?:` + p.src + `)`
		if mode == 2 {
			src += `\z`
		}
		if re, err = p.r.reCache.compile(fn, src, p.flags); err != nil {
			return nil, err
		}
	}
	loc := re.FindStringSubmatchIndex(s)
	if loc == nil {
		return starlark.None, nil
	}
	return &match{s: s, loc: loc, names: p.re.SubexpNames()}, nil
}

func (p *pattern) findall(fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, s, err := p.onString(fn, args, kw)
	if err != nil {
		return nil, err
	}
	var out []starlark.Value
	groups := p.re.NumSubexp()
	for _, m := range p.all(s, -1) {
		switch groups {
		case 0:
			out = append(out, m.group(0, starlark.String("")))
		case 1:
			out = append(out, m.group(1, starlark.String("")))
		default:
			t := make(starlark.Tuple, groups)
			for g := 1; g <= groups; g++ {
				t[g-1] = m.group(g, starlark.String(""))
			}
			out = append(out, t)
		}
	}
	return starlark.NewList(out), nil
}

func (p *pattern) split(fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var s string
	var maxsplit, flags int
	if err := starlark.UnpackArgs(fn, args, kw, "string", &s, "maxsplit?", &maxsplit, "flags?", &flags); err != nil {
		return nil, err
	}
	p, err := p.withFlags(fn, flags)
	if err != nil {
		return nil, err
	}
	var out []starlark.Value
	last := 0
	for _, m := range p.all(s, limit(maxsplit)) {
		out = append(out, starlark.String(s[last:m.loc[0]]))
		for g := 1; g <= p.re.NumSubexp(); g++ {
			out = append(out, m.group(g, starlark.None))
		}
		last = m.loc[1]
	}
	out = append(out, starlark.String(s[last:]))
	return starlark.NewList(out), nil
}

func (p *pattern) sub(fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	s, _, err := p.replace(fn, args, kw)
	if err != nil {
		return nil, err
	}
	return starlark.String(s), nil
}

// replace is sub and subn: the new string and the number of replacements.
func (p *pattern) replace(fn string, args starlark.Tuple, kw []starlark.Tuple) (string, int, error) {
	var repl starlark.Value
	var s string
	var count, flags int
	if err := starlark.UnpackArgs(fn, args, kw, "repl", &repl, "string", &s, "count?", &count, "flags?", &flags); err != nil {
		return "", 0, err
	}
	p, err := p.withFlags(fn, flags)
	if err != nil {
		return "", 0, err
	}
	var sb strings.Builder
	last := 0
	ms := p.all(s, limit(count))
	for _, m := range ms {
		sb.WriteString(s[last:m.loc[0]])
		switch r := repl.(type) {
		case starlark.String:
			if err := m.expand(&sb, string(r)); err != nil {
				return "", 0, fmt.Errorf("%s: %v", fn, err)
			}
		case starlark.Callable:
			v, err := starlark.Call(p.r.thread, r, starlark.Tuple{m}, nil)
			if err != nil {
				return "", 0, err
			}
			str, ok := starlark.AsString(v)
			if !ok {
				return "", 0, fmt.Errorf("%s: the replacement function returned %s, want str", fn, v.Type())
			}
			sb.WriteString(str)
		default:
			return "", 0, fmt.Errorf("%s: repl must be a string or a function, got %s", fn, repl.Type())
		}
		last = m.loc[1]
	}
	sb.WriteString(s[last:])
	return sb.String(), len(ms), nil
}

// match is a match object; positions are character offsets, as string
// indexing is (loc holds byte offsets).
type match struct {
	s     string
	loc   []int
	names []string
}

func (m *match) String() string {
	return fmt.Sprintf("<re.Match object; span=(%d, %d), match=%s>", byteToChar(m.s, m.loc[0]), byteToChar(m.s, m.loc[1]), quotePy(m.s[m.loc[0]:m.loc[1]]))
}
func (m *match) Type() string          { return "re.Match" }
func (m *match) Freeze()               {}
func (m *match) Truth() starlark.Bool  { return true }
func (m *match) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: re.Match") }
func (m *match) AttrNames() []string {
	return []string{"end", "group", "groupdict", "groups", "span", "start", "string"}
}

func (m *match) group(g int, missing starlark.Value) starlark.Value {
	if m.loc[2*g] < 0 {
		return missing
	}
	return starlark.String(m.s[m.loc[2*g]:m.loc[2*g+1]])
}

// index resolves a group number or name.
func (m *match) index(fn string, v starlark.Value) (int, error) {
	if v == nil {
		return 0, nil
	}
	if s, ok := starlark.AsString(v); ok {
		for i, n := range m.names {
			if n == s && n != "" {
				return i, nil
			}
		}
		return 0, fmt.Errorf("%s: no group named %q", fn, s)
	}
	g, err := starlark.AsInt32(v)
	if err != nil || g < 0 || 2*g >= len(m.loc) {
		return 0, fmt.Errorf("%s: no such group %s", fn, v.String())
	}
	return g, nil
}

func (m *match) Attr(name string) (starlark.Value, error) {
	switch name {
	case "string":
		return starlark.String(m.s), nil
	case "group", "start", "end", "span", "groups", "groupdict":
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
	case "group":
		if len(kw) > 0 {
			return nil, fmt.Errorf("%s: unexpected keyword arguments", fn)
		}
		if len(args) <= 1 {
			var a starlark.Value
			if len(args) == 1 {
				a = args[0]
			}
			g, err := m.index(fn, a)
			if err != nil {
				return nil, err
			}
			return m.group(g, starlark.None), nil
		}
		t := starlark.Tuple{}
		for _, a := range args {
			g, err := m.index(fn, a)
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
	g, err := m.index(fn, a)
	if err != nil {
		return nil, err
	}
	start, end := starlark.MakeInt(byteToChar(m.s, m.loc[2*g])), starlark.MakeInt(byteToChar(m.s, m.loc[2*g+1]))
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
	if err := starlark.UnpackArgs(fn, args, kw, "default?", &def); err != nil {
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

// expand writes a Python replacement template: \1, \g<1>, \g<name>, \\, and
// the escapes \n \t \r.
func (m *match) expand(sb *strings.Builder, tmpl string) error {
	for i := 0; i < len(tmpl); i++ {
		ch := tmpl[i]
		if ch != '\\' || i+1 == len(tmpl) {
			sb.WriteByte(ch)
			continue
		}
		i++
		switch c := tmpl[i]; {
		case c >= '0' && c <= '9':
			j := i + 1
			if j < len(tmpl) && tmpl[j] >= '0' && tmpl[j] <= '9' {
				j++
			}
			g, _ := strconv.Atoi(tmpl[i:j])
			if 2*g >= len(m.loc) {
				return fmt.Errorf("invalid group reference \\%d", g)
			}
			sb.WriteString(string(m.group(g, starlark.String("")).(starlark.String)))
			i = j - 1
		case c == 'g':
			end := strings.IndexByte(tmpl[i:], '>')
			if i+1 >= len(tmpl) || tmpl[i+1] != '<' || end < 0 {
				return fmt.Errorf("bad \\g<...> reference in %q", tmpl)
			}
			ref := tmpl[i+2 : i+end]
			var v starlark.Value = starlark.String(ref)
			if n, err := strconv.Atoi(ref); err == nil {
				v = starlark.MakeInt(n)
			}
			g, err := m.index("re.sub", v)
			if err != nil {
				return err
			}
			sb.WriteString(string(m.group(g, starlark.String("")).(starlark.String)))
			i += end
		case c == 'n':
			sb.WriteByte('\n')
		case c == 't':
			sb.WriteByte('\t')
		case c == 'r':
			sb.WriteByte('\r')
		case c == '\\':
			sb.WriteByte('\\')
		default:
			sb.WriteByte('\\')
			sb.WriteByte(c)
		}
	}
	return nil
}
