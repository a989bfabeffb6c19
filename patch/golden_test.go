// Golden cases: testdata/*.txtar hold a patch, the files before and after, and the result or error.

package patch

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"harness/config"
	"harness/jail"
)

var update = flag.Bool("update", false, "rewrite the result, error and want/ sections of testdata/*.txtar")

// Case format (see testdata/README.md):
//
//	-- patch --         the patch text
//	-- in/<path> --     a file before the patch ("in/<path>/" with no text: an empty folder)
//	-- symlinks --      "link -> target" lines, created before the patch
//	-- level --         permission of the repository: none, read-only (default read-write)
//	-- limit --         output limit in bytes (default 0: none)
//	-- want/<path> --   every regular file after the patch; absent: the files are unchanged
//	-- want-symlinks -- symlinks after the patch; absent: as in -- symlinks --
//	-- result --        the result on success
//	-- error --         the error message on failure
//
// In section texts "␍" stands for a carriage return, and a text ending in
// "␄" and a newline has no final newline.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden cases in testdata")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runGolden(t, file)
		})
	}
}

func runGolden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sec := map[string]string{}
	for _, f := range ar.Files {
		sec[f.Name] = decode(f.Data)
	}
	dir := t.TempDir()
	buildTree(t, dir, ar, sec["symlinks"])
	level := config.PermReadWrite
	switch strings.TrimSpace(sec["level"]) {
	case "none":
		level = config.PermNone
	case "read-only":
		level = config.PermReadOnly
	}
	root, err := jail.Open(jail.Repository, dir, func() config.Permission { return level })
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	limit, _ := strconv.Atoi(strings.TrimSpace(sec["limit"]))
	before := snapshot(t, dir)
	res, aerr := Apply(context.Background(), root, sec["patch"], limit)
	after := snapshot(t, dir)

	if aerr != nil && strings.Contains(aerr.Error(), dir) || strings.Contains(res, dir) {
		t.Errorf("the output names the host directory %s", dir)
	}
	got := map[string]string{}
	if aerr != nil {
		got["error"] = aerr.Error() + "\n"
		if res != "" {
			t.Errorf("result %q returned with an error", res)
		}
	} else {
		got["result"] = res
	}
	if _, ok := sec["want-symlinks"]; ok || after.links != before.links {
		got["want-symlinks"] = after.links
	}
	wantFiles := map[string]string{}
	hasWant := false
	for _, f := range ar.Files {
		if p, ok := strings.CutPrefix(f.Name, "want/"); ok {
			wantFiles[p] = decode(f.Data)
			hasWant = true
		}
	}
	if !hasWant {
		wantFiles = before.files
	}
	if *update {
		rewriteCase(t, file, ar, got, after.files, hasWant || !equalMaps(before.files, after.files))
		return
	}
	for _, k := range []string{"error", "result"} {
		want, wok := sec[k]
		g, gok := got[k]
		if wok != gok || want != g {
			t.Errorf("%s:\n--- got ---\n%s\n--- want ---\n%s", k, g, want)
		}
	}
	wantLinks, ok := sec["want-symlinks"]
	if !ok {
		wantLinks = before.links
	}
	if after.links != wantLinks {
		t.Errorf("symlinks after the patch:\n--- got ---\n%s--- want ---\n%s", after.links, wantLinks)
	}
	if !equalMaps(wantFiles, after.files) {
		t.Errorf("files after the patch:\n--- got ---\n%s--- want ---\n%s", dump(after.files), dump(wantFiles))
	}
}

// buildTree writes the in/ files and the symlinks into dir.
func buildTree(t *testing.T, dir string, ar *txtar.Archive, links string) {
	for _, f := range ar.Files {
		p, ok := strings.CutPrefix(f.Name, "in/")
		if !ok {
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			must(t, os.MkdirAll(full, 0o755))
			continue
		}
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(decode(f.Data)), 0o644))
	}
	for _, l := range strings.Split(strings.TrimSpace(links), "\n") {
		if l == "" {
			continue
		}
		name, target, ok := strings.Cut(l, " -> ")
		if !ok {
			t.Fatalf("bad symlink line %q", l)
		}
		full := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.Symlink(target, full))
	}
}

type tree struct {
	files map[string]string // regular files by slash path
	links string            // "link -> target" lines, sorted
}

// snapshot records every regular file and symlink under dir.
func snapshot(t *testing.T, dir string) tree {
	tr := tree{files: map[string]string{}}
	var links []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, dir+string(filepath.Separator)))
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			links = append(links, rel+" -> "+target)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			tr.files[rel] = string(b)
		}
		return nil
	})
	must(t, err)
	sort.Strings(links)
	if len(links) > 0 {
		tr.links = strings.Join(links, "\n") + "\n"
	}
	return tr
}

// rewriteCase stores the actual outputs (and the files, when writeFiles) in the case.
func rewriteCase(t *testing.T, file string, ar *txtar.Archive, got, files map[string]string, writeFiles bool) {
	var out []txtar.File
	for _, f := range ar.Files {
		if f.Name == "error" || f.Name == "result" || f.Name == "want-symlinks" || strings.HasPrefix(f.Name, "want/") {
			continue
		}
		out = append(out, f)
	}
	if writeFiles {
		names := make([]string, 0, len(files))
		for p := range files {
			names = append(names, p)
		}
		sort.Strings(names)
		for _, p := range names {
			out = append(out, txtar.File{Name: "want/" + p, Data: encode(files[p])})
		}
	}
	for _, k := range []string{"want-symlinks", "result", "error"} {
		if v, ok := got[k]; ok {
			out = append(out, txtar.File{Name: k, Data: encode(v)})
		}
	}
	ar.Files = out
	must(t, os.WriteFile(file, txtar.Format(ar), 0o644))
}

// decode turns a section's text into bytes: "␍" is "\r", a final "␄\n" means no final newline.
func decode(b []byte) string {
	return strings.TrimSuffix(strings.ReplaceAll(string(b), "␍", "\r"), "␄\n")
}

func encode(s string) []byte {
	s = strings.ReplaceAll(s, "\r", "␍")
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "␄\n"
	}
	return []byte(s)
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func dump(m map[string]string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, k := range names {
		fmt.Fprintf(&b, "== %s ==\n%q\n", k, m[k])
	}
	return b.String()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
