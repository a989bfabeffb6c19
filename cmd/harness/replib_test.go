package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplibCheckShipped: the shipped helpers load, shadow nothing that
// fails, and every example of theirs passes.
func TestReplibCheckShipped(t *testing.T) {
	e := replEnv(t)
	code, out, stderr := e.runCommand("", "replib", "check")
	if code != 0 || !strings.HasSuffix(out, "\n14 passed, 0 failed\n") || strings.Contains(out, "FAIL") {
		t.Fatalf("exit %d\n%s\nstderr %s", code, out, stderr)
	}
	for _, want := range []string{
		filepath.Join(e.home, "replib", "glob.star") + "\n  functions, as help() lists them:\n    glob(pattern, path=None, exclude=()): Return the sorted paths",
		"  note: glob is also a module's name: REPL code that runs `import glob` gets the module instead of this helper\n  7 examples passed\n",
		"    reasoning(text): Record your reasoning as part of the conversation",
		"  5 examples passed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// The examples ran in a scratch repository: the real one is untouched.
	if entries, _ := os.ReadDir(e.repo); len(entries) != 0 {
		t.Errorf("the repository has %d entries", len(entries))
	}
}

// TestReplibCheck: a file that does not load is placed at
// file:line:column; shadowing a builtin or an earlier file's helper
// fails; examples pass or fail with a diff; exit 1.
func TestReplibCheck(t *testing.T) {
	e := replEnv(t)
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	broken := write("broken.star", "def f():\n    return 1\n\nx = (1 +\n")
	raises := write("raises.star", "def f():\n    fail(\"at load\")\n\nf()\n")
	mine := write("mine.star", `def twice(x):
    """Return x twice.

    >>> twice(2)
    4
    >>> twice("ab")
    'abab'
    >>> twice(3)
    7
    >>> for i in range(2):
    ...     print(twice(i))
    0
    2
    >>> twice(None)
    Traceback (most recent call last):
      ...
    TypeError: unsupported operand type(s) for *: 'NoneType' and 'int'
    >>> twice({})
    Traceback (most recent call last):
    ValueError: wrong
    """
    return x * 2

def sorted(x):
    """Shadow sorted."""
    return x

def glob(p):
    """Shadow the shipped glob."""
    return []
`)
	code, out, _ := e.runCommand("", "replib", "check", broken, raises, mine)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		broken + "\n  FAIL " + broken + ":5:1: got end of file, want primary expression\n  (its examples were not run)\n",
		raises + "\n  FAIL " + raises + ":2:9: Error in fail: fail: at load\n      Traceback (most recent call last):\n        raises.star:4:2: in <toplevel>\n        raises.star:2:9: in f\n",
		"  functions, as help() lists them:\n    twice(x): Return x twice.\n    sorted(x): Shadow sorted.\n    glob(p): Shadow the shipped glob.\n",
		"  FAIL glob replaces the helper glob of glob.star (the file loaded later wins)\n",
		"  FAIL sorted shadows the builtin sorted: REPL code using sorted gets this helper instead\n",
		"  FAIL " + mine + ":8 (twice):\n      >>> twice(3)\n    --- expected\n    +++ got\n    -7\n    +6\n",
		"  FAIL " + mine + ":18 (twice):\n      >>> twice({})\n    --- expected\n    +++ got\n    -ValueError: wrong\n    +TypeError: unsupported operand type(s) for *: 'dict' and 'int'\n    (a traceback: the exception is compared, not the stack)\n",
		"  2 of 6 examples failed\n",
		"note: other helper files did not load, so what this one uses of them is missing: broken.star, raises.star",
		"\n4 passed, 6 failed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("the report:\n%s", out)
	}
}

// TestReplibCheckPassing: a file whose examples all pass exits 0; a name
// alone checks the installed file; bad arguments exit 2.
func TestReplibCheckPassing(t *testing.T) {
	e := replEnv(t)
	e.helper("mine.star", "def inc(n):\n    \"\"\"Add one.\n\n    >>> inc(1)\n    2\n    >>> print(inc(2))\n    3\n    \"\"\"\n    return n + 1\n")
	code, out, _ := e.runCommand("", "replib", "check", "-v", "mine")
	if code != 0 || !strings.Contains(out, "  ok   "+filepath.Join(e.home, "replib", "mine.star")+":4 (inc): inc(1)\n") || !strings.HasSuffix(out, "\n2 passed, 0 failed\n") {
		t.Errorf("exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"replib"}, {"replib", "list"}, {"replib", "check", "nosuch.star"}, {"replib", "check", "--bogus"}, {"replib", "check", "notes.txt"}} {
		os.WriteFile(filepath.Join(e.repo, "notes.txt"), []byte("x"), 0o644)
		if code, _, stderr := e.runCommand("", args...); code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestReplibCheckREADME: the helper README's "Writing helpers" walks
// through passes its own check.
func TestReplibCheckREADME(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "Say `~/.harness/replib/todos.star`:\n\n```python\n")
	src, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 {
		t.Fatal("the README has no todos.star example")
	}
	e := replEnv(t)
	e.helper("todos.star", src)
	code, out, _ := e.runCommand("", "replib", "check", "todos")
	if code != 0 || !strings.HasSuffix(out, "\n2 passed, 0 failed\n") {
		t.Errorf("exit %d\n%s", code, out)
	}
}
