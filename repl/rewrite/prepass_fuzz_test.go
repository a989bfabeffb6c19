package rewrite

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzPrepass checks the pre-pass on any input: it never panics; code
// Starlark already reads (without the names assert and load, which
// Starlark reads differently from Python) reaches Starlark byte for byte;
// such code as the body of a try in a def or in a method is rewritten
// into code Starlark parses; and every position of the rewritten text
// maps into the original.
func FuzzPrepass(f *testing.F) {
	for _, seed := range prepassSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, err := Prepass(src)
		if err != nil {
			pe, ok := err.(*Error)
			if !ok || pe.Pos < 0 || pe.Pos > len(src) || pe.Msg == "" {
				t.Fatalf("bad refusal %#v for %q", err, src)
			}
			return
		}
		valid := !mentions(src, "assert", "load")
		if _, perr := FileOptions().Parse("repl", src, 0); perr == nil && valid && out.Text != src {
			t.Fatalf("valid Starlark changed:\n--- in\n%s\n--- out\n%s", src, out.Text)
		}
		if valid {
			checkWrapped(t, src)
		}
		if out.PM == nil {
			if out.Text != src {
				t.Fatalf("text changed without a position map")
			}
			return
		}
		lines := strings.Count(src, "\n") + 1
		for i := 0; i <= len(out.Text); i++ {
			if o := out.PM.toOrig(i); o < 0 || o > len(src) {
				t.Fatalf("offset %d maps to %d, outside the %d-byte input", i, o, len(src))
			}
		}
		for line := 1; line <= strings.Count(out.Text, "\n")+1; line++ {
			if l, c := out.PM.Position(line, 1); l < 1 || l > lines || c < 1 {
				t.Fatalf("line %d maps to %d:%d, outside the %d-line input", line, l, c, lines)
			}
		}
	})
}

// checkWrapped checks the rewrites of a try inside a def and of a class:
// a valid function body, as the body of a try in a def or of a try in a
// method, is rewritten into code Starlark parses (or refused).
func checkWrapped(t *testing.T, src string) {
	if strings.ContainsAny(src, "\r\f") || strings.TrimSpace(src) == "" {
		return // indentLines knows only \n line ends
	}
	if _, err := FileOptions().Parse("repl", "def f():\n"+indentLines(src, "    "), 0); err != nil {
		return
	}
	for _, wrapped := range []string{
		"def f():\n    try:\n" + indentLines(src, "        ") + "\n    except Exception as e:\n        pass\n    else:\n        pass\n    finally:\n        pass\n",
		"class C(object):\n    x = 1\n    def m(self):\n        try:\n" + indentLines(src, "            ") + "\n        except (KeyError, ValueError):\n            raise\n",
	} {
		out, err := Prepass(wrapped)
		if err != nil {
			if pe, ok := err.(*Error); !ok || pe.Pos < 0 || pe.Pos > len(wrapped) || pe.Msg == "" {
				t.Fatalf("bad refusal %#v for %q", err, wrapped)
			}
			continue
		}
		if _, err := FileOptions().Parse("repl", out.Text, 0); err != nil {
			t.Fatalf("rewritten try or class does not parse: %v\n--- in\n%s\n--- out\n%s", err, wrapped, out.Text)
		}
	}
}

func indentLines(src, prefix string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// mentions reports whether src holds one of the words as a name (not as
// part of a longer name).
func mentions(src string, words ...string) bool {
	toks, err := tokenize(src, 0, len(src), 0)
	if err != nil {
		return true
	}
	for _, t := range toks {
		for _, w := range words {
			if t.kw(w) {
				return true
			}
		}
	}
	return false
}

// prepassSeeds are the corpus snippets and the script tests' chunks
// (repl/testdata, where the REPL's own tests read them).
func prepassSeeds(f *testing.F) []string {
	var seeds []string
	if a, err := txtar.ParseFile("../testdata/corpus.txtar"); err == nil {
		for _, file := range a.Files {
			if strings.HasPrefix(file.Name, "snippet/") {
				seeds = append(seeds, string(file.Data))
			}
		}
	}
	scripts, _ := filepath.Glob("../testdata/*.star")
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, starChunks(string(data))...)
	}
	return append(seeds, "", "x = 1", "f\"{", "'''", "\\\n", "(\n", "def f(:\n", "a ** ** b", "x is", "0 < < 1", "{**}", "@\n")
}

// starWantRE is a script test's expected-error annotation (see repl/star_test.go).
var starWantRE = regexp.MustCompile(`### "(.*)"\s*$`)

// starChunks are the chunks of a script test, "---" between them, without
// their expected-error annotations, as repl/star_test.go's splitChunks
// reads them.
func starChunks(src string) []string {
	var out, lines []string
	flush := func() {
		if code := strings.Join(lines, "\n"); strings.TrimSpace(code) != "" {
			out = append(out, code)
		}
		lines = nil
	}
	for _, l := range strings.Split(src, "\n") {
		if l == "---" {
			flush()
			continue
		}
		if starWantRE.MatchString(l) {
			l = l[:strings.Index(l, "###")]
		}
		lines = append(lines, l)
	}
	flush()
	return out
}
