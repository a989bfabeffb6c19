package pyprograms

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// python3 returns the path of python3, or skips the test saying why.
func python3(t testing.TB, why string) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("python3 is not on PATH: %s needs CPython 3.11", why)
	}
	return p
}

// runCPython runs src under CPython with testdata/run_cpython.py over the
// fixture tree in dir (dir/repository, dir/store) and returns its output
// normalised as the REPL's is. The tree is changed by the run: give each
// run a fresh one.
func runCPython(t testing.TB, py, dir, src string) (string, error) {
	t.Helper()
	script, err := filepath.Abs("testdata/run_cpython.py")
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "program.py")
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(prog)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, script, dir, prog)
	// A fixed hash seed, zone and locale, so that what a program prints
	// does not change from run to run.
	cmd.Env = []string{"PYTHONHASHSEED=0", "TZ=UTC", "LANG=C.UTF-8", "PYTHONIOENCODING=utf-8", "PYTHONDONTWRITEBYTECODE=1"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", &cpythonError{err: err, stderr: stderr.String()}
	}
	return normalize(string(out)), nil
}

type cpythonError struct {
	err    error
	stderr string
}

func (e *cpythonError) Error() string { return "python3: " + e.err.Error() + "\n" + e.stderr }
