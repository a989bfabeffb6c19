package repl

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// layers are the REPL's packages, lowest floor first, with everything each
// may import besides the standard library: this table is the one place the
// allowed edges are written down. A package may import only packages of a
// lower floor; none but repl itself may import the host's packages in
// hostOnly. A package under repl/ missing from the table fails the test,
// so a new package comes with its line here.
var layers = []layer{
	{pkg: "harness/repl/pystr"},
	{pkg: "harness/repl/pyre", imports: []string{"harness/repl/pystr", "github.com/dlclark/regexp2/v2"}},
	{pkg: "harness/repl/modslots", imports: []string{"go.starlark.net/starlark"}},
	{pkg: "harness/repl/rewrite", imports: []string{"go.starlark.net/syntax"}},
	{pkg: "harness/repl/pyast", imports: []string{"harness/repl/pystr"}},
	{pkg: "harness/repl/pyrt", imports: runtimeImports},
	// The standard modules: each package stands on the runtime alone, none
	// on another (what two of them share belongs to the runtime).
	{pkg: "harness/repl/lib/pyarchive", imports: libImports},
	{pkg: "harness/repl/lib/pydata", imports: libImports},
	{pkg: "harness/repl/lib/pydev", imports: libImports},
	{pkg: "harness/repl/lib/pylang", imports: libImports},
	{pkg: "harness/repl/lib/pyfs", imports: libImports},
	{pkg: "harness/repl/lib/pynum", imports: libImports},
	{pkg: "harness/repl/lib/pytext", imports: libImports},
	{pkg: "harness/repl", imports: []string{
		"harness/repl/pystr", "harness/repl/pyre", "harness/repl/modslots", "harness/repl/rewrite", "harness/repl/pyast",
		"harness/repl/pyrt", "harness/repl/lib/",
		"go.starlark.net/", "github.com/BurntSushi/toml", "github.com/bmatcuk/doublestar/v4",
		"harness/approval", "harness/atomicfile", "harness/config", "harness/failures",
		"harness/jail", "harness/reaper", "harness/replib", "harness/sandbox", "harness/wire", "harness/worker",
	}},
}

// hostOnly are the packages only repl, the REPL as the rest of harness sees
// it, may import: the jail, the worker protocol, the configuration and the
// agent and its screens.
var hostOnly = []string{"harness/jail", "harness/worker", "harness/wire", "harness/config", "harness/rlm", "harness/ui"}

// runtimeFiles are the files of the runtime (package pyrt) and of the
// standard modules (the packages under lib), in runtimeDirs; file by file,
// they may import only runtimeImports (and the modules pyrt too) besides
// the standard library: never the host's packages, nor failures, sandbox,
// approval, replib or atomicfile. What they need of the host they reach
// through pyrt.Host and pyrt.Root, which repl's own files implement (the
// mounts, run(), the call's state).
var (
	runtimeDirs    = []string{"pyrt", "lib/pyarchive", "lib/pydata", "lib/pydev", "lib/pyfs", "lib/pylang", "lib/pynum", "lib/pytext"}
	runtimeFiles   = regexp.MustCompile(`\.go$`)
	runtimeImports = []string{
		"go.starlark.net/", "github.com/BurntSushi/toml", "github.com/bmatcuk/doublestar/v4",
		"harness/repl/pystr", "harness/repl/pyre", "harness/repl/modslots", "harness/repl/rewrite", "harness/repl/pyast",
	}
	libImports = append([]string{"harness/repl/pyrt"}, runtimeImports...)
)

// layer is one package and what it may import: an import path, or a
// prefix ending in "/".
type layer struct {
	pkg     string
	imports []string
}

func TestLayers(t *testing.T) {
	for _, msg := range checkLayers(".", "harness/repl", layers) {
		t.Error(msg)
	}
}

func TestRuntimeFilesReachNoHost(t *testing.T) {
	for _, dir := range runtimeDirs {
		allowed := libImports
		if dir == "pyrt" {
			allowed = runtimeImports
		}
		for _, msg := range checkFiles(dir, runtimeFiles, allowed) {
			t.Error(dir + "/" + msg)
		}
	}
}

func TestCheckFilesCatches(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"pymod_x.go":      "package r\nimport (\n\t_ \"fmt\"\n\t_ \"harness/jail\"\n\t_ \"go.starlark.net/starlark\"\n)\n",
		"pymod_x_test.go": "package r\nimport _ \"harness/config\"\n",  // tests are not checked
		"run.go":          "package r\nimport _ \"harness/sandbox\"\n", // not a file the pattern names
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Join(checkFiles(dir, regexp.MustCompile(`^pymod_`), runtimeImports), "\n")
	if want := "pymod_x.go imports harness/jail: the runtime's files reach the host only through pyrt.Host and pyrt.Root"; got != want {
		t.Errorf("checkFiles = %q, want %q", got, want)
	}
}

// checkFiles returns one message per import of a non-test file of dir
// whose name matches files that is neither standard nor allowed.
func checkFiles(dir string, files *regexp.Regexp, allowedImports []string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return []string{err.Error()}
	}
	var msgs []string
	for _, e := range entries {
		name := e.Name()
		if !files.MatchString(name) || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			return []string{err.Error()}
		}
		for _, s := range f.Imports {
			if imp := strings.Trim(s.Path.Value, `"`); !isStd(imp) && !allowed(allowedImports, imp) {
				msgs = append(msgs, fmt.Sprintf("%s imports %s: the runtime's files reach the host only through pyrt.Host and pyrt.Root", name, imp))
			}
		}
	}
	return msgs
}

// TestCheckLayersCatches: the check reports a lower floor importing a
// higher one, a layer importing the host, an import off the table and a
// package missing from it.
func TestCheckLayersCatches(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("r.go", "package r\nimport _ \"x/r/low\"\n")
	write("low/low.go", "package low\nimport (\n\t_ \"fmt\"\n\t_ \"x/r\"\n\t_ \"harness/config\"\n\t_ \"example.com/other\"\n)\n")
	write("low/low_test.go", "package low\nimport _ \"x/r/new\"\n") // tests are not checked
	write("new/new.go", "package new\n")
	write("mid/mid.go", "package mid\nimport _ \"x/r/low\"\n")
	rules := []layer{
		{pkg: "x/r/low", imports: []string{"harness/config"}},
		{pkg: "x/r/mid"}, // below x/r, but allowed nothing
		{pkg: "x/r", imports: []string{"x/r/low"}},
	}
	got := checkLayers(dir, "x/r", rules)
	want := []string{
		"x/r/low imports harness/config, which only harness/repl may import",
		"x/r/low imports x/r, which is not below it (layers in repl/layers_test.go)",
		"x/r/low imports example.com/other, which its line in layers does not allow",
		"x/r/mid imports x/r/low, which its line in layers does not allow",
		"x/r/new is not in layers (repl/layers_test.go): add it, on its floor, with what it may import",
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("checkLayers =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// checkLayers reads the imports of the non-test Go files of every package
// under root (import path base) and returns one message per import the
// rules do not allow.
func checkLayers(root, base string, rules []layer) []string {
	floor := map[string]int{}
	for i, l := range rules {
		floor[l.pkg] = i
	}
	var msgs []string
	imports := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := path.Join(base, filepath.ToSlash(rel))
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, s := range f.Imports {
			imports[pkg][strings.Trim(s.Path.Value, `"`)] = true
		}
		return nil
	})
	if err != nil {
		return []string{err.Error()}
	}
	for pkg, imps := range imports {
		i, ok := floor[pkg]
		if !ok {
			msgs = append(msgs, fmt.Sprintf("%s is not in layers (repl/layers_test.go): add it, on its floor, with what it may import", pkg))
			continue
		}
		for imp := range imps {
			switch {
			case isHostOnly(imp) && pkg != base:
				msgs = append(msgs, fmt.Sprintf("%s imports %s, which only harness/repl may import", pkg, imp))
			case imp == base || strings.HasPrefix(imp, base+"/"):
				if j, ok := floor[imp]; !ok || j >= i {
					msgs = append(msgs, fmt.Sprintf("%s imports %s, which is not below it (layers in repl/layers_test.go)", pkg, imp))
				} else if !allowed(rules[i].imports, imp) {
					msgs = append(msgs, fmt.Sprintf("%s imports %s, which its line in layers does not allow", pkg, imp))
				}
			case isStd(imp):
			case !allowed(rules[i].imports, imp):
				msgs = append(msgs, fmt.Sprintf("%s imports %s, which its line in layers does not allow", pkg, imp))
			}
		}
	}
	return msgs
}

func allowed(list []string, imp string) bool {
	for _, a := range list {
		if a == imp || strings.HasSuffix(a, "/") && strings.HasPrefix(imp, a) {
			return true
		}
	}
	return false
}

func isHostOnly(imp string) bool {
	for _, h := range hostOnly {
		if imp == h || strings.HasPrefix(imp, h+"/") {
			return true
		}
	}
	return false
}

// isStd reports whether imp is a standard library package (no dot in its
// first element, and not harness's own).
func isStd(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".") && first != "harness"
}
