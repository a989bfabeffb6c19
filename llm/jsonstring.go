// Encoding a string as JSON without encoding/json's buffers.

package llm

import "unicode/utf8"

// AppendJSONString appends s to b as a JSON string, byte for byte as
// encoding/json writes it with HTML escaping off: quote, backslash and
// control characters escaped (\n, \r, \t, \b, \f, else \u00XX), U+2028 and
// U+2029 escaped, invalid UTF-8 written as \ufffd. A conversation's
// messages are megabytes, and json.Marshal copies each of them more than
// once.
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	b = AppendJSONChars(b, s)
	return append(b, '"')
}

// AppendJSONChars appends what AppendJSONString does between the quotes.
// A long string may be written in pieces cut by CutJSONChars: each piece
// appends what it would as part of the whole.
func AppendJSONChars(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(b, s[start:]...)
}

// CutJSONChars returns n, or the start of the UTF-8 sequence n would cut,
// when one begins within 3 bytes before n.
func CutJSONChars(s string, n int) int {
	for i := n; i > 0 && i > n-utf8.UTFMax && i < len(s); i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return n
}
