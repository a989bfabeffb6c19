// A forgiving TOML scanner that records where each key and value sits in the text.

package config

import (
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// span is where one key is defined. Offsets are byte offsets into the text.
// Table headers ([a.b] and [[a.b]]) have ValStart == -1.
type span struct {
	KeyStart int
	ValStart int
	ValEnd   int
}

// locator maps dotted keys (toml.Key.String() spelling, so "a.b" or
// `a."x.y"`) to the first place they are defined, and converts offsets to
// line and column. It is built from text that the TOML parser accepted, but
// never panics or loops on any input.
type locator struct {
	text       string
	spans      map[string]span
	order      []string // keys in the order they appear
	lineStarts []int    // byte offset of the start of each line
}

// locate scans text and records every key, table header and value.
func locate(text string) *locator {
	l := &locator{text: text, spans: map[string]span{}, lineStarts: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			l.lineStarts = append(l.lineStarts, i+1)
		}
	}
	sc := &scanner{s: text, loc: l}
	if strings.HasPrefix(text, "\ufeff") {
		sc.i = len("\ufeff") // a byte order mark is not part of any key
	}
	sc.run()
	return l
}

// pos converts a byte offset to a 1-based line and byte column.
func (l *locator) pos(off int) (line, col int) {
	i := sort.Search(len(l.lineStarts), func(i int) bool { return l.lineStarts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - l.lineStarts[i] + 1
}

// lines returns the number of lines in the text.
func (l *locator) lines() int {
	n := len(l.lineStarts)
	if n > 1 && l.lineStarts[n-1] == len(l.text) {
		n-- // the text ends with a newline
	}
	return n
}

// find returns the span of key, or of the first key defined below it when
// key itself is only implied (the table rlm when only [rlm.store] exists).
func (l *locator) find(key string) (span, bool) {
	if sp, ok := l.spans[key]; ok {
		return sp, true
	}
	for _, k := range l.order {
		if strings.HasPrefix(k, key+".") {
			return l.spans[k], true
		}
	}
	return span{}, false
}

func (l *locator) add(parts []string, sp span) {
	k := toml.Key(parts).String()
	if _, dup := l.spans[k]; dup {
		return
	}
	l.spans[k] = sp
	l.order = append(l.order, k)
}

// scanner walks TOML text. Every step consumes at least one byte or stops,
// so malformed input ends the scan instead of looping.
type scanner struct {
	s     string
	i     int
	table []string
	loc   *locator
}

func (sc *scanner) eof() bool { return sc.i >= len(sc.s) }

func (sc *scanner) peek(prefix string) bool { return strings.HasPrefix(sc.s[sc.i:], prefix) }

func (sc *scanner) run() {
	for !sc.eof() {
		sc.skipBlank(false)
		if sc.eof() {
			return
		}
		switch c := sc.s[sc.i]; c {
		case '\n', '\r':
			sc.i++
		case '#':
			sc.skipComment()
		case '[':
			sc.header()
		default:
			start := sc.i
			sc.keyValue(sc.table, true)
			if sc.i == start {
				sc.i++
			}
		}
	}
}

// skipBlank skips spaces and tabs, and newlines and comments too when multi.
func (sc *scanner) skipBlank(multi bool) {
	for !sc.eof() {
		switch sc.s[sc.i] {
		case ' ', '\t':
			sc.i++
		case '\n', '\r':
			if !multi {
				return
			}
			sc.i++
		case '#':
			if !multi {
				return
			}
			sc.skipComment()
		default:
			return
		}
	}
}

func (sc *scanner) skipComment() {
	for !sc.eof() && sc.s[sc.i] != '\n' {
		sc.i++
	}
}

// header reads [a.b] or [[a.b]] and makes it the current table.
func (sc *scanner) header() {
	start := sc.i
	sc.i++
	if sc.peek("[") {
		sc.i++
	}
	sc.skipBlank(false)
	parts := sc.key()
	sc.skipBlank(false)
	for !sc.eof() && sc.s[sc.i] == ']' {
		sc.i++
	}
	if len(parts) == 0 {
		return
	}
	sc.table = parts
	sc.loc.add(parts, span{KeyStart: start, ValStart: -1, ValEnd: -1})
}

// key reads a dotted key made of bare, "basic" and 'literal' parts.
func (sc *scanner) key() []string {
	var parts []string
	for !sc.eof() {
		sc.skipBlank(false)
		if sc.eof() {
			break
		}
		part, ok := sc.keyPart()
		if !ok {
			break
		}
		parts = append(parts, part)
		sc.skipBlank(false)
		if sc.eof() || sc.s[sc.i] != '.' {
			break
		}
		sc.i++
	}
	return parts
}

func (sc *scanner) keyPart() (string, bool) {
	switch sc.s[sc.i] {
	case '"':
		start := sc.i
		sc.basicString()
		raw := sc.s[start:sc.i]
		if v, err := strconv.Unquote(raw); err == nil {
			return v, true
		}
		return strings.Trim(raw, `"`), true
	case '\'':
		start := sc.i
		sc.literalString()
		return strings.Trim(sc.s[start:sc.i], "'"), true
	}
	start := sc.i
	for !sc.eof() && isBare(sc.s[sc.i]) {
		sc.i++
	}
	return sc.s[start:sc.i], sc.i > start
}

func isBare(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// keyValue reads key = value under prefix, recording both when record is set.
func (sc *scanner) keyValue(prefix []string, record bool) {
	keyStart := sc.i
	parts := sc.key()
	sc.skipBlank(false)
	if len(parts) == 0 || sc.eof() || sc.s[sc.i] != '=' {
		sc.skipComment() // not a key/value line: skip the rest of it
		return
	}
	sc.i++
	sc.skipBlank(false)
	full := append(append([]string(nil), prefix...), parts...)
	valStart := sc.i
	sc.value(full, record)
	if record {
		sc.loc.add(full, span{KeyStart: keyStart, ValStart: valStart, ValEnd: sc.i})
	}
}

// value skips one value; inline tables record their keys under path.
func (sc *scanner) value(path []string, record bool) {
	if sc.eof() {
		return
	}
	switch {
	case sc.peek(`"""`):
		sc.multiline(`"""`, true)
	case sc.peek(`'''`):
		sc.multiline(`'''`, false)
	case sc.peek(`"`):
		sc.basicString()
	case sc.peek(`'`):
		sc.literalString()
	case sc.peek("["):
		sc.array(path)
	case sc.peek("{"):
		sc.inlineTable(path, record)
	default:
		start := sc.i
		for !sc.eof() && !strings.ContainsRune(",]}#\n\r", rune(sc.s[sc.i])) {
			sc.i++
		}
		for sc.i > start && (sc.s[sc.i-1] == ' ' || sc.s[sc.i-1] == '\t') {
			sc.i--
		}
	}
}

func (sc *scanner) basicString() {
	sc.i++ // opening quote
	for !sc.eof() {
		switch sc.s[sc.i] {
		case '\\':
			sc.i += 2
		case '"':
			sc.i++
			return
		case '\n':
			return
		default:
			sc.i++
		}
	}
	sc.i = min(sc.i, len(sc.s))
}

func (sc *scanner) literalString() {
	sc.i++
	for !sc.eof() {
		switch sc.s[sc.i] {
		case '\'':
			sc.i++
			return
		case '\n':
			return
		}
		sc.i++
	}
}

// multiline skips a triple-quoted string (basic or literal), including up to two extra closing
// quotes that belong to the content.
func (sc *scanner) multiline(delim string, escapes bool) {
	sc.i += len(delim)
	for !sc.eof() {
		if escapes && sc.s[sc.i] == '\\' {
			sc.i += 2
			continue
		}
		if sc.peek(delim) {
			sc.i += len(delim)
			for n := 0; n < 2 && !sc.eof() && sc.s[sc.i] == delim[0]; n++ {
				sc.i++
			}
			return
		}
		sc.i++
	}
	sc.i = min(sc.i, len(sc.s))
}

func (sc *scanner) array(path []string) {
	sc.sequence(']', func() { sc.value(path, false) })
}

func (sc *scanner) inlineTable(path []string, record bool) {
	sc.sequence('}', func() { sc.keyValue(path, record) })
}

// sequence scans the comma-separated items of an array or inline table
// from its opening bracket to the closing one, calling item for each; an
// item that consumes nothing is skipped a byte at a time, so the scan
// always ends.
func (sc *scanner) sequence(closing byte, item func()) {
	sc.i++ // the opening [ or {
	for !sc.eof() {
		sc.skipBlank(true)
		if sc.eof() {
			return
		}
		switch sc.s[sc.i] {
		case closing:
			sc.i++
			return
		case ',':
			sc.i++
			continue
		}
		start := sc.i
		item()
		if sc.i == start {
			sc.i++
		}
	}
}
