// Engine tests: line splitting, the line index against brute force, and splice invariants.

package patch

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

func lineSlice(t *text) []string {
	out := make([]string, t.len())
	for i := range out {
		out[i] = t.line(i)
	}
	return out
}

func TestSplitText(t *testing.T) {
	for _, tc := range []struct {
		in    string
		lines []string
		final bool
		eol   string
	}{
		{"", []string{}, true, "\n"},
		{"a", []string{"a"}, false, "\n"},
		{"a\n", []string{"a"}, true, "\n"},
		{"a\r\n", []string{"a"}, true, "\r\n"},
		{"a\r", []string{"a\r"}, false, "\n"},
		{"a\rb\n", []string{"a\rb"}, true, "\n"},
		{"\n\n", []string{"", ""}, true, "\n"},
		{"a\r\nb\nc\r\n", []string{"a", "b", "c"}, true, "\r\n"},
		{"a\nb\r\n", []string{"a", "b"}, true, "\n"},   // tie: the first ending
		{"a\r\nb\n", []string{"a", "b"}, true, "\r\n"}, // tie: the first ending
		{"a\r\r\nb", []string{"a\r", "b"}, false, "\r\n"},
	} {
		got := splitText(tc.in)
		if !reflect.DeepEqual(lineSlice(got), tc.lines) || got.final != tc.final || got.eol != tc.eol {
			t.Errorf("splitText(%q) = %q final %v eol %q; want %q %v %q", tc.in, lineSlice(got), got.final, got.eol, tc.lines, tc.final, tc.eol)
		}
	}
}

// TestIndexFind compares find with a brute-force search on random files
// over a small alphabet, where repeats are common.
func TestIndexFind(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", "", " a"}
	pick := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return out
	}
	for iter := 0; iter < 2000; iter++ {
		lines := pick(rng.IntN(30))
		seq := pick(1 + rng.IntN(3))
		lo := rng.IntN(len(lines) + 1)
		x := newIndex(textOf(lines), nil, seq)
		starts, count := x.find(seq, lo, 3)
		var want []int
		for s := lo; s+len(seq) <= len(lines); s++ {
			if reflect.DeepEqual(lines[s:s+len(seq)], seq) {
				want = append(want, s)
			}
		}
		if count != len(want) || !reflect.DeepEqual(starts, want[:min(3, len(want))]) && len(want) > 0 {
			t.Fatalf("find(%q in %q from %d) = %v, %d; want %v", seq, lines, lo, starts, count, want)
		}
	}
}

// TestSpliceInvariants applies random one-hunk updates to random texts
// with mixed endings and checks what splice promises: the text it returns
// splits like its bytes, the final-newline state is kept, lines outside
// the hunk are byte-for-byte the same, and added lines take the dominant
// ending.
func TestSpliceInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 3000; iter++ {
		var b strings.Builder
		n := rng.IntN(8)
		for i := 0; i < n; i++ {
			b.WriteString([]string{"x", "y", "", "zz"}[rng.IntN(4)])
			if i < n-1 || rng.IntN(2) == 0 {
				b.WriteString([]string{"\n", "\r\n"}[rng.IntN(2)])
			}
		}
		old := splitText(b.String())
		lines := lineSlice(old)
		start := rng.IntN(len(lines) + 1)
		end := start + rng.IntN(len(lines)-start+1)
		h := &Hunk{}
		for _, l := range lines[start:end] {
			h.Lines = append(h.Lines, Line{Op: "- "[rng.IntN(2)], Text: l})
		}
		added := rng.IntN(3)
		for k := 0; k < added; k++ {
			h.Lines = append(h.Lines, Line{Op: '+', Text: "new"})
		}
		out, next, _ := splice(old, []*Hunk{h}, []match{{start, end}})
		resplit := splitText(string(out))
		if !reflect.DeepEqual(lineSlice(next), lineSlice(resplit)) {
			t.Fatalf("%q: splice lines %q, but the bytes %q split as %q", old.data, lineSlice(next), out, lineSlice(resplit))
		}
		want := append([]string{}, lines[:start]...)
		want = append(want, h.New()...)
		want = append(want, lines[end:]...)
		emptyLast := len(want) > 0 && want[len(want)-1] == ""
		if emptyLast && !old.final {
			want = want[:len(want)-1] // "a\n" + "" without a final newline is written "a\n"
		}
		if !reflect.DeepEqual(lineSlice(next), want) {
			t.Fatalf("%q with %v: lines %q, want %q", old.data, h.Lines, lineSlice(next), want)
		}
		if len(out) > 0 && resplit.final != old.final && !emptyLast {
			t.Fatalf("%q -> %q: final newline %v, want %v", old.data, out, resplit.final, old.final)
		}
		prefix := old.data[:old.offs[start]]
		stripped := !old.final && (string(out)+"\n" == prefix || string(out)+"\r\n" == prefix) // the kept last line lost its ending
		if !strings.HasPrefix(string(out), prefix) && !stripped {
			t.Fatalf("%q -> %q: lines before the hunk changed", old.data, out)
		}
		if end < old.len()-1 || end == old.len()-1 && old.final {
			if suffix := old.data[old.offs[end]:]; !strings.HasSuffix(string(out), suffix) {
				t.Fatalf("%q -> %q: lines after the hunk changed", old.data, out)
			}
		}
		if added > 0 && strings.Contains(string(out), "new"+old.eol) == false && !(strings.HasSuffix(string(out), "new") && !old.final) {
			t.Fatalf("%q -> %q: added lines do not end in %q", old.data, out, old.eol)
		}
	}
}

func TestLocateOnLines(t *testing.T) {
	file := textOf([]string{"package a", "", "func f() {", "\treturn", "}", "", "func g() {", "\treturn", "}"})
	hunk := func(anchor string, lines ...string) *Hunk {
		h := &Hunk{HasAnchor: anchor != "", Anchor: anchor, Line: 1}
		for _, l := range lines {
			h.Lines = append(h.Lines, Line{Op: l[0], Text: l[1:]})
		}
		return h
	}
	for _, tc := range []struct {
		name  string
		hunks []*Hunk
		want  []match
		err   string
	}{
		{"unique", []*Hunk{hunk("", " func g() {", "-\treturn", "+\treturn 1")}, []match{{6, 8}}, ""},
		{"ambiguous", []*Hunk{hunk("", "-\treturn", "+\treturn 1")}, nil, "matches 2 places"},
		{"anchor", []*Hunk{hunk("func g() {", "-\treturn", "+\treturn 1")}, []match{{7, 8}}, ""},
		{"two anchored", []*Hunk{hunk("func f() {", " \treturn", "+\t// x", " }", " ", " func g() {"), hunk("func g() {", "-\treturn", "+\treturn 1")}, []match{{3, 7}, {7, 8}}, ""},
		{"anchor never picks the first of two", []*Hunk{hunk("func f() {", "-\treturn", "+\treturn 1")}, nil, "lines 4, 8"},
		{"insert after anchor", []*Hunk{hunk("package a", "+import \"os\"")}, []match{{1, 1}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := locate("a.go", file, tc.hunks)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want an error containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// FuzzLocate runs the matching engine on arbitrary file texts and patches:
// it must not panic, every hunk it locates must sit on lines equal to its
// old lines, in order, and splice into a text whose lines split like its
// bytes, and a failure must explain itself.
func FuzzLocate(f *testing.F) {
	f.Add("a\nb\nc\n", "*** Begin Patch\n*** Update File: x\n@@ a\n-b\n+B\n*** End Patch")
	f.Add("x\r\ny", "*** Begin Patch\n*** Update File: x\n@@ line 1: x\n-y\n+z\n*** End of File\n*** End Patch")
	for _, c := range goldenCases(f) {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, file, patch string) {
		p, err := Parse(patch)
		if err != nil {
			return
		}
		for _, op := range p.Ops {
			if op.Kind != Update || len(op.Hunks) == 0 {
				continue
			}
			tx := splitText(file)
			ms, err := locate(op.Path, tx, op.Hunks)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "Hunk ") {
					t.Fatalf("error %q does not name the hunk", err)
				}
				continue
			}
			for k, m := range ms {
				old := op.Hunks[k].Old()
				if m.end-m.start != len(old) || !reflect.DeepEqual(lineSlice(tx)[m.start:m.end], old) && len(old) > 0 {
					t.Fatalf("hunk %d located at %v, where the file holds %q, not %q", k+1, m, lineSlice(tx)[m.start:m.end], old)
				}
				if k > 0 && m.start < ms[k-1].end {
					t.Fatalf("hunks %d and %d overlap: %v %v", k, k+1, ms[k-1], m)
				}
			}
			out, next, _ := splice(tx, op.Hunks, ms)
			if !reflect.DeepEqual(lineSlice(next), lineSlice(splitText(string(out)))) {
				t.Fatalf("splice lines %q differ from its bytes %q", lineSlice(next), out)
			}
		}
	})
}

// goldenCases returns (first in/ file, patch) pairs from the golden cases.
func goldenCases(f *testing.F) [][2]string {
	var out [][2]string
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, name := range files {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var in, patch string
		for _, s := range ar.Files {
			switch {
			case s.Name == "patch":
				patch = decode(s.Data)
			case strings.HasPrefix(s.Name, "in/") && in == "":
				in = decode(s.Data)
			}
		}
		out = append(out, [2]string{in, patch})
	}
	return out
}
