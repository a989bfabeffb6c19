package diffview

import (
	"strconv"
	"strings"
	"testing"

	"harness/goldentest"
	"harness/styled"
)

// TestGolden builds the diff of each testdata/*.txtar's "patch", with the
// files under "old/" as the old texts, at the widths its "want N" files
// name, and compares with them (styled.Annotate form; -update rewrites).
func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/*.txtar", func(t *testing.T, c *goldentest.Case) {
		text, _ := c.Section("patch")
		olds := map[string]string{}
		for _, f := range c.Archive.Files {
			if p, ok := strings.CutPrefix(f.Name, "old/"); ok {
				olds[p] = string(f.Data)
			}
		}
		old := func(p string) (string, bool) { s, ok := olds[p]; return s, ok }
		for _, f := range c.Archive.Files {
			ws, ok := strings.CutPrefix(f.Name, "want ")
			if !ok {
				continue
			}
			w, err := strconv.Atoi(ws)
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			c.Check(f.Name, styled.Annotate(Lines(text, old, w)))
		}
	})
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
