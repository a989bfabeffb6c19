// Methods of bytes: decode and the common ones Starlark's bytes lack.

package pyrt

import (
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
)

var bytesMethods = map[string]methodFunc{
	"decode": bytesDecode,
	"hex": func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.String(hex.EncodeToString([]byte(recv.(starlark.Bytes)))), nil
	},
	"count":      bytesOp(func(s, sub string) starlark.Value { return starlark.MakeInt(strings.Count(s, sub)) }),
	"find":       bytesOp(func(s, sub string) starlark.Value { return starlark.MakeInt(strings.Index(s, sub)) }),
	"rfind":      bytesOp(func(s, sub string) starlark.Value { return starlark.MakeInt(strings.LastIndex(s, sub)) }),
	"startswith": bytesAffix(strings.HasPrefix),
	"endswith":   bytesAffix(strings.HasSuffix),
	"split":      bytesSplit,
	"splitlines": bytesSplitlines,
	"strip":      bytesStrip(strings.Trim),
	"lstrip":     bytesStrip(strings.TrimLeft),
	"rstrip":     bytesStrip(strings.TrimRight),
	"lower":      bytesMap(strings.ToLower),
	"upper":      bytesMap(strings.ToUpper),
	"replace":    bytesReplace,
	"join":       bytesJoin,
}

// bytesJoin is bytes.join(iterable): the items, each bytes, with the
// receiver between them.
func bytesJoin(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("join", args, kw, 1, &x); err != nil {
		return nil, err
	}
	if _, ok := x.(starlark.Iterable); !ok {
		return nil, PyErrorf(ExcTypeError, "can only join an iterable")
	}
	items, err := ListOf(x)
	if err != nil {
		return nil, err
	}
	var sb strings.Builder
	for i, v := range items {
		b, ok := v.(starlark.Bytes)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "sequence item %d: expected a bytes-like object, %s found", i, PyTypeName(v))
		}
		if i > 0 {
			sb.WriteString(string(recv.(starlark.Bytes)))
		}
		sb.WriteString(string(b))
	}
	return starlark.Bytes(sb.String()), nil
}

// bytesFromhex is bytes.fromhex(s): pairs of hex digits, spaces between
// pairs ignored.
func bytesFromhex(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var s string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &s); err != nil {
		return nil, err
	}
	var out []byte
	for i := 0; i < len(s); {
		if c := s[i]; c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			i++
			continue
		}
		if i+2 > len(s) {
			return nil, PyErrorf(ExcValueError, "non-hexadecimal number found in fromhex() arg at position %d", i+1)
		}
		v, err := hex.DecodeString(s[i : i+2])
		if err != nil {
			return nil, PyErrorf(ExcValueError, "non-hexadecimal number found in fromhex() arg at position %d", i)
		}
		out = append(out, v[0])
		i += 2
	}
	return starlark.Bytes(out), nil
}

func Itoa(n int) string { return strconv.Itoa(n) }

func bytesArg(fn string, v starlark.Value) (string, error) {
	b, ok := v.(starlark.Bytes)
	if !ok {
		return "", PyErrorf(ExcTypeError, "%s: a bytes-like object is required, not '%s'", fn, PyTypeName(v))
	}
	return string(b), nil
}

func bytesOp(f func(s, sub string) starlark.Value) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs("bytes method", args, kw, 1, &x); err != nil {
			return nil, err
		}
		sub, err := bytesArg("bytes method", x)
		if err != nil {
			return nil, err
		}
		return f(string(recv.(starlark.Bytes)), sub), nil
	}
}

func bytesAffix(f func(s, p string) bool) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs("startswith", args, kw, 1, &x); err != nil {
			return nil, err
		}
		s := string(recv.(starlark.Bytes))
		options := []starlark.Value{x}
		if t, ok := x.(starlark.Tuple); ok {
			options = t
		}
		for _, o := range options {
			p, err := bytesArg("startswith", o)
			if err != nil {
				return nil, err
			}
			if f(s, p) {
				return starlark.True, nil
			}
		}
		return starlark.False, nil
	}
}

func bytesList(parts []string) starlark.Value {
	out := make([]starlark.Value, len(parts))
	for i, p := range parts {
		out[i] = starlark.Bytes(p)
	}
	return starlark.NewList(out)
}

func bytesSplit(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var sep starlark.Value = starlark.None
	maxsplit := -1
	if err := UnpackArgs("split", args, kw, "sep?", &sep, "maxsplit?", &maxsplit); err != nil {
		return nil, err
	}
	s := string(recv.(starlark.Bytes))
	if sep == starlark.None {
		fields := strings.Fields(s)
		if maxsplit >= 0 && len(fields) > maxsplit+1 {
			rest := s
			var out []string
			for i := 0; i < maxsplit; i++ {
				rest = strings.TrimLeft(rest, " \t\n\r\v\f")
				j := strings.IndexAny(rest, " \t\n\r\v\f")
				out = append(out, rest[:j])
				rest = rest[j:]
			}
			fields = append(out, strings.TrimLeft(rest, " \t\n\r\v\f"))
		}
		return bytesList(fields), nil
	}
	p, err := bytesArg("split", sep)
	if err != nil {
		return nil, err
	}
	if p == "" {
		return nil, PyErrorf(ExcValueError, "empty separator")
	}
	n := -1
	if maxsplit >= 0 {
		n = maxsplit + 1
	}
	return bytesList(strings.SplitN(s, p, n)), nil
}

func bytesSplitlines(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var keep bool
	if err := UnpackArgs("splitlines", args, kw, "keepends?", &keep); err != nil {
		return nil, err
	}
	return bytesList(splitLines(string(recv.(starlark.Bytes)), keep, false)), nil
}

// splitLines splits at \n, \r\n and \r (and, for text, Python's other line
// boundaries).
func splitLines(s string, keep, text bool) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		end, next := -1, 0
		switch c := s[i]; {
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			end, next = i, i+2
		case c == '\n' || c == '\r':
			end, next = i, i+1
		case text && (c == '\v' || c == '\f' || c >= 0x1c && c <= 0x1e):
			end, next = i, i+1
		case text && c >= utf8.RuneSelf:
			r, w := utf8.DecodeRuneInString(s[i:])
			if r == 0x85 || r == 0x2028 || r == 0x2029 {
				end, next = i, i+w
			} else {
				i += w
				continue
			}
		}
		if end < 0 {
			i++
			continue
		}
		if keep {
			out = append(out, s[start:next])
		} else {
			out = append(out, s[start:end])
		}
		start, i = next, next
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func bytesStrip(f func(s, cut string) string) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var chars starlark.Value = starlark.None
		if err := starlark.UnpackPositionalArgs("strip", args, kw, 0, &chars); err != nil {
			return nil, err
		}
		cut := " \t\n\r\v\f"
		if chars != starlark.None {
			c, err := bytesArg("strip", chars)
			if err != nil {
				return nil, err
			}
			cut = c
		}
		return starlark.Bytes(f(string(recv.(starlark.Bytes)), cut)), nil
	}
}

func bytesMap(f func(string) string) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Bytes(f(string(recv.(starlark.Bytes)))), nil
	}
}

func bytesReplace(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var oldV, newV starlark.Value
	count := -1
	if err := starlark.UnpackPositionalArgs("replace", args, kw, 2, &oldV, &newV, &count); err != nil {
		return nil, err
	}
	o, err := bytesArg("replace", oldV)
	if err != nil {
		return nil, err
	}
	n, err := bytesArg("replace", newV)
	if err != nil {
		return nil, err
	}
	return starlark.Bytes(strings.Replace(string(recv.(starlark.Bytes)), o, n, count)), nil
}

func bytesDecode(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	encoding, errs := "utf-8", "strict"
	if err := UnpackArgs("decode", args, kw, "encoding?", &encoding, "errors?", &errs); err != nil {
		return nil, err
	}
	s, err := decodeBytes(string(recv.(starlark.Bytes)), encoding, errs)
	if err != nil {
		return nil, err
	}
	return starlark.String(s), nil
}

// decodeBytes decodes data as Python's bytes.decode does for UTF-8, ASCII
// and Latin-1, with the errors modes strict, replace, ignore and
// backslashreplace.
func decodeBytes(data, encoding, errs string) (string, error) {
	enc := normEncoding(encoding)
	switch enc {
	case "latin-1":
		var sb strings.Builder
		for i := 0; i < len(data); i++ {
			sb.WriteRune(rune(data[i]))
		}
		return sb.String(), nil
	case "utf-8", "ascii":
	default:
		return "", PyErrorf(excLookup, "unknown encoding: %s", encoding)
	}
	if enc == "utf-8" && utf8.ValidString(data) {
		return data, nil
	}
	var sb strings.Builder
	for i := 0; i < len(data); {
		r, w := utf8.DecodeRuneInString(data[i:])
		bad := r == utf8.RuneError && w == 1 || enc == "ascii" && r >= 0x80
		if !bad {
			sb.WriteString(data[i : i+w])
			i += w
			continue
		}
		switch errs {
		case "replace":
			sb.WriteRune(utf8.RuneError)
		case "ignore":
		case "backslashreplace", "surrogateescape":
			sb.WriteString(`\x` + Hex2(int(data[i]), 2))
		default:
			reason := "invalid start byte"
			if enc == "ascii" {
				reason = "ordinal not in range(128)"
			} else if data[i] >= 0x80 && data[i] < 0xc0 {
				reason = "invalid start byte"
			} else if data[i] >= 0xc0 {
				reason = "invalid continuation byte"
				if i+utf8.UTFMax > len(data) && !strings.ContainsAny(data[i+1:], "\x00") {
					reason = "unexpected end of data"
				}
			}
			return "", &PyError{&PyException{Typ: excUnicodeDecode,
				Text: "'" + enc + "' codec can't decode byte 0x" + Hex2(int(data[i]), 2) + " in position " + Itoa(i) + ": " + reason}}
		}
		i++
	}
	return sb.String(), nil
}
