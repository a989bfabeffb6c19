// Package goldentest runs golden cases kept as txtar archives
// (golang.org/x/tools/txtar), the way x/tools' cmd/bisect tests do: each
// file matching a pattern is a subtest; the case reads its input sections,
// runs the code under test, and checks what it got against its want
// sections. Run with -update, the checks rewrite those sections instead,
// and the file is saved: review the diff, it records what the code does
// now, right or wrong.
//
//	func TestGolden(t *testing.T) {
//		goldentest.Run(t, "testdata/*.txtar", func(t *testing.T, c *goldentest.Case) {
//			in, _ := c.Section("in.md")
//			c.Check("want", render(in))
//		})
//	}
//
// What the sections mean is each package's own (its testdata/README.md or
// the comment on its test); goldentest knows only names and texts.
//
// A test binary that imports goldentest gets its -update flag, so the
// package's tests must not declare one of their own (the flag package
// panics on the second); Update says whether it is set.
package goldentest

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of the golden files in testdata with what the code gives now")

// Update reports whether the test runs with -update.
func Update() bool { return *update }

// Case is one golden file.
type Case struct {
	File    string // the file's path
	Archive *txtar.Archive

	t       testing.TB
	changed bool // a check under -update changed Archive
}

// Run runs fn as a subtest for each file matching pattern, named after
// the file without .txtar; it fails when no file matches. Under -update,
// a file is rewritten once fn returns if its checks changed it.
func Run(t *testing.T, pattern string, fn func(t *testing.T, c *Case)) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files %s (%v)", pattern, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c := &Case{File: file, Archive: ar, t: t}
			fn(t, c)
			c.save()
		})
	}
}

// Section returns the text of the first section called name, and whether
// there is one.
func (c *Case) Section(name string) (string, bool) {
	if i := c.index(name); i >= 0 {
		return string(c.Archive.Files[i].Data), true
	}
	return "", false
}

func (c *Case) index(name string) int {
	return slices.IndexFunc(c.Archive.Files, func(f txtar.File) bool { return f.Name == name })
}

// Check compares got with the section called name, and fails the test
// when they differ or there is no such section. Under -update it sets the
// section to got instead, adding it at the end when there is none.
func (c *Case) Check(name, got string) {
	c.t.Helper()
	i := c.index(name)
	switch {
	case *update && i < 0:
		c.Archive.Files = append(c.Archive.Files, txtar.File{Name: name, Data: []byte(got)})
		c.changed = true
	case *update:
		if string(c.Archive.Files[i].Data) != got {
			c.Archive.Files[i].Data = []byte(got)
			c.changed = true
		}
	case i < 0:
		c.t.Errorf("%s has no %q section (-update adds it); got\n%s", c.File, name, got)
	case string(c.Archive.Files[i].Data) != got:
		c.t.Errorf("%s differs (-update rewrites it)\n--- got\n%s\n--- want\n%s", name, got, c.Archive.Files[i].Data)
	}
}

// CheckOne is Check for a section that names one of several outcomes,
// such as "want" and "error": under -update, the sections of the others
// are removed.
func (c *Case) CheckOne(name, got string, outcomes ...string) {
	c.t.Helper()
	if *update {
		n := len(c.Archive.Files)
		c.Archive.Files = slices.DeleteFunc(c.Archive.Files, func(f txtar.File) bool {
			return f.Name != name && slices.Contains(outcomes, f.Name)
		})
		c.changed = c.changed || len(c.Archive.Files) != n
	}
	c.Check(name, got)
}

// save rewrites the file when a check changed it.
func (c *Case) save() {
	if !c.changed {
		return
	}
	if err := os.WriteFile(c.File, txtar.Format(c.Archive), 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.changed = false
}
