package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/llmtest"
	"harness/reaper"
	"harness/sandbox"
	"harness/sessions"
	"harness/worker"
)

// TestMain lets the test binary act as harness (HARNESS_TEST_MAIN=1), so
// the tests below can run, interrupt and kill real processes.
func TestMain(m *testing.M) {
	hidden := len(os.Args) > 1 && (os.Args[1] == worker.Subcommand || os.Args[1] == sandbox.Subcommand || os.Args[1] == reaper.Arg)
	if os.Getenv("HARNESS_TEST_MAIN") == "1" || hidden { // as harness, or as its REPL worker or sandbox shim
		if os.Getenv("HARNESS_TEST_NO_REAPER") == "1" {
			reaperExe = "/nonexistent/reaper" // the parent-death signal alone
		}
		if n, err := strconv.ParseUint(os.Getenv("HARNESS_TEST_FSIZE"), 10, 64); err == nil {
			// A full disk, as root too: writes past n bytes fail (EFBIG).
			syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n})
		}
		os.Exit(exitCode(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)))
	}
	if os.Getenv("HARNESS_TEST_HIDEENV") == "1" {
		os.Exit(hideEnvChild())
	}
	os.Exit(m.Run())
}

// command returns the test binary acting as harness in e's repository.
func (e *testEnv) command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "HARNESS_TEST_MAIN=1", "HARNESS_HOME="+e.home)
	cmd.Dir = e.repo
	return cmd
}

// TestSIGINTStops sends SIGINT while the depth-2 agent streams: the process
// saves, prints turn_done with the partial text and [stopped by user], and
// exits 130.
func TestSIGINTStops(t *testing.T) {
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"A","name":"one"}`),
		llmtest.Call("rlm", `{"task":"B","name":"two"}`),
		llmtest.Reply{Content: "partial", Fail: llmtest.FailStall, After: 2},
	)
	cmd := e.command("--json", "-p", "go")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<24)
	var lines []string
	signalled := false
	for sc.Scan() {
		lines = append(lines, sc.Text())
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		if !signalled && m["type"] == "text_delta" && m["depth"] == float64(2) {
			cmd.Process.Signal(os.Interrupt)
			signalled = true
		}
	}
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d (%v)\n%s", code, err, strings.Join(lines, "\n"))
	}
	var done map[string]any
	json.Unmarshal([]byte(lines[len(lines)-1]), &done)
	if done["type"] != "turn_done" || done["text"] != "partial\n[stopped by user]" {
		t.Errorf("last line %s", lines[len(lines)-1])
	}
}

// crashScript answers chat requests from the conversation's state: the
// root delegates once, the subagent writes three files with the REPL and
// answers; a root turn whose prompt is "continue" answers at once.
func crashScript(req llmtest.Request) llmtest.Reply {
	var body llmtest.ChatBody
	body, _ = req.Chat()
	msgs := body.Messages
	slow := func(r llmtest.Reply) llmtest.Reply {
		r.Split, r.Delay = 12, time.Millisecond
		return r
	}
	lastUser := 0
	for i, m := range msgs {
		if m.Role == "user" {
			lastUser = i
		}
	}
	calls := 0
	for _, m := range msgs[lastUser:] {
		if m.Role == "assistant" {
			calls++
		}
	}
	if strings.Contains(strings.Join(body.ToolNames(), " "), "FYI") {
		switch {
		case strings.HasSuffix(msgs[lastUser].Content, "continue"): // merged with a prompt left unanswered
			return llmtest.Text("continued")
		case calls == 1: // only the synthetic FYI so far
			return slow(llmtest.Call("rlm", `{"task":"write three files","name":"writer"}`))
		}
		return slow(llmtest.Text("root done"))
	}
	if calls <= 3 { // the synthetic startup call, then two writes
		code := fmt.Sprintf("Path('f%d.txt').write_text('step %d')", calls, calls)
		return slow(llmtest.Call("repl", fmt.Sprintf(`{"code":%q}`, code)))
	}
	return slow(llmtest.Reply{Content: "wrote them", Reasoning: "all three are there"})
}

// TestCrashResume kills a multi-step run with SIGKILL at random moments;
// every session left behind loads (all its files) and continues.
func TestCrashResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	e := newEnv(t)
	e.srv.Respond(crashScript)

	// One complete run gives the span of a run to pick kill moments from.
	start := time.Now()
	if out, err := e.command("-p", "task").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	span := time.Since(start)
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	budget := time.Now().Add(2 * time.Second)
	kills := 0
	for time.Now().Before(budget) {
		cmd := e.command("-p", "task")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		timer := time.AfterFunc(time.Duration(rng.Int64N(int64(span))), func() { cmd.Process.Signal(syscall.SIGKILL) })
		cmd.Wait()
		timer.Stop()
		kills++
	}
	st := sessions.Store{Dir: filepath.Join(e.home, "sessions")}
	temps := 0
	for _, pattern := range []string{filepath.Join(e.repo, ".*.harness-*"), filepath.Join(st.Dir, "*", "library", ".*.harness-*")} {
		found, _ := filepath.Glob(pattern)
		temps += len(found)
	}
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	unfinished := 0
	for _, s := range list {
		dir := filepath.Join(st.Dir, s.Name)
		files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
		for _, f := range files {
			if _, err := sessions.Load(f); err != nil {
				t.Errorf("session %s: %v", s.Name, err)
			}
		}
		if root, err := sessions.Load(filepath.Join(dir, "library", "root.json")); err == nil {
			if last := lastMessage(root.Messages()); last.Content != "root done" {
				unfinished++
			}
		}
		code, stdout, stderr := e.run(context.Background(), nil, "--resume", s.Name, "-p", "continue")
		if code != 0 || stdout != "continued\n" {
			t.Errorf("resume %s: exit %d, %q, %s", s.Name, code, stdout, stderr)
		}
	}
	// Temporaries the killed writers left are removed by the next write
	// into their folder: the resumes wrote into every session's library/;
	// one more run writes into the repository.
	if out, err := e.command("-p", "task").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	left, _ := filepath.Glob(filepath.Join(e.repo, ".*.harness-*"))
	for _, s := range list {
		more, _ := filepath.Glob(filepath.Join(st.Dir, s.Name, "library", ".*.harness-*"))
		left = append(left, more...)
	}
	if len(left) > 0 {
		t.Errorf("temporaries left after the next writes: %v", left)
	}
	t.Logf("%d runs killed at random moments within %v; %d sessions left, %d of them cut mid-turn, %d temporaries removed; all load and continue",
		kills, span, len(list), unfinished, temps)
}
