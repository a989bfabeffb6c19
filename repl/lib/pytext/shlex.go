// shlex: split (CPython's shlex state machine with whitespace_split, posix
// or not, comments optional), quote and join.

package pytext

import (
	"regexp"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func shlexModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("shlex", starlark.StringDict{
		"split": pyrt.Builtin("split", shlexSplitFn),
		"quote": pyrt.Builtin("quote", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "s", &s); err != nil {
				return nil, err
			}
			str, ok := s.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "expected string or bytes-like object, got '%s'", pyrt.PyTypeName(s))
			}
			return starlark.String(shlexQuote(string(str))), nil
		}),
		"join": pyrt.Builtin("join", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "split_command", &v); err != nil {
				return nil, err
			}
			vals, err := pyrt.ListOf(v)
			if err != nil {
				return nil, err
			}
			parts := make([]string, len(vals))
			for i, x := range vals {
				s, ok := x.(starlark.String)
				if !ok {
					return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "expected string or bytes-like object, got '%s'", pyrt.PyTypeName(x))
				}
				parts[i] = shlexQuote(string(s))
			}
			return starlark.String(strings.Join(parts, " ")), nil
		}),
	})
}

var shlexUnsafe = regexp.MustCompile(`[^A-Za-z0-9_@%+=:,./-]`)

// shlexQuote is shlex.quote: s as one word of a POSIX shell command.
func shlexQuote(s string) string {
	if s == "" {
		return "''"
	}
	if !shlexUnsafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

func shlexSplitFn(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var s starlark.Value
	comments, posix := false, true
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "s", &s, "comments?", &comments, "posix?", &posix); err != nil {
		return nil, err
	}
	str, ok := s.(starlark.String)
	if !ok {
		if s == starlark.None { // CPython 3.11 reads its empty stdin
			return starlark.NewList(nil), nil
		}
		return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'read'", pyrt.PyTypeName(s))
	}
	words, err := shlexSplit(string(str), comments, posix)
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(words))
	for i, w := range words {
		out[i] = starlark.String(w)
	}
	return starlark.NewList(out), nil
}

// shlexLexer is shlex.shlex(s, posix=posix) with whitespace_split set.
type shlexLexer struct {
	in       []rune
	pos      int
	posix    bool
	comments bool
	state    rune // ' ', 'a', a quote, '\\', or 0 past the end
}

func shlexSplit(s string, comments, posix bool) ([]string, error) {
	lx := &shlexLexer{in: []rune(s), posix: posix, comments: comments, state: ' '}
	var out []string
	for {
		tok, ok, err := lx.token()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, tok)
	}
}

func (lx *shlexLexer) skipLine() {
	for lx.pos < len(lx.in) {
		c := lx.in[lx.pos]
		lx.pos++
		if c == '\n' {
			return
		}
	}
}

func isShlexSpace(c rune) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
func isShlexQuote(c rune) bool { return c == '\'' || c == '"' }

// token is read_token: the next word, false at the end.
func (lx *shlexLexer) token() (string, bool, error) {
	quoted := false
	escaped := ' '
	var tok strings.Builder
	emit := func() bool { return tok.Len() > 0 || lx.posix && quoted }
	for {
		var c rune
		eof := lx.pos >= len(lx.in)
		if !eof {
			c = lx.in[lx.pos]
			lx.pos++
		}
		st := lx.state
		switch {
		case st == 0:
			tok.Reset()
			return lx.result(tok.String(), quoted)
		case st == ' ':
			switch {
			case eof:
				lx.state = 0
				return lx.result(tok.String(), quoted)
			case isShlexSpace(c):
				if emit() {
					return lx.result(tok.String(), quoted)
				}
			case lx.comments && c == '#':
				lx.skipLine()
			case lx.posix && c == '\\':
				escaped, lx.state = 'a', c
			case isShlexQuote(c):
				if !lx.posix {
					tok.WriteRune(c)
				}
				lx.state = c
			default:
				tok.WriteRune(c)
				lx.state = 'a'
			}
		case isShlexQuote(st):
			quoted = true
			switch {
			case eof:
				return "", false, pyrt.PyErrorf(pyrt.ExcValueError, "No closing quotation")
			case c == st:
				if !lx.posix {
					tok.WriteRune(c)
					lx.state = ' '
					return lx.result(tok.String(), quoted)
				}
				lx.state = 'a'
			case lx.posix && c == '\\' && st == '"':
				escaped, lx.state = st, c
			default:
				tok.WriteRune(c)
			}
		case st == '\\':
			if eof {
				return "", false, pyrt.PyErrorf(pyrt.ExcValueError, "No escaped character")
			}
			if isShlexQuote(escaped) && c != st && c != escaped {
				tok.WriteRune(st)
			}
			tok.WriteRune(c)
			lx.state = escaped
		default: // 'a'
			switch {
			case eof:
				lx.state = 0
				return lx.result(tok.String(), quoted)
			case isShlexSpace(c):
				lx.state = ' '
				if emit() {
					return lx.result(tok.String(), quoted)
				}
			case lx.comments && c == '#':
				lx.skipLine()
				if lx.posix {
					lx.state = ' '
					if emit() {
						return lx.result(tok.String(), quoted)
					}
				}
			case lx.posix && isShlexQuote(c):
				lx.state = c
			case lx.posix && c == '\\':
				escaped, lx.state = 'a', c
			default:
				tok.WriteRune(c)
			}
		}
	}
}

// result is read_token's end: no token at the end of the input (posix:
// an empty unquoted word; otherwise the empty string, shlex's eof).
func (lx *shlexLexer) result(tok string, quoted bool) (string, bool, error) {
	if tok == "" && (!lx.posix || !quoted) {
		return "", false, nil
	}
	return tok, true, nil
}
