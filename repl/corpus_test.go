package repl

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"harness/config"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the want/ sections of testdata/corpus.txtar by running the snippets with python3")

// corpusFloor is the share of corpus snippets that must print exactly what
// CPython prints. The corpus measures the Python habits the REPL accepts;
// the snippets still failing are listed by go test -v -run TestCorpus
// (205 of 206 match when this was set: bool arithmetic, True + True, is
// what remains).
const corpusFloor = 0.97

// TestCorpus runs every snippet of testdata/corpus.txtar in a fresh REPL
// over a fresh copy of the fixture repository and compares the result with
// CPython's output, then checks the pass rate against corpusFloor.
func TestCorpus(t *testing.T) {
	a, err := txtar.ParseFile("testdata/corpus.txtar")
	if err != nil {
		t.Fatal(err)
	}
	repo, snippets, wants := splitCorpus(a)
	if *updateCorpus {
		regenerateCorpus(t, a, repo, snippets)
		return
	}
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Skip("no echo on PATH")
	}
	names := make([]string, 0, len(snippets))
	for name := range snippets {
		names = append(names, name)
	}
	sort.Strings(names)
	var failed, errored []string
	for _, name := range names {
		got, bad := runCorpusSnippet(t, repo, snippets[name], echo)
		if bad {
			errored = append(errored, name)
		}
		want := strings.TrimRight(wants[name], "\n")
		if want == "" {
			want = "(no output)"
		}
		if got != want {
			failed = append(failed, name)
			t.Logf("%s differs:\n--- got\n%s\n--- want (CPython)\n%s", name, got, want)
		}
	}
	passed := len(names) - len(failed)
	rate := float64(passed) / float64(len(names))
	t.Logf("corpus: %d of %d snippets run without an error; %d print exactly what CPython prints (%.0f %%); failing: %s; erroring: %s",
		len(names)-len(errored), len(names), passed, 100*rate, strings.Join(failed, ", "), strings.Join(errored, ", "))
	if rate < corpusFloor {
		t.Errorf("corpus pass rate %.0f %% is below %.0f %%; failing: %s", 100*rate, 100*corpusFloor, strings.Join(failed, ", "))
	}
}

// splitCorpus returns the fixture files (path relative to repo/), the
// snippets and the wanted outputs by name.
func splitCorpus(a *txtar.Archive) (repo map[string]string, snippets, wants map[string]string) {
	repo, snippets, wants = map[string]string{}, map[string]string{}, map[string]string{}
	for _, f := range a.Files {
		switch {
		case strings.HasPrefix(f.Name, "repo/"):
			repo[strings.TrimPrefix(f.Name, "repo/")] = string(f.Data)
		case strings.HasPrefix(f.Name, "snippet/"):
			snippets[strings.TrimSuffix(strings.TrimPrefix(f.Name, "snippet/"), ".py")] = string(f.Data)
		case strings.HasPrefix(f.Name, "want/"):
			wants[strings.TrimPrefix(f.Name, "want/")] = string(f.Data)
		}
	}
	return repo, snippets, wants
}

// runCorpusSnippet runs code in a fresh REPL over a copy of repo, with
// echo allowed without approval, and returns the result and whether the
// call failed.
func runCorpusSnippet(t *testing.T, repo map[string]string, code, echo string) (string, bool) {
	t.Helper()
	e := newEnv(t, withCommands(config.Commands{Allow: map[string]string{"echo": echo}}))
	for rel, data := range repo {
		e.write(t, rel, data)
	}
	return e.repl.exec(context.Background(), code)
}

// regenerateCorpus rewrites the want/ sections with CPython's output.
func regenerateCorpus(t *testing.T, a *txtar.Archive, repo, snippets map[string]string) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is needed to regenerate the corpus")
	}
	dir := t.TempDir()
	for rel, data := range repo {
		p := filepath.Join(dir, "repo", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "want")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"testdata/corpus_run.py", filepath.Join(dir, "repo"), out}
	for name, code := range snippets {
		p := filepath.Join(dir, name+".py")
		if err := os.WriteFile(p, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	if msg, err := exec.Command("python3", args...).CombinedOutput(); err != nil {
		t.Fatalf("python3: %v\n%s", err, msg)
	}
	var files []txtar.File
	for _, f := range a.Files {
		if strings.HasPrefix(f.Name, "want/") {
			continue
		}
		files = append(files, f)
		if name, ok := strings.CutPrefix(f.Name, "snippet/"); ok {
			name = strings.TrimSuffix(name, ".py")
			data, err := os.ReadFile(filepath.Join(out, name+".want"))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, txtar.File{Name: "want/" + name, Data: data})
		}
	}
	a.Files = files
	if err := os.WriteFile("testdata/corpus.txtar", txtar.Format(a), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Println("rewrote testdata/corpus.txtar")
}
