package pyprograms

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"harness/config"
	"harness/jail"
	"harness/repl"
)

// program is one whole program of the corpus with its fixture tree.
type program struct {
	Name    string            // "archive/name", the manifest's key
	Source  string            // the program's text
	Want    string            // CPython's output as the REPL should print it ("" when not generated yet)
	Fixture map[string]string // "repository/..." and "store/..." paths to file contents
}

// archive is one testdata/*.txtar file: a fixture tree shared by its
// programs, each run over a fresh copy of it.
type archive struct {
	File     string
	Name     string
	A        *txtar.Archive
	Programs []*program
}

// loadArchives reads every testdata/*.txtar archive.
func loadArchives(t testing.TB) []*archive {
	t.Helper()
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.txtar (%v)", err)
	}
	var out []*archive
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ar, err := splitArchive(file, a)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ar)
	}
	return out
}

// splitArchive sorts an archive's sections into its fixture tree,
// programs (program/NAME.py) and wanted outputs (want/NAME).
func splitArchive(file string, a *txtar.Archive) (*archive, error) {
	ar := &archive{File: file, Name: strings.TrimSuffix(filepath.Base(file), ".txtar"), A: a}
	fixture := map[string]string{}
	wants := map[string]string{}
	byName := map[string]*program{}
	for _, f := range a.Files {
		switch {
		case strings.HasPrefix(f.Name, "repository/"), strings.HasPrefix(f.Name, "store/"):
			fixture[f.Name] = string(f.Data)
		case strings.HasPrefix(f.Name, "program/") && strings.HasSuffix(f.Name, ".py"):
			name := ar.Name + "/" + strings.TrimSuffix(strings.TrimPrefix(f.Name, "program/"), ".py")
			if byName[name] != nil {
				return nil, fmt.Errorf("%s: program %s twice", file, name)
			}
			p := &program{Name: name, Source: string(f.Data), Fixture: fixture}
			byName[name] = p
			ar.Programs = append(ar.Programs, p)
		case strings.HasPrefix(f.Name, "want/"):
			wants[ar.Name+"/"+strings.TrimPrefix(f.Name, "want/")] = string(f.Data)
		default:
			return nil, fmt.Errorf("%s: section %q is neither repository/, store/, program/NAME.py nor want/NAME", file, f.Name)
		}
	}
	for name := range wants {
		if byName[name] == nil {
			return nil, fmt.Errorf("%s: want/%s has no program", file, name)
		}
	}
	for _, p := range ar.Programs {
		p.Want = wants[p.Name]
	}
	return ar, nil
}

// materialize writes a fixture tree under a new directory and returns it:
// dir/repository and dir/store always exist.
func materialize(t testing.TB, fixture map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"repository", "store"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for rel, data := range fixture {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runTimeout bounds one program's run, in the REPL or under CPython.
const runTimeout = 30 * time.Second

// runREPL runs src as one call of a fresh REPL whose /repository and
// /store are dir/repository and dir/store, read-write, and returns its
// result normalised as the wants are.
func runREPL(t testing.TB, dir, src string) string {
	t.Helper()
	perm := func() config.Permission { return config.PermReadWrite }
	repo, err := jail.Open(jail.Repository, filepath.Join(dir, "repository"), perm)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	store, err := jail.Open(jail.Store, filepath.Join(dir, "store"), perm)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	r, err := repl.New(repl.Options{
		Depth: 1, Repository: repo, Store: store, RepoDir: filepath.Join(dir, "repository"),
		Home: filepath.Join(dir, "home"), MaxMemoryMB: 1024,
		Environ: func() []string { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	return normalize(r.Exec(ctx, src))
}

// normalize is the form both sides are compared in: trailing newlines cut,
// "(no output)" for nothing, and the frame lines of every traceback (the
// indented lines after "Traceback (most recent call last):") left out,
// since the REPL's frames are not CPython's; the exception's
// "Kind: message" line stays.
func normalize(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	var kept []string
	frames := false
	for _, l := range lines {
		if frames && strings.HasPrefix(l, "  ") {
			continue
		}
		frames = l == "Traceback (most recent call last):"
		kept = append(kept, l)
	}
	s := strings.Join(kept, "\n")
	if strings.TrimSpace(s) == "" {
		return "(no output)"
	}
	return s
}

// sortedNames returns a map's keys in order.
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
