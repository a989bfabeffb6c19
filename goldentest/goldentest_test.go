package goldentest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// recorder is a testing.TB that keeps the failures.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

const archive = "comment\n-- in --\ninput\n-- want --\nold\n-- error --\nbroken\n"

func newCase(t *testing.T, r *recorder) *Case {
	file := filepath.Join(t.TempDir(), "a.txtar")
	if err := os.WriteFile(file, []byte(archive), 0o644); err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return &Case{File: file, Archive: ar, t: r}
}

func setUpdate(t *testing.T, v bool) {
	old := *update
	*update = v
	t.Cleanup(func() { *update = old })
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name, section, got string
		fail               string // part of the failure; "" for none
	}{
		{"same", "want", "old\n", ""},
		{"differs", "want", "new\n", "want differs"},
		{"missing", "result", "x\n", `no "result" section`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			setUpdate(t, false)
			r := &recorder{TB: t}
			c := newCase(t, r)
			c.Check(tt.section, tt.got)
			switch {
			case tt.fail == "" && len(r.errs) > 0:
				t.Errorf("failed: %v", r.errs)
			case tt.fail != "" && (len(r.errs) != 1 || !strings.Contains(r.errs[0], tt.fail)):
				t.Errorf("failures %q, want one with %q", r.errs, tt.fail)
			}
			if c.changed {
				t.Error("a check without -update changed the case")
			}
		})
	}
}

func TestUpdate(t *testing.T) {
	setUpdate(t, true)
	r := &recorder{TB: t}
	c := newCase(t, r)
	c.Check("in", "input\n")
	if c.changed {
		t.Error("an equal section counts as a change")
	}
	c.Check("want", "new\n")
	c.Check("result", "added\n")
	c.CheckOne("want", "newer\n", "want", "error")
	c.save()
	if len(r.errs) > 0 {
		t.Fatalf("failed under -update: %v", r.errs)
	}
	data, _ := os.ReadFile(c.File)
	if want := "comment\n-- in --\ninput\n-- want --\nnewer\n-- result --\nadded\n"; string(data) != want {
		t.Errorf("saved\n%s\nwant\n%s", data, want)
	}
}

// TestRun runs the cases of a folder: each file is a subtest named after
// it, and -update saves only the files whose checks changed them.
func TestRun(t *testing.T) {
	setUpdate(t, true)
	dir := t.TempDir()
	for name, text := range map[string]string{"a": "-- want --\nA\n", "b": "-- want --\nstale\n"} {
		if err := os.WriteFile(filepath.Join(dir, name+".txtar"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	Run(t, filepath.Join(dir, "*.txtar"), func(t *testing.T, c *Case) {
		seen = append(seen, t.Name())
		c.Check("want", strings.ToUpper(strings.TrimSuffix(filepath.Base(c.File), ".txtar"))+"\n")
	})
	if want := "TestRun/a TestRun/b"; strings.Join(seen, " ") != want {
		t.Errorf("subtests %v, want %s", seen, want)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "b.txtar")); string(data) != "-- want --\nB\n" {
		t.Errorf("b.txtar after -update: %q", data)
	}
}
