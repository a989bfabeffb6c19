package markdown

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/tools/txtar"

	"harness/styled"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden renders each testdata/render/*.txtar's "in.md" at the widths
// its other files are named after, and compares with them (-update
// rewrites them). Lines are written with styled.Annotate.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/render/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var src string
			for _, f := range ar.Files {
				if f.Name == "in.md" {
					src = string(f.Data)
				}
			}
			changed := false
			for i, f := range ar.Files {
				w, err := strconv.Atoi(f.Name)
				if err != nil {
					continue
				}
				got := styled.Annotate(Render(src, w))
				if got != string(f.Data) {
					if *update {
						ar.Files[i].Data = []byte(got)
						changed = true
						continue
					}
					t.Errorf("width %d:\ngot\n%s\nwant\n%s", w, got, f.Data)
				}
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
