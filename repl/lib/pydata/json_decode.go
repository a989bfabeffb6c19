// json: the decoder of json.loads and json.load, with Python's meaning:
// NaN and Infinity, a repeated key keeps its last value, and the hooks
// (object_hook, object_pairs_hook, parse_int, parse_float,
// parse_constant) and strict=False.

package pydata

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// jsonDecoder holds loads' keyword arguments; a nil hook is not given.
type jsonDecoder struct {
	thread                              *starlark.Thread
	objectHook, pairsHook               starlark.Value
	parseInt, parseFloat, parseConstant starlark.Value
	lax                                 bool // strict=False: control characters allowed in strings
	text                                string
}

// newJSONDecoder reads loads' keyword arguments, refusing others with
// CPython's TypeError.
func newJSONDecoder(thread *starlark.Thread, kw []starlark.Tuple) (*jsonDecoder, error) {
	d := &jsonDecoder{thread: thread}
	for _, kv := range kw {
		name, _ := starlark.AsString(kv[0])
		v := kv[1]
		if v == starlark.None {
			continue
		}
		switch name {
		case "object_hook":
			d.objectHook = v
		case "object_pairs_hook":
			d.pairsHook = v
		case "parse_int":
			d.parseInt = v
		case "parse_float":
			d.parseFloat = v
		case "parse_constant":
			d.parseConstant = v
		case "strict":
			d.lax = !bool(v.Truth())
		case "cls":
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "json: cls= (a JSONDecoder subclass) is not supported here; pass object_hook= or parse_float= instead")
		default:
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "JSONDecoder.__init__() got an unexpected keyword argument '%s'", name)
		}
	}
	return d, nil
}

// decode is json.loads of text: a JSONDecodeError for invalid text.
func (d *jsonDecoder) Decode(text string) (starlark.Value, error) {
	if _, _, bad := JsonSyntaxError(text, d.lax); bad {
		return nil, jsonDecodeError(text, "", d.lax)
	}
	d.text = text
	v, _, err := d.value(jsonWS(text, 0), 0)
	return v, err
}

func jsonWS(t string, i int) int {
	for i < len(t) && strings.IndexByte(" \t\n\r", t[i]) >= 0 {
		i++
	}
	return i
}

// value builds the (valid) value at i and returns the offset after it.
func (d *jsonDecoder) value(i, depth int) (starlark.Value, int, error) {
	t := d.text
	if depth > maxJSONDepth {
		return nil, 0, pyrt.PyErrorf(pyrt.ExcRecursion, "maximum recursion depth exceeded while decoding a JSON document")
	}
	switch c := t[i]; c {
	case '"':
		s, end := jsonString(t, i)
		return starlark.String(s), end, nil
	case '{':
		return d.object(i+1, depth+1)
	case '[':
		return d.array(i+1, depth+1)
	}
	for _, lit := range []struct {
		text string
		v    starlark.Value
	}{{"null", starlark.None}, {"true", starlark.True}, {"false", starlark.False}} {
		if strings.HasPrefix(t[i:], lit.text) {
			return lit.v, i + len(lit.text), nil
		}
	}
	for _, lit := range []struct {
		text string
		f    float64
	}{{"NaN", math.NaN()}, {"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)}} {
		if strings.HasPrefix(t[i:], lit.text) {
			if d.parseConstant != nil {
				v, err := d.call(d.parseConstant, lit.text)
				return v, i + len(lit.text), err
			}
			return starlark.Float(lit.f), i + len(lit.text), nil
		}
	}
	s := &jsonScan{text: t}
	end := s.number(i)
	v, err := d.number(t[i:end])
	return v, end, err
}

func (d *jsonDecoder) call(f starlark.Value, arg string) (starlark.Value, error) {
	return starlark.Call(d.thread, f, starlark.Tuple{starlark.String(arg)}, nil)
}

// number is the value of the number literal lit, through parse_int or
// parse_float when given.
func (d *jsonDecoder) number(lit string) (starlark.Value, error) {
	if !strings.ContainsAny(lit, ".eE") {
		if d.parseInt != nil {
			return d.call(d.parseInt, lit)
		}
		n, _ := new(big.Int).SetString(lit, 10)
		return starlark.MakeBigInt(n), nil
	}
	if d.parseFloat != nil {
		return d.call(d.parseFloat, lit)
	}
	f, _ := strconv.ParseFloat(lit, 64) // out of range is ±inf, as in Python
	return starlark.Float(f), nil
}

func (d *jsonDecoder) object(i, depth int) (starlark.Value, int, error) {
	t := d.text
	var pairs []starlark.Tuple
	i = jsonWS(t, i)
	if t[i] != '}' {
		for {
			key, end := jsonString(t, i)
			v, end, err := d.value(jsonWS(t, jsonWS(t, end)+1), depth)
			if err != nil {
				return nil, 0, err
			}
			pairs = append(pairs, starlark.Tuple{starlark.String(key), v})
			i = jsonWS(t, end)
			if t[i] == '}' {
				break
			}
			i = jsonWS(t, i+1)
		}
	}
	end := i + 1
	if d.pairsHook != nil {
		list := make([]starlark.Value, len(pairs))
		for k, p := range pairs {
			list[k] = p
		}
		v, err := starlark.Call(d.thread, d.pairsHook, starlark.Tuple{starlark.NewList(list)}, nil)
		return v, end, err
	}
	dict := starlark.NewDict(len(pairs))
	for _, p := range pairs {
		if err := dict.SetKey(p[0], p[1]); err != nil {
			return nil, 0, err
		}
	}
	if d.objectHook != nil {
		v, err := starlark.Call(d.thread, d.objectHook, starlark.Tuple{dict}, nil)
		return v, end, err
	}
	return dict, end, nil
}

func (d *jsonDecoder) array(i, depth int) (starlark.Value, int, error) {
	t := d.text
	var elems []starlark.Value
	i = jsonWS(t, i)
	if t[i] != ']' {
		for {
			v, end, err := d.value(i, depth)
			if err != nil {
				return nil, 0, err
			}
			elems = append(elems, v)
			i = jsonWS(t, end)
			if t[i] == ']' {
				break
			}
			i = jsonWS(t, i+1)
		}
	}
	return starlark.NewList(elems), i + 1, nil
}

// jsonString decodes the (valid) string literal at i and returns the
// offset after it. A lone surrogate, which a Go string cannot hold,
// becomes U+FFFD.
func jsonString(t string, i int) (string, int) {
	var sb strings.Builder
	for j := i + 1; ; {
		c := t[j]
		switch {
		case c == '"':
			return sb.String(), j + 1
		case c != '\\':
			_, n := utf8.DecodeRuneInString(t[j:])
			sb.WriteString(t[j : j+n])
			j += n
			continue
		}
		e := t[j+1]
		j += 2
		switch e {
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r := hexRune(t[j : j+4])
			j += 4
			if utf16.IsSurrogate(r) && strings.HasPrefix(t[j:], "\\u") && len(t) >= j+6 {
				if pair := utf16.DecodeRune(r, hexRune(t[j+2:j+6])); pair != utf8.RuneError {
					r = pair
					j += 6
				}
			}
			sb.WriteRune(r)
		default: // " \ /
			sb.WriteByte(e)
		}
	}
}

func hexRune(h string) rune {
	n, _ := strconv.ParseUint(h, 16, 32)
	return rune(n)
}
