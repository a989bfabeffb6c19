// Package pystr is the lowest floor of the REPL's Python: strings as
// Python sees them over Go's UTF-8 bytes. Character offsets (len,
// indexing, slicing and re offsets count code points, not bytes),
// Python's repr of a string (Quote), of bytes (BytesRepr) and of a
// float (FloatRepr), and the character classes of
// str.isdigit, isnumeric and isspace that Go's unicode package lacks.
//
// A Starlark string is a byte string; REPL code sees characters. ASCII
// strings (the common case) index as they are; other strings get a Table
// of character offsets, cached (Cache) for the few most recent long
// strings so that a loop over s[i] does not rescan s each time. The REPL
// empties the cache after each call (Cache.Reset).
//
// pystr imports only the standard library; every other package of the
// REPL may import it (repl/layers_test.go).
package pystr

import (
	"sync"
	"unicode/utf8"
	"unsafe"
)

// DecodeRune is utf8.DecodeRuneInString, except that it advances by one
// byte at the end of s, so a loop over it always ends.
func DecodeRune(s string) (rune, int) {
	r, w := utf8.DecodeRuneInString(s)
	if w == 0 {
		w = 1
	}
	return r, w
}

// IsASCII reports whether s holds only ASCII bytes.
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Table locates the characters of a string: for ASCII, byte and
// character offsets agree; otherwise blocks holds the byte offset of every
// 32nd character, and offsets within a block are found by decoding.
type Table struct {
	s      string // keeps the string (and so its address) alive while cached
	N      int    // characters
	ascii  bool
	blocks []int32
}

const charBlock = 32

func newCharTable(s string) *Table {
	t := &Table{s: s, ascii: IsASCII(s)}
	if t.ascii {
		t.N = len(s)
		return t
	}
	for i := 0; i < len(s); t.N++ {
		if t.N%charBlock == 0 {
			t.blocks = append(t.blocks, int32(i))
		}
		_, w := DecodeRune(s[i:])
		i += w
	}
	return t
}

// byteOff returns the byte offset of character c (0 <= c <= n).
func (t *Table) byteOff(c int) int {
	if t.ascii {
		return c
	}
	if c >= t.N {
		return len(t.s)
	}
	i := int(t.blocks[c/charBlock])
	for k := c % charBlock; k > 0; k-- {
		_, w := DecodeRune(t.s[i:])
		i += w
	}
	return i
}

// charOff returns the character offset of byte offset b.
func (t *Table) charOff(b int) int {
	if t.ascii || b <= 0 {
		return b
	}
	lo, hi := 0, len(t.blocks)
	for lo+1 < hi {
		m := (lo + hi) / 2
		if int(t.blocks[m]) <= b {
			lo = m
		} else {
			hi = m
		}
	}
	c, i := lo*charBlock, int(t.blocks[lo])
	for i < b && i < len(t.s) {
		_, w := DecodeRune(t.s[i:])
		i += w
		c++
	}
	return c
}

// TableCache keeps the tables of the most recent long strings, so that a
// loop over s[i] does not rescan s; the REPL empties it after each call.
type TableCache struct {
	mu      sync.Mutex
	entries [8]*Table
	next    int
}

// Cache is the tables of the most recent long strings.
var Cache TableCache

func (c *TableCache) Table(s string) *Table {
	if len(s) < 256 {
		return newCharTable(s)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e != nil && len(e.s) == len(s) && unsafe.StringData(e.s) == unsafe.StringData(s) {
			return e
		}
	}
	t := newCharTable(s)
	c.entries[c.next] = t
	c.next = (c.next + 1) % len(c.entries)
	return t
}

func (c *TableCache) Reset() {
	c.mu.Lock()
	c.entries = [8]*Table{}
	c.mu.Unlock()
}

// CharLen is len(s) in characters.
func CharLen(s string) int { return Cache.Table(s).N }

// CharAt returns character i (in range) of s.
func (t *Table) CharAt(i int) string {
	if t.ascii {
		return t.s[i : i+1]
	}
	a := t.byteOff(i)
	_, w := DecodeRune(t.s[a:])
	return t.s[a : a+w]
}

// CharSlice is s[start:end:step] in characters, the indices adjusted.
func CharSlice(s string, start, end, step int) string {
	t := Cache.Table(s)
	if step == 1 {
		if start >= end {
			return ""
		}
		return s[t.byteOff(start):t.byteOff(end)]
	}
	var out []byte
	for i := start; (step > 0 && i < end) || (step < 0 && i > end); i += step {
		out = append(out, t.CharAt(i)...)
	}
	return string(out)
}

// ByteToChar converts a byte offset in s to a character offset.
func ByteToChar(s string, b int) int { return Cache.Table(s).charOff(b) }

// CharToByte converts a character offset (0..len) to a byte offset.
func CharToByte(s string, c int) int { return Cache.Table(s).byteOff(c) }
