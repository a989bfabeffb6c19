package pyprograms

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestStdBScratch runs the program in $STDB_PY under the REPL and CPython
// and shows both outputs when they differ (a tool for writing modules).
func TestStdBScratch(t *testing.T) {
	path := os.Getenv("STDB_PY")
	if path == "" {
		t.Skip("set STDB_PY to a program to compare")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	compareBoth(t, string(src))
}

func compareBoth(t *testing.T, src string) {
	t.Helper()
	py := python3(t, "the comparison")
	dirs := [2]string{t.TempDir(), t.TempDir()}
	for _, d := range dirs {
		for _, sub := range []string{"repository", "store", "home"} {
			if err := os.MkdirAll(d+"/"+sub, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	want, err := runCPython(t, py, dirs[0], src)
	if err != nil {
		t.Fatal(err)
	}
	got := runREPL(t, dirs[1], src)
	if got == want {
		return
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Fatalf("line %d differs:\n- CPython: %q\n+ REPL:    %q\n(%d vs %d lines)", i+1, w, g, len(wl), len(gl))
		}
	}
}

// TestDifflibDifferential diffs random line lists (edits of a base list:
// lines changed by a character, dropped, added, moved, blank) with
// unified_diff, context_diff, ndiff, SequenceMatcher and
// get_close_matches in the REPL and in CPython: the output must be the
// same byte for byte.
func TestDifflibDifferential(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	words := []string{"def main():", "    return x", "import os", "", "    x = 1", "# note", "print(x)", "\tindented", "class A:", "    pass", "x = compute(a, b)", "y = x + 1"}
	var sb strings.Builder
	sb.WriteString("import difflib\n")
	for c := 0; c < 60; c++ {
		n := rng.Intn(12)
		a := make([]string, n)
		for i := range a {
			a[i] = words[rng.Intn(len(words))] + "\n"
		}
		b := append([]string(nil), a...)
		for e := rng.Intn(4); e >= 0; e-- {
			b = mutateLines(rng, b, words)
		}
		lit := func(x []string) string {
			q := make([]string, len(x))
			for i, s := range x {
				q[i] = strconv.Quote(s)
			}
			return "[" + strings.Join(q, ", ") + "]"
		}
		fmt.Fprintf(&sb, "a, b = %s, %s\n", lit(a), lit(b))
		fmt.Fprintf(&sb, "print(%d, ''.join(difflib.unified_diff(a, b, 'a.py', 'b.py', n=%d)), end='|\\n')\n", c, rng.Intn(4))
		sb.WriteString("print(''.join(difflib.context_diff(a, b, 'x', 'y')), end='|\\n')\n")
		sb.WriteString("print(''.join(difflib.ndiff(a, b)), end='|\\n')\n")
		sb.WriteString("sm = difflib.SequenceMatcher(None, a, b)\nprint(sm.ratio(), sm.quick_ratio(), sm.get_opcodes(), sm.get_matching_blocks())\n")
		sb.WriteString("s1, s2 = ''.join(a), ''.join(b)\nprint(difflib.SequenceMatcher(None, s1, s2).ratio(), difflib.SequenceMatcher(lambda c: c == ' ', s1, s2).get_opcodes())\n")
		sb.WriteString("print(difflib.get_close_matches(b[0] if b else 'x', a, n=2, cutoff=0.3))\n")
	}
	compareBoth(t, sb.String())
}

func mutateLines(rng *rand.Rand, b, words []string) []string {
	i := 0
	if len(b) > 0 {
		i = rng.Intn(len(b))
	}
	switch k := rng.Intn(5); {
	case k == 0 && len(b) > 0: // change one character
		r := []rune(b[i])
		p := rng.Intn(len(r))
		r[p] = rune("abxyz_( "[rng.Intn(8)])
		b[i] = string(r)
	case k == 1 && len(b) > 0:
		b = append(b[:i], b[i+1:]...)
	case k == 2:
		b = append(b[:i], append([]string{words[rng.Intn(len(words))] + "\n"}, b[i:]...)...)
	case k == 3 && len(b) > 1:
		j := rng.Intn(len(b))
		b[i], b[j] = b[j], b[i]
	default:
		b = append(b, "\n")
	}
	return b
}

// TestShlexDifferential splits random strings of words, quotes, escapes,
// comments and blanks with shlex.split (posix or not, comments or not) and
// quotes them back, in the REPL and in CPython.
func TestShlexDifferential(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	alphabet := []string{"a", "bc", " ", "'", "\"", "\\", "#", "\n", "\t", "x=1", "-f", "é"}
	var sb strings.Builder
	sb.WriteString("import shlex\n")
	for c := 0; c < 300; c++ {
		var s strings.Builder
		for k := rng.Intn(10); k >= 0; k-- {
			s.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		fmt.Fprintf(&sb, "s = %s\n", strconv.Quote(s.String()))
		fmt.Fprintf(&sb, "try:\n    w = shlex.split(s, comments=%s, posix=%s)\n    print(w, shlex.join(w), shlex.split(shlex.join(w)) == w)\nexcept ValueError as e:\n    print('ValueError', e)\n",
			[]string{"False", "True"}[rng.Intn(2)], []string{"True", "False"}[rng.Intn(4)/3])
	}
	compareBoth(t, sb.String())
}

// TestHTMLDifferential unescapes every HTML5 entity name (as CPython's
// html.entities lists them), with and without its semicolon and with
// letters after it, and random text of ampersands and numbers.
func TestHTMLDifferential(t *testing.T) {
	py := python3(t, "the list of entity names")
	names, err := exec.Command(py, "-c", "import html.entities; print('\\n'.join(html.entities.html5))").Output()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3))
	var sb strings.Builder
	sb.WriteString("import html\nbad = []\n")
	for _, n := range strings.Fields(string(names)) {
		n = strings.TrimSuffix(n, ";")
		for _, s := range []string{"&" + n + ";", "&" + n, "&" + n + "x;", "x&" + n + "1 "} {
			fmt.Fprintf(&sb, "print(repr(html.unescape(%s)))\n", strconv.Quote(s))
		}
	}
	parts := []string{"&", "#", "x", "X", "1", "9", "0", "f", ";", " ", "amp", "lt", "<", "'", "\""}
	for c := 0; c < 300; c++ {
		var s strings.Builder
		for k := rng.Intn(8); k >= 0; k-- {
			s.WriteString(parts[rng.Intn(len(parts))])
		}
		fmt.Fprintf(&sb, "s = %s\nprint(repr(html.unescape(s)), html.escape(s), html.escape(s, False))\n", strconv.Quote(s.String()))
	}
	compareBoth(t, sb.String())
}
