package pyast

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// cases.json is CPython 3.11's ast.dump(ast.parse(src), include_attributes=True)
// for snippets of every statement and expression kind, its SyntaxError
// for bad ones, and the dump's sha256 for modules of CPython's library
// (testdata/gen.py wrote it; the test needs no python3).
type casesFile struct {
	Cases []struct {
		Src   string `json:"src"`
		Dump  string `json:"dump"`
		Error []any  `json:"error"`
	} `json:"cases"`
	Files []struct {
		Name   string `json:"name"`
		Src    string `json:"src"`
		Sha256 string `json:"sha256"`
	} `json:"files"`
}

func loadCases(t testing.TB) casesFile {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cf casesFile
	if err := json.Unmarshal(data, &cf); err != nil {
		t.Fatal(err)
	}
	return cf
}

func TestParseMatchesCPython(t *testing.T) {
	cf := loadCases(t)
	for _, c := range cf.Cases {
		mod, err := Parse(c.Src)
		if c.Error != nil {
			want := c.Error[0].(string)
			if err == nil {
				t.Errorf("Parse(%q) succeeded, want SyntaxError %q", c.Src, want)
				continue
			}
			se := err.(*SyntaxError)
			if se.Msg != want || float64(se.Lineno) != c.Error[1].(float64) {
				t.Errorf("Parse(%q) error = %q line %d offset %d, want %q line %v offset %v", c.Src, se.Msg, se.Lineno, se.Offset, want, c.Error[1], c.Error[2])
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", c.Src, err)
			continue
		}
		if got := Dump(mod, true); got != c.Dump {
			t.Errorf("Parse(%q):\n got %s\nwant %s\n at %s", c.Src, got, c.Dump, firstDiff(got, c.Dump))
		}
	}
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := i - 60
	if lo < 0 {
		lo = 0
	}
	hi := func(s string) string {
		if i+60 < len(s) {
			return s[lo : i+60]
		}
		return s[lo:]
	}
	return "got ..." + hi(a) + "\n want ..." + hi(b)
}

func TestParseLibraryModules(t *testing.T) {
	cf := loadCases(t)
	for _, f := range cf.Files {
		mod, err := Parse(f.Src)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		sum := sha256.Sum256([]byte(Dump(mod, true)))
		if hex.EncodeToString(sum[:]) != f.Sha256 {
			t.Errorf("%s: dump differs from CPython's", f.Name)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range loadCases(f).Cases {
		f.Add(c.Src)
	}
	f.Add("f'{")
	f.Add("match x:\n case {**")
	f.Fuzz(func(t *testing.T, src string) {
		mod, err := Parse(src)
		if err == nil {
			_ = Dump(mod, true)
		} else if !strings.Contains(err.Error(), "line") {
			t.Errorf("error without a line: %v", err)
		}
	})
}
