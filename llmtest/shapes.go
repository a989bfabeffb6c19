// Long replies of the shapes models write every day, for the UI's
// streaming benchmarks and scripts/uicost: prose in paragraphs, one long
// paragraph, a long fenced code block and a patch adding a long file.

package llmtest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// shapeWords are the words of Words: about 6.6 bytes a word with its
// space, like English prose.
var shapeWords = strings.Fields("the streaming reply of a terminal agent renders every frame " +
	"at a constant cost whatever came before it and when the model writes a long answer " +
	"nothing drawn earlier should be redrawn because only the paragraph's last line can " +
	"still change its incremental highlighting wrapping characters independently of transcripts")

// Words is n words of prose: a sentence ends every 12 words, and a blank
// line starts a new paragraph every para words (para 0: one paragraph).
// 20,000 words are about 131 KB.
func Words(n, para int) string {
	var sb strings.Builder
	for i := range n {
		switch {
		case i == 0:
		case para > 0 && i%para == 0:
			sb.WriteString("\n\n")
		default:
			sb.WriteByte(' ')
		}
		w := shapeWords[(i*7+i/len(shapeWords))%len(shapeWords)]
		if i%12 == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		sb.WriteString(w)
		if i%12 == 11 || i == n-1 {
			sb.WriteByte('.')
		}
	}
	return sb.String()
}

// GoCode is n lines of Go (about 30 bytes a line, 4,000 lines about
// 122 KB): functions with comments, strings and numbers, each line ending
// in a newline.
func GoCode(n int) string {
	var sb strings.Builder
	for i, lines := 0, 0; lines < n; i++ {
		fn := []string{
			fmt.Sprintf("// f%d returns the scaled sum of a and b, or \"none\".", i),
			fmt.Sprintf("func f%d(values []int, scale int, label string) (int, string) {", i),
			fmt.Sprintf("\ttotal := values[0] + values[1]*scale + %d // weighted", i%97),
			"\tif total > 100 && label != \"\" {",
			fmt.Sprintf("\t\treturn total - 100, label + \" over %d\"", i),
			"\t}",
			"\treturn total, \"none\"",
			"}",
			"",
		}
		for _, l := range fn {
			if lines == n {
				break
			}
			sb.WriteString(l + "\n")
			lines++
		}
	}
	return sb.String()
}

// GoFence is a reply holding one fenced Go block of n lines.
func GoFence(n int) string {
	return "Here is the file:\n\n```go\n" + GoCode(n) + "```\n"
}

// AddFilePatch is an apply_patch patch adding path with n lines of Go.
func AddFilePatch(path string, n int) string {
	var sb strings.Builder
	sb.WriteString("*** Begin Patch\n*** Add File: " + path + "\n")
	for _, l := range strings.SplitAfter(strings.TrimSuffix(GoCode(n), "\n"), "\n") {
		sb.WriteString("+" + l)
	}
	sb.WriteString("\n*** End Patch\n")
	return sb.String()
}

// Chunks cuts s into pieces of about n bytes, as a stream sends them (a
// piece ends on a character boundary).
func Chunks(s string, n int) []string {
	var out []string
	for s != "" {
		i := min(max(n, 1), len(s))
		for i < len(s) && !utf8.RuneStart(s[i]) {
			i++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}
