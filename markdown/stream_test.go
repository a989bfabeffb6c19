package markdown

import (
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"harness/llmtest"
	"harness/styled"
)

// sample is a reply using every construct.
func sample(t testing.TB) string {
	b, err := os.ReadFile("testdata/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDocStreams checks that a text streamed in pieces renders, after each
// piece, exactly as the same text rendered at once.
func TestDocStreams(t *testing.T) {
	src := sample(t)
	for _, step := range []int{1, 3, 17} {
		for _, width := range []int{80, 24} {
			var d Doc
			for i := step; ; i += step {
				i = min(i, len(src))
				got := d.Lines(src[:i], width)
				if want := Render(src[:i], width); !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d width %d after %d bytes %q:\ngot\n%s\nwant\n%s", step, width, i, src[max(i-20, 0):i], plainText(got), plainText(want))
				}
				if i == len(src) {
					break
				}
			}
		}
	}
}

// TestDocRedrawsOnlyTheLastBlock checks that appending to a text leaves the
// lines of every block before the last one as they were.
func TestDocRedrawsOnlyTheLastBlock(t *testing.T) {
	var d Doc
	src := "# One\n\nfirst paragraph\n\n- a\n- b\n\nlast"
	d.Lines(src, 40)
	// A paragraph right after a list can still become one of its items.
	if got := d.src[d.open:]; got != "- a\n- b\n\nlast" {
		t.Fatalf("open block starts at %q, want the list", got)
	}
	d.Lines(src+" word\n\nnext", 40)
	if got := d.src[d.open:]; got != "next" {
		t.Fatalf("open block starts at %q, want %q", got, "next")
	}
	d.Lines(src+" word\n\nnext\n\n```go\nx := 1", 40)
	if got := d.src[d.open:]; got != "```go\nx := 1" {
		t.Fatalf("open block starts at %q after a fence", got)
	}
}

func plainText(lines []styled.Line) string {
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString(l.Text() + "\n")
	}
	return sb.String()
}

func FuzzDoc(f *testing.F) {
	f.Add("# a\n\n- b\n- c\n\n```go\nx\n```\n| a | b |\n|---|---|\n| 1 | 2 |\n", 7, 30)
	f.Add("> q\n> r\n\n1. x\n\n   y\n\n***z***", 2, 10)
	f.Fuzz(func(t *testing.T, src string, step, width int) {
		step = max(step%64, 1)
		if step < 0 {
			step = -step
		}
		width = 1 + abs(width)%100
		var d Doc
		for i := step; ; i += step {
			i = min(i, len(src))
			got := d.Lines(src[:i], width)
			for _, l := range got {
				if strings.Contains(l.Text(), "\n") {
					t.Fatalf("line %q holds a newline", l.Text())
				}
			}
			if !strings.Contains(src[:i], "]:") { // link references can reach back
				if want := Render(src[:i], width); !reflect.DeepEqual(got, want) {
					t.Fatalf("after %d bytes: got\n%s\nwant\n%s", i, plainText(got), plainText(want))
				}
			}
			if i == len(src) {
				break
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestStreamingCloses: while streaming, inline code and strong emphasis
// left open at the end are drawn closed; inside an open fence nothing is.
func TestStreamingCloses(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"say **hel", "say «b|hel»\n"},
		{"run `go te", "run «code|go te»\n"},
		{"a **b** and `c` done", "a «b|b» and «code|c» done\n"},
		{"`a ** b` and **c", "«code|a ** b» and «b|c»\n"},
		{"x **", "x **\n"},
		{"```go\nx := `a", "  |«name|x»«ct| »«op|:=»«ct| »«err|`a»\n"},
	} {
		d := Doc{Streaming: true}
		got := styled.Annotate(d.Lines(tc.src, 40))
		if tc.src == "```go\nx := `a" {
			if strings.Contains(got, "`a`") {
				t.Errorf("%q: closed inside a fence:\n%s", tc.src, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

// streamEqual streams src into a streaming Doc step bytes at a time and
// checks each frame against a streaming Doc given that prefix at once:
// exactly (styles too) when exact, else cell for cell.
func streamEqual(t *testing.T, src string, step, width int, exact bool) {
	t.Helper()
	d := Doc{Streaming: true}
	var prev []styled.Line
	for i := step; ; i += step {
		i = min(i, len(src))
		got := d.Lines(src[:i], width)
		if k := d.Kept(); k > len(prev) || k > 0 && !reflect.DeepEqual(got[:k], prev[:k]) {
			t.Fatalf("after %d bytes %q: Kept %d of %d lines, but they changed", i, src[:i], k, len(prev))
		}
		prev = append(prev[:0], got...)
		fresh := Doc{Streaming: true}
		want := fresh.Lines(src[:i], width)
		if exact && !reflect.DeepEqual(got, want) || plainText(got) != plainText(want) {
			t.Fatalf("step %d width %d after %d bytes %q:\ngot\n%s\nwant\n%s", step, width, i, src[:i],
				styled.Annotate(got), styled.Annotate(want))
		}
		if i == len(src) {
			break
		}
	}
}

// TestStreamingFence: an open code fence is drawn from the line its
// lexer last read in a plain state, yet every frame is what a fresh
// render of the text so far gives, for code whose strings and comments
// span lines too; once closed it is what Render gives (for these texts, in
// which no late line changes the meaning of earlier ones).
func TestStreamingFence(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"go", llmtest.GoFence(40)},
		{"python", "```python\ndef f():\n    \"\"\"A doc\n    string over\n    lines.\"\"\"\n    return 'x'  # c\n\nprint(f())\n```\n"},
		{"c comment", "Some C:\n```c\nint x; /* a comment\n   across lines */\nint y = 2;\n\tchar *s = \"t\";\n```\nafter"},
		{"no language", "```\nplain\ttext\n\nmore\n```\n\nend"},
		{"sample", sample(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, step := range []int{1, 5, 48} {
				streamEqual(t, tc.src, step, 60, true)
			}
			d := Doc{Streaming: true}
			for i := 1; i <= len(tc.src); i++ {
				d.Lines(tc.src[:i], 60)
			}
			if got, want := d.Lines(tc.src, 60), Render(tc.src, 60); !reflect.DeepEqual(got, want) && !strings.HasSuffix(tc.src, "after") {
				t.Errorf("the last frame differs from Render:\n%s\nwant\n%s", styled.Annotate(got), styled.Annotate(want))
			}
		})
	}
}

// TestStreamingFenceLexesLittle: each frame of a long open fence lexes
// only the lines from the last plain line end.
func TestStreamingFenceLexesLittle(t *testing.T) {
	src := llmtest.GoFence(1000)
	d := Doc{Streaming: true}
	for i := 40; i < len(src)-4; i += 40 {
		d.Lines(src[:i], 80)
		if d.fence.on {
			if n := strings.Count(src[d.fence.ckAt:i], "\n"); n > 2 {
				t.Fatalf("after %d bytes the fence lexes %d lines again", i, n)
			}
		} else if i > 100 {
			t.Fatalf("after %d bytes the open fence is parsed again", i)
		}
	}
}

func FuzzStreamingDoc(f *testing.F) {
	f.Add("```go\nx := `a\nb`\n", 3, 30)
	f.Add("text\n```py\n'''x\ny'''\nz = 1\n", 1, 12)
	f.Add("# a\n\n- b\n\n```\nc\n~~~\n", 4, 20)
	f.Fuzz(func(t *testing.T, src string, step, width int) {
		step = 1 + abs(step)%64
		width = 1 + abs(width)%100
		if n := fenceLines(src); n > 1 || n == 1 && fenceLines(strings.SplitN(src, "\n", 2)[0]) == 0 {
			return // closers counts fence lines, not fences (see TestRandomStreams)
		}
		streamEqual(t, src, step, width, false)
		// Closed, the fence keeps the lines it was drawn with: the cells
		// of a fresh render (its classes may differ where a late line
		// changed the meaning of earlier ones).
		closed := src + "\n```\n\nend"
		d := Doc{Streaming: true}
		for i := step; i < len(src); i += step {
			d.Lines(src[:i], width)
		}
		fresh := Doc{Streaming: true}
		if got, want := d.Lines(closed, width), fresh.Lines(closed, width); plainText(got) != plainText(want) {
			t.Fatalf("closed: got\n%s\nwant\n%s", styled.Annotate(got), styled.Annotate(want))
		}
	})
}

// paraCases are paragraphs that grow into every inline construct, and
// into blocks that reach back over them (a setext heading, a table).
var paraCases = []string{
	llmtest.Words(400, 0),
	"A *long* paragraph with **bold**, `code`, [a link](http://x.y) and www.example.com, " +
		"snake_case_words, 2*3 and a_b, an &amp; entity, an escaped \\* star, a <b>tag</b>, " +
		"~~struck~~ text and *an opener that closes much later, after many words* and more words. " +
		"A hard  \nbreak, a soft\nbreak, and `code that\nspans lines` then the end.",
	"words before an underline that makes a heading of all of them\n===\n\nafter",
	"a paragraph whose last line | becomes a table\n| --- | --- |\n| x | y |\n\nafter",
	"a paragraph interrupted by a list\n- item one\n- item two",
	"unmatched [bracket and `tick and <tag and * star stay open until the very end of the text",
	"**bold that opens and runs over many words until it closes** then plain words follow it.",
}

// TestParagraphStreams: a paragraph streamed a few bytes at a time is, at
// each step, what rendering the text so far gives, while only its words
// since the last settled one are parsed again.
func TestParagraphStreams(t *testing.T) {
	for _, src := range paraCases {
		for _, step := range []int{1, 6, 40} {
			for _, width := range []int{80, 13} {
				streamEqual(t, src, step, width, true)
				var d Doc
				for i := step; ; i += step {
					i = min(i, len(src))
					if got, want := d.Lines(src[:i], width), Render(src[:i], width); !reflect.DeepEqual(got, want) {
						t.Fatalf("step %d width %d after %d bytes %q:\ngot\n%s\nwant\n%s", step, width, i, src[max(i-20, 0):i],
							styled.Annotate(got), styled.Annotate(want))
					}
					if i == len(src) {
						break
					}
				}
			}
		}
	}
}

// TestParagraphSettles: in a long plain paragraph, a frame parses only the
// text after the last word settled.
func TestParagraphSettles(t *testing.T) {
	src := llmtest.Words(3000, 0)
	d := Doc{Streaming: true}
	for i := 48; i < len(src); i += 48 {
		d.Lines(src[:i], 100)
		if !d.para.on || i-d.para.cut > 60 || len(d.para.spans) > 40 {
			t.Fatalf("after %d bytes: paragraph on %v, %d bytes unsettled, %d spans kept", i, d.para.on, i-d.para.cut, len(d.para.spans))
		}
	}
}

// TestRandomStreams streams random texts made of markdown's pieces, a few
// bytes at a time, into a Doc and a streaming Doc, checking every step
// against rendering the text so far afresh.
func TestRandomStreams(t *testing.T) {
	pieces := []string{"*", "**", "_", "`", "[", "](u)", "<b>", " ", " ", " ", "\n", "\n\n", "word", "words",
		"x_y", "```go\n", "```\n", "# ", "- ", "1. ", "| a | b |\n|---|---|\n", "===\n", "---\n", "\\*", "&amp;",
		"www.a.b", "  \n", "> ", "~~", "a | b", "\n| - |", "    ", "\t", "é"}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 30
	}
	for range n {
		var sb strings.Builder
		for range 5 + rng.IntN(60) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		src := sb.String()
		step, width := 1+rng.IntN(9), 5+rng.IntN(40)
		// Streaming closers count fence lines, not fences (one in an HTML
		// block, or a second opening line, counts): a fresh render of a
		// text holding one may close inline code in a fence, or leave it
		// open after one. TestStreamingFence and FuzzStreamingDoc stream
		// fences.
		if fenceLines(src) == 0 {
			streamEqual(t, src, step, width, true)
		}
		var d Doc
		for i := step; ; i += step {
			i = min(i, len(src))
			if got, want := d.Lines(src[:i], width), Render(src[:i], width); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q step %d width %d after %d bytes:\ngot\n%s\nwant\n%s", src, step, width, i,
					styled.Annotate(got), styled.Annotate(want))
			}
			if i == len(src) {
				break
			}
		}
	}
}

// fenceLines counts the lines that streaming closers take for fences.
func fenceLines(src string) int {
	n := 0
	for _, l := range strings.Split(src, "\n") {
		if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			n++
		}
	}
	return n
}
