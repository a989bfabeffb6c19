package pyre

import "testing"

func TestTrailingLookahead(t *testing.T) {
	tests := []struct {
		src, x, y string
		ok        bool
	}{
		{`\n(?=class )`, `\n`, `class `, true},
		{`(?=[A-Z])`, ``, `[A-Z]`, true},
		{`(?i)foo(?=(\d)|x)`, `(?i)foo`, `(\d)|x`, true},
		{`[(]a(?=b)`, `[(]a`, `b`, true},
		{`[]()]a(?=b)`, `[]()]a`, `b`, true},
		{`a\((?=b)`, `a\(`, `b`, true},
		{`a|b(?=c)`, ``, ``, false},
		{`(a|b)(?=c)`, `(a|b)`, `c`, true},
		{`a(?=b)c`, ``, ``, false},
		{`a(?!b)`, ``, ``, false},
		{`a(?<=b)`, ``, ``, false},
		{`a(b)`, ``, ``, false},
		{`a(?=b)\)`, ``, ``, false},
		{`a(?=b`, ``, ``, false},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			x, y, ok := trailingLookahead(tt.src)
			if ok != tt.ok || ok && (x != tt.x || y != tt.y) {
				t.Errorf("trailingLookahead(%q) = %q, %q, %v; want %q, %q, %v", tt.src, x, y, ok, tt.x, tt.y, tt.ok)
			}
		})
	}
}

// FuzzTrailingLookahead checks the scan on any pattern: it never panics,
// what it splits off is the pattern again, and the compiled pattern runs.
func FuzzTrailingLookahead(f *testing.F) {
	for _, s := range []string{`\n(?=class )`, `(?=[A-Z])`, `a|b(?=c)`, `[]](?=\])`, `((?=a))`, `(?=(\d\d))`, `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		x, y, ok := trailingLookahead(src)
		if !ok {
			return
		}
		if x+"(?="+y+")" != src || topLevelBar(x) {
			t.Fatalf("%q split into %q and %q", src, x, y)
		}
		p, err := Compile("re.search", src, 0)
		if err != nil {
			return
		}
		for _, text := range []string{"", "abc\nclass A\n", "x1y22"} {
			sub, err := p.Prepare("re.search", text)
			if err != nil {
				continue
			}
			_ = p.Each("re.findall", sub, 0, -1, func(loc []int) error {
				if loc[0] > loc[1] || loc[1] > len(text) {
					t.Fatalf("%q over %q: location %v", src, text, loc)
				}
				return nil
			})
		}
	})
}
