// str.upper and str.lower with Python's full case mapping, and
// str.maketrans / str.translate.

package pyrt

import (
	"strings"
	"unicode"

	"go.starlark.net/starlark"
)

// fullUpper and fullLower are the characters whose Python case mapping is
// more than one character (Unicode's SpecialCasing), which Go's
// strings.ToUpper and ToLower map to one or leave alone.
var (
	fullUpper = strings.NewReplacer("ß", "SS", "ﬀ", "FF", "ﬁ", "FI", "ﬂ", "FL", "ﬃ", "FFI", "ﬄ", "FFL", "ﬅ", "ST", "ﬆ", "ST", "ŉ", "ʼN", "ǰ", "J̌", "ΐ", "Ϊ́", "ΰ", "Ϋ́", "և", "ԵՒ")
	fullLower = strings.NewReplacer("İ", "i̇")
)

func pyUpper(s string) string {
	s = strings.ToUpper(s)
	if strings.ContainsAny(s, "ßﬀﬁﬂﬃﬄﬅﬆŉǰΐΰև") {
		s = fullUpper.Replace(s)
	}
	return s
}

func pyLower(s string) string {
	if strings.Contains(s, "İ") {
		s = fullLower.Replace(s)
	}
	if strings.Contains(s, "Σ") {
		return finalSigma(s)
	}
	return strings.ToLower(s)
}

// finalSigma lowers s with Unicode's Final_Sigma rule, as Python does: Σ
// becomes ς when a cased letter precedes it and none follows it (skipping
// case-ignorable characters both ways), else σ.
func finalSigma(s string) string {
	rs := []rune(s)
	cased := func(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }
	ignorable := func(r rune) bool {
		return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) || strings.ContainsRune("'.:·’", r)
	}
	near := func(i, step int) bool {
		for j := i + step; j >= 0 && j < len(rs); j += step {
			if !ignorable(rs[j]) {
				return cased(rs[j])
			}
		}
		return false
	}
	var b strings.Builder
	for i, r := range rs {
		if r == 'Σ' && near(i, -1) && !near(i, 1) {
			b.WriteRune('ς')
			continue
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}

// strIstitle is str.istitle: an uppercase or titlecase letter only after
// an uncased character, a lowercase one only after a cased one, and one
// cased letter at least (Starlark's counts only A-Z as uppercase).
func strIstitle(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("istitle", args, kw, 0); err != nil {
		return nil, err
	}
	var cased, prevCased bool
	for _, r := range string(recv.(starlark.String)) {
		switch {
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			if prevCased {
				return starlark.False, nil
			}
			prevCased, cased = true, true
		case unicode.IsLower(r):
			if !prevCased {
				return starlark.False, nil
			}
			prevCased, cased = true, true
		default:
			prevCased = false
		}
	}
	return starlark.Bool(cased), nil
}

func strCase(f func(string) string) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs("str method", args, kw, 0); err != nil {
			return nil, err
		}
		return starlark.String(f(string(recv.(starlark.String)))), nil
	}
}

// strMaketrans is str.maketrans(x[, y[, z]]): a dict from code points to
// code points, strings or None, for str.translate.
func strMaketrans(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x, y, z starlark.Value
	if err := starlark.UnpackPositionalArgs("maketrans", args, kw, 1, &x, &y, &z); err != nil {
		return nil, err
	}
	out := starlark.NewDict(8)
	if y == nil {
		d, ok := x.(*starlark.Dict)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "if you give only one argument to maketrans it must be a dict")
		}
		for _, kv := range d.Items() {
			k := kv[0]
			if s, ok := k.(starlark.String); ok {
				r := []rune(string(s))
				if len(r) != 1 {
					return nil, PyErrorf(ExcValueError, "string keys in translate table must be of length 1")
				}
				k = starlark.MakeInt(int(r[0]))
			} else if _, ok := k.(starlark.Int); !ok {
				return nil, PyErrorf(ExcTypeError, "keys in translate table must be strings or integers")
			}
			if err := out.SetKey(k, kv[1]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	from, ok1 := y.(starlark.String)
	xs, ok2 := x.(starlark.String)
	if !ok1 || !ok2 {
		return nil, PyErrorf(ExcTypeError, "maketrans() arguments must be strings")
	}
	a, b := []rune(string(xs)), []rune(string(from))
	if len(a) != len(b) {
		return nil, PyErrorf(ExcValueError, "the first two maketrans arguments must have equal length")
	}
	for i := range a {
		_ = out.SetKey(starlark.MakeInt(int(a[i])), starlark.MakeInt(int(b[i])))
	}
	if z != nil {
		del, ok := z.(starlark.String)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "maketrans() argument 3 must be str, not %s", PyTypeName(z))
		}
		for _, r := range string(del) {
			_ = out.SetKey(starlark.MakeInt(int(r)), starlark.None)
		}
	}
	return out, nil
}

// strTranslate is str.translate(table): each character's code point is
// looked up in table (a dict, or anything indexable by int); a missing
// entry keeps the character, None deletes it, an int or a string
// replaces it.
func strTranslate(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var table starlark.Value
	if err := starlark.UnpackPositionalArgs("translate", args, kw, 1, &table); err != nil {
		return nil, err
	}
	var sb strings.Builder
	g := textGrowth{thread: thread, what: "str.translate"}
	for _, r := range string(recv.(starlark.String)) {
		var v starlark.Value
		switch t := table.(type) {
		case *starlark.Dict:
			x, found, err := t.Get(starlark.MakeInt(int(r)))
			if err != nil {
				return nil, err
			}
			if found {
				v = x
			}
		case starlark.Mapping:
			x, found, err := t.Get(starlark.MakeInt(int(r)))
			if err == nil && found {
				v = x
			}
		default:
			return nil, PyErrorf(ExcTypeError, "translate() needs a table from str.maketrans or a dict, not %s", PyTypeName(table))
		}
		switch x := v.(type) {
		case nil:
			sb.WriteRune(r)
		case starlark.NoneType:
		case starlark.String:
			sb.WriteString(string(x))
		case starlark.Int:
			n, ok := x.Int64()
			if !ok || n < 0 || n > 0x10ffff {
				return nil, PyErrorf(ExcValueError, "character mapping must be in range(0x110000)")
			}
			sb.WriteRune(rune(n))
		default:
			return nil, PyErrorf(ExcTypeError, "character mapping must return integer, None or str")
		}
		if err := g.Check(sb.Len()); err != nil {
			return nil, err
		}
	}
	return starlark.String(sb.String()), nil
}
