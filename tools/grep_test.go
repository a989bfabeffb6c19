// grep against a line-by-line reference, at every chunk size, and against GNU grep.

package tools

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"harness/config"
	"harness/jail"
)

func openRoot(t testing.TB, dir string) *jail.Root {
	t.Helper()
	r, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadOnly })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// referenceGrep is the obvious implementation: split into lines, match each
// with Go's regexp, print context by line numbers.
func referenceGrep(name string, data []byte, re *regexp.Regexp, context int) string {
	text := string(data)
	if text == "" {
		return ""
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	show := make([]bool, len(lines))
	for i, l := range lines {
		if re.MatchString(l) {
			for j := max(0, i-context); j <= min(len(lines)-1, i+context); j++ {
				show[j] = true
			}
		}
	}
	var b strings.Builder
	last := -1
	for i, ok := range show {
		if !ok {
			continue
		}
		if context > 0 && last >= 0 && i > last+1 {
			b.WriteString("--\n")
		}
		fmt.Fprintf(&b, "%s:%d:%s\n", name, i+1, lines[i])
		last = i
	}
	return b.String()
}

var referencePatterns = []struct {
	expr         string
	fixed, icase bool
}{
	{"ab", false, false}, {"ab", true, true}, {"a.b", true, false}, {"^a", false, false}, {"b$", false, false},
	{"^$", false, false}, {"a|ba|c\r", false, false}, {"[^a]b", false, false}, {`\bab\b`, false, false},
	{`\Bb`, false, false}, {"a{2,}", false, false}, {"(ab|ba)+c", false, false}, {"é", false, true},
	{"AB", false, true}, {"k", false, true}, {`\s\S`, false, false}, {"(?s)a.c", false, false},
	{`\d`, false, false}, {"x*", false, false}, {"^(a|b)*$", false, false}, {"c\r$", false, false},
	{"[[:upper:]]", false, false}, {"ÉA", false, true},
}

// randomText makes lines from a small alphabet, with CRs, long runs,
// non-ASCII, invalid UTF-8 and empty lines, sometimes without a final newline.
func randomText(rng *rand.Rand) []byte {
	alphabet := []string{"a", "b", "c", " ", "\r", "A", "B", "é", "É", "K", "\u212a", "1", "\n", "\n", "\xff", "ab", "ba"}
	var b bytes.Buffer
	n := rng.IntN(400)
	for range n {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	if rng.IntN(3) == 0 {
		b.WriteString(strings.Repeat("a", rng.IntN(300)) + "\n")
	}
	return b.Bytes()
}

func TestGrepMatchesReference(t *testing.T) {
	defer func(n int) { chunkSize = n }(chunkSize)
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	root := openRoot(t, dir)
	for i := range 48 {
		data := randomText(rng)
		writeFile(t, filepath.Join(dir, "f.txt"), data)
		for _, pc := range referencePatterns {
			expr := pc.expr
			if pc.fixed {
				expr = regexp.QuoteMeta(expr)
			}
			if pc.icase {
				expr = "(?i)" + expr
			}
			re := regexp.MustCompile(expr)
			ctx := rng.IntN(3)
			want := referenceGrep("f.txt", data, re, ctx)
			chunkSize = []int{1, 7, 64, 256 << 10}[i%4]
			got, err := Grep(context.Background(), root, GrepArgs{Pattern: pc.expr, Fixed: pc.fixed, IgnoreCase: pc.icase, Context: ctx}, 0)
			if err != nil {
				t.Fatalf("pattern %q: %v", pc.expr, err)
			}
			if want == "" {
				want = fmt.Sprintf("(no matches for %s in .: 1 file searched)\n", showPattern(pc.expr))
			}
			if got != want {
				t.Fatalf("pattern %q fixed=%v icase=%v context=%d chunk=%d text %q\nwant:\n%s\ngot:\n%s",
					pc.expr, pc.fixed, pc.icase, ctx, chunkSize, data, want, got)
			}
		}
	}
}

// TestDFAAgreesWithRegexp runs the DFA and Go's regexp on the same lines.
func TestDFAAgreesWithRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, pc := range referencePatterns {
		p, err := compilePattern(pc.expr, pc.fixed, pc.icase)
		if err != nil {
			t.Fatal(err)
		}
		d := newDFA(p.prog)
		for range 300 {
			line := bytes.ReplaceAll(randomText(rng), []byte("\n"), nil)
			ok, sure := d.matchLine(line)
			if !sure {
				t.Fatalf("%q: the DFA gave up", pc.expr)
			}
			if want := p.re.Match(line); ok != want {
				t.Fatalf("%q on %q: DFA %v, regexp %v", pc.expr, line, ok, want)
			}
		}
	}
}

func TestDFAGivesUp(t *testing.T) {
	// a[ab]{12}c over a line of a and b needs about 2^13 states (the last 13
	// characters): the DFA must give up and grep must still answer through
	// the regexp.
	p, err := compilePattern("a[ab]{12}c", false, false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var text []byte
	for range 20000 {
		text = append(text, "ab"[rng.IntN(2)])
	}
	m := newMatcher(p)
	var got int
	m.lines(text, func(s, e int) { got++ })
	if !m.dfa.failed {
		t.Errorf("the DFA did not give up (%d states)", len(m.dfa.states))
	}
	if got != 0 {
		t.Errorf("got %d matching lines, want 0", got)
	}
	text = append(text, "aaaaaaaaaaaaac"...)
	got = 0
	m.lines(text, func(s, e int) { got++ })
	if got != 1 {
		t.Errorf("got %d matching lines, want 1", got)
	}
}

func TestGrepLateNUL(t *testing.T) {
	defer func(n int) { chunkSize = n }(chunkSize)
	chunkSize = 64
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "late.bin"), []byte(strings.Repeat("match\n", 100)+"\x00"))
	writeFile(t, filepath.Join(dir, "ok.txt"), []byte("match\n"))
	got, err := Grep(context.Background(), openRoot(t, dir), GrepArgs{Pattern: "match"}, 0)
	if err != nil || got != "ok.txt:1:match\n" {
		t.Errorf("got %q, %v; want only ok.txt (a NUL anywhere makes a file binary)", got, err)
	}
}

func TestGrepLongLine(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 3*chunkSize+17) + "needle"
	writeFile(t, filepath.Join(dir, "f"), []byte("a\n"+long+"\nneedle no\n"))
	got, err := Grep(context.Background(), openRoot(t, dir), GrepArgs{Pattern: "needle$"}, 0)
	if err != nil || got != "f:2:"+long+"\n" {
		t.Errorf("long line: got %d bytes, %v", len(got), err)
	}
}

func TestCancelStopsWalk(t *testing.T) {
	dir := t.TempDir()
	for i := range 400 {
		writeFile(t, filepath.Join(dir, "d"+strconv.Itoa(i%20), strconv.Itoa(i)), []byte("x\n"))
	}
	// The level getter runs at every jail operation: cancel at the given one
	// and count the operations that still happen. (list makes one per
	// directory, grep one per file too.)
	for tool, at := range map[string]int64{"grep": 30, "list": 8} {
		ctx, cancel := context.WithCancel(context.Background())
		var calls, after atomic.Int64
		level := func() config.Permission {
			if n := calls.Add(1); n == at {
				cancel()
			} else if n > at {
				after.Add(1)
			}
			return config.PermReadOnly
		}
		root, err := jail.Open(jail.Repository, dir, level)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			if tool == "grep" {
				_, err = Grep(ctx, root, GrepArgs{Pattern: "x"}, 0)
			} else {
				_, err = List(ctx, root, ListArgs{Recursive: true}, 0)
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.HasSuffix(err.Error(), "cancelled") {
				t.Errorf("%s: got %v, want cancelled", tool, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not stop after cancellation", tool)
		}
		if n := after.Load(); n > 8 {
			t.Errorf("%s: %d jail operations after cancellation, want only those in flight", tool, n)
		}
		root.Close()
	}
}

func TestGrepWorkersKeepOrder(t *testing.T) {
	dir := t.TempDir()
	var want strings.Builder
	names := []string{}
	for i := range 300 {
		names = append(names, fmt.Sprintf("d%02d/f%03d", i%17, i))
	}
	for _, n := range names {
		writeFile(t, filepath.Join(dir, n), []byte("x\ny\nx\n"))
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&want, "%s:1:x\n%s:3:x\n", n, n)
	}
	got, err := Grep(context.Background(), openRoot(t, dir), GrepArgs{Pattern: "x"}, 0)
	if err != nil || got != want.String() {
		t.Errorf("order differs (err %v)", err)
	}
}

// TestGrepAgreesWithGNU compares matching lines with GNU grep on a small
// generated tree. GNU grep runs in the C locale, where its classes, \w and
// \b are ASCII-only like Go's.
func TestGrepAgreesWithGNU(t *testing.T) {
	if _, err := exec.LookPath("grep"); err != nil {
		t.Skip("GNU grep not installed")
	}
	if out, _ := exec.Command("grep", "--version").Output(); !bytes.Contains(out, []byte("GNU")) {
		t.Skip("grep is not GNU grep")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 8))
	words := []string{"func", "Error", "error", "ERROR", "x1", "42", "12345", "foo_bar", "(", ")", "{", "}", "\t", "  ", ".", "-", "é", "日本"}
	for i := range 40 {
		var b strings.Builder
		for range rng.IntN(60) {
			for range rng.IntN(8) {
				b.WriteString(words[rng.IntN(len(words))] + " ")
			}
			b.WriteString("\n")
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("d%d/.f%d.txt", i%4, i)), []byte(b.String()))
	}
	root := openRoot(t, dir)
	for _, c := range []struct {
		args GrepArgs
		flag string
	}{
		{GrepArgs{Pattern: "Error"}, "-E"}, {GrepArgs{Pattern: "error|func"}, "-E"}, {GrepArgs{Pattern: "[0-9]{3,}"}, "-E"},
		{GrepArgs{Pattern: "error", IgnoreCase: true}, "-Ei"}, {GrepArgs{Pattern: "^func [a-z]+"}, "-E"},
		{GrepArgs{Pattern: "( |\t)$"}, "-E"}, {GrepArgs{Pattern: "(", Fixed: true}, "-F"}, {GrepArgs{Pattern: "\\bx1\\b"}, "-E"},
		{GrepArgs{Pattern: "[[:digit:]]+ [[:alpha:]_]+"}, "-E"}, {GrepArgs{Pattern: "^$"}, "-E"}, {GrepArgs{Pattern: "é|日本"}, "-E"},
		{GrepArgs{Pattern: "func", Context: 2}, "-EC2"}, {GrepArgs{Pattern: "ERROR|42", Context: 1}, "-EC1"},
	} {
		cmd := exec.Command("grep", "-rn", c.flag, "--", c.args.Pattern, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		out, _ := cmd.Output()
		want := gnuLines(string(out))
		got, err := Grep(context.Background(), root, c.args, 0)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		if !strings.HasPrefix(got, "(no matches") {
			lines = strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		}
		slices.Sort(lines)
		if !slices.Equal(lines, want) {
			t.Errorf("%q: %d lines, GNU grep %d", c.args.Pattern, len(lines), len(want))
		}
	}
}

// gnuLines turns GNU grep's output into ours, sorted (GNU lists files in
// directory order): "./" dropped, and context lines "path-N-text" written
// "path:N:text" (the generated names hold no '-' or ':'). Separators "--"
// stay, so their number is compared too.
func gnuLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		l = strings.TrimPrefix(l, "./")
		if l == "" {
			continue
		}
		if i := strings.IndexAny(l, ":-"); i > 0 && l[i] == '-' && l != "--" {
			if j := strings.IndexByte(l[i+1:], '-'); j > 0 {
				l = l[:i] + ":" + l[i+1:i+1+j] + ":" + l[i+2+j:]
			}
		}
		lines = append(lines, l)
	}
	slices.Sort(lines)
	return lines
}

func TestLowerASCIIAndFinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 500 {
		src := make([]byte, rng.IntN(40))
		for i := range src {
			src[i] = byte(rng.IntN(256))
		}
		want := make([]byte, len(src))
		for i, c := range src {
			if 'A' <= c && c <= 'Z' {
				c += 32
			}
			want[i] = c
		}
		if got := lowerASCII(nil, src); !bytes.Equal(got, want) {
			t.Fatalf("lowerASCII(%q) = %q, want %q", src, got, want)
		}
		hay := []byte(strings.Repeat("xab", rng.IntN(5)) + string(src[:len(src)/2]) + "needle" + string(src[len(src)/2:]))
		for _, n := range []string{"needle", "ab", "x", "zz", "edle" + string(src[len(src)/2:])} {
			if got, want := newFinder([]byte(n)).index(hay), bytes.Index(hay, []byte(n)); got != want {
				t.Fatalf("finder(%q).index(%q) = %d, want %d", n, hay, got, want)
			}
		}
	}
}

// TestGrepSkipsSocketsAndDevices covers the special files a golden case
// cannot create: a socket (bound in a short directory, since socket paths
// are limited to about 100 bytes) and a device node (when mknod is allowed).
func TestGrepSkipsSocketsAndDevices(t *testing.T) {
	dir, err := os.MkdirTemp("", "g")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	writeFile(t, filepath.Join(dir, "f.txt"), []byte("x\n"))
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Skipf("cannot create a socket: %v", err)
	}
	defer l.Close()
	want := "f.txt:1:x\nwarning: sock: skipped socket\n"
	if err := syscall.Mknod(filepath.Join(dir, "null"), syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err == nil {
		want = "f.txt:1:x\nwarning: null: skipped device\nwarning: sock: skipped socket\n"
	}
	root := openRoot(t, dir)
	got, err := Grep(context.Background(), root, GrepArgs{Pattern: "x"}, 0)
	if err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	got, err = List(context.Background(), root, ListArgs{}, 0)
	if err != nil || strings.Count(got, "[special]") != strings.Count(want, "warning") {
		t.Errorf("list: got %q, %v", got, err)
	}
}

// TestRegexpFallbackAgrees checks the path taken when the DFA gives up:
// the line-safe regexp over a whole buffer finds the same lines as the
// original expression line by line.
func TestRegexpFallbackAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, pc := range referencePatterns {
		p, err := compilePattern(pc.expr, pc.fixed, pc.icase)
		if err != nil {
			t.Fatal(err)
		}
		expr := pc.expr
		if pc.fixed {
			expr = regexp.QuoteMeta(expr)
		}
		if pc.icase {
			expr = "(?i)" + expr
		}
		re := regexp.MustCompile(expr)
		m := newMatcher(p)
		m.dfa = nil
		for range 100 {
			text := randomText(rng)
			want := referenceGrep("f", text, re, 0)
			var b strings.Builder
			m.lines(text, func(s, e int) {
				n := bytes.Count(text[:s], []byte{'\n'}) + 1
				fmt.Fprintf(&b, "f:%d:%s\n", n, text[s:e])
			})
			if b.String() != want {
				t.Fatalf("%q on %q:\nwant %s\ngot %s", pc.expr, text, want, b.String())
			}
		}
	}
}

// TestWalkBeyondHandleDepth: below maxHandleDepth levels the walk opens
// directories by their whole path; the results must not change.
func TestWalkBeyondHandleDepth(t *testing.T) {
	defer func(n int) { maxHandleDepth = n }(maxHandleDepth)
	dir := t.TempDir()
	p := dir
	for i := range 6 {
		p = filepath.Join(p, "d"+strconv.Itoa(i))
		writeFile(t, filepath.Join(p, "f.txt"), []byte("x "+strconv.Itoa(i)+"\n"))
	}
	root := openRoot(t, dir)
	run := func() string {
		g, err := Grep(context.Background(), root, GrepArgs{Pattern: "x"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		l, err := List(context.Background(), root, ListArgs{Recursive: true, Include: "*.txt"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		return g + l
	}
	want := run()
	if strings.Count(want, "\n") != 12 {
		t.Fatalf("unexpected results:\n%s", want)
	}
	for _, depth := range []int{0, 1, 3} {
		maxHandleDepth = depth
		if got := run(); got != want {
			t.Errorf("maxHandleDepth %d:\n%s\nwant:\n%s", depth, got, want)
		}
	}
}
