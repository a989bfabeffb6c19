package repl

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var updateStdC = flag.Bool("update-stdc", false, "rewrite the .want sections of testdata/stdc_exprs.txtar by running the lines with python3")

// stdcRun is what both sides run for an expression line: its repr, or
// the exception's class and message, so that messages are checked too.
const stdcWrap = "try:\n    __v = (%s)\n    print(repr(__v))\nexcept Exception as __e:\n    print(type(__e).__name__ + ': ' + str(__e))"

const stdcPython = `
import contextlib, io, json, sys
g = {"__name__": "__main__"}
wrap = sys.argv[2]
for line in open(sys.argv[1]).read().split("\n"):
    if not line.strip() or line.startswith("#"):
        continue
    line = line.replace("⏎", "\n")
    if line.startswith("> "):
        with contextlib.redirect_stdout(io.StringIO()):
            exec(line[2:], g)
        continue
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(wrap % line, g)
    print(json.dumps(buf.getvalue()))
`

// TestStdCExprs runs the sections of testdata/stdc_exprs.txtar (struct,
// binascii, zlib, gzip, zipfile, tarfile, tempfile, uuid, secrets): a line
// "> stmt" is run as is, any other line is an expression whose repr, or
// exception class and message, must be CPython 3.11's (NAME.want).
// Regenerate with go test ./repl -run TestStdCExprs -update-stdc.
func TestStdCExprs(t *testing.T) {
	a, err := txtar.ParseFile("testdata/stdc_exprs.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if *updateStdC {
		regenerateStdC(t, a)
		return
	}
	wants := archiveWants(a)
	for _, f := range a.Files {
		if strings.HasSuffix(f.Name, ".want") {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			n := 0
			for _, line := range pyExprLines(string(f.Data)) {
				if stmt, ok := strings.CutPrefix(line, "> "); ok {
					if out, failed := e.repl.exec(context.Background(), stmt); failed {
						t.Fatalf("%s: %s", stmt, out)
					}
					continue
				}
				if n >= len(wants[f.Name]) {
					t.Fatalf("more lines than wants: regenerate with -update-stdc")
				}
				var w string
				if err := json.Unmarshal([]byte(wants[f.Name][n]), &w); err != nil {
					t.Fatalf("want %d: %v", n, err)
				}
				n++
				got, _ := e.repl.exec(context.Background(), fmt.Sprintf(stdcWrap, line))
				if w = strings.TrimRight(w, "\n"); w == "" {
					w = "(no output)"
				}
				if got != w {
					t.Errorf("%s\n got: %s\nwant: %s", line, got, w)
				}
			}
			if n != len(wants[f.Name]) {
				t.Fatalf("%d lines, %d wants: regenerate with -update-stdc", n, len(wants[f.Name]))
			}
		})
	}
}

func regenerateStdC(t *testing.T, a *txtar.Archive) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is needed to regenerate the table")
	}
	var files []txtar.File
	for _, f := range a.Files {
		if strings.HasSuffix(f.Name, ".want") {
			continue
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "lines")
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("python3", "-c", stdcPython, p, stdcWrap)
		cmd.Dir = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python3 %s: %v\n%s", f.Name, err, stderr.String())
		}
		files = append(files, f, txtar.File{Name: f.Name + ".want", Data: out})
	}
	a.Files = files
	if err := os.WriteFile("testdata/stdc_exprs.txtar", txtar.Format(a), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Println("rewrote testdata/stdc_exprs.txtar")
}
