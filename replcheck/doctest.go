// Docstring examples: found, and compared with what the REPL gave, as
// Python's doctest does.

package replcheck

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Example is one ">>> " example of a docstring.
type Example struct {
	Source string // the code: the ">>> " line and its "... " lines, prefixes removed
	Want   string // the expected output lines ("<BLANKLINE>" read as an empty line); "" expects none
	Line   int    // the 0-based line of the ">>> " within the docstring
}

// Examples returns the examples of doc in order. An example is a line
// whose text starts with ">>>", the lines after it starting with "..."
// at the same indentation (its continuation), then its expected output:
// the lines up to the first blank line or the next ">>>", each with the
// example's indentation removed.
func Examples(doc string) []Example {
	lines := strings.Split(doc, "\n")
	var out []Example
	for i := 0; i < len(lines); {
		text := strings.TrimLeft(lines[i], " \t")
		if !isPrompt(text, ">>>") {
			i++
			continue
		}
		indent := lines[i][:len(lines[i])-len(text)]
		ex := Example{Line: i}
		src := []string{promptText(text, ">>>")}
		i++
		for i < len(lines) && strings.HasPrefix(lines[i], indent) && isPrompt(lines[i][len(indent):], "...") {
			src = append(src, promptText(lines[i][len(indent):], "..."))
			i++
		}
		var want []string
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" && !isPrompt(strings.TrimLeft(lines[i], " \t"), ">>>") {
			w := strings.TrimPrefix(lines[i], indent)
			if strings.TrimSpace(w) == "<BLANKLINE>" {
				w = ""
			}
			want = append(want, w)
			i++
		}
		ex.Source, ex.Want = strings.Join(src, "\n"), strings.Join(want, "\n")
		out = append(out, ex)
	}
	return out
}

// isPrompt reports whether text starts with prompt followed by a space
// or nothing.
func isPrompt(text, prompt string) bool {
	return text == prompt || strings.HasPrefix(text, prompt+" ")
}

// promptText is text without its prompt and the space after it.
func promptText(text, prompt string) string {
	return strings.TrimPrefix(strings.TrimPrefix(text, prompt), " ")
}

// tracebackHeader starts an error with its backtrace, in the REPL as in
// Python.
const tracebackHeader = "Traceback (most recent call last):"

// Got is what an example's result shows where doctest reads the
// session's output: the result itself, nothing for "(no output)".
func Got(result string) string {
	if result == "(no output)" {
		return ""
	}
	return result
}

// Matches reports whether got (see Got) is the output want expects.
// Lines are compared as text without their trailing spaces, and the
// trailing empty lines of both are ignored. When want starts with a
// traceback header, only the exception is compared, as doctest does: the
// header stands for the whole stack, so the output before it, the frames
// (indented lines) and any "..." lines are skipped in both.
func Matches(want, got string) bool {
	w, g, ok := Compared(want, got)
	return ok && normalize(w) == normalize(g)
}

// Compared returns the parts of want and got that Matches compares: the
// exceptions when want expects a traceback (ok is false when got has
// none), else both whole.
func Compared(want, got string) (w, g string, ok bool) {
	if !strings.HasPrefix(want, tracebackHeader) {
		return want, got, true
	}
	i := strings.Index(got, tracebackHeader)
	if i < 0 || i > 0 && got[i-1] != '\n' {
		return want, got, false
	}
	return exception(want), exception(got[i:]), true
}

// exception is a traceback without its header, frames and "..." lines.
func exception(tb string) string {
	lines := strings.Split(tb, "\n")[1:]
	for len(lines) > 0 && (strings.HasPrefix(lines[0], " ") || strings.HasPrefix(lines[0], "\t") || strings.TrimSpace(lines[0]) == "...") {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

func normalize(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// Diff is a line diff of want and got: " " for a line both have, "-" for
// a line only want has, "+" for one only got has.
func Diff(want, got string) []string {
	want, got = normalize(want), normalize(got)
	if want == "" || got == "" { // one side has no line at all
		var out []string
		for _, side := range []struct{ mark, text string }{{"-", want}, {"+", got}} {
			if side.text != "" {
				for _, l := range strings.Split(side.text, "\n") {
					out = append(out, side.mark+l)
				}
			}
		}
		return out
	}
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(want+"\n", got+"\n")
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	var out []string
	for _, d := range diffs {
		mark := " "
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			mark = "-"
		case diffmatchpatch.DiffInsert:
			mark = "+"
		}
		for _, l := range strings.Split(strings.TrimSuffix(d.Text, "\n"), "\n") {
			out = append(out, mark+l)
		}
	}
	return out
}
