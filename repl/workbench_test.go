package repl

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestIncomplete(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"", false},
		{"   ", false},
		{"x = 1", false},
		{"print(1)", false},
		{"x = [1,", true},
		{"x = [1,\n2]", false},
		{"f(a,\n  b,", true},
		{"d = {'a': (1,", true},
		{`s = """abc`, true},
		{"s = '''abc\ndef", true},
		{"s = '''abc\ndef'''", false},
		{`s = f"""{x}`, true},
		{"s = 'abc", false}, // a one-line string left open: the error shows it
		{"x = 1 + \\", true},
		{"x = 1 + \\\n2", false},
		{"x = )", false},
		{"if x:", true},
		{"if x:\n    y = 1", true},
		{"if x:\n    y = 1\n", false},
		{"if x:\n    y = 1\n   ", false},
		{"if x: pass", true},
		{"if x: pass\n", false},
		{"while True: pass", true},
		{"def f():\n    return 1\n", false},
		{"def f():\n    return (1,\n", true}, // the bracket is still open
		{"def f():\n    s = '''\n\n", true},  // an empty line inside a string ends nothing
		{"class A:\n    pass", true},
		{"try:\n    x\nexcept KeyError:\n    pass\n", false},
		{"@decorator", true},
		{"@decorator\ndef f(): pass\n", false},
		{"match x:", true},
		{"for i in range(3): print(i)", true},
		{"[x for x in y]", false},
		{"# a comment", false},
		{"x = 1  # if y:", false},
	} {
		if got := Incomplete(tt.src); got != tt.want {
			t.Errorf("Incomplete(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func writeHelper(t *testing.T, e *env, name, src string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.home, "replib", name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNames(t *testing.T) {
	e := newEnv(t)
	e.exec("answer = 42")
	names, err := e.repl.Names(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"answer", "len", "print", "glob", "search", "reasoning", "Path", "run", "json", "store_summary", "_search_glob"} {
		if !slices.Contains(names, want) {
			t.Errorf("Names lacks %q", want)
		}
	}
	for _, n := range names {
		if strings.HasPrefix(n, "__py_") {
			t.Errorf("Names has the hidden %q", n)
		}
	}
	if !slices.IsSorted(names) {
		t.Error("Names is not sorted")
	}
	if !slices.Contains(ModuleNames(), "os.path") || !slices.Contains(ModuleNames(), "glob") {
		t.Errorf("ModuleNames = %v", ModuleNames())
	}
}

// TestReload: :reload binds the helpers anew over the state, drops the
// names a file no longer defines (not those REPL code rebound), reports
// a file that now fails with its place, and renews what the parent knows
// of the helpers.
func TestReload(t *testing.T) {
	e := newEnv(t)
	writeHelper(t, e, "mine.star", "def twice(x):\n    \"\"\"Double x.\"\"\"\n    return 2 * x\n\ndef gone():\n    return 0\n\ndef kept():\n    return 1\n")
	e = rebuild(t, e)
	if got := e.exec("state = 7\nkept = 'mine'\ntwice(2)"); got != "4" {
		t.Fatalf("before: %q", got)
	}
	writeHelper(t, e, "mine.star", "def twice(x):\n    \"\"\"Triple x, now.\"\"\"\n    return 3 * x\n\ndef added():\n    return 5\n")
	writeHelper(t, e, "zz_broken.star", "def ok():\n    pass\nx = = 1\n")
	rep, err := e.repl.Reload(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Report, "replib/zz_broken.star: zz_broken.star:3:5:") {
		t.Errorf("report %q", rep.Report)
	}
	broken := rep.Files[len(rep.Files)-1]
	if broken.File != "zz_broken.star" || broken.Line != 3 || broken.Column != 5 || broken.Error == "" {
		t.Errorf("broken file %+v", broken)
	}
	if got := e.exec("[state, twice(2), added(), kept]"); got != "[7, 6, 5, 'mine']" {
		t.Errorf("after: %q", got)
	}
	if got := e.exec("gone()"); !strings.Contains(got, "gone") || !strings.Contains(got, "not defined") && !strings.Contains(got, "undefined") {
		t.Errorf("gone() after the reload: %q", got)
	}
	if got := e.exec("help(twice)"); !strings.Contains(got, "Triple x, now.") {
		t.Errorf("help(twice) %q", got)
	}
	if fns := e.repl.Functions(); fns["added"] != "added()" || fns["gone"] != "" {
		t.Errorf("Functions after the reload: %v", fns)
	}
	if errs := e.repl.LoadErrors(); len(errs) != 1 || !strings.Contains(errs[0], "zz_broken.star") {
		t.Errorf("LoadErrors after the reload: %v", errs)
	}
}

func TestHelperFiles(t *testing.T) {
	e := newEnv(t)
	writeHelper(t, e, "a_first.star", "def shared():\n    return 1\n")
	writeHelper(t, e, "b_mine.star", `# a helper file
def len(x):
    """Shadow len. More words."""
    return 0

def shared():
    return 2

def _private(x, *rest, key = "k", **kw):
    return f"{x}"

def doubled(x, n = 2):
    """Return x repeated n times: doubled("ab") is "abab". Second sentence."""
    return x * n
`)
	writeHelper(t, e, "c_syntax.star", "def f():\n    return 1\n\nx = (1 +\n")
	writeHelper(t, e, "d_fails.star", "def f():\n    fail(\"no\")\n\ny = 1\nf()\n")
	writeHelper(t, e, "e_habits.star", "def g(x):\n    return f\"{x}!\"\n\nz = undefined_name\n")
	e = rebuild(t, e)
	e.exec("") // the load report
	rep, err := e.repl.Helpers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]HelperFile{}
	var order []string
	for _, f := range rep.Files {
		files[f.File] = f
		order = append(order, f.File)
	}
	if want := []string{"a_first.star", "b_mine.star", "c_syntax.star", "d_fails.star", "e_habits.star", "glob.star", "reasoning.star", "search.star"}; !slices.Equal(order, want) {
		t.Fatalf("files %v, want %v", order, want)
	}
	mine := files["b_mine.star"]
	var sums []string
	for _, f := range mine.Functions {
		sums = append(sums, f.Summary())
	}
	if want := []string{"len(x): Shadow len.", "shared()", "_private(x, *rest, key=\"k\", **kw)",
		`doubled(x, n=2): Return x repeated n times: doubled("ab") is "abab".`}; !slices.Equal(sums, want) {
		t.Errorf("summaries %q", sums)
	}
	if mine.Functions[2].Public || !mine.Functions[3].Public || mine.Functions[3].Line != 12 {
		t.Errorf("functions %+v", mine.Functions)
	}
	if want := []Shadow{{Name: "len", Kind: ShadowBuiltin}, {Name: "shared", Kind: ShadowHelper, File: "a_first.star"}}; !slices.Equal(mine.Shadows, want) {
		t.Errorf("shadows %+v", mine.Shadows)
	}
	if g := files["glob.star"]; !slices.Equal(g.Shadows, []Shadow{{Name: "glob", Kind: ShadowModule}}) {
		t.Errorf("glob.star shadows %+v", g.Shadows)
	}
	for _, tt := range []struct {
		file      string
		line, col int
		text      string
	}{
		{"c_syntax.star", 5, 1, "c_syntax.star:5:1: "},
		{"d_fails.star", 2, 9, "d_fails.star:2:9: in f\nError in fail: fail: no"},
		{"e_habits.star", 4, 5, "undefined: undefined_name"},
	} {
		f := files[tt.file]
		if f.Line != tt.line || f.Column != tt.col || !strings.Contains(f.Error, tt.text) {
			t.Errorf("%s: error at %d:%d %q, want %d:%d containing %q", tt.file, f.Line, f.Column, f.Error, tt.line, tt.col, tt.text)
		}
	}
	if rep.Report != "" {
		t.Errorf("the report was already shown, yet Helpers gives %q", rep.Report)
	}
}

// rebuild gives e a new REPL over the same directories, so it loads the
// helper files written since.
func rebuild(t *testing.T, e *env) *env {
	t.Helper()
	opts := e.repl.opts
	e.repl.Close()
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	e.repl = r
	return e
}

// TestHelperFileTimeout: a file stopped by the load time limit has no
// place (it would be where a step check fell, often the file's start).
func TestHelperFileTimeout(t *testing.T) {
	old := helperLoadTimeout
	helperLoadTimeout = 300 * time.Millisecond
	t.Cleanup(func() { helperLoadTimeout = old })
	e := newEnv(t, withoutHelpers())
	os.MkdirAll(filepath.Join(e.home, "replib"), 0o755)
	writeHelper(t, e, "loop.star", "x = 0\nwhile True:\n    x += 1\n")
	e = rebuild(t, e)
	rep, err := e.repl.Helpers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Line != 0 || !strings.Contains(rep.Files[0].Error, "did not finish loading") {
		t.Errorf("%+v", rep.Files)
	}
}

// FuzzIncomplete: Incomplete never panics, and a chunk it calls complete
// stays complete when an empty line follows (the prompt never asks for
// more after a block has ended).
func FuzzIncomplete(f *testing.F) {
	for _, s := range []string{"if x:\n    y", "x = [1,", `s = """a`, "def f():\n    return 1\n", "@d", "a \\", "f'{x'", "'''"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !Incomplete(src) && strings.TrimSpace(src) != "" && Incomplete(src+"\n") {
			t.Errorf("Incomplete(%q) is false, but true with an empty line after it", src)
		}
	})
}
