package repl

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var updatePyExprs = flag.Bool("update-pyexprs", false, "rewrite the .want sections of testdata/pyexprs.txtar by running the lines with python3")

// TestPyExprs runs each line of each section NAME of testdata/pyexprs.txtar
// as one REPL call (a section's lines share one REPL, as they share one
// CPython namespace) and compares what it printed with the section
// NAME.want, CPython 3.11's output for the same lines (a JSON string per
// line, or "!Kind" for an exception). In a line, ⏎ stands for a line break.
// Regenerate with go test ./repl -run TestPyExprs -update-pyexprs.
func TestPyExprs(t *testing.T) {
	a, err := txtar.ParseFile("testdata/pyexprs.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if *updatePyExprs {
		regeneratePyExprs(t, a)
		return
	}
	wants := archiveWants(a)
	for _, f := range a.Files {
		if strings.HasSuffix(f.Name, ".want") {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			lines := pyExprLines(string(f.Data))
			want := wants[f.Name]
			if len(want) != len(lines) {
				t.Fatalf("%d lines, %d wants: regenerate with -update-pyexprs", len(lines), len(want))
			}
			e := newEnv(t)
			for i, line := range lines {
				var w string
				if err := json.Unmarshal([]byte(want[i]), &w); err != nil {
					t.Fatalf("want %d: %v", i, err)
				}
				got := pyExprResult(e.repl.exec(context.Background(), line))
				if w = strings.TrimRight(w, "\n"); w == "" {
					w = "(no output)"
				}
				if got != w {
					t.Errorf("%s\n got: %s\nwant: %s", line, got, w)
				}
			}
		})
	}
}

func pyExprLines(data string) []string {
	var out []string
	for _, l := range strings.Split(data, "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, strings.ReplaceAll(l, "⏎", "\n"))
	}
	return out
}

// kindLine is an exception's line; a line repl:LINE:COL: is an error
// found before the code ran: Python's SyntaxError, or its NameError for a
// name Starlark's resolver finds undefined.
var kindLine = regexp.MustCompile(`(?m)^(?:repl:\d+:\d+: )?([A-Za-z_][\w.]*)(?::|$)`)

// pyExprResult is a call's result as the table writes it: the output, or
// "!Kind" after an error.
func pyExprResult(out string, failed bool) string {
	if !failed {
		return out
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], " ") {
			continue
		}
		if m := kindLine.FindStringSubmatch(lines[i]); m != nil && !strings.Contains(lines[i], " is not available in this REPL; use ") {
			kind := m[1]
			if rest, ok := strings.CutPrefix(lines[i], "repl:"); ok {
				if _, msg, _ := strings.Cut(rest, " "); strings.HasPrefix(msg, "undefined: ") {
					kind = "NameError"
				} else if kind == "repl" || !strings.HasSuffix(kind, "Error") {
					kind = "SyntaxError"
				}
			}
			return "!" + kind[strings.LastIndexByte(kind, '.')+1:]
		}
	}
	return "!?" + out
}

func regeneratePyExprs(t *testing.T, a *txtar.Archive) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is needed to regenerate the table")
	}
	var files []txtar.File
	for _, f := range a.Files {
		if strings.HasSuffix(f.Name, ".want") {
			continue
		}
		p := filepath.Join(t.TempDir(), "lines")
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("python3", "testdata/pyexprs_run.py", p).Output()
		if err != nil {
			t.Fatalf("python3 %s: %v", f.Name, err)
		}
		files = append(files, f, txtar.File{Name: f.Name + ".want", Data: out})
	}
	a.Files = files
	if err := os.WriteFile("testdata/pyexprs.txtar", txtar.Format(a), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Println("rewrote testdata/pyexprs.txtar")
}

// archiveWants maps each section NAME of a table archive to the lines of
// its NAME.want section.
func archiveWants(a *txtar.Archive) map[string][]string {
	wants := map[string][]string{}
	for _, f := range a.Files {
		if name, ok := strings.CutSuffix(f.Name, ".want"); ok {
			wants[name] = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
		}
	}
	return wants
}
