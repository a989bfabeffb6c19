package repl

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"harness/config"
)

func TestOutputRules(t *testing.T) {
	tests := []struct {
		name, code, want string
	}{
		{"empty", "x = 1", "(no output)"},
		{"none value", "None", "(no output)"},
		{"trailing value", "1 + 1", "2"},
		{"string repr", `"a" + "b"`, `'ab'`},
		{"prints then value", "print('one')\nprint('two')\n[1, 2]", "one\ntwo\n[1, 2]"},
		{"value not trailing", "3\nx = 4", "(no output)"},
		{"print returns none", "print('p')", "p"},
		{"prints then error", "print('before')\n1 // 0", "before\nTraceback (most recent call last):\n  repl:2:3: in <expr>\nError: floating-point division by zero"},
		{"syntax error", "x = = 1", "repl:1:5: got '=', want primary expression"},
	}
	e := newEnv(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := e.exec(tt.code)
			if tt.name == "prints then error" {
				// The exact message is Starlark's; check the shape.
				if !strings.HasPrefix(got, "before\nTraceback (most recent call last):\n") || !strings.HasSuffix(got, "\nZeroDivisionError: integer division or modulo by zero") {
					t.Fatalf("got %q", got)
				}
				return
			}
			if got != tt.want {
				t.Fatalf("Exec(%q) = %q, want %q", tt.code, got, tt.want)
			}
		})
	}
}

func TestOutputStreamsWhileRunning(t *testing.T) {
	e := newEnv(t)
	e.exec("for i in range(3):\n    print(i)")
	if got := strings.Join(e.output, ""); got != "0\n1\n2\n" {
		t.Fatalf("streamed %q", got)
	}
}

func TestOutputLimit(t *testing.T) {
	tests := []struct {
		name, code string
		limit      int
		check      func(t *testing.T, out string)
	}{
		{"prints cut on a UTF-8 boundary", `print("é" * 100)`, 60, func(t *testing.T, out string) {
			if !strings.Contains(out, "[output truncated: ") || !strings.Contains(out, "bytes omitted") {
				t.Errorf("no notice: %q", out)
			}
			if strings.ContainsRune(out, '\uFFFD') {
				t.Errorf("cut inside a character: %q", out)
			}
		}},
		{"error stays visible", "print('x' * 500)\nfail('the error')", 200, func(t *testing.T, out string) {
			if !strings.Contains(out, "the error") || !strings.Contains(out, "omitted") {
				t.Errorf("got %q", out)
			}
		}},
		{"value cut", `"y" * 1000`, 100, func(t *testing.T, out string) {
			if !strings.Contains(out, "omitted") {
				t.Errorf("got %q", out)
			}
		}},
		{"fits", `print("short")`, 100, func(t *testing.T, out string) {
			if out != "short" {
				t.Errorf("got %q", out)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, withLimit(tt.limit))
			out := e.exec(tt.code)
			if len(out) > tt.limit {
				t.Errorf("result is %d bytes, over the limit %d: %q", len(out), tt.limit, out)
			}
			tt.check(t, out)
		})
	}
}

func TestOmittedCountIsExact(t *testing.T) {
	out := assemble("", strings.Repeat("a", 100), 50, tail{}, 80)
	if len(out) > 80 {
		t.Fatalf("len %d > 80", len(out))
	}
	kept := len(out) - len(strings.TrimLeft(out, "a"))
	want := "[output truncated: " + strconv.Itoa(150-kept) + " bytes omitted (output_limit)]"
	if !strings.HasSuffix(out, want) {
		t.Fatalf("got %q, want suffix %q", out, want)
	}
}

func TestHelp(t *testing.T) {
	e := newEnv(t, withDepth(2), withLimit(50000), withCommands(config.Commands{
		Deny: []string{"git", "rm"}, Allow: map[string]string{"go": "/usr/local/go/bin/go", "git": "/usr/bin/git"},
	}))
	if err := os.WriteFile(filepath.Join(e.home, "repl-notes.md"), []byte("Remember: the notes file.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.perm.Store(int32(config.PermReadOnly))
	out := e.exec("help()")
	for _, want := range []string{
		"Output limit: 50000 bytes",
		"Remember: the notes file.",
		"## Files", "/repository (read-only now, level read-only",
		"/store:", "/library:",
		"## Starlark", "with Python's meaning", "Modules: abc argparse ast base64 ", "Use instead:", "  async/await → plain calls",
		"## REPL functions", "run(argv, cwd=None)", "store_summary()", "library_summary()", "lib_source(name)",
		"## Commands", "subprocess.run(", "Run without asking: go. Always refused: git, rm.\n",
		"## Helper functions", "glob(pattern, path=None, exclude=()): Return the sorted paths",
		"search(pattern, path=None, glob=None, exclude=()): Find lines matching", "reasoning(text)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("help() lacks %q", want)
		}
	}
	if strings.Contains(out, "_glob_check") {
		t.Error("help() lists a private helper")
	}
	// Sections appear in order.
	last := -1
	for _, s := range []string{"## Files", "## Starlark", "## REPL functions", "## Commands", "## Helper functions"} {
		i := strings.Index(out, s)
		if i < last {
			t.Errorf("section %s out of order", s)
		}
		last = i
	}
	if strings.Contains(out, e.repo) || strings.Contains(out, e.home) {
		t.Error("help() shows a host path")
	}
}

func TestHelpWithoutStoreOrLibrary(t *testing.T) {
	e := newEnv(t)
	out := e.exec("help()")
	if strings.Contains(out, "library_summary") || strings.Contains(out, "/library:") {
		t.Errorf("depth 1 help mentions /library:\n%s", out)
	}
	if got := e.exec("library_summary()"); !strings.Contains(got, "undefined: library_summary") {
		t.Errorf("library_summary at depth 1: %q", got)
	}
}

func TestHelperLoading(t *testing.T) {
	e := newEnv(t, withoutHelpers())
	dir := filepath.Join(e.home, "replib")
	os.MkdirAll(dir, 0o755)
	files := map[string]string{
		"a_first.star":  "def twice(x, *rest, scale = 2, **kw):\n    \"\"\"Double x.\"\"\"\n    return x * scale\n\ndef _private():\n    return 1\n\nCONST = 7\n",
		"b_broken.star": "def broken(:\n",
		"c_uses.star":   "def quad(x):\n    \"\"\"Four times x, using twice.\"\"\"\n    return twice(twice(x))\n",
		"d_fails.star":  "fail('top-level failure')\n",
		"e_python.star": "def safe_int(s):\n    try:\n        return int(s)\n    except ValueError:\n        return None\n\nclass Box:\n    def __init__(self, v):\n        self.v = v\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.repl.Close()
	r, err := New(e.repl.opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e.repl = r
	first := e.exec("quad(3)")
	for _, want := range []string{"Helper files that failed to load", "replib/b_broken.star", "replib/d_fails.star", "top-level failure", "\n12"} {
		if !strings.Contains(first, want) {
			t.Errorf("first call lacks %q:\n%s", want, first)
		}
	}
	if second := e.exec("_private() + CONST"); second != "8" {
		t.Errorf("second call: %q (the load report must appear once; private names stay callable)", second)
	}
	if got := e.exec("safe_int('x'), safe_int('4'), Box(2).v"); got != "(None, 4, 2)" {
		t.Errorf("a helper's try in a def and class: %q", got)
	}
	help := e.exec("help()")
	if !strings.Contains(help, "twice(x, *rest, scale=2, **kw): Double x.") || !strings.Contains(help, "quad(x)") {
		t.Errorf("help lacks helpers:\n%s", help)
	}
	if strings.Contains(help, "broken") || strings.Contains(help, "_private") {
		t.Errorf("help lists a failed file or a private function")
	}
	fns := r.Functions()
	if fns["twice"] != "twice(x, *rest, scale=2, **kw)" || fns["run"] != "run(argv, cwd=None)" || fns["store_summary"] == "" {
		t.Errorf("Functions() = %v", fns)
	}
	if len(r.LoadErrors()) != 2 {
		t.Errorf("LoadErrors() = %v", r.LoadErrors())
	}
	if errs, err := CheckHelpers(e.home); err != nil || len(errs) != 2 || !strings.Contains(errs[0], "b_broken.star") {
		t.Errorf("CheckHelpers = %v, %v", errs, err)
	}
}

func TestFYI(t *testing.T) {
	e := newEnv(t)
	out := e.exec("FYI()")
	if !strings.Contains(out, "Prompt tokens: ~1234") || !strings.Contains(out, "Model: test-model") ||
		!strings.Contains(out, time.Now().Format("2006-01-02")) {
		t.Fatalf("FYI() = %q", out)
	}
	if got := FYIText(time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), 10, false, "m"); got != "Date: Friday, 2026-01-02 03:04 UTC\nPrompt tokens: 10\nModel: m\n" {
		t.Fatalf("FYIText = %q", got)
	}
}

// TestFYIWindow: FYI() prints the context window after the model when the
// agent knows it, and no window line while it is unknown.
func TestFYIWindow(t *testing.T) {
	for _, c := range []struct {
		window int
		want   string
	}{{12288, "Model: test-model\nContext window: 12288 tokens"}, {0, "Model: test-model"}} {
		e := newEnv(t, func(_ *env, o *Options) { o.Window = func() int { return c.window } })
		out := e.exec("FYI()")
		if !strings.Contains(out, c.want) || (c.window == 0 && strings.Contains(out, "Context window")) {
			t.Errorf("window %d: FYI() = %q", c.window, out)
		}
	}
}

func TestSummaries(t *testing.T) {
	e := newEnv(t, withDepth(2))
	if got := e.exec("store_summary()\nlibrary_summary()"); got != "/store: empty\n/library: empty" {
		t.Fatalf("empty: %q", got)
	}
	old := time.Now().Add(-time.Hour)
	for i, name := range []string{"a.txt", "d/b.txt", "d/e/c.txt", "f.txt", "g.txt", "h.txt"} {
		p := filepath.Join(e.store, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(strings.Repeat("x", i+1)), 0o644)
		mt := old.Add(time.Duration(i) * time.Minute)
		os.Chtimes(p, mt, mt)
	}
	os.Symlink("a.txt", filepath.Join(e.store, "link"))
	out := e.exec("store_summary()")
	want := "/store: 6 files, 21 bytes, latest change " + old.Add(5*time.Minute).UTC().Format(time.RFC3339) +
		"\nmost recently changed:\n  /store/h.txt\n  /store/g.txt\n  /store/f.txt\n  /store/d/e/c.txt\n  /store/d/b.txt"
	if out != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestSyntheticAndReasoning(t *testing.T) {
	synthetic := map[string]bool{
		"FYI()":                          true,
		"FYI()\nhelp()\nstore_summary()": true,
		"help(); library_summary()":      true,
		"help()  # comment\n":            true,
		"help(run(['rm']))":              false,
		"FYI()\nx = 1":                   false,
		"print(FYI())":                   false,
		"":                               false,
		"FYI(":                           false,
		"reasoning('x')":                 false,
	}
	for code, want := range synthetic {
		if got := IsSynthetic(code); got != want {
			t.Errorf("IsSynthetic(%q) = %v, want %v", code, got, want)
		}
	}
	reasoning := map[string]bool{
		`reasoning("plan: read the tests")`: true,
		"reasoning('''multi\nline''')":      true,
		`reasoning("a" + run(["rm"]))`:      false,
		`reasoning("%s" % x)`:               false,
		`reasoning("a")` + "\nprint(1)":     false,
		`reasoning(text="a")`:               false,
		`reasoning(b"x")`:                   false,
		`x = reasoning("a")`:                false,
	}
	for code, want := range reasoning {
		if got := IsReasoningOnly(code); got != want {
			t.Errorf("IsReasoningOnly(%q) = %v, want %v", code, got, want)
		}
	}
	// Exec answers a lone reasoning call without running it, even when the
	// helper is missing.
	e := newEnv(t, withoutHelpers())
	if got := e.exec(`reasoning("thinking")`); got != "(no output)" {
		t.Errorf("reasoning: %q", got)
	}
}

func TestGlobDoesNotEnterDirectorySymlinks(t *testing.T) {
	e := newEnv(t)
	e.write(t, "real/a.go", "")
	e.write(t, "real/deep/b.go", "")
	os.Symlink("real", filepath.Join(e.repo, "link"))
	got := e.exec(`glob("**/*.go")`)
	if got != `['real/a.go', 'real/deep/b.go']` {
		t.Errorf("glob **: %s", got)
	}
	if got := e.exec(`glob("**")`); got != `['link', 'real', 'real/a.go', 'real/deep', 'real/deep/b.go']` {
		t.Errorf("glob everything: %s", got)
	}
	// A literal path through the link is followed, as the path names it.
	if got := e.exec(`glob("link/*.go")`); got != `['link/a.go']` {
		t.Errorf("glob link/*.go: %s", got)
	}
	// A directory the pattern names but the REPL may not enter is an error.
	os.Symlink(t.TempDir(), filepath.Join(e.repo, "abs"))
	if got := e.exec(`glob("abs/*")`); !strings.Contains(got, "glob /repository/abs: outside the root") {
		t.Errorf("glob abs/*: %s", got)
	}
}

// TestOutputLimitInvalidUTF8 prints a binary file's text: each invalid byte
// becomes U+FFFD (three bytes), and the result must still fit the limit.
func TestOutputLimitInvalidUTF8(t *testing.T) {
	e := newEnv(t, withLimit(100))
	e.write(t, "bin", strings.Repeat("\xffa", 150))
	for _, code := range []string{
		"s = Path('bin').read_text()\nfor i in range(len(s)):\n    print(s[i])",
		"Path('bin').read_text()",
		"fail(Path('bin').read_text())",
	} {
		out := e.exec(code)
		if len(out) > 100 || !utf8.ValidString(out) || !strings.Contains(out, "bytes omitted") {
			t.Errorf("%q: %d bytes, valid %v:\n%s", code, len(out), utf8.ValidString(out), out)
		}
	}
}

// TestTruncatedErrorKeepsItsMessage checks that when the error must be cut,
// its last lines (the message) survive.
func TestTruncatedErrorKeepsItsMessage(t *testing.T) {
	e := newEnv(t, withLimit(500))
	var code strings.Builder
	for i := 0; i < 8; i++ { // a chain of eight calls: a long backtrace
		fmt.Fprintf(&code, "def f%d():\n    return f%d()\n", i, i+1)
	}
	code.WriteString("def f8():\n    return {}['missing']\nprint('x' * 1000)\nf0()")
	out := e.exec(code.String())
	if len(out) > 500 {
		t.Fatalf("%d bytes", len(out))
	}
	for _, want := range []string{"KeyError: 'missing'", "bytes omitted"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}

// TestAssembleProperties checks the output cap on random inputs: the result
// fits the limit, is valid UTF-8, says when something was omitted, and is
// the whole text when nothing was.
func TestAssembleProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "é", "€", "𝄞", "\xff", "\n", "xyz "}
	text := func(n int) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return sb.String()
	}
	for i := 0; i < 2000; i++ {
		prints, value := text(rng.IntN(200)), text(rng.IntN(200))
		limit := 100 + rng.IntN(300)
		omitted := 0
		if rng.IntN(4) == 0 {
			omitted = rng.IntN(1000)
		}
		out := assemble("", prints, omitted, tail{text: value, isError: rng.IntN(2) == 0}, limit)
		h, v := strings.ToValidUTF8(prints, "\uFFFD"), strings.ToValidUTF8(value, "\uFFFD")
		sep := ""
		if h != "" && v != "" && !strings.HasSuffix(h, "\n") {
			sep = "\n"
		}
		cut := omitted > 0 || len(h)+len(sep)+len(v) > limit
		switch {
		case len(out) > limit:
			t.Fatalf("%d bytes over limit %d: %q", len(out), limit, out)
		case !utf8.ValidString(out):
			t.Fatalf("invalid UTF-8: %q", out)
		case strings.Contains(out, "bytes omitted") != cut:
			t.Fatalf("notice mismatch (omitted %d, limit %d): %q", omitted, limit, out)
		case !cut && out != finish(h+sep+v):
			t.Fatalf("nothing omitted but text changed:\n%q\n%q", out, finish(h+sep+v))
		}
	}
}
