package styled

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// show renders lines as text, one per row, with "|" at the decoration's end
// and the break before each line ("" hard, "~" space, "+" cut).
func show(lines []Line) string {
	var sb strings.Builder
	for i, l := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString([]string{"", "~", "+"}[l.Break])
		t := l.Text()
		d := len(t) - len(CellsFrom(t, l.Decoration))
		sb.WriteString(t[:d] + "|" + t[d:])
	}
	return sb.String()
}

func TestWrap(t *testing.T) {
	plain := func(s string) []Span { return []Span{{s, Style{}}} }
	bullet := Indent{First: plain("• "), Rest: plain("  ")}
	quote := Indent{First: plain("│ "), Rest: plain("│ "), FirstDecor: 2}
	for _, tc := range []struct {
		name  string
		spans []Span
		width int
		in    Indent
		want  string
	}{
		{"fits", plain("one two"), 10, Indent{}, "|one two"},
		{"breaks at a space", plain("one two three"), 8, Indent{}, "|one two\n~|three"},
		{"exact width", plain("abcd efgh"), 4, Indent{}, "|abcd\n~|efgh"},
		{"long word cut", plain("abcdefghij"), 4, Indent{}, "|abcd\n+|efgh\n+|ij"},
		{"long word after a word", plain("ab cdefghij"), 4, Indent{}, "|ab\n~|cdef\n+|ghij"},
		{"spaces dropped at the break", plain("ab    cd"), 3, Indent{}, "|ab\n~|cd"},
		{"trailing spaces dropped", plain("ab   "), 10, Indent{}, "|ab"},
		{"newline", plain("ab\ncd"), 10, Indent{}, "|ab\n|cd"},
		{"empty", nil, 10, bullet, "|• "},
		{"bullet hangs", plain("one two three"), 9, bullet, "|• one two\n~  |three"},
		{"quote decoration", plain("one two three"), 9, quote, "│ |one two\n~│ |three"},
		{"wide characters", plain("日本語の"), 5, Indent{}, "|日本\n+|語の"},
		{"too narrow for the indent", plain("abc"), 2, bullet, "|• a\n+  |b\n+  |c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := show(Wrap(tc.spans, tc.width, tc.in))
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestWrapKeepsStyles(t *testing.T) {
	bold := Style{Attr: Bold}
	code := Style{Class: Code}
	lines := Wrap([]Span{{"say ", Style{}}, {"hello", bold}, {" to ", Style{}}, {"x()", code}}, 9, Indent{})
	if len(lines) != 2 {
		t.Fatalf("got %d lines: %q", len(lines), show(lines))
	}
	want0 := []Span{{"say ", Style{}}, {"hello", bold}}
	want1 := []Span{{"to ", Style{}}, {"x()", code}}
	for i, want := range [][]Span{want0, want1} {
		if got := lines[i].Spans; !slices.Equal(got, want) {
			t.Errorf("line %d: got %q, want %q", i, got, want)
		}
	}
}

func TestCopy(t *testing.T) {
	plain := func(s string) []Span { return []Span{{s, Style{}}} }
	bullet := Indent{First: plain("• "), Rest: plain("  ")}
	lines := Wrap(plain("one two three\nfour"), 9, bullet)
	lines = append(lines, Wrap(plain("abcdefghij"), 4, Indent{})...)
	got := Copy(lines)
	want := "• one two three\nfour\nabcdefghij"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzWrap(f *testing.F) {
	f.Add("one two three", 5)
	f.Add("日本語 abc\n\ndef", 3)
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = width%50 + 1
		if width < 1 {
			width = -width + 1
		}
		lines := Wrap([]Span{{s, Style{}}}, width, Indent{})
		for _, l := range lines {
			if l.Width() > max(width, TabWidth) {
				t.Fatalf("line %q wider than %d", l.Text(), width)
			}
			if strings.Contains(l.Text(), "\n") {
				t.Fatalf("line %q holds a newline", l.Text())
			}
		}
		// Copying joins what wrapping split: the words survive in order.
		if got, want := strings.Fields(Copy(lines)), strings.Fields(s); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("copy %q lost words of %q", Copy(lines), s)
		}
	})
}

func TestCopyRange(t *testing.T) {
	plain := func(s string) []Span { return []Span{{s, Style{}}} }
	lines := Wrap(plain("one two three four"), 9, Indent{First: plain("• "), Rest: plain("  ")})
	// • one two
	// ~  three
	// ~  four
	for _, tc := range []struct {
		from, fromCol, to, toCol int
		want                     string
	}{
		{0, 0, 2, 99, "• one two three four"},
		{0, 2, 0, 4, "one"},
		{0, 6, 1, 6, "two three"},
		{1, 0, 1, 3, "th"},
		{2, 0, 2, 0, ""},
	} {
		if got := CopyRange(lines, tc.from, tc.fromCol, tc.to, tc.toCol); got != tc.want {
			t.Errorf("CopyRange(%d, %d, %d, %d) = %q, want %q", tc.from, tc.fromCol, tc.to, tc.toCol, got, tc.want)
		}
	}
}

// TestWrapKeepsWordsAcrossSpans: spans with no space between them form
// one word, which wraps whole.
func TestWrapKeepsWordsAcrossSpans(t *testing.T) {
	lines := Wrap([]Span{{"see (", Style{}}, {"issue", Style{Class: Link}}, {")", Style{}}}, 10, Indent{})
	if got := show(lines); got != "|see\n~|(issue)" {
		t.Errorf("got\n%s", got)
	}
}

// growSpans is s as spans whose style changes at each '|' (dropped): the
// run that a text growing at its end is drawn as.
func growSpans(s string) []Span {
	var out []Span
	for i, p := range strings.Split(s, "|") {
		if p != "" {
			out = append(out, Span{p, Style{Class: Class(i % 3)}})
		}
	}
	return out
}

// wrapGrowing wraps s as it grows a character at a time, keeping the
// lines before each wrap's last and wrapping again from its Resume, and
// checks each step against Wrap of the whole.
func wrapGrowing(t *testing.T, s string, width int, in Indent) {
	t.Helper()
	var kept []Line
	r := Resume{First: true}
	for i := range len(s) + 1 {
		if i < len(s) && !utf8.RuneStart(s[i]) {
			continue
		}
		spans := growSpans(s[:i])
		lines, next := WrapFrom(spans, r, width, in)
		got := append(slices.Clip(kept), lines...)
		if want := Wrap(spans, width, in); !slices.EqualFunc(got, want, lineEqual) {
			t.Fatalf("%q at width %d:\ngot\n%s\nwant\n%s", s[:i], width, show(got), show(want))
		}
		kept, r = append(kept, lines[:len(lines)-1]...), next
	}
}

func lineEqual(a, b Line) bool {
	return a.Break == b.Break && a.Decoration == b.Decoration && slices.Equal(a.Spans, b.Spans)
}

func TestWrapFrom(t *testing.T) {
	in := Indent{First: []Span{{"> ", Style{}}}, Rest: []Span{{"  ", Style{}}}, FirstDecor: 2}
	for _, s := range []string{
		"one two three four five six seven",
		"a|verylongword|split across spans and more words",
		"lines\nwith  two  spaces\n\n  and indents\nend ",
		"日本語のテキスト abc 日本語",
		"x  |  y|z\n|w",
	} {
		for _, width := range []int{1, 3, 7, 12} {
			wrapGrowing(t, s, width, Indent{})
			wrapGrowing(t, s, width, in)
		}
	}
}

func FuzzWrapFrom(f *testing.F) {
	f.Add("one| two three|\nfour", 5)
	f.Add("日本語 a|bc\n\ndef", 3)
	f.Fuzz(func(t *testing.T, s string, width int) {
		if !utf8.ValidString(s) {
			return
		}
		wrapGrowing(t, s, 1+abs(width)%40, Indent{Rest: []Span{{" ", Style{}}}})
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
