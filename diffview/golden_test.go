package diffview

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"harness/styled"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden builds the diff of each testdata/*.txtar's "patch", with the
// files under "old/" as the old texts, at the widths its "want N" files
// name, and compares with them (styled.Annotate form; -update rewrites).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var text string
			olds := map[string]string{}
			for _, f := range ar.Files {
				switch {
				case f.Name == "patch":
					text = string(f.Data)
				case strings.HasPrefix(f.Name, "old/"):
					olds[strings.TrimPrefix(f.Name, "old/")] = string(f.Data)
				}
			}
			old := func(p string) (string, bool) { s, ok := olds[p]; return s, ok }
			changed := false
			for i, f := range ar.Files {
				ws, ok := strings.CutPrefix(f.Name, "want ")
				if !ok {
					continue
				}
				w, err := strconv.Atoi(ws)
				if err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
				got := styled.Annotate(Lines(text, old, w))
				if got != string(f.Data) {
					if *update {
						ar.Files[i].Data, changed = []byte(got), true
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

func FuzzLines(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a\n@@ x\n-a\n+b\n*** End Patch\n", "a\nx\n", 20)
	f.Add("*** Begin Patch\n*** Replace File: a\n+q\n", "p\nq\n", 5)
	f.Fuzz(func(t *testing.T, text, old string, width int) {
		width = 1 + max(width, -width)%120
		lines := Lines(text, func(string) (string, bool) { return old, true }, width)
		for _, l := range lines {
			if l.Width() > max(width, 4) && styled.Width(l.Text()) > 4 {
				t.Fatalf("line %q wider than %d", l.Text(), width)
			}
			if strings.Contains(l.Text(), "\n") {
				t.Fatalf("line %q holds a newline", l.Text())
			}
		}
	})
}
