// Fast decoding of saved messages, equivalent to llm.Message.UnmarshalJSON
// for the forms Encode writes, so that large conversations load quickly.

package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"harness/llm"
)

// decodeMessage decodes one message object. Content that is not a JSON
// string (null, or an array of parts) is left to llm.Message.UnmarshalJSON.
func decodeMessage(raw []byte) (llm.Message, error) {
	s := &scanner{data: raw}
	m, err := s.message()
	if err == nil {
		err = s.end()
	}
	return m, err
}

// message decodes the message object at the scanner's position, in place.
func (s *scanner) message() (llm.Message, error) {
	var m llm.Message
	s.ws()
	start := s.pos
	slow := false
	err := s.object(func(key string) error {
		v, err := s.value()
		if err != nil {
			return err
		}
		switch key {
		case "role":
			m.Role, err = unquote(v)
		case "content":
			if v[0] != '"' {
				slow = true
				return nil
			}
			m.Content, err = unquote(v)
		case "tool_call_id":
			m.ToolCallID, err = unquote(v)
		case "tool_calls":
			if string(v) != "null" {
				err = json.Unmarshal(v, &m.ToolCalls)
			}
		default:
			if !json.Valid(v) {
				return errors.New("invalid JSON value")
			}
			m.Extra = append(m.Extra, llm.Field{Key: key, Value: bytes.Clone(v)})
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		return nil
	})
	if err != nil {
		var le *lineErr
		if errors.As(err, &le) {
			err = errors.New(le.msg)
		}
		return llm.Message{}, err
	}
	if slow {
		m = llm.Message{}
		err = m.UnmarshalJSON(s.data[start:s.pos])
	}
	return m, err
}

// unquote decodes a JSON string literal as encoding/json does, with a fast
// path for the common case of valid UTF-8.
func unquote(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || !utf8.Valid(raw) {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	in := raw[1 : len(raw)-1]
	i := bytes.IndexByte(in, '\\')
	if i < 0 {
		return string(in), nil
	}
	// strings.Builder grows without zeroing memory and String does not copy.
	var out strings.Builder
	out.Grow(len(in))
	for i >= 0 {
		out.Write(in[:i])
		in = in[i:]
		if len(in) < 2 {
			return "", errors.New("bad escape at the end of a string")
		}
		n := 2
		switch c := in[1]; c {
		case '"', '\\', '/':
			out.WriteByte(c)
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'u':
			r, ok := hex4(in[2:])
			if !ok {
				return "", errors.New(`bad \u escape`)
			}
			n = 6
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(-1), false
				if len(in) >= 12 && in[6] == '\\' && in[7] == 'u' {
					r2, ok2 = hex4(in[8:])
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					r, n = dec, 12
				} else {
					r = utf8.RuneError
				}
			}
			out.WriteRune(r)
		default:
			return "", fmt.Errorf("bad escape \\%c", c)
		}
		in = in[n:]
		i = bytes.IndexByte(in, '\\')
	}
	out.Write(in)
	return out.String(), nil
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(v), err == nil
}
