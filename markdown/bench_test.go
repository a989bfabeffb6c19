package markdown

import (
	"strings"
	"testing"

	"harness/llmtest"
)

// BenchmarkStream20k draws a 20,000-token reply as it streams, 8 tokens a
// frame (500 tokens a second at 60 frames a second), at 200 columns.
func BenchmarkStream20k(b *testing.B) {
	toks := llmtest.Prose(20000)
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
