package sessions

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/goldentest"
)

// TestDecodeGolden decodes testdata/decode/*.txtar's in.json and compares
// the re-encoded file (out.json) or the error (error).
func TestDecodeGolden(t *testing.T) {
	goldentest.Run(t, "testdata/decode/*.txtar", func(t *testing.T, c *goldentest.Case) {
		in, _ := c.Section("in.json")
		name, got := "out.json", ""
		f, err := Decode([]byte(in))
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
		c.CheckOne(name, got, "out.json", "error")
	})
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
