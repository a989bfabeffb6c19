// Reading a /tokenize answer in one pass, without holding it in memory.

package llm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// tokenAnswer is what a /tokenize answer says: {"count": N} (vLLM, which
// may send the tokens too) or {"tokens": [...]} (llama.cpp; numbers, or
// objects with pieces). A long conversation's prefix is millions of
// tokens, so the answer is tens of megabytes: it is read as it arrives,
// counting the array's elements without decoding them, instead of being
// buffered (by doubling) and walked three times by encoding/json.
type tokenAnswer struct {
	count     int
	hasCount  bool
	tokens    int
	hasTokens bool
}

// maxNesting bounds how deep skipped values may nest, as encoding/json
// does, so a hostile answer cannot exhaust the stack.
const maxNesting = 10000

var errNotJSON = errors.New("not a JSON object")

// literalRest is what follows the first letter of true, false and null.
var literalRest = map[byte]string{'t': "rue", 'f': "alse", 'n': "ull"}

// readTokenAnswer reads one JSON object from r: the keys count and tokens
// (matched without regard to case, as encoding/json matches struct fields;
// the last of a repeated key wins), every other value skipped. Anything
// but one object with white space around it is an error.
func readTokenAnswer(r io.Reader) (tokenAnswer, error) {
	s := &jsonReader{r: bufio.NewReaderSize(r, 64<<10)}
	var a tokenAnswer
	if s.next() != '{' {
		return a, errNotJSON
	}
	if c := s.next(); c != '}' {
		s.back()
		for {
			key, err := s.key()
			if err != nil {
				return a, err
			}
			count, tokens := strings.EqualFold(key, "count"), strings.EqualFold(key, "tokens")
			switch {
			case (count || tokens) && s.null():
				// null unsets the field, as for encoding/json
				if count {
					a.count, a.hasCount = 0, false
				} else {
					a.tokens, a.hasTokens = 0, false
				}
			case count:
				a.count, a.hasCount, err = s.integer()
			case tokens:
				a.tokens, a.hasTokens, err = s.elements()
			default:
				err = s.skip(0)
			}
			if err != nil {
				return a, err
			}
			if c := s.next(); c == '}' {
				break
			} else if c != ',' {
				return a, s.unexpected(c)
			}
		}
	}
	if c := s.next(); c != 0 || s.err != io.EOF {
		return a, s.unexpected(c)
	}
	return a, nil
}

// jsonReader reads JSON tokens from a buffered reader; err holds the first
// read error (io.EOF at the end).
type jsonReader struct {
	r   *bufio.Reader
	err error
	off int64 // bytes read, for error messages
}

// next returns the next byte that is not white space, or 0 at the end.
func (s *jsonReader) next() byte {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			s.err = err
			return 0
		}
		s.off++
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
}

// null reads a null if one comes next, and says so; otherwise it reads
// nothing but white space.
func (s *jsonReader) null() bool {
	if c := s.next(); c != 'n' {
		if c != 0 {
			s.back()
		}
		return false
	}
	b, _ := s.r.Peek(3)
	if string(b) != "ull" {
		s.back()
		return false
	}
	s.r.Discard(3)
	s.off += 3
	return true
}

// back returns the last byte read to the reader.
func (s *jsonReader) back() {
	if s.r.UnreadByte() == nil {
		s.off--
	}
}

func (s *jsonReader) unexpected(c byte) error {
	if c == 0 {
		if s.err != nil && s.err != io.EOF {
			return s.err
		}
		return fmt.Errorf("unexpected end of JSON at byte %d", s.off)
	}
	return fmt.Errorf("unexpected %q at byte %d", c, s.off)
}

// key reads an object key and its colon.
func (s *jsonReader) key() (string, error) {
	if c := s.next(); c != '"' {
		return "", s.unexpected(c)
	}
	var b strings.Builder
	if err := s.str(&b); err != nil {
		return "", err
	}
	if c := s.next(); c != ':' {
		return "", s.unexpected(c)
	}
	return b.String(), nil
}

// str reads the rest of a string after its opening quote, writing its raw
// bytes to b when b is not nil (escapes are kept as written: the keys
// looked for have none).
func (s *jsonReader) str(b *strings.Builder) error {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			s.err = err
			return s.unexpected(0)
		}
		s.off++
		switch {
		case c == '"':
			return nil
		case c == '\\':
			e, err := s.r.ReadByte()
			if err != nil {
				s.err = err
				return s.unexpected(0)
			}
			s.off++
			if !strings.ContainsRune(`"\/bfnrtu`, rune(e)) {
				return s.unexpected(e)
			}
			if b != nil {
				b.WriteByte(c)
				b.WriteByte(e)
			}
		case c < 0x20:
			return s.unexpected(c)
		case b != nil:
			b.WriteByte(c)
		}
	}
}

// integer reads a number that must be an integer (the count).
func (s *jsonReader) integer() (int, bool, error) {
	var b strings.Builder
	for c := s.next(); numberByte(c); c = s.peekNext() {
		if b.Len() == 40 {
			return 0, false, fmt.Errorf("count is not an integer: %q…", b.String())
		}
		b.WriteByte(c)
	}
	if s.err == nil {
		s.back()
	}
	n, err := strconv.Atoi(b.String())
	if err != nil || strings.HasPrefix(b.String(), "+") {
		return 0, false, fmt.Errorf("count is not an integer: %q", b.String())
	}
	return n, true, nil
}

// numberByte says whether c may stand in a JSON number.
func numberByte(c byte) bool {
	return c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || c >= '0' && c <= '9'
}

// peekNext returns the next byte, white space included, or 0 at the end.
func (s *jsonReader) peekNext() byte {
	c, err := s.r.ReadByte()
	if err != nil {
		s.err = err
		return 0
	}
	s.off++
	return c
}

// elements counts the elements of an array, skipping each.
func (s *jsonReader) elements() (int, bool, error) {
	if c := s.next(); c != '[' {
		return 0, false, fmt.Errorf("tokens is not an array: %w", s.unexpected(c))
	}
	if c := s.next(); c == ']' {
		return 0, true, nil
	}
	s.back()
	n := 0
	for {
		n += s.intRun()
		if err := s.skip(1); err != nil {
			return 0, false, err
		}
		n++
		switch c := s.next(); c {
		case ']':
			return n, true, nil
		case ',':
		default:
			return 0, false, s.unexpected(c)
		}
	}
}

// intRun reads, from the bytes already buffered, a run of elements that
// are plain integers each followed by a comma ("15043,29892,"), and says
// how many it read: most of a llama.cpp answer, which the byte-by-byte
// path would read at a function call a byte. It stops before anything
// else, and before an element the buffer cuts, leaving those to skip.
func (s *jsonReader) intRun() int {
	n := 0
	for {
		if s.r.Buffered() == 0 {
			if _, err := s.r.Peek(1); err != nil {
				return n
			}
		}
		buf, _ := s.r.Peek(s.r.Buffered())
		done := 0 // bytes of whole "digits," elements
		for i := 0; ; {
			j := i
			for j < len(buf) && buf[j] >= '0' && buf[j] <= '9' {
				j++
			}
			if j == i || j == len(buf) || buf[j] != ',' || buf[i] == '0' && j-i > 1 {
				break
			}
			n++
			i, done = j+1, j+1
		}
		s.r.Discard(done)
		s.off += int64(done)
		if done == 0 || s.r.Buffered() > 0 {
			return n
		}
	}
}

// skip reads one value and forgets it; depth is how deep it stands.
func (s *jsonReader) skip(depth int) error {
	if depth > maxNesting {
		return fmt.Errorf("JSON nested deeper than %d at byte %d", maxNesting, s.off)
	}
	c := s.next()
	switch {
	case c == '"':
		return s.str(nil)
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		if d := s.next(); d == end {
			return nil
		}
		s.back()
		for {
			if c == '{' {
				if _, err := s.key(); err != nil {
					return err
				}
			}
			if err := s.skip(depth + 1); err != nil {
				return err
			}
			switch d := s.next(); d {
			case end:
				return nil
			case ',':
			default:
				return s.unexpected(d)
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		for numberByte(s.peekNext()) {
		}
		if s.err == nil {
			s.back()
		}
		return nil
	case c == 't' || c == 'f' || c == 'n':
		word := literalRest[c]
		for i := 0; i < len(word); i++ {
			if d := s.peekNext(); d != word[i] {
				return s.unexpected(d)
			}
		}
		return nil
	}
	return s.unexpected(c)
}
