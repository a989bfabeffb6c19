// Python's repr of a string.

package pystr

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote quotes s as Python's repr does: single quotes unless s holds a
// single quote and no double quote; printable characters kept.
func Quote(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte(q)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			fmt.Fprintf(&sb, `\x%02x`, s[i])
		case r == '\\':
			sb.WriteString(`\\`)
		case r == rune(q):
			sb.WriteByte('\\')
			sb.WriteByte(q)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&sb, `\x%02x`, r)
		case r < 0x80 || unicode.IsPrint(r):
			sb.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&sb, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&sb, `\u%04x`, r)
		default:
			fmt.Fprintf(&sb, `\U%08x`, r)
		}
		i += w
	}
	sb.WriteByte(q)
	return sb.String()
}
