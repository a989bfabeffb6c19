package sessions

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// TestDecodeGolden decodes testdata/decode/*.txtar's in.json and compares
// the re-encoded file (out.json) or the error (error).
func TestDecodeGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/decode/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var in []byte
			for _, f := range ar.Files {
				if f.Name == "in.json" {
					in = f.Data
				}
			}
			name, got := "out.json", ""
			f, err := Decode(in)
			if err != nil {
				name, got = "error", err.Error()+"\n"
			} else {
				var b bytes.Buffer
				if err := f.Encode(&b); err != nil {
					t.Fatal(err)
				}
				got = b.String()
				// Decoding the output gives the same output again.
				f2, err := Decode(b.Bytes())
				if err != nil {
					t.Fatalf("re-decode: %v", err)
				}
				var b2 bytes.Buffer
				f2.Encode(&b2)
				if b2.String() != got {
					t.Errorf("encoding is not stable:\n%s\n%s", got, b2.String())
				}
			}
			if *update {
				var keep []txtar.File
				for _, f := range ar.Files {
					if f.Name == "in.json" {
						keep = append(keep, f)
					}
				}
				ar.Files = append(keep, txtar.File{Name: name, Data: []byte(got)})
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			var want string
			found := false
			for _, f := range ar.Files {
				if f.Name == name {
					want, found = string(f.Data), true
				}
			}
			if !found {
				t.Fatalf("got %s, but the golden file has no %s section:\n%s", name, name, got)
			}
			if got != want {
				t.Errorf("%s mismatch\ngot:\n%s\nwant:\n%s", name, got, want)
			}
		})
	}
}

func TestLoadNamesFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "root.json")
	os.WriteFile(p, []byte(`{"messages":[],"_harness_local":{"repository":"/r","depth":0,"extra":1}}`), 0o600)
	_, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), `"extra"`) {
		t.Fatalf("error %v should name the file and the field", err)
	}
}

func TestEncodeRejectsBadLocal(t *testing.T) {
	for _, l := range []Local{
		{Repository: ""},
		{Repository: "/r", Depth: 1},
		{Repository: "/r", Depth: 1, Parent: "abc"},
		{Repository: "/r", Depth: 0, Parent: "root"},
	} {
		f := &File{Local: l}
		if err := f.Encode(&bytes.Buffer{}); err == nil {
			t.Errorf("Encode accepted %+v", l)
		}
	}
}
