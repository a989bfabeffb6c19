package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"harness/llmtest"
)

func wrapped(text string, w int) []string {
	var out []string
	for _, s := range wrap(text, w, nil) {
		out = append(out, text[s.start:s.end])
	}
	return out
}

func TestWrap(t *testing.T) {
	cases := []struct {
		name, text string
		w          int
		want       []string
	}{
		{"empty", "", 10, []string{""}},
		{"fits", "hello", 10, []string{"hello"}},
		{"exact", "hello", 5, []string{"hello"}},
		{"at space", "hello world", 8, []string{"hello", "world"}},
		{"space at edge", "hello world", 5, []string{"hello", "world"}},
		{"several words", "the quick brown fox", 10, []string{"the quick", "brown fox"}},
		{"long word cut", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"long word after short", "a bcdefghij", 4, []string{"a", "bcde", "fghi", "j"}},
		{"newlines", "a\n\nb", 10, []string{"a", "", "b"}},
		{"trailing newline", "a\n", 10, []string{"a", ""}},
		{"wide runes", "日本語です", 4, []string{"日本", "語で", "す"}},
		{"tab counts four", "a\tb", 6, []string{"a\tb"}},
		{"tab wraps", "ab\tc", 5, []string{"ab", "\tc"}},
		{"width one", "ab", 1, []string{"a", "b"}},
		{"width zero acts as one", "ab", 0, []string{"a", "b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := wrapped(c.text, c.w)
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("wrap(%q, %d) = %q, want %q", c.text, c.w, got, c.want)
			}
			for _, l := range got {
				if width(l) > max(c.w, 1) {
					t.Errorf("line %q is wider than %d", l, c.w)
				}
			}
		})
	}
}

func TestFormatCall(t *testing.T) {
	cases := []struct {
		name, tool, args, want string
	}{
		{"repl shows code", "repl", `{"code":"print(1)\nx = 2"}`, "● repl\nprint(1)\nx = 2"},
		{"apply_patch root above patch", "apply_patch", `{"patch":"*** Begin Patch\n*** End Patch","root":"store"}`, "● apply_patch\nroot: store\n*** Begin Patch\n*** End Patch"},
		{"apply_patch without root", "apply_patch", `{"patch":"P"}`, "● apply_patch\nP"},
		{"rlm keeps key order", "rlm", `{"task":"do it","name":"worker"}`, "● rlm\ntask: do it\nname: worker"},
		{"non-strings as JSON", "grep", `{"pattern":"x","context": 2,"fixed":true}`, "● grep\npattern: x\ncontext: 2\nfixed: true"},
		{"no arguments", "FYI", `{}`, "● FYI"},
		{"empty arguments", "FYI", ``, "● FYI"},
		{"streaming: key only", "repl", `{"code":`, "● repl\n"},
		{"streaming: code so far", "repl", `{"code":"print(1)\nx = \"a`, "● repl\nprint(1)\nx = \"a"},
		{"streaming: cut escape left out", "repl", `{"code":"a\`, "● repl\na"},
		{"streaming: cut unicode escape", "repl", `{"code":"a\u00`, "● repl\na"},
		{"streaming: patch root first", "apply_patch", `{"root":"store","patch":"*** Begin`, "● apply_patch\nroot: store\n*** Begin"},
		{"streaming: numbers", "grep", `{"pattern":"x","context":3`, "● grep\npattern: x\ncontext: 3"},
		{"not an object", "repl", `[1,2]`, "● repl\n[1,2]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := formatCall(c.tool, c.args); got != c.want {
				t.Errorf("formatCall = %q, want %q", got, c.want)
			}
		})
	}
}

func TestInputEditing(t *testing.T) {
	var in input
	in.insert("hello\nworld")
	in.home()
	in.killEnd()
	if in.text != "hello\n" || in.cur != 6 {
		t.Fatalf("killEnd: %q at %d", in.text, in.cur)
	}
	in.killEnd() // at the end of the text: nothing
	in.left()
	in.killEnd() // at the end of a line: joins the next
	if in.text != "hello" {
		t.Fatalf("killEnd at line end: %q", in.text)
	}
	in.left()
	in.left()
	in.killStart()
	if in.text != "lo" || in.cur != 0 {
		t.Fatalf("killStart: %q at %d", in.text, in.cur)
	}
	in.set("héllo")
	in.backspace()
	in.left()
	in.left()
	in.backspace()
	if in.text != "hll" {
		t.Fatalf("backspace over a multi-byte rune: %q", in.text)
	}
	in.set("one two three four")
	lines, cl, cc := in.layout(12) // 10 cells after the prompt
	if len(lines) != 2 || cl != 1 || cc != 10 {
		t.Fatalf("layout: %d lines, cursor %d:%d", len(lines), cl, cc)
	}
	if !in.upDown(12, -1) || in.cur != 7 {
		t.Fatalf("up: cursor at %d", in.cur)
	}
}

// visibleRunes counts the runes of s that take cells.
func visibleRunes(s string) int {
	n := 0
	for _, r := range s {
		if cellWidth(r) > 0 {
			n++
		}
	}
	return n
}

// FuzzWrap checks wrap's invariants: lines cover the text in order, only
// newlines and single break spaces fall between them, and no line is wider
// than the width unless it holds one character that takes cells.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"", "a b c", "hello world\nnext", "日本語 text", "a\tb\t\tc", "    spaces   ", "x\n\n\ny"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, text string, w int) {
		w = w%40 + 1
		if w < 1 {
			w = -w + 1
		}
		segs := wrap(text, w, nil)
		prev := 0
		for i, s := range segs {
			if s.start < prev || s.end < s.start || s.end > len(text) {
				t.Fatalf("segment %d %v out of order (prev end %d) in %q", i, s, prev, text)
			}
			gap := text[prev:s.start]
			if i > 0 && gap != "\n" && gap != " " && gap != "" {
				t.Fatalf("between lines %d and %d: %q in %q", i-1, i, gap, text)
			}
			if line := text[s.start:s.end]; width(line) > w && visibleRunes(line) > 1 {
				t.Fatalf("line %q wider than %d", line, w)
			}
			prev = s.end
		}
		if prev != len(text) {
			t.Fatalf("text after the last line: %q", text[prev:])
		}
	})
}

// appendWrapMismatch streams text into a block in pieces of the given
// sizes, wrapping at width w after each, and returns a description of the
// first step whose lines differ from wrapping the text so far whole.
func appendWrapMismatch(text string, sizes []int, w int) string {
	b := newBlock(kAssistant, "", "", true)
	b.lines(w)
	at := 0
	for i := 0; at < len(text); i++ {
		n := max(1, sizes[i%len(sizes)])
		end := min(at+n, len(text))
		b.add(text[at:end])
		at = end
		got := b.lines(w)
		want := wrap(text[:at], w, []seg{{-1, -1}})
		if !slices.Equal(got, want) {
			return fmt.Sprintf("after %q at width %d: lines %v, want %v", text[:at], w, got, want)
		}
	}
	return ""
}

// TestAppendWrap: a streamed block re-wrapped from its last line gives the
// lines of wrapping its whole text, at every width and in every cut.
func TestAppendWrap(t *testing.T) {
	texts := []string{
		"hello world", "the quick brown fox jumps over the lazy dog", "abcdefghij a bcdefghij",
		"a\n\nb\n", "日本語です 日本 語です", "ab\tc d\te", "two  spaces   three    four",
		" leading and trailing ", "x\n\n\n", strings.Repeat("lorem ipsum dolor sit amet ", 20),
		"long-word-without-any-space-at-all then words", "emoji 😀😀 and combining e\u0301 too",
	}
	for _, text := range texts {
		for _, sizes := range [][]int{{1}, {2}, {3, 1, 4}, {7}, {len(text)}} {
			for w := 1; w <= 14; w++ {
				if msg := appendWrapMismatch(text, sizes, w); msg != "" {
					t.Fatal(msg)
				}
			}
		}
	}
}

// TestAppendWrapAfterSet: replacing the text (set) or a new width wraps
// whole again.
func TestAppendWrapAfterSet(t *testing.T) {
	b := newBlock(kAssistant, "", "", false)
	b.add("hello wonderful world")
	b.lines(8)
	b.set("short")
	b.add(" and more words")
	if got, want := b.lines(8), wrap("short and more words", 8, nil); !slices.Equal(got, want) {
		t.Errorf("after set: %v, want %v", got, want)
	}
	b.add(" yes")
	if got, want := b.lines(5), wrap("short and more words yes", 5, nil); !slices.Equal(got, want) {
		t.Errorf("new width: %v, want %v", got, want)
	}
}

func FuzzAppendWrap(f *testing.F) {
	f.Add("the quick brown fox jumps", uint8(3), uint8(2), uint8(7))
	f.Add("日本語 です\n\nab  cd", uint8(1), uint8(5), uint8(4))
	f.Fuzz(func(t *testing.T, text string, a, b, w uint8) {
		if msg := appendWrapMismatch(text, []int{int(a%16) + 1, int(b%16) + 1}, int(w%40)+1); msg != "" {
			t.Fatal(msg)
		}
	})
}

// BenchmarkAppendWrap: a frame's worth of tokens (32 bytes) appended to a
// streamed block already 100 KB long, then its lines at 200 columns: the
// cost of what was appended, not of the block.
func BenchmarkAppendWrap(b *testing.B) {
	blk := newBlock(kAssistant, "", "", true)
	for _, tok := range llmtest.Prose(25000) {
		blk.add(tok)
	}
	blk.lines(200)
	b.ReportAllocs()
	for b.Loop() {
		blk.add("and more text in this frame ok ")
		if len(blk.lines(200)) == 0 {
			b.Fatal("no lines")
		}
	}
}
