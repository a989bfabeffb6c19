// The re module: Python's re names over package pyre (RE2, or a backtracking engine for what RE2 lacks).

package pytext

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"harness/repl/pyre"
	"harness/repl/pyrt"
	"harness/repl/pystr"
)

// pattern is a compiled regular expression. fixed marks re.compile's
// results, whose flags cannot change afterwards.
type Pattern struct {
	R     *pyrt.Interp
	Src   string
	Flags int
	Rx    *pyre.Regexp
	fixed bool
}

func (p *Pattern) String() string {
	flags := ""
	for _, f := range []struct {
		bit  int
		name string
	}{{pyre.IgnoreCase, "IGNORECASE"}, {pyre.Multiline, "MULTILINE"}, {pyre.DotAll, "DOTALL"}, {pyre.Verbose, "VERBOSE"}, {pyre.ASCII, "ASCII"}} {
		if p.Flags&f.bit != 0 {
			if flags != "" {
				flags += "|"
			}
			flags += "re." + f.name
		}
	}
	if flags != "" {
		flags = ", " + flags
	}
	return "re.compile(" + pystr.Quote(p.Src) + flags + ")"
}
func (p *Pattern) Type() string          { return "re.Pattern" }
func (p *Pattern) Freeze()               {}
func (p *Pattern) Truth() starlark.Bool  { return true }
func (p *Pattern) Hash() (uint32, error) { return starlark.String(p.Src).Hash() }
func (p *Pattern) AttrNames() []string {
	return []string{"findall", "finditer", "flags", "fullmatch", "groupindex", "groups", "match", "pattern", "search", "split", "sub", "subn"}
}

func (p *Pattern) Attr(name string) (starlark.Value, error) {
	switch name {
	case "pattern":
		return starlark.String(p.Src), nil
	case "flags":
		f := p.Rx.Flags()
		if f&pyre.ASCII == 0 {
			f |= pyre.Unicode
		}
		return starlark.MakeInt(f), nil
	case "groups":
		return starlark.MakeInt(len(p.Rx.Names) - 1), nil
	case "groupindex":
		d := starlark.NewDict(len(p.Rx.Names))
		for i, n := range p.Rx.Names {
			if n != "" {
				_ = d.SetKey(starlark.String(n), starlark.MakeInt(i))
			}
		}
		return d, nil
	}
	op, ok := reOps[name]
	if !ok {
		return nil, nil
	}
	return starlark.NewBuiltin("re.Pattern."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return op(p, b.Name(), true, args, kw)
	}), nil
}

// A reOp is one operation; method is true for a Pattern's method (which
// takes pos and endpos) and false for the module's function (flags).
type reOp func(p *Pattern, fn string, method bool, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

var reOps = map[string]reOp{
	"search": func(p *Pattern, fn string, method bool, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return p.find(fn, method, a, kw, pyre.Search)
	},
	"match": func(p *Pattern, fn string, method bool, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return p.find(fn, method, a, kw, pyre.Match)
	},
	"fullmatch": func(p *Pattern, fn string, method bool, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return p.find(fn, method, a, kw, pyre.Full)
	},
	"findall":  (*Pattern).findall,
	"finditer": (*Pattern).finditer,
	"sub":      (*Pattern).sub,
	"subn":     (*Pattern).subn,
	"split":    (*Pattern).split,
}

// reModule returns the re module; module functions take the pattern first
// and an optional flags argument last.
func ReModule(r *pyrt.Interp) *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "re", Members: starlark.StringDict{
		"IGNORECASE": starlark.MakeInt(pyre.IgnoreCase), "I": starlark.MakeInt(pyre.IgnoreCase),
		"MULTILINE": starlark.MakeInt(pyre.Multiline), "M": starlark.MakeInt(pyre.Multiline),
		"DOTALL": starlark.MakeInt(pyre.DotAll), "S": starlark.MakeInt(pyre.DotAll),
		"VERBOSE": starlark.MakeInt(pyre.Verbose), "X": starlark.MakeInt(pyre.Verbose),
		"ASCII": starlark.MakeInt(pyre.ASCII), "A": starlark.MakeInt(pyre.ASCII),
		"UNICODE": starlark.MakeInt(pyre.Unicode), "U": starlark.MakeInt(pyre.Unicode), "NOFLAG": starlark.MakeInt(0),
	}}
	m.Members["escape"] = starlark.NewBuiltin("re.escape", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "pattern", &s); err != nil {
			return nil, err
		}
		return starlark.String(pyEscape(s)), nil
	})
	m.Members["purge"] = starlark.NewBuiltin("re.purge", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, pyrt.UnpackArgs(b.Name(), args, kw)
	})
	m.Members["error"] = pyrt.ReError
	m.Members["compile"] = starlark.NewBuiltin("re.compile", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var src starlark.Value
		var flags int
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "pattern", &src, "flags?", &flags); err != nil {
			return nil, err
		}
		if p, ok := src.(*Pattern); ok {
			if flags != 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "cannot process flags argument with a compiled pattern")
			}
			return p, nil
		}
		s, ok := src.(starlark.String)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "first argument must be string or compiled pattern")
		}
		p, err := compilePattern(r, b.Name(), string(s), flags)
		if p != nil {
			p.fixed = true
		}
		return p, err
	})
	for name, op := range reOps {
		m.Members[name] = starlark.NewBuiltin("re."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var src starlark.Value
			switch {
			case len(args) > 0:
				src, args = args[0], args[1:]
			default:
				var rest []starlark.Tuple
				for _, kv := range kw {
					if string(kv[0].(starlark.String)) == "pattern" {
						src = kv[1]
					} else {
						rest = append(rest, kv)
					}
				}
				kw = rest
			}
			switch a := src.(type) {
			case nil:
				return nil, fmt.Errorf("%s: missing argument for pattern", b.Name())
			case starlark.String:
				p, err := compilePattern(r, b.Name(), string(a), 0)
				if err != nil {
					return nil, err
				}
				return op(p, b.Name(), false, args, kw)
			case *Pattern:
				return op(a, b.Name(), false, args, kw)
			default:
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "first argument must be string or compiled pattern")
			}
		})
	}
	return m
}

func compilePattern(r *pyrt.Interp, fn, src string, flags int) (*Pattern, error) {
	rx, err := r.ReCache.Compile(fn, src, flags)
	if err != nil {
		return nil, err
	}
	return &Pattern{R: r, Src: src, Flags: flags, Rx: rx}, nil
}

// withFlags applies flags given to a module function (re.search(p, s,
// re.I)), as Python allows.
func (p *Pattern) withFlags(fn string, flags int) (*Pattern, error) {
	if flags == 0 || flags == p.Flags {
		return p, nil
	}
	if p.fixed {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "cannot process flags argument with a compiled pattern")
	}
	return compilePattern(p.R, fn, p.Src, p.Flags|flags)
}

// subject unpacks the string and its options: (string, pos=0,
// endpos=None) for a method, (string, flags=0) for the module's function,
// each followed by the extra parameters given (pairs as UnpackArgs takes).
// It returns the pattern to use, the string, and the subject prepared
// from pos to endpos, with pos as an offset in its text.
func (p *Pattern) subject(fn string, method bool, args starlark.Tuple, kw []starlark.Tuple, before []any, after ...any) (*Pattern, string, *pyre.Subject, int, error) {
	var s string
	var flags, pos int
	var endpos starlark.Value = starlark.None
	pairs := append(append([]any{}, before...), "string", &s)
	if method {
		pairs = append(pairs, after...)
		if len(after) == 0 {
			pairs = append(pairs, "pos?", &pos, "endpos?", &endpos)
		}
	} else {
		pairs = append(append(pairs, after...), "flags?", &flags)
	}
	if err := pyrt.UnpackArgs(fn, args, kw, pairs...); err != nil {
		return nil, "", nil, 0, err
	}
	p, err := p.withFlags(fn, flags)
	if err != nil {
		return nil, "", nil, 0, err
	}
	text := s
	n := -1
	if endpos != starlark.None {
		e, err := starlark.AsInt32(endpos)
		if err != nil {
			return nil, "", nil, 0, pyrt.PyErrorf(pyrt.ExcTypeError, "endpos must be an integer, not %s", endpos.Type())
		}
		n = e
	}
	start, stop := clampChars(s, pos), len(s)
	if n >= 0 {
		stop = clampChars(s, n)
	}
	if stop < start {
		return p, s, nil, 0, nil // Python finds nothing
	}
	sub, err := p.Rx.Prepare(fn, text[:stop])
	if err != nil {
		return nil, "", nil, 0, pyrt.ReErr(err)
	}
	if c := p.R.Host.CurrentCall(); c != nil {
		sub.Ctx = c.Ctx()
	}
	return p, s, sub, sub.ToText(start), nil
}

// clampChars returns the byte offset of character c of s, clamped to s.
func clampChars(s string, c int) int {
	if c <= 0 {
		return 0
	}
	if n := utf8.RuneCountInString(s); c >= n {
		return len(s)
	}
	return pystr.CharToByte(s, c)
}

// find implements search, match (anchored at pos) and fullmatch (at pos
// and at the end).
func (p *Pattern) find(fn string, method bool, args starlark.Tuple, kw []starlark.Tuple, k pyre.Kind) (starlark.Value, error) {
	p, s, sub, pos, err := p.subject(fn, method, args, kw, nil)
	if err != nil || sub == nil {
		return starlark.None, err
	}
	loc, err := p.Rx.Exec(sub, k, pos)
	if err != nil || loc == nil {
		return starlark.None, pyrt.ReErr(err)
	}
	return p.newMatch(s, sub.LocS(loc), sub, pos), nil
}

func (p *Pattern) newMatch(s string, loc []int, sub *pyre.Subject, pos int) *match {
	return &match{s: s, loc: loc, names: p.Rx.Names, p: p, pos: pystr.ByteToChar(s, sub.ToS(pos)), endpos: utf8.RuneCountInString(sub.S)}
}

// all returns the matches from pos, at most n (n < 0: all of them).
func (p *Pattern) all(fn string, s string, sub *pyre.Subject, pos, n int) ([]*match, error) {
	var out []*match
	err := p.each(fn, sub, pos, n, func(loc []int) error {
		out = append(out, p.newMatch(s, loc, sub, pos))
		return nil
	})
	return out, err
}

// limit is the n of all for a count or maxsplit argument: 0 or less is
// no limit.
func limit(k int) int {
	if k > 0 {
		return k
	}
	return -1
}

func (p *Pattern) findall(fn string, method bool, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, s, sub, pos, err := p.subject(fn, method, args, kw, nil)
	if err != nil {
		return nil, err
	}
	out := []starlark.Value{}
	if sub == nil {
		return starlark.NewList(out), nil
	}
	groups := len(p.Rx.Names) - 1
	err = p.each(fn, sub, pos, -1, func(loc []int) error {
		m := &match{s: s, loc: loc}
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
		return nil
	})
	if err != nil {
		return nil, err
	}
	return starlark.NewList(out), nil
}

func (p *Pattern) split(fn string, method bool, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var maxsplit int
	p, s, sub, _, err := p.subject(fn, method, args, kw, nil, "maxsplit?", &maxsplit)
	if err != nil {
		return nil, err
	}
	var out []starlark.Value
	last := 0
	ms, err := p.all(fn, s, sub, 0, limit(maxsplit))
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		out = append(out, starlark.String(s[last:m.loc[0]]))
		for g := 1; g < len(p.Rx.Names); g++ {
			out = append(out, m.group(g, starlark.None))
		}
		last = m.loc[1]
	}
	out = append(out, starlark.String(s[last:]))
	return starlark.NewList(out), nil
}

func (p *Pattern) sub(fn string, method bool, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	s, _, err := p.replace(fn, method, args, kw)
	if err != nil {
		return nil, err
	}
	return starlark.String(s), nil
}

// replace is sub and subn: the new string and the number of replacements.
func (p *Pattern) replace(fn string, method bool, args starlark.Tuple, kw []starlark.Tuple) (string, int, error) {
	var repl starlark.Value
	var count int
	p, s, sub, _, err := p.subject(fn, method, args, kw, []any{"repl", &repl}, "count?", &count)
	if err != nil {
		return "", 0, err
	}
	tmpl, isStr := repl.(starlark.String)
	fnRepl, isFn := repl.(starlark.Callable)
	if !isStr && !isFn {
		return "", 0, pyrt.PyErrorf(pyrt.ExcTypeError, "%s: repl must be a string or a function, got %s", fn, repl.Type())
	}
	var pieces []tmplPiece
	if isStr {
		if pieces, err = parseTemplate(string(tmpl), p.Rx.Names); err != nil {
			return "", 0, err
		}
	}
	var sb strings.Builder
	last, n := 0, 0
	err = p.each(fn, sub, 0, limit(count), func(loc []int) error {
		m := p.newMatch(s, loc, sub, 0)
		sb.WriteString(s[last:loc[0]])
		last = loc[1]
		n++
		if isStr {
			m.Write(&sb, pieces)
			return nil
		}
		v, err := starlark.Call(p.R.Thread, fnRepl, starlark.Tuple{m}, nil)
		if err != nil {
			return err
		}
		str, ok := starlark.AsString(v)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "%s: the replacement function returned %s, want str", fn, v.Type())
		}
		sb.WriteString(str)
		return nil
	})
	if err != nil {
		return "", 0, err
	}
	sb.WriteString(s[last:])
	return sb.String(), n, nil
}

// each is the engine's each, its refusals raised as re.error.
func (p *Pattern) each(fn string, sub *pyre.Subject, pos, n int, f func(loc []int) error) error {
	return pyrt.ReErr(p.Rx.Each(fn, sub, pos, n, f))
}
