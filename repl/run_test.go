package repl

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/config"
	"harness/failures"
	"harness/proctest"
)

func hostEnviron() []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/nonexistent", "SECRET_TOKEN=s3cret", "KEEP_ME=kept"}
}

func TestRun(t *testing.T) {
	sh, err := filepath.EvalSymlinks("/bin/sh")
	if err != nil {
		t.Skip("no /bin/sh")
	}
	_ = sh
	type tc struct {
		name     string
		code     string
		approve  bool
		want     []string // substrings of the result
		asked    int      // approvals requested
		denied   bool     // a failure note of kind denied is recorded
		wantNone []string
		hostOK   bool // the command itself prints a host path
	}
	tests := []tc{
		{name: "allow runs without asking", code: `run(["say", "hi"])`, want: []string{`'exit_code': 0`, `'stdout': 'hi\n'`, `'stderr': ''`}},
		{name: "deny wins over allow", code: `run(["blocked", "x"])`, want: []string{`PermissionError: "blocked" is on the [commands] deny list`}, denied: true},
		{name: "PATH command approved", code: `run(["sh", "-c", "echo out; echo err >&2; exit 3"])`, approve: true, asked: 1,
			want: []string{`'exit_code': 3`, `'stdout': 'out\n'`, `'stderr': 'err\n'`}},
		{name: "PATH command refused", code: `run(["sh", "-c", "echo no"])`, asked: 1, want: []string{"PermissionError: the user refused to run sh"}, denied: true},
		{name: "not found", code: `run(["no-such-command-xyz"])`, want: []string{`FileNotFoundError: command "no-such-command-xyz" not found on PATH`}},
		{name: "env_filter and no .env", code: `run(["sh", "-c", "env"])`, approve: true, asked: 1, want: []string{"KEEP_ME=kept"}, wantNone: []string{"SECRET_TOKEN"}, hostOK: true},
		{name: "signal exit", code: `run(["sh", "-c", "kill -9 $$"])`, approve: true, asked: 1, want: []string{`'exit_code': -9`}},
		{name: "invalid UTF-8 replaced", code: `run(["sh", "-c", "printf 'a\\377b'"])`, approve: true, asked: 1, want: []string{`'stdout': 'a�b'`}},
		{name: "no stdin", code: `run(["sh", "-c", "cat; echo done"])`, approve: true, asked: 1, want: []string{`'stdout': 'done\n'`}},
		{name: "starts in the repository root", code: `chdir("sub")` + "\n" + `run(["sh", "-c", "ls"])`, approve: true, asked: 1, want: []string{`file.txt`, `script.sh`}},
		{name: "cwd", code: `run(["sh", "-c", "ls"], cwd = "sub")`, approve: true, asked: 1, want: []string{`'stdout': 'blocked\ninner.txt\n'`}},
		{name: "cwd absolute", code: `run(["say"], cwd = "/repository/sub")`, want: []string{"PermissionError: cwd \"/repository/sub\" must be relative"}, denied: true},
		{name: "cwd dotdot", code: `run(["say"], cwd = "sub/../..")`, want: []string{"must be relative to the repository root and free of '..'"}, denied: true},
		{name: "cwd missing", code: `run(["say"], cwd = "nope")`, want: []string{"FileNotFoundError: cwd nope: not found"}},
		{name: "cwd not a directory", code: `run(["say"], cwd = "file.txt")`, want: []string{"NotADirectoryError"}},
		{name: "cwd outside needs approval", code: `run(["say", "x"], cwd = "out")`, approve: true, asked: 1, want: []string{`'stdout': 'x\n'`}},
		{name: "cwd outside refused", code: `run(["say", "x"], cwd = "out")`, asked: 1, want: []string{"refused"}, denied: true},
		{name: "repository executable", code: `run(["./script.sh", "a"])`, approve: true, asked: 1, want: []string{`'stdout': 'script a\n'`}},
		{name: "repository executable from cwd", code: `run(["../script.sh"], cwd = "sub")`, want: []string{"absolute paths and '..' are not allowed"}, denied: true},
		{name: "repository executable resolved against cwd", code: `run(["./blocked"], cwd = "sub")`, approve: true, asked: 1, want: []string{`'stdout': 'not blocked\n'`}},
		{name: "executable through an outside cwd", code: `run(["./x.sh"], cwd = "out")`, want: []string{"/repository/out/x.sh resolves outside the repository"}, denied: true},
		{name: "repository path ignores deny list", code: `run(["sub/blocked"])`, approve: true, asked: 1, want: []string{`'stdout': 'not blocked\n'`}},
		{name: "not executable", code: `run(["./file.txt"])`, want: []string{"PermissionError: /repository/file.txt is not an executable file"}},
		{name: "missing executable path", code: `run(["./nope.sh"])`, want: []string{"FileNotFoundError: /repository/nope.sh does not exist"}},
		{name: "absolute path denied", code: `run(["/bin/echo", "x"])`, want: []string{"absolute paths and '..' are not allowed"}, denied: true},
		{name: "symlink leading outside denied", code: `run(["./escape"])`, want: []string{"/repository/escape resolves outside the repository"}, denied: true},
		{name: "bad argv", code: `run("ls")`, want: []string{"argv must be a non-empty list of strings"}},
		{name: "run prints nothing", code: `r = run(["say", "quiet"])`, want: []string{"(no output)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, withEnviron(hostEnviron), withCommands(config.Commands{
				Deny:      []string{"blocked"},
				EnvFilter: []string{"SECRET_TOKEN"},
				Allow:     map[string]string{"say": "/bin/echo", "blocked": "/bin/echo"},
			}))
			outside := t.TempDir()
			e.write(t, "file.txt", "data")
			e.write(t, "sub/inner.txt", "x")
			e.write(t, "script.sh", "#!/bin/sh\necho script \"$@\"\n")
			os.Chmod(filepath.Join(e.repo, "script.sh"), 0o755)
			e.write(t, "sub/blocked", "#!/bin/sh\necho not blocked\n")
			os.Chmod(filepath.Join(e.repo, "sub/blocked"), 0o755)
			os.Symlink(outside, filepath.Join(e.repo, "out"))
			os.WriteFile(filepath.Join(outside, "x.sh"), []byte("#!/bin/sh\n"), 0o755)
			os.Symlink(filepath.Join(outside, "x.sh"), filepath.Join(e.repo, "escape"))
			e.approver.answer = tt.approve
			out := e.exec(tt.code)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("result lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.wantNone {
				if strings.Contains(out, w) {
					t.Errorf("result contains %q:\n%s", w, out)
				}
			}
			if !tt.hostOK && (strings.Contains(out, e.repo) || strings.Contains(out, outside)) {
				t.Errorf("result shows a host path:\n%s", out)
			}
			if len(e.approver.seen) != tt.asked {
				t.Errorf("approvals asked: %d, want %d (%v)", len(e.approver.seen), tt.asked, e.approver.seen)
			}
			denied := false
			for _, n := range e.notes {
				denied = denied || n.Kind == failures.KindDenied
			}
			if denied != tt.denied {
				t.Errorf("denial noted = %v, want %v (%v)", denied, tt.denied, e.notes)
			}
		})
	}
}

func TestRunApprovalOperation(t *testing.T) {
	e := newEnv(t, withEnviron(hostEnviron), withCommands(config.Commands{Allow: map[string]string{"say": "/bin/echo"}}))
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(e.repo, "out"))
	os.MkdirAll(filepath.Join(e.repo, "sub"), 0o755)
	e.approver.answer = true
	e.exec(`run(["sh", "-c", "true"], cwd = "sub")`)
	e.exec(`run(["say", "x"], cwd = "out")`)
	e.exec(`run(["sh", "-c", "true"], cwd = "out")`)
	if len(e.approver.seen) != 3 {
		t.Fatalf("seen %v", e.approver.seen)
	}
	first := e.approver.seen[0]
	exe, _ := first["executable"].(string)
	if first["operation"] != "run" || !strings.HasSuffix(exe, "/sh") || !filepath.IsAbs(exe) ||
		first["working_directory"] != "/repository/sub" || len(first["arguments"].([]any)) != 2 {
		t.Errorf("PATH command: %v", first)
	}
	second := e.approver.seen[1]
	real, _ := filepath.EvalSymlinks(outside)
	if second["operation"] != "working_directory" || second["working_directory"] != "/repository/out" || second["working_directory_resolves_to"] != real {
		t.Errorf("outside cwd: %v", second)
	}
	if third := e.approver.seen[2]; third["operation"] != "run" || third["working_directory_resolves_to"] != real {
		t.Errorf("both: %v", third)
	}
}

func TestRunWithoutApprover(t *testing.T) {
	e := newEnv(t, withEnviron(hostEnviron))
	e.repl.current().opts.Approver = nil
	if out := e.exec(`run(["sh", "-c", "true"])`); !strings.Contains(out, "needs approval and no one can approve it") {
		t.Fatal(out)
	}
}

// TestRunEscKillsProcessGroup cancels a call while a command and its
// background child run, and checks both are gone.
func TestRunEscKillsProcessGroup(t *testing.T) {
	e := newEnv(t, withEnviron(hostEnviron), withCommands(config.Commands{Allow: map[string]string{"sh": "/bin/sh"}}))
	fifo := filepath.Join(t.TempDir(), "pids")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pids := make(chan []int, 1)
	go func() {
		data, _ := os.ReadFile(fifo) // returns when the script closes the fifo
		var out []int
		for _, f := range strings.Fields(string(data)) {
			n, _ := strconv.Atoi(f)
			out = append(out, n)
		}
		pids <- out
		cancel()
	}()
	script := `sleep 100 & echo $! $$ > ` + fifo + `; exec sleep 100`
	done := make(chan string, 1)
	start := time.Now()
	go func() { done <- e.repl.Exec(ctx, `x = 1`+"\n"+`run(["sh", "-c", "`+script+`"])`) }()
	var got []int
	select {
	case got = <-pids:
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not start")
	}
	var out string
	select {
	case out = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Exec did not return after cancel")
	}
	if !strings.Contains(out, "cancelled") {
		t.Errorf("result: %q", out)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	if len(got) != 2 {
		t.Fatalf("pids %v", got)
	}
	for _, pid := range got {
		if !proctest.WaitGone(pid, 5*time.Second) {
			t.Errorf("process %d is still running", pid)
		}
	}
	if out := e.exec("x"); out != "1" {
		t.Errorf("state after cancel: %q", out)
	}
}

// TestRunEnvironmentNeverFallsBackToTheApps checks that a child whose
// environment is empty after env_filter gets an empty environment, not the
// app's (os/exec inherits the parent's environment when Env is nil).
func TestRunEnvironmentNeverFallsBackToTheApps(t *testing.T) {
	t.Setenv("SECRET_TOKEN", "s3cret")
	e := newEnv(t, withEnviron(func() []string { return []string{"SECRET_TOKEN=s3cret"} }),
		withCommands(config.Commands{EnvFilter: []string{"SECRET_TOKEN"}, Allow: map[string]string{"env": "/usr/bin/env"}}))
	if out := e.exec(`run(["env"])["stdout"]`); out != `''` {
		t.Fatalf("child environment: %s", out)
	}
}

// TestRunTellsOnCommand: each command that starts is reported with its
// arguments, and its end after it has ended; one that never starts is not.
func TestRunTellsOnCommand(t *testing.T) {
	var log []string
	e := newEnv(t, withEnviron(hostEnviron),
		withCommands(config.Commands{Allow: map[string]string{"env": "/usr/bin/env"}}))
	e.repl.current().opts.OnCommand = func(argv []string) func() {
		log = append(log, "start "+strings.Join(argv, " "))
		return func() { log = append(log, "end "+argv[0]) }
	}
	e.exec(`run(["env", "-0"])`)
	e.exec(`run(["no-such-command-here"])`)
	if got, want := strings.Join(log, "; "), "start env -0; end env"; got != want {
		t.Errorf("OnCommand saw %q, want %q", got, want)
	}
}
