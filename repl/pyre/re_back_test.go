package pyre

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"harness/repl/pystr"
)

// engineCases are patterns, flags and subjects with CPython 3.11's
// finditer spans (in characters, every group of each match).
var engineCases = []struct {
	pat   string
	flags int
	s     string
	want  [][]int
}{
	{`\d+`, 0, "a1 b22 c333", [][]int{{1, 2}, {4, 6}, {8, 11}}},
	{`(\w+)=(\w*)`, 0, "a=1 b= c=33", [][]int{{0, 3, 0, 1, 2, 3}, {4, 6, 4, 5, 6, 6}, {7, 11, 7, 8, 9, 11}}},
	{`(?P<k>\w+):\s*(?P<v>.*)$`, 8, "name: x\nport: 80\n", [][]int{{0, 7, 0, 4, 6, 7}, {8, 16, 8, 12, 14, 16}}},
	{`\w+`, 0, "naïve café 日本語 x", [][]int{{0, 5}, {6, 10}, {11, 14}, {15, 16}}},
	{`é+`, 0, "éé a é", [][]int{{0, 2}, {5, 6}}},
	{`a*`, 0, "baaac", [][]int{{0, 0}, {1, 4}, {4, 4}, {5, 5}}},
	{`x*`, 0, "abxd", [][]int{{0, 0}, {1, 1}, {2, 3}, {3, 3}, {4, 4}}},
	{`$`, 0, "a\nb\n", [][]int{{3, 3}, {4, 4}}},
	{`^\s*#.*$`, 8, "x\n  # c\ny # d\n", [][]int{{2, 7}}},
	{`(?i)straße`, 0, "STRASSE Straße", [][]int{{8, 14}}},
	{`[^\W\d]+`, 0, "ab12cd é3", [][]int{{0, 2}, {4, 6}, {7, 8}}},
	{`\s+`, 0, "a   b\tc", [][]int{{1, 4}, {5, 6}}},
	{`(a)|(b)`, 0, "ab", [][]int{{0, 1, 0, 1, -1, -1}, {1, 2, -1, -1, 1, 2}}},
	{`(a|(b))+`, 0, "ba", [][]int{{0, 2, 1, 2, 0, 1}}},
	{`a{,2}`, 0, "aaaaa", [][]int{{0, 2}, {2, 4}, {4, 5}, {5, 5}}},
	{`\bfoo\b`, 0, "foo foobar (foo)", [][]int{{0, 3}, {12, 15}}},
	{`\Bo`, 0, "foo o", [][]int{{1, 2}, {2, 3}}},
	{`(?s)a.b`, 0, "a\nb", [][]int{{0, 3}}},
	{`a.b`, 0, "a\nb axb", [][]int{{4, 7}}},
	{`(?x) \d+ # digits\n [a-z]`, 0, "12a 3 4b", [][]int{{0, 2}, {4, 5}, {6, 7}}},
	{`[\]a-]+`, 0, "a]-b", [][]int{{0, 3}}},
	{`\x41\u00e9\101`, 0, "AéA", [][]int{{0, 3}}},
	{`\Aab|b\Z`, 0, "abab", [][]int{{0, 2}, {3, 4}}},
	{`a\Z`, 0, "a\n", nil},
	{`(?i)[a-z]+`, 0, "HeLLo wORLD", [][]int{{0, 5}, {6, 11}}},
	{`\d`, 256, "1٣2", [][]int{{0, 1}, {2, 3}}},
	{`\w+`, 256, "naïve", [][]int{{0, 2}, {3, 5}}},
	{`(?=.*\d)(?=.*[a-z])\w{6,}`, 0, "abcdef abc123 123456", [][]int{{0, 6}, {7, 13}}},
	{`(\w)\1`, 0, "hello bookkeeper", [][]int{{2, 4, 2, 3}, {7, 9, 7, 8}, {9, 11, 9, 10}, {11, 13, 11, 12}}},
	{`(?<=\$)\d+(?:\.\d\d)?`, 0, "cost $12.50 or €3 or $7", [][]int{{6, 11}, {22, 23}}},
	{`(?<!\d)\d{3}(?!\d)`, 0, "12 345 6789 012", [][]int{{3, 6}, {12, 15}}},
	{`(?P<q>['\"]).*?(?P=q)`, 0, "say 'hi' and \"yo\" ok", [][]int{{4, 8, 4, 5}, {13, 17, 13, 14}}},
	{`\b(\w+)\s+\1\b`, 2, "the the cat Cat sat", [][]int{{0, 7, 0, 3}, {8, 15, 8, 11}}},
	{`(?>a+)b|a+c`, 0, "aaab aac", [][]int{{0, 4}, {5, 8}}},
	{`a++b`, 0, "aab ab", [][]int{{0, 3}, {4, 6}}},
	{`(<)?\w+(?(1)>)`, 0, "<a> b <c", [][]int{{0, 3, 0, 1}, {4, 5, -1, -1}, {7, 8, -1, -1}}},
	{`(?<=é)\w`, 0, "éa xé日", [][]int{{1, 2}, {5, 6}}},
	{`(?=(\w\w))`, 0, "abcd", [][]int{{0, 0, 0, 2}, {1, 1, 1, 3}, {2, 2, 2, 4}}},
	{`(?<=a)|b`, 0, "ab", [][]int{{1, 1}, {1, 2}}},
	{`|a`, 0, "aa", [][]int{{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 2}}},
	{`a??`, 0, "aa", [][]int{{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 2}}},
	{`\b\w+\b`, 0, "naïve café", [][]int{{0, 5}, {6, 10}}},
	{`(?m:^a)b$`, 0, "ab\nab\n", [][]int{{3, 5}}},
	{`^(?!.*password).*$`, 8, "ok line\nmy password\nfine\n", [][]int{{0, 7}, {20, 24}, {25, 25}}},
	{`(?i)(?<=ID:)\s*(\w+)`, 0, "id: x7 ID:y8", [][]int{{3, 6, 4, 6}, {10, 12, 10, 12}}},
	{`(\d+)(?=(?:\d{3})+$)`, 0, "1234567", [][]int{{0, 4, 0, 4}}},
	{`(?<![\w.])\d+(?![\w.])`, 0, "v1.2 42 x3 7.", [][]int{{5, 7}}},
	{`(?x) (?<= \$ ) \d+  # amount`, 0, "$5 $66", [][]int{{1, 2}, {4, 6}}},
}

// spans runs Each and gives its matches' spans in characters.
func spans(p *Regexp, s string) ([][]int, error) {
	sub, err := p.Prepare("t", s)
	if err != nil {
		return nil, err
	}
	var out [][]int
	err = p.Each("t", sub, 0, -1, func(loc []int) error {
		c := make([]int, len(loc))
		for i, b := range loc {
			c[i] = -1
			if b >= 0 {
				c[i] = pystr.ByteToChar(s, b)
			}
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// TestEnginesTable runs every case on the engine Compile chooses and,
// when that is RE2, on the backtracking engine as well: both give
// CPython's spans.
func TestEnginesTable(t *testing.T) {
	for _, c := range engineCases {
		p, err := Compile("t", c.pat, c.flags)
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		engines := []*Regexp{p}
		if p.Engine() == "RE2" {
			b, err := compileBack("t", c.pat, c.flags)
			if err != nil {
				t.Errorf("%q: backtracking: %v", c.pat, err)
				continue
			}
			engines = append(engines, b)
		}
		for _, e := range engines {
			got, err := spans(e, c.s)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s %q over %q: got %v, %v; want %v", e.Engine(), c.pat, c.s, got, err, c.want)
			}
		}
	}
}

// TestEngineChoice: a pattern RE2 can run never goes to the backtracking
// engine; one it cannot run always does.
func TestEngineChoice(t *testing.T) {
	re2 := []string{`\d+`, `(\w+)=(\w*)`, `(?P<k>\w+)`, `\bfoo\b`, `a{,2}`, `x(?=y)`, `\n(?=class )`, `(?i)[a-z]+$`,
		`(?m:^a)b$`, `a*?`, `[\]a-]+`, `\x41\u00e9\101`, `(?s:.)`, `^\s*#.*$`, `(?:a|b)*c`}
	back := []string{`(?=.*\d)\w+`, `(\w)\1`, `(?<=\$)\d+`, `(?<!x)a`, `a(?!b)`, `(?P<q>a)(?P=q)`, `(?>a+)b`,
		`a++`, `a*+b`, `(<)?a(?(1)>)`, `x(?=y)|z`, `(?x: a b )`}
	for _, src := range re2 {
		if p, err := Compile("t", src, 0); err != nil || p.Engine() != "RE2" {
			t.Errorf("%q: %v, %v; want RE2", src, p, err)
		}
	}
	for _, src := range back {
		if p, err := Compile("t", src, 0); err != nil || p.Engine() != "backtracking" {
			t.Errorf("%q: %v; want backtracking", src, err)
		}
	}
	for _, c := range engineCases {
		_, err := compileRE2("t", c.pat, c.flags)
		p, _ := Compile("t", c.pat, c.flags)
		if want := map[bool]string{true: "RE2", false: "backtracking"}[err == nil]; p == nil || p.Engine() != want {
			t.Errorf("%q: want %s (RE2's compile: %v)", c.pat, want, err)
		}
	}
}

// TestBackTimeout: with a small injected timeout a catastrophic pattern
// stops with a TimeoutError naming the limit, and a cancelled call stops
// the match at once.
func TestBackTimeout(t *testing.T) {
	defer func(d time.Duration) { MatchTimeout = d }(MatchTimeout)
	MatchTimeout = 10 * time.Millisecond
	p, err := Compile("re.search", `(?=x?)(a+)+$`, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Repeat("a", 40) + "b"
	sub, _ := p.Prepare("re.search", s)
	_, err = p.Exec(sub, Search, 0)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Memory || !strings.Contains(err.Error(), "regex time limit (10ms)") {
		t.Fatalf("got %v, want a TimeoutError at 10ms", err)
	}
	MatchTimeout = time.Hour
	q, _ := Compile("re.search", `(?=y?)(a+)+$`, 0)
	ctx, cancel := context.WithCancel(context.Background())
	sub, _ = q.Prepare("re.search", s)
	sub.Ctx = ctx
	done := make(chan error, 1)
	go func() {
		_, err := q.Exec(sub, Search, 0)
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if err != errCancelled {
			t.Fatalf("got %v, want the cancel", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancel did not stop the match")
	}
}

// TestBackPositions: Exec from a position sees the text before it for
// lookbehind but not for ^ and \A, as Python's pos; offsets are bytes of
// non-ASCII text.
func TestBackPositions(t *testing.T) {
	for _, c := range []struct {
		pat  string
		k    Kind
		s    string
		pos  int
		want string
	}{
		{`(?<=a)b`, Search, "ab", 1, "[1 2]"},
		{`^b(?=)`, Search, "ab", 1, "[]"},
		{`\Ab(?!x)`, Search, "ab", 1, "[]"},
		{`(?<=é)b`, Match, "éb", 2, "[2 3]"},
		{`(\w)\1`, Full, "日日", 0, "[0 6 0 3]"},
		{`(\w)\1`, Full, "日日x", 0, "[]"},
		{`a(?=b)|ab`, Full, "ab", 0, "[0 2]"},
	} {
		p, err := Compile("t", c.pat, 0)
		if err != nil {
			t.Fatal(err)
		}
		sub, _ := p.Prepare("t", c.s)
		loc, err := p.Exec(sub, c.k, c.pos)
		if got := fmt.Sprint(loc); err != nil || got != c.want {
			t.Errorf("%q %q from %d: got %s, %v; want %s", c.pat, c.s, c.pos, got, err, c.want)
		}
	}
}
