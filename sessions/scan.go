// A small JSON scanner that splits a conversation file into its elements
// without copying them, so a large file is decoded in one pass.

package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"
)

type scanner struct {
	data []byte
	pos  int
}

// lineErr is a decoding error at a line of the file.
type lineErr struct {
	line int
	msg  string
}

func (e *lineErr) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

func (s *scanner) errAt(pos int, format string, args ...any) error {
	if pos > len(s.data) {
		pos = len(s.data)
	}
	line := 1 + bytes.Count(s.data[:pos], []byte{'\n'})
	return &lineErr{line, fmt.Sprintf(format, args...)}
}

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) expect(c byte) error {
	s.ws()
	if s.pos >= len(s.data) {
		return s.errAt(s.pos, "unexpected end of file, expected %q", c)
	}
	if s.data[s.pos] != c {
		return s.errAt(s.pos, "expected %q, found %q", c, s.data[s.pos])
	}
	s.pos++
	return nil
}

func (s *scanner) peek() byte {
	s.ws()
	if s.pos >= len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

// object scans an object, calling member with each key; member must consume
// the value. Errors returned by member without a line get the key's line.
func (s *scanner) object(member func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		s.ws()
		start := s.pos
		raw, err := s.str()
		if err != nil {
			return err
		}
		var key string
		if err := json.Unmarshal(raw, &key); err != nil {
			return s.errAt(start, "bad key: %v", err)
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := member(key); err != nil {
			if _, ok := err.(*lineErr); ok {
				return err
			}
			return s.errAt(start, "%v", err)
		}
		switch c := s.peek(); c {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.errAt(s.pos, "expected ',' or '}' after field %q", key)
		}
	}
}

// end checks that only whitespace follows the value scanned.
func (s *scanner) end() error {
	s.ws()
	if s.pos != len(s.data) {
		return s.errAt(s.pos, "unexpected data after the top-level object")
	}
	return nil
}

// array scans an array, calling elem for each element; elem must consume it.
func (s *scanner) array(elem func() error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		s.ws()
		if err := elem(); err != nil {
			return err
		}
		switch c := s.peek(); c {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.errAt(s.pos, "expected ',' or ']' between messages")
		}
	}
}

// str returns the raw bytes of the string at pos, quotes included.
func (s *scanner) str() ([]byte, error) {
	start := s.pos
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return nil, s.errAt(s.pos, "expected a string")
	}
	i := s.pos + 1
	for {
		j := bytes.IndexByte(s.data[i:], '"')
		if j < 0 {
			return nil, s.errAt(start, "unterminated string")
		}
		i += j
		// The quote is escaped when an odd number of backslashes precede it.
		k := i
		for k > start && s.data[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 1 {
			i++
			continue
		}
		s.pos = i + 1
		return s.data[start:s.pos], nil
	}
}

// value returns the raw bytes of the value at pos. Objects and arrays are
// only checked for balanced nesting here; their content is validated by the
// decoder that receives them.
func (s *scanner) value() ([]byte, error) {
	s.ws()
	start := s.pos
	if s.pos >= len(s.data) {
		return nil, s.errAt(s.pos, "unexpected end of file")
	}
	switch s.data[s.pos] {
	case '"':
		return s.str()
	case '{', '[':
		depth := 0
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case '"':
				if _, err := s.str(); err != nil {
					return nil, err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos++
					return s.data[start:s.pos], nil
				}
			}
			s.pos++
		}
		return nil, s.errAt(start, "unterminated object or array")
	}
	for s.pos < len(s.data) && bytes.IndexByte([]byte(",}] \t\r\n"), s.data[s.pos]) < 0 {
		s.pos++
	}
	raw := s.data[start:s.pos]
	if !json.Valid(raw) {
		return nil, s.errAt(start, "invalid value %q", raw)
	}
	return raw, nil
}
