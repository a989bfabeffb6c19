package markdown

import (
	"os"
	"reflect"
	"strings"
	"testing"

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
