// End-to-end tests of the REPL workers and run()'s sandbox through the
// whole program: a memory bomb and sandboxed writes in headless runs.

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"harness/llmtest"
	"harness/proctest"
	"harness/sandbox"
	"harness/worker"
)

// results returns the contents of the repl tool_result lines of --json
// output, after each subagent's startup call.
func results(t *testing.T, stdout string) []string {
	var out []string
	started := map[any]bool{}
	for _, l := range ofType(jsonLines(t, stdout), "tool_result") {
		if l["name"] != "repl" {
			continue
		}
		if !started[l["agent"]] { // FYI(), help() and the summaries
			started[l["agent"]] = true
			continue
		}
		out = append(out, l["content"].(string))
	}
	return out
}

// TestMemoryBombsThroughHarness runs, under max_memory_mb = 64, one
// subagent whose REPL calls try to take far more, each followed by 1 + 1:
// every bomb is stopped (refused before it allocates, or with the state
// lost), the call after it works, and harness finishes the turn with its
// own memory untouched.
func TestMemoryBombsThroughHarness(t *testing.T) {
	if raceBuild {
		t.Skip("race-detector builds set no memory ceiling")
	}
	bombs := []struct {
		code string
		lost bool
	}{
		{"s = 'x' * 1000000\nwhile True:\n    s = s + s", true},
		{"x = []\nwhile True:\n    x.append('a' * 1000 + str(len(x)))", true},
		{"[0] * 1000000000", false},
		{"'x' * 10000000000", false},
		{"s = '[' + '1,' * 10000000 + '1]'\nv = json.decode(s)", true},
		{"sorted(range(100000000))", false},
		{"s = 'x' * 1000000\nt = s.replace('x', s)", false},
		{"s = 'x' * 10000000\nt = ''.join([s] * 1000)", false},
		{"s = 'x' * 10000000\nt = ('%s' * 1000) % tuple([s] * 1000)", false},
	}
	replies := []llmtest.Reply{llmtest.Call("rlm", `{"task":"use memory","name":"bomber"}`)}
	for _, b := range bombs {
		replies = append(replies,
			llmtest.Call("repl", args(map[string]string{"code": b.code})),
			llmtest.Call("repl", args(map[string]string{"code": "1 + 1"})))
	}
	replies = append(replies, llmtest.Text("the REPL survived"), llmtest.Text("All done."))
	e := newEnv(t, replies...)
	e.setConfig("max_memory_mb = 2048", "max_memory_mb = 64")
	before := selfRSS()
	peak := watchWorkers(t)
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if p := peak(); p > 2*64<<20 {
		t.Errorf("a worker's peak RSS was %d MiB, over twice max_memory_mb = 64", p>>20)
	} else {
		t.Logf("the workers' peak RSS: %d MiB", p>>20)
	}
	res := results(t, stdout)
	if len(res) != 2*len(bombs) {
		t.Fatalf("%d results", len(res))
	}
	for i, b := range bombs {
		out, next := res[2*i], res[2*i+1]
		if !strings.Contains(out, "max_memory_mb = 64") || strings.Contains(out, "REPL state lost") != b.lost {
			t.Errorf("bomb %q (state lost: %v):\n%s", b.code, b.lost, out)
		}
		if next != "2" {
			t.Errorf("after %q: %q", b.code, next)
		}
	}
	if grew := selfPeakRSS() - before; grew > 128<<20 {
		t.Errorf("harness's peak RSS grew by %d MiB", grew>>20)
	}
}

// TestSandboxThroughHarness allows sh and confines it to the workspace:
// a write in the repository lands, one in $HOME is refused.
func TestSandboxThroughHarness(t *testing.T) {
	if abi := sandbox.ABI(); abi < 3 {
		t.Skipf("needs Landlock ABI 3; this kernel offers %d", abi)
	}
	home, err := os.UserHomeDir()
	if err != nil || strings.HasPrefix(home, os.TempDir()) {
		t.Skip("no home directory outside the temp folder")
	}
	forbidden := filepath.Join(home, ".harness-e2e-sandbox-"+filepath.Base(t.TempDir()))
	t.Cleanup(func() { os.Remove(forbidden) })
	script := "echo in > in.txt; echo out > " + forbidden
	e := newEnv(t,
		llmtest.Call("rlm", `{"task":"write files","name":"writer"}`),
		llmtest.Call("repl", args(map[string]string{"code": "r = run(['sh', '-c', " + quote(script) + "])\nprint(r['exit_code'], r['stderr'])"})),
		llmtest.Text("wrote"),
		llmtest.Text("All done."),
	)
	e.setConfig("\n[commands.allow]\n", "\n[commands.allow]\nsh = \"/bin/sh\"\n")
	e.setConfig("\n[commands]\n", "\n[commands]\nsandbox = \"workspace\"\n")
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(e.repo, "in.txt")); string(data) != "in\n" {
		t.Errorf("the write in the repository: %q", data)
	}
	if _, err := os.Stat(forbidden); err == nil {
		t.Errorf("%s was written", forbidden)
	}
	var got string
	for _, r := range results(t, stdout) {
		if strings.Contains(r, "Permission denied") || strings.Contains(r, "Read-only file system") { // Landlock, or the read-only mounts
			got = r
		}
	}
	if !strings.HasPrefix(got, "2 ") {
		t.Errorf("the command's result does not report the refused write: %q", results(t, stdout))
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// watchWorkers samples, until the test ends or the returned function is
// called, the peak RSS (VmHWM) of this process's REPL workers, every
// couple of milliseconds; the function returns the highest seen.
func watchWorkers(t *testing.T) func() int64 {
	stop, done := make(chan struct{}), make(chan int64, 1)
	go func() {
		var peak int64
		for {
			for _, pid := range proctest.WithArg(worker.Subcommand) {
				if parentOf(pid) == os.Getpid() {
					peak = max(peak, proctest.StatusBytes(pid, "VmHWM"))
				}
			}
			select {
			case <-stop:
				done <- peak
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	var once sync.Once
	var peak int64
	f := func() int64 {
		once.Do(func() { close(stop); peak = <-done })
		return peak
	}
	t.Cleanup(func() { f() })
	return f
}

// parentOf returns the parent's PID of pid from /proc/PID/stat, or -1.
func parentOf(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return ppid
}

// selfPeakRSS and selfRSS return this process's VmHWM and VmRSS in bytes.
func selfPeakRSS() int64 { return status("VmHWM:") }
func selfRSS() int64     { return status("VmRSS:") }

func status(field string) int64 {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return -1
}
