// Fuzzing: any pattern and text — no panic, and the DFA and prefilters agree with Go's regexp.

package tools

import "testing"

func FuzzMatcher(f *testing.F) {
	for _, pc := range referencePatterns {
		f.Add(pc.expr, "ab\nc\r\n\xffé", pc.fixed, pc.icase)
	}
	f.Add(`\bx\B`, "x y\nxx", false, false)
	f.Add(`(?i)ſ|K`, "S\nk\n", false, true)
	f.Fuzz(func(t *testing.T, expr, text string, fixed, icase bool) {
		p, err := compilePattern(expr, fixed, icase)
		if err != nil {
			return
		}
		var want [][2]int
		start := 0
		data := []byte(text)
		for i := 0; i <= len(data); i++ {
			if i == len(data) || data[i] == '\n' {
				if (i > start || i < len(data)) && p.re.Match(data[start:i]) {
					want = append(want, [2]int{start, i})
				}
				start = i + 1
			}
		}
		var got [][2]int
		newMatcher(p).lines(data, func(s, e int) { got = append(got, [2]int{s, e}) })
		if len(got) != len(want) {
			t.Fatalf("pattern %q text %q: lines %v, want %v", expr, text, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("pattern %q text %q: lines %v, want %v", expr, text, got, want)
			}
		}
	})
}
