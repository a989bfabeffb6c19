package pyprograms

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
	"golang.org/x/tools/txtar"
)

var (
	updateWants   = flag.Bool("pyprograms.update", false, "rewrite the want/ sections of testdata/*.txtar by running the programs with python3")
	wantAll       = flag.Bool("pyprograms.want-all", false, "fail on every program that does not match CPython, not only on those in testdata/expected_pass.txt")
	writeManifest = flag.Bool("pyprograms.write-manifest", false, "rewrite testdata/expected_pass.txt with the programs that match today")
	reportFile    = flag.String("pyprograms.report", "", "write every mismatch with its diff to this file")
)

const manifestFile = "testdata/expected_pass.txt"

// TestPrograms runs every program of testdata/*.txtar as one call of a
// fresh REPL over a fresh copy of its archive's fixture tree and compares
// the result with CPython 3.11's output (want/NAME). It logs the score
// (go test -v) and a diff for each mismatch. By default it fails only when
// a program named in testdata/expected_pass.txt does not match; with
// -pyprograms.want-all every mismatch fails. See the package doc.
func TestPrograms(t *testing.T) {
	archives := loadArchives(t)
	if *updateWants {
		regenerate(t, archives)
		return
	}
	expected := readManifest(t)
	known := map[string]bool{}
	var passed, all []string
	var report strings.Builder
	for _, ar := range archives {
		for _, p := range ar.Programs {
			known[p.Name] = true
			all = append(all, p.Name)
			if p.Want == "" {
				t.Errorf("%s has no want/ section: run go test ./pyprograms -run TestPrograms -pyprograms.update", p.Name)
				continue
			}
			t.Run(p.Name, func(t *testing.T) {
				got := runREPL(t, materialize(t, p.Fixture), p.Source)
				want := normalize(p.Want)
				if got == want {
					passed = append(passed, p.Name)
					if !expected[p.Name] && !*writeManifest {
						t.Logf("%s now matches CPython: add it to %s", p.Name, manifestFile)
					}
					return
				}
				d := lineDiff(want, got)
				fmt.Fprintf(&report, "## %s\n\n```\n%s```\n\n", p.Name, d)
				msg := fmt.Sprintf("%s differs from CPython (- CPython, + REPL):\n%s", p.Name, d)
				if expected[p.Name] || *wantAll {
					t.Error(msg)
				} else {
					t.Log(msg)
				}
			})
		}
	}
	for name := range expected {
		if !known[name] {
			t.Errorf("%s names %s, which no archive has", manifestFile, name)
		}
	}
	t.Logf("%d/%d programs match CPython", len(passed), len(all))
	if *reportFile != "" {
		text := fmt.Sprintf("# pyprograms: %d/%d programs match CPython\n\n%s", len(passed), len(all), report.String())
		if err := os.WriteFile(*reportFile, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if *writeManifest {
		saveManifest(t, passed)
	}
}

// readManifest reads the names of the programs expected to match.
func readManifest(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(manifestFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out[line] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

const manifestHeader = `# Programs of testdata/*.txtar that must match CPython: TestPrograms fails
# when one of these does not. Add a program here once the REPL runs it
# with CPython's output (TestPrograms -v says which now match), or rewrite
# the list with go test ./pyprograms -run TestPrograms -pyprograms.write-manifest.
`

func saveManifest(t *testing.T, names []string) {
	t.Helper()
	text := manifestHeader + strings.Join(names, "\n") + "\n"
	if err := os.WriteFile(manifestFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote %s: %d programs", manifestFile, len(names))
}

// lineDiff shows want and got line by line: "-" only in want (CPython),
// "+" only in got (the REPL), " " in both.
func lineDiff(want, got string) string {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(want+"\n", got+"\n")
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	var sb strings.Builder
	for _, d := range diffs {
		mark := " "
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			mark = "-"
		case diffmatchpatch.DiffInsert:
			mark = "+"
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l != "" {
				sb.WriteString(mark + l)
			}
		}
	}
	return sb.String()
}

// regenerate rewrites every archive's want/ sections with CPython's output.
func regenerate(t *testing.T, archives []*archive) {
	py := python3(t, "-pyprograms.update")
	for _, ar := range archives {
		wants := map[string]string{}
		for _, p := range ar.Programs {
			out, err := runCPython(t, py, materialize(t, p.Fixture), p.Source)
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			wants[p.Name] = out + "\n"
		}
		var files []txtar.File
		for _, f := range ar.A.Files {
			if strings.HasPrefix(f.Name, "want/") {
				continue
			}
			files = append(files, f)
			if rest, ok := strings.CutPrefix(f.Name, "program/"); ok {
				name := strings.TrimSuffix(rest, ".py")
				files = append(files, txtar.File{Name: "want/" + name, Data: []byte(wants[ar.Name+"/"+name])})
			}
		}
		ar.A.Files = files
		if err := os.WriteFile(ar.File, txtar.Format(ar.A), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s: %d programs", ar.File, len(ar.Programs))
	}
}
