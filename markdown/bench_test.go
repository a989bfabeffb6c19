package markdown

import (
	"strings"
	"testing"
)

// streamText is the uicost benchmark's reply: n four-byte tokens in
// paragraphs of 120.
func streamText(n int) []string {
	words := []string{"the ", "and ", "for ", "you ", "not ", "are ", "but ", "can ", "all ", "any ", "one ", "out "}
	out := make([]string, n)
	for i := range out {
		switch {
		case i%120 == 119:
			out[i] = "ok.\n"
		case i%120 == 0 && i > 0:
			out[i] = "\nSo "
		default:
			out[i] = words[i%len(words)]
		}
	}
	return out
}

// BenchmarkStream20k draws a 20,000-token reply as it streams, 8 tokens a
// frame (500 tokens a second at 60 frames a second), at 200 columns.
func BenchmarkStream20k(b *testing.B) {
	toks := streamText(20000)
	for b.Loop() {
		var d Doc
		var sb strings.Builder
		for i, t := range toks {
			sb.WriteString(t)
			if i%8 == 7 {
				d.Lines(sb.String(), 200)
			}
		}
	}
}

// BenchmarkRenderSample renders the sample reply at once.
func BenchmarkRenderSample(b *testing.B) {
	src := sample(b)
	for b.Loop() {
		Render(src, 80)
	}
}
