package repl

import (
	"strings"
	"testing"
)

// TestOnTouch: the repository paths a call's code resolves reach OnTouch
// once each, in order, after the call and before Exec returns, whatever
// function resolved them (Path, open, os, os.path, glob's root, a path
// that does not exist, a write); /store paths and calls that touch nothing
// report none.
func TestOnTouch(t *testing.T) {
	var got []string
	returned := false
	e := newEnv(t, func(_ *env, o *Options) {
		o.OnTouch = func(p string) {
			if returned {
				t.Errorf("OnTouch(%q) after Exec returned", p)
			}
			got = append(got, p)
		}
	})
	e.write(t, "pkg/a.go", "package pkg\n")
	e.write(t, "docs/x.md", "x\n")
	cases := []struct{ code, want string }{
		{"Path('pkg/a.go').read_text()\nPath('pkg/a.go').exists()\nPath('/repository/pkg/a.go').is_file()", "pkg/a.go"},
		{"import os\nos.listdir('docs')\nopen('docs/x.md').read()", "docs docs/x.md"},
		{"import os.path\nos.path.exists('new/dir/f.txt')\nPath('out.txt').write_text('x')", "new/dir/f.txt out.txt"},
		{"Path('/store/s.txt').write_text('x')\nprint(1)", ""},
		{"Path('.').iterdir()", "."},
		{"1 + 1", ""},
	}
	for _, c := range cases {
		got, returned = nil, false
		out := e.exec(c.code)
		returned = true
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q touched %q, want %q (output %q)", c.code, got, c.want, out)
		}
	}
}
