// Tests for the key locator on layouts that could mislead a line scanner.

package config

import (
	"testing"

	"github.com/BurntSushi/toml"
)

func TestLocate(t *testing.T) {
	text := `# [fake] key = 1
a = """
[not.a.table]
b = 1 \"""
"""""
c = '''x'''''
arr = [ # ] comment
  "]", ']', { in = 1 },
  [1, [2]],
]
"quoted.key" = 1
[ t . "u v" ] # header
d = 1979-05-27 07:32:00Z # datetime with a space
e = { f = { g = 2 }, h = [ { i = 3 } ] }
[[aot]]
j = 1
[[aot]]
j = 2
`
	if _, err := toml.Decode(text, new(map[string]any)); err != nil {
		t.Fatalf("test text is not valid TOML: %v", err)
	}
	tests := []struct {
		key       string
		line, col int
		value     string // "" for headers
	}{
		{"a", 2, 1, "\"\"\"\n[not.a.table]\nb = 1 \\\"\"\"\n\"\"\"\"\""},
		{"c", 6, 1, "'''x'''''"},
		{"arr", 7, 1, "[ # ] comment\n  \"]\", ']', { in = 1 },\n  [1, [2]],\n]"},
		{`"quoted.key"`, 11, 1, "1"},
		{`t."u v"`, 12, 1, ""},
		{`t."u v".d`, 13, 1, "1979-05-27 07:32:00Z"},
		{`t."u v".e.f.g`, 14, 13, "2"},
		{"aot", 15, 1, ""},
		{"aot.j", 16, 1, "1"},
	}
	l := locate(text)
	for _, tc := range tests {
		sp, ok := l.spans[tc.key]
		if !ok {
			t.Errorf("%s: not found; have %q", tc.key, l.order)
			continue
		}
		if line, col := l.pos(sp.KeyStart); line != tc.line || col != tc.col {
			t.Errorf("%s: at %d:%d, want %d:%d", tc.key, line, col, tc.line, tc.col)
		}
		got := ""
		if sp.ValStart >= 0 {
			got = text[sp.ValStart:sp.ValEnd]
		}
		if got != tc.value {
			t.Errorf("%s: value %q, want %q", tc.key, got, tc.value)
		}
	}
	for _, bogus := range []string{"not.a.table", "b", "fake", "in", "arr.in", "i"} {
		if _, ok := l.spans[bogus]; ok {
			t.Errorf("%s was recorded but is not a key of the document", bogus)
		}
	}
	if n := l.lines(); n != 18 {
		t.Errorf("lines() = %d, want 18", n)
	}
}
