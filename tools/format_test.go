// Tests of the shared formats: Numbered, Truncate, path quoting.

package tools

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNumbered(t *testing.T) {
	got := Numbered([]string{"a", "", "\tb"}, 99)
	want := "    99\ta\n   100\t\n   101\t\tb\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if Numbered(nil, 1) != "" {
		t.Error("no lines should give no text")
	}
}

func TestTruncate(t *testing.T) {
	lines := strings.Repeat("0123456789\n", 50) // 550 bytes
	tests := []struct {
		name  string
		s     string
		limit int
		check func(t *testing.T, got string)
	}{
		{"under", "abc", 3, func(t *testing.T, got string) {
			if got != "abc" {
				t.Errorf("got %q", got)
			}
		}},
		{"no limit", lines, 0, func(t *testing.T, got string) {
			if got != lines {
				t.Error("limit 0 must not cut")
			}
		}},
		{"cut at a line", lines, 300, func(t *testing.T, got string) {
			kept, notice, _ := strings.Cut(got, "\n[output truncated: ")
			if len(got) > 300 || !strings.HasSuffix(kept, "9\n") || !strings.Contains(notice, "bytes omitted. hint]") {
				t.Errorf("got %q", got)
			}
			omitted := len(lines) - len(kept)
			if !strings.HasPrefix(notice, strconv.Itoa(omitted)+" bytes omitted") {
				t.Errorf("notice %q, want %d bytes omitted", notice, omitted)
			}
		}},
		{"utf-8 boundary", strings.Repeat("é", 200), 150, func(t *testing.T, got string) {
			kept, _, _ := strings.Cut(got, "\n[output truncated")
			if !utf8.ValidString(kept) || len(got) > 150 || kept == "" {
				t.Errorf("got %q", got)
			}
		}},
		{"tiny limit", lines, 10, func(t *testing.T, got string) {
			if !strings.HasPrefix(got, "\n[output truncated: 550 bytes omitted") {
				t.Errorf("got %q", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, Truncate(tt.s, tt.limit, "hint")) })
	}
}

func TestQuotePath(t *testing.T) {
	for in, want := range map[string]string{
		"a/b.go":   "a/b.go",
		"ü/日本.txt": "ü/日本.txt",
		"a b":      `"a b"`,
		`a"b`:      `"a\"b"`,
		"a'b":      `"a'b"`,
		"a`b":      "\"a`b\"",
		`a\b`:      `"a\\b"`,
		"a\tb":     `"a\tb"`,
		"a\nb":     `"a\nb"`,
		"\xff":     `"\xff"`,
		"a\u00a0b": `"a\u00a0b"`,
		"a\u200bb": `"a\u200bb"`,
	} {
		if got := quotePath(in); got != want {
			t.Errorf("quotePath(%q) = %s, want %s", in, got, want)
		}
	}
}
