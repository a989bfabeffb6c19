package repl

import (
	"os"
	"path/filepath"
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
		out, err := prepass(src)
		if err != nil {
			pe, ok := err.(*prepassError)
			if !ok || pe.pos < 0 || pe.pos > len(src) || pe.msg == "" {
				t.Fatalf("bad refusal %#v for %q", err, src)
			}
			return
		}
		valid := !mentions(src, "assert", "load")
		if _, perr := fileOptions().Parse("repl", src, 0); perr == nil && valid && out.text != src {
			t.Fatalf("valid Starlark changed:\n--- in\n%s\n--- out\n%s", src, out.text)
		}
		if valid {
			checkWrapped(t, src)
		}
		if out.pm == nil {
			if out.text != src {
				t.Fatalf("text changed without a position map")
			}
			return
		}
		lines := strings.Count(src, "\n") + 1
		for i := 0; i <= len(out.text); i++ {
			if o := out.pm.toOrig(i); o < 0 || o > len(src) {
				t.Fatalf("offset %d maps to %d, outside the %d-byte input", i, o, len(src))
			}
		}
		for line := 1; line <= strings.Count(out.text, "\n")+1; line++ {
			if l, c := out.pm.position(line, 1); l < 1 || l > lines || c < 1 {
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
	if _, err := fileOptions().Parse("repl", "def f():\n"+indentLines(src, "    "), 0); err != nil {
		return
	}
	for _, wrapped := range []string{
		"def f():\n    try:\n" + indentLines(src, "        ") + "\n    except Exception as e:\n        pass\n    else:\n        pass\n    finally:\n        pass\n",
		"class C(object):\n    x = 1\n    def m(self):\n        try:\n" + indentLines(src, "            ") + "\n        except (KeyError, ValueError):\n            raise\n",
	} {
		out, err := prepass(wrapped)
		if err != nil {
			if pe, ok := err.(*prepassError); !ok || pe.pos < 0 || pe.pos > len(wrapped) || pe.msg == "" {
				t.Fatalf("bad refusal %#v for %q", err, wrapped)
			}
			continue
		}
		if _, err := fileOptions().Parse("repl", out.text, 0); err != nil {
			t.Fatalf("rewritten try or class does not parse: %v\n--- in\n%s\n--- out\n%s", err, wrapped, out.text)
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

// prepassSeeds are the corpus snippets and the script tests' chunks.
func prepassSeeds(f *testing.F) []string {
	var seeds []string
	if a, err := txtar.ParseFile("testdata/corpus.txtar"); err == nil {
		for _, file := range a.Files {
			if strings.HasPrefix(file.Name, "snippet/") {
				seeds = append(seeds, string(file.Data))
			}
		}
	}
	scripts, _ := filepath.Glob("testdata/*.star")
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range splitChunks(string(data)) {
			seeds = append(seeds, c.code)
		}
	}
	return append(seeds, "", "x = 1", "f\"{", "'''", "\\\n", "(\n", "def f(:\n", "a ** ** b", "x is", "0 < < 1", "{**}", "@\n")
}
