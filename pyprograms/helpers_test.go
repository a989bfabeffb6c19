package pyprograms

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "(no output)"},
		{"\n\n", "(no output)"},
		{"a\nb\n", "a\nb"},
		// CPython's frames and the REPL's both go; the exception line stays.
		{"x\nTraceback (most recent call last):\n  File \"program.py\", line 3, in <module>\n    f()\n    ^^^\nKeyError: 'b'", "x\nTraceback (most recent call last):\nKeyError: 'b'"},
		{"Traceback (most recent call last):\n  repl:7:2: in <expr>\n  repl:5:20: in f\nKeyError: 'b'", "Traceback (most recent call last):\nKeyError: 'b'"},
		// Indented lines elsewhere are output.
		{"  two spaces\nTraceback (most recent call last):\nE: m\n  after", "  two spaces\nTraceback (most recent call last):\nE: m\n  after"},
	} {
		if got := normalize(tc.in); got != tc.want {
			t.Errorf("normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSignature(t *testing.T) {
	tb := "Traceback (most recent call last):\n"
	for _, tc := range []struct{ want, got, sig string }{
		{"a\n1", "a\nrepl:2:7: a chained comparison evaluates this operand once", "REPL refuses: a chained comparison evaluates this operand once"},
		{"a\n" + tb + "FileNotFoundError: [Errno 2] No such file or directory: 'x'", "a\n" + tb + "Error in open: open /repository/x: not found",
			"exception differs: REPL Error in open: open /repository/x: not found (CPython FileNotFoundError: [Errno N] No such file or directory: '…')"},
		{"2 3", tb + "TypeError: unsupported operand type(s) for +: 'bool' and 'bool'", "REPL raises TypeError: unsupported operand type(s) for +: '…' and '…'"},
		{tb + "ValueError: illegal newline value: ' '", "ok", "CPython raises ValueError, the REPL prints ok"},
		{"n: 12", "n: 13", "output differs: n: N  ≠  REPL n: N"},
		// An apostrophe inside a word does not start a string.
		{"x", tb + "TypeError: can't multiply sequence by non-int of type 'float'", "REPL raises TypeError: can't multiply sequence by non-int of type '…'"},
	} {
		if got := signature(tc.want, tc.got); got != tc.sig {
			t.Errorf("signature(%q, %q)\n got %q\nwant %q", tc.want, tc.got, got, tc.sig)
		}
	}
	if !sameFailure(tb+"KeyError: 'a'", "other\n"+tb+"KeyError: 'a'") || sameFailure("ok", "ok") {
		t.Error("sameFailure: a result ending in the parent's error is the parent's failure, and only that")
	}
}

func TestSplitArchive(t *testing.T) {
	good := txtar.Parse([]byte("-- repository/a.txt --\nx\n-- program/p.py --\nprint(1)\n-- want/p --\n1\n"))
	ar, err := splitArchive("testdata/t.txtar", good)
	if err != nil || len(ar.Programs) != 1 || ar.Programs[0].Name != "t/p" || ar.Programs[0].Want != "1\n" || ar.Programs[0].Fixture["repository/a.txt"] != "x\n" {
		t.Fatalf("splitArchive = %+v, %v", ar, err)
	}
	for _, bad := range []string{
		"-- program/p.py --\n-- program/p.py --\n",
		"-- want/q --\n1\n",
		"-- notes.txt --\n",
	} {
		if _, err := splitArchive("testdata/t.txtar", txtar.Parse([]byte(bad))); err == nil || !strings.Contains(err.Error(), "testdata/t.txtar") {
			t.Errorf("splitArchive(%q) = %v, want an error naming the file", bad, err)
		}
	}
}

// TestRunCPython checks the CPython side's conventions: /repository and
// /store mapped both ways, stderr in the output, the trailing
// expression's repr, SystemExit(0) silent, an uncaught exception's line.
func TestRunCPython(t *testing.T) {
	py := python3(t, "TestRunCPython")
	for _, tc := range []struct{ src, want string }{
		{"import os, sys\nfrom pathlib import Path\nprint(os.getcwd(), Path('/store/s.txt').read_text().strip())\nprint('e', file=sys.stderr)\nPath('a.txt').resolve()",
			"/repository s\ne\nPosixPath('/repository/a.txt')"},
		{"import sys\nprint('done')\nsys.exit(0)", "done"},
		{"import sys\nsys.exit(3)", "Traceback (most recent call last):\nSystemExit: 3"},
		{"open('/repository/missing.txt')", "Traceback (most recent call last):\nFileNotFoundError: [Errno 2] No such file or directory: '/repository/missing.txt'"},
		{"x = 1", "(no output)"},
	} {
		dir := materialize(t, map[string]string{"repository/a.txt": "a\n", "store/s.txt": "s\n"})
		got, err := runCPython(t, py, dir, tc.src)
		if err != nil || got != tc.want {
			t.Errorf("%q:\n got %q (%v)\nwant %q", tc.src, got, err, tc.want)
		}
	}
}
