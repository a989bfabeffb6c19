package pyre

import "testing"

// TestPySyntaxError checks the messages against what CPython 3.11's
// re.compile raises for each pattern (written down from python3), and
// that valid patterns get none.
func TestPySyntaxError(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{"?)", "nothing to repeat at position 0"},
		{"a|*b", "nothing to repeat at position 2"},
		{"(+a)", "nothing to repeat at position 1"},
		{"a**", "multiple repeat at position 2"},
		{"a{2}*", "multiple repeat at position 4"},
		{"ab)", "unbalanced parenthesis at position 2"},
		{"(ab", "missing ), unterminated subpattern at position 0"},
		{"x(a(b)", "missing ), unterminated subpattern at position 1"},
		{"[ab", "unterminated character set at position 0"},
		{"é[ab", "unterminated character set at position 1"},
		{"a+?", ""}, {"a*+", ""}, {"[]a]", ""}, {`\(a`, ""}, {"(?:a)*", ""}, {"a{x}", ""}, {"{", ""},
		{"^*", "nothing to repeat at position 1"},
	} {
		if got := pySyntaxError(c.pattern); got != c.want {
			t.Errorf("pySyntaxError(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
}
