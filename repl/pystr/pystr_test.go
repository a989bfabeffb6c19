package pystr

import (
	"strings"
	"testing"
)

func TestOffsets(t *testing.T) {
	long := strings.Repeat("é", 300) + "x" // cached, over several blocks
	tests := []struct {
		s          string
		chars, off int // a character offset and its byte offset
	}{
		{"", 0, 0},
		{"abc", 2, 2},
		{"aé b", 2, 3},
		{"日本語", 3, 9},
		{long, 300, 600},
		{long, 301, 601},
		{long, 33, 66},
	}
	for _, tt := range tests {
		if got := CharToByte(tt.s, tt.chars); got != tt.off {
			t.Errorf("CharToByte(%.10q, %d) = %d, want %d", tt.s, tt.chars, got, tt.off)
		}
		if got := ByteToChar(tt.s, tt.off); got != tt.chars {
			t.Errorf("ByteToChar(%.10q, %d) = %d, want %d", tt.s, tt.off, got, tt.chars)
		}
	}
	if n := CharLen(long); n != 301 {
		t.Errorf("CharLen(long) = %d, want 301", n)
	}
	if got := CharSlice("aébc", 3, 0, -1); got != "cbé" {
		t.Errorf("CharSlice(aébc, 3, 0, -1) = %q, want %q", got, "cbé")
	}
	Cache.Reset()
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "''"},
		{"it's", `"it's"`},
		{`a'b"c`, `'a\'b"c'`},
		{"tab\tnl\n\x00", `'tab\tnl\n\x00'`},
		{"é\u200b\U0001F600", "'é\\u200b\U0001F600'"},
		{"\xff", `'\xff'`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestCharClasses(t *testing.T) {
	tests := []struct {
		r                     rune
		digit, numeric, space bool
	}{
		{'5', true, true, false},
		{'²', true, true, false},  // digit, not decimal
		{'½', false, true, false}, // numeric, not a digit
		{'一', false, true, false}, // a CJK ideograph with a value
		{'a', false, false, false},
		{'\x1c', false, false, true}, // a separator Go does not call space
		{'\u3000', false, false, true},
	}
	for _, tt := range tests {
		if got := IsDigit(tt.r); got != tt.digit {
			t.Errorf("IsDigit(%q) = %v", tt.r, got)
		}
		if got := IsNumeric(tt.r); got != tt.numeric {
			t.Errorf("IsNumeric(%q) = %v", tt.r, got)
		}
		if got := IsSpace(tt.r); got != tt.space {
			t.Errorf("IsSpace(%q) = %v", tt.r, got)
		}
	}
}

// TestExpandTabs checks str.expandtabs's columns against CPython 3.11's
// answers (written down from python3).
func TestExpandTabs(t *testing.T) {
	for _, c := range []struct {
		s    string
		size int
		want string
	}{
		{"a\tb", 8, "a       b"},
		{"ab\tc\n\td", 4, "ab  c\n    d"},
		{"é\tx\r\ty", 3, "é  x\r   y"},
		{"\t", 0, ""},
		{"a\tb", -1, "ab"},
		{"no tabs", 8, "no tabs"},
	} {
		if got := ExpandTabs(c.s, c.size); got != c.want {
			t.Errorf("ExpandTabs(%q, %d) = %q, want %q", c.s, c.size, got, c.want)
		}
	}
}
