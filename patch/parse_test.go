// Parser tests: the structure Parse builds, syntax error lines, and the round trip through String.

package patch

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

func TestParseStructure(t *testing.T) {
	text := strings.Join([]string{
		"",
		"*** Begin Patch",
		"*** Add File: a/new.txt",
		"+one",
		"+",
		"*** Update File: b.txt",
		"*** Move to: c/b.txt",
		" ctx", // implicit first hunk
		"-old",
		"+new",
		"@@ def f():",
		"",
		"+x",
		"@@ line 12: ## conventions ",
		" a",
		"-b",
		"",
		"*** End of File",
		"*** Delete File: d.txt",
		"*** Replace File: e.txt",
		"*** End Patch",
	}, "\r\n")
	p, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := &Patch{Ops: []*Op{
		{Kind: Add, Path: "a/new.txt", Lines: []string{"one", ""}, Line: 3},
		{Kind: Update, Path: "b.txt", MoveTo: "c/b.txt", Line: 6, Hunks: []*Hunk{
			{Lines: []Line{{' ', "ctx"}, {'-', "old"}, {'+', "new"}}, Line: 8},
			{HasAnchor: true, Anchor: "def f():", Lines: []Line{{' ', ""}, {'+', "x"}}, Line: 11},
			{HasAnchor: true, Anchor: "## conventions", AnchorLine: 12, Lines: []Line{{' ', "a"}, {'-', "b"}, {' ', ""}}, EOF: true, Line: 14},
		}},
		{Kind: Delete, Path: "d.txt", Line: 19},
		{Kind: Replace, Path: "e.txt", Lines: []string{}, Line: 20},
	}}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got\n%s\nwant\n%s", p, want)
	}
	if h := p.Ops[1].Hunks[2]; !reflect.DeepEqual(h.Old(), []string{"a", "b", ""}) || !reflect.DeepEqual(h.New(), []string{"a", ""}) {
		t.Errorf("Old %q New %q", h.Old(), h.New())
	}
}

func TestParseErrorLines(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		contains   string
	}{
		{"empty", "", 1, "empty"},
		{"no begin", "hello", 1, "*** Begin Patch"},
		{"no end", "*** Begin Patch\n*** Delete File: a", 3, "cut short"},
		{"blank in add", "*** Begin Patch\n*** Add File: a\n+x\n\n+y\n*** End Patch", 4, `"+" alone`},
		{"bad hunk line", "*** Begin Patch\n*** Update File: a\n@@\n x\nfoo\n*** End Patch", 5, "start unchanged lines with a space"},
		{"empty hunk", "*** Begin Patch\n*** Update File: a\n@@\n*** End Patch", 3, "no lines"},
		{"context only", "*** Begin Patch\n*** Update File: a\n@@ x\n y\n*** End Patch", 3, "changes nothing"},
		{"delete lines", "*** Begin Patch\n*** Delete File: a\n\n-x\n*** End Patch", 4, "takes no lines"},
		{"absolute", "*** Begin Patch\n*** Delete File: /a\n*** End Patch", 2, "absolute"},
		{"dotdot move", "*** Begin Patch\n*** Update File: a\n*** Move to: ../b\n*** End Patch", 3, "'..'"},
		{"eof then line", "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\n\n-y\n*** End Patch", 7, "last line of its hunk"},
		{"unified", "*** Begin Patch\n*** Update File: a\n@@ -1,3 +1,4 @@\n-x\n*** End Patch", 3, "unified-diff"},
		{"after end", "*** Begin Patch\n*** Delete File: a\n*** End Patch\n\nx", 5, "after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.text)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SyntaxError", err)
			}
			if se.Line != tc.line || !strings.Contains(se.Msg, tc.contains) {
				t.Errorf("got line %d %q, want line %d containing %q", se.Line, se.Msg, tc.line, tc.contains)
			}
		})
	}
}

// TestParseRoundTrip parses every golden patch that parses and checks that
// String renders an equivalent patch.
func TestParseRoundTrip(t *testing.T) {
	for _, text := range goldenPatches(t) {
		p, err := Parse(text)
		if err != nil {
			continue
		}
		checkRoundTrip(t, p)
	}
}

func checkRoundTrip(t *testing.T, p *Patch) {
	t.Helper()
	q, err := Parse(p.String())
	if err != nil {
		t.Fatalf("reparse of\n%s\nfailed: %v", p, err)
	}
	if !reflect.DeepEqual(withoutLines(p), withoutLines(q)) {
		t.Fatalf("round trip changed the patch:\n%s\nbecame\n%s", p, q)
	}
}

// withoutLines copies p without patch line numbers, which rendering changes.
func withoutLines(p *Patch) *Patch {
	out := &Patch{}
	for _, op := range p.Ops {
		o := *op
		o.Line = 0
		o.Hunks = nil
		for _, h := range op.Hunks {
			hc := *h
			hc.Line = 0
			o.Hunks = append(o.Hunks, &hc)
		}
		out.Ops = append(out.Ops, &o)
	}
	return out
}

func goldenPatches(t testing.TB) []string {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ar.Files {
			if s.Name == "patch" {
				out = append(out, decode(s.Data))
			}
		}
	}
	return out
}

// FuzzParse checks that Parse never panics, that errors are *SyntaxError
// values naming a line of the patch, and that accepted patches survive the
// round trip through String.
func FuzzParse(f *testing.F) {
	for _, p := range goldenPatches(f) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse(text)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if n := strings.Count(text, "\n") + 2; se.Line < 1 || se.Line > n {
				t.Fatalf("error line %d outside 1..%d", se.Line, n)
			}
			return
		}
		checkRoundTrip(t, p)
	})
}
