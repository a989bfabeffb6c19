// json: where and why a document is invalid, in CPython's words.

package pydata

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

// jsonSyntaxError finds the first error in text as CPython's json module
// reports it: its message ("Expecting ',' delimiter") and the character
// offset. ok is false when the scan finds none (the caller then keeps
// the decoder's own message). lax is strict=False: control characters
// are allowed in strings.
func JsonSyntaxError(text string, lax bool) (msg string, pos int, ok bool) {
	s := &jsonScan{text: text, lax: lax}
	i := s.ws(0)
	end, err := s.value(i)
	if err == nil {
		if j := s.ws(end); j < len(text) {
			err = &jsonErr{"Extra data", j}
		}
	}
	if err == nil || err.msg == "" {
		return "", 0, false
	}
	return err.msg, utf8.RuneCountInString(text[:err.at]), true
}

type jsonErr struct {
	msg string
	at  int // byte offset
}

type jsonScan struct {
	text  string
	depth int // containers open; past maxJSONDepth the scan gives up
	lax   bool
}

const maxJSONDepth = 10000

func (s *jsonScan) ws(i int) int {
	for i < len(s.text) && strings.IndexByte(" \t\n\r", s.text[i]) >= 0 {
		i++
	}
	return i
}

// value scans the value at i and returns the offset after it.
func (s *jsonScan) value(i int) (int, *jsonErr) {
	t := s.text
	if i >= len(t) {
		return 0, &jsonErr{"Expecting value", i}
	}
	switch c := t[i]; {
	case c == '"':
		return s.Str(i)
	case c == '{' || c == '[':
		if s.depth++; s.depth > maxJSONDepth {
			return 0, &jsonErr{"", i} // too deep to judge: the decoder's message stands
		}
		defer func() { s.depth-- }()
		if c == '{' {
			return s.object(i + 1)
		}
		return s.array(i + 1)
	}
	for _, lit := range []string{"null", "true", "false", "NaN", "Infinity", "-Infinity"} {
		if strings.HasPrefix(t[i:], lit) {
			return i + len(lit), nil
		}
	}
	if j := s.number(i); j > i {
		return j, nil
	}
	return 0, &jsonErr{"Expecting value", i}
}

// number matches -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)? at i.
func (s *jsonScan) number(i int) int {
	t := s.text
	digits := func(j int) int {
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		return j
	}
	j := i
	if j < len(t) && t[j] == '-' {
		j++
	}
	switch {
	case j < len(t) && t[j] == '0':
		j++
	case j < len(t) && t[j] >= '1' && t[j] <= '9':
		j = digits(j)
	default:
		return i
	}
	if j+1 < len(t) && t[j] == '.' && t[j+1] >= '0' && t[j+1] <= '9' {
		j = digits(j + 1)
	}
	if j < len(t) && (t[j] == 'e' || t[j] == 'E') {
		k := j + 1
		if k < len(t) && (t[k] == '+' || t[k] == '-') {
			k++
		}
		if k < len(t) && t[k] >= '0' && t[k] <= '9' {
			j = digits(k)
		}
	}
	return j
}

func (s *jsonScan) Str(start int) (int, *jsonErr) {
	t := s.text
	for i := start + 1; i < len(t); i++ {
		switch c := t[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20 && !s.lax:
			return 0, &jsonErr{"Invalid control character at", i} // 3.11 does not name it
		case c == '\\':
			if i+1 >= len(t) {
				return 0, &jsonErr{"Unterminated string starting at", start}
			}
			switch e := t[i+1]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				hex := t[i+2 : min(i+6, len(t))]
				if len(hex) < 4 || strings.Trim(hex, "0123456789abcdefABCDEF") != "" {
					return 0, &jsonErr{"Invalid \\uXXXX escape", i + 1}
				}
				i += 5
			default:
				r, _ := utf8.DecodeRuneInString(t[i+1:])
				return 0, &jsonErr{fmt.Sprintf("Invalid \\escape: %s", pystr.Quote(string(r))), i}
			}
		}
	}
	return 0, &jsonErr{"Unterminated string starting at", start}
}

func (s *jsonScan) object(i int) (int, *jsonErr) {
	t := s.text
	i = s.ws(i)
	if i < len(t) && t[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(t) || t[i] != '"' {
			return 0, &jsonErr{"Expecting property name enclosed in double quotes", i}
		}
		end, err := s.Str(i)
		if err != nil {
			return 0, err
		}
		i = s.ws(end)
		if i >= len(t) || t[i] != ':' {
			return 0, &jsonErr{"Expecting ':' delimiter", i}
		}
		if i, err = s.value(s.ws(i + 1)); err != nil {
			return 0, err
		}
		i = s.ws(i)
		switch {
		case i < len(t) && t[i] == '}':
			return i + 1, nil
		case i < len(t) && t[i] == ',':
			i = s.ws(i + 1)
		default:
			return 0, &jsonErr{"Expecting ',' delimiter", i}
		}
	}
}

func (s *jsonScan) array(i int) (int, *jsonErr) {
	t := s.text
	i = s.ws(i)
	if i < len(t) && t[i] == ']' {
		return i + 1, nil
	}
	for {
		var err *jsonErr
		if i, err = s.value(i); err != nil {
			return 0, err
		}
		i = s.ws(i)
		switch {
		case i < len(t) && t[i] == ']':
			return i + 1, nil
		case i < len(t) && t[i] == ',':
			i = s.ws(i + 1)
		default:
			return 0, &jsonErr{"Expecting ',' delimiter", i}
		}
	}
}

// jsonDecodeError is json.JSONDecodeError for text: str(e) is
// "msg: line L column C (char P)", with e.msg, e.doc, e.pos, e.lineno
// and e.colno as in Python; fallback is the message when the scan finds
// no error; lax is strict=False.
func jsonDecodeError(text, fallback string, lax bool) error {
	msg, pos, ok := JsonSyntaxError(text, lax)
	if !ok {
		return &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcJSONDecode, Args: starlark.Tuple{starlark.String(fallback)}}}
	}
	chars := []rune(text)
	before := string(chars[:pos])
	line := strings.Count(before, "\n") + 1
	col := pos + 1
	if nl := strings.LastIndex(before, "\n"); nl >= 0 {
		col = pos - utf8.RuneCountInString(before[:nl])
	}
	full := fmt.Sprintf("%s: line %d column %d (char %d)", msg, line, col, pos)
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcJSONDecode, Args: starlark.Tuple{starlark.String(full)}, Attrs: starlark.StringDict{
		"msg": starlark.String(msg), "doc": starlark.String(text), "pos": starlark.MakeInt(pos),
		"lineno": starlark.MakeInt(line), "colno": starlark.MakeInt(col),
	}}}
}
