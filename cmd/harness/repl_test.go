package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"harness/replib"
)

// replEnv is a testEnv with the shipped helpers installed.
func replEnv(t *testing.T) *testEnv {
	t.Helper()
	e := newEnv(t)
	if err := replib.Install(filepath.Join(e.home, "replib")); err != nil {
		t.Fatal(err)
	}
	return e
}

// helper writes a helper file into e's replib.
func (e *testEnv) helper(name, src string) {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.home, "replib", name), []byte(src), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// runREPLCommand runs the test binary as harness with args in e's
// repository, with stdin, and returns its exit code and output.
func (e *testEnv) runCommand(stdin string, args ...string) (int, string, string) {
	e.t.Helper()
	cmd := e.command(args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		e.t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// TestREPLOnce: -c, FILE and - run one call and print its result exactly
// as a subagent's REPL tool result; exit 1 when it ends in an error, 2 on
// bad usage.
func TestREPLOnce(t *testing.T) {
	e := replEnv(t)
	os.WriteFile(filepath.Join(e.repo, "notes.txt"), []byte("one\nTODO two\n"), 0o644)
	os.WriteFile(filepath.Join(e.repo, "script.py"), []byte("import os\nfor n in sorted(os.listdir('.')):\n    print(n)\nlen(search('TODO'))\n"), 0o644)
	for _, tt := range []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"-c value", "", []string{"repl", "-c", "print('hi')\nx = 2\nx * 21"}, 0, "hi\n42\n", ""},
		{"-c nothing", "", []string{"repl", "-c", "x = 1"}, 0, "(no output)\n", ""},
		{"-c error", "", []string{"repl", "-c", "print('before')\n1/0"}, 1,
			"before\nTraceback (most recent call last):\n  repl:2:2: in <expr>\nZeroDivisionError: division by zero\n", ""},
		{"-c syntax error", "", []string{"repl", "-c", "x = = 1"}, 1, "repl:1:5: got '=', want primary expression\n", ""},
		{"FILE", "", []string{"repl", "script.py"}, 0, "notes.txt\nscript.py\n2\n", ""},
		{"- reads stdin", "print(glob('*.txt'))\n", []string{"repl", "-"}, 0, "['notes.txt']\n", ""},
		{"stdin not a terminal", "'piped'", []string{"repl"}, 0, "'piped'\n", ""},
		{"--permission read-only", "", []string{"repl", "--permission", "read-only", "-c", "Path('new.txt').write_text('x')"}, 1, "", ""},
		{"--permission for this run", "", []string{"repl", "--permission=none", "-c", "Path('notes.txt').read_text()"}, 1, "", ""},
		{"approval refused without a terminal", "", []string{"repl", "-c", "run(['ls'])"}, 1, "", ""},
		{"-c without code", "", []string{"repl", "-c"}, 2, "", "-c needs the code to run"},
		{"two files", "", []string{"repl", "a.py", "b.py"}, 2, "", "one FILE at most"},
		{"-c and FILE", "", []string{"repl", "-c", "1", "a.py"}, 2, "", "not both"},
		{"missing FILE", "", []string{"repl", "missing.py"}, 2, "", "missing.py"},
		{"bad permission", "", []string{"repl", "--permission", "all", "-c", "1"}, 2, "", "want none, read-only or read-write"},
		{"unknown flag", "", []string{"repl", "--bogus"}, 2, "", `unknown argument "--bogus"`},
		{"unknown library", "", []string{"repl", "--library", "nosuch", "-c", "1"}, 2, "", `no session named "nosuch"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := e.runCommand(tt.stdin, tt.args...)
			if code != tt.code || tt.stdout != "" && stdout != tt.stdout || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, want %d\nstdout %q\nwant   %q\nstderr %q", code, tt.code, stdout, tt.stdout, stderr)
			}
		})
	}
	code, out, _ := e.runCommand("", "repl", "-c", "run(['ls'])")
	if code != 1 || !strings.Contains(out, "PermissionError: ls was not approved: denied: harness repl runs without a terminal on stdin") {
		t.Errorf("an approval without a terminal: exit %d, %q", code, out)
	}
	if _, out, _ := e.runCommand("", "repl", "--permission=none", "-c", "Path('notes.txt').read_text()"); !strings.Contains(out, "permission denied: the repository cannot be read at permission none") {
		t.Errorf("--permission none read a file: %q", out)
	}
	if data, _ := os.ReadFile(filepath.Join(e.home, "config.toml")); !strings.Contains(string(data), `permission = "read-write"`) {
		t.Error("--permission was saved")
	}
}

// TestREPLHelp: harness repl --help prints the usage and exits 0.
func TestREPLHelp(t *testing.T) {
	e := replEnv(t)
	code, out, _ := e.runCommand("", "repl", "--help")
	if code != 0 || !strings.Contains(out, "harness repl [--permission LEVEL] [--library NAME] -c CODE | FILE | -") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestREPLLibrary: --library NAME mounts a saved session's conversations
// read-only at /library, as a deeper subagent sees its own session's.
func TestREPLLibrary(t *testing.T) {
	e := replEnv(t)
	dir := filepath.Join(e.home, "sessions", "20260101-000000", "library")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "root.json"), []byte(`{"items":[]}`), 0o644)
	code, out, _ := e.runCommand("", "repl", "--library", "20260101-000000", "-c",
		"print(sorted([p.name for p in Path('/library').iterdir()]))\nPath('/library/x').write_text('no')")
	if code != 1 || !strings.HasPrefix(out, "['root.json']\n") || !strings.Contains(out, "the library is read-only") {
		t.Errorf("exit %d\n%s", code, out)
	}
	if _, out, _ := e.runCommand("", "repl", "-c", "Path('/library').exists()"); !strings.Contains(out, "the REPL sees only /repository, /store;") {
		t.Errorf("/library without --library: %s", out)
	}
}

// TestREPLOnceInterrupted: SIGINT stops the one call, its result is
// printed, and harness repl exits 130.
func TestREPLOnceInterrupted(t *testing.T) {
	e := replEnv(t)
	cmd := e.command("repl", "-c", "print('spinning')\nPath('started').write_text('')\nwhile True: pass")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	for deadline := time.Now().Add(30 * time.Second); !fileExists(filepath.Join(e.repo, "started")); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the call did not start")
		}
	}
	cmd.Process.Signal(os.Interrupt)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("harness repl did not stop")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 || out.String() != "spinning\ncancelled: the call was stopped by the user (Esc)\n" {
		t.Errorf("exit %d, stdout %q", code, out.String())
	}
}
