package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"harness/proctest"
)

// proc is harness running in a child process with --json output read
// line by line.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	lines  chan map[string]any
	mu     sync.Mutex
	out    []string
	stderr bytes.Buffer
	done   chan struct{} // closed when stdout ends
}

// startJSON starts harness with args (which should include --json -p).
func (e *testEnv) startJSON(args ...string) *proc {
	e.t.Helper()
	p := &proc{t: e.t, cmd: e.command(args...), lines: make(chan map[string]any, 1024), done: make(chan struct{})}
	p.cmd.Stderr = &p.stderr
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			p.mu.Lock()
			p.out = append(p.out, sc.Text())
			p.mu.Unlock()
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				select {
				case p.lines <- m:
				default:
				}
			}
		}
	}()
	return p
}

// waitFor returns the first line (from now on) for which ok is true.
func (p *proc) waitFor(what string, ok func(map[string]any) bool) map[string]any {
	p.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m := <-p.lines:
			if ok(m) {
				return m
			}
		case <-p.done:
			p.t.Fatalf("harness ended before %s\nstdout:\n%s\nstderr:\n%s", what, p.stdout(), p.stderr.String())
		case <-timeout:
			p.t.Fatalf("%s did not come in 30 s\nstdout:\n%s", what, p.stdout())
		}
	}
}

func (p *proc) stdout() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.out, "\n")
}

// wait waits for the process to exit and returns its exit code (-1 when
// a signal killed it).
func (p *proc) wait() int {
	p.t.Helper()
	<-p.done
	p.cmd.Wait()
	return p.cmd.ProcessState.ExitCode()
}

func isType(typ string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["type"] == typ }
}

// allow adds name = path to [commands.allow] of the config file, for the
// child processes (headless approves nothing else).
func (e *testEnv) allow(name, path string) {
	e.t.Helper()
	const header = "\n[commands.allow]\n"
	e.setConfig(header, fmt.Sprintf("%s%s = %q\n", header, name, path))
}

// killAll ends the processes carrying arg (a proctest.Marker) that a
// failed test left behind (by their PIDs).
func killAll(t *testing.T, arg string) {
	t.Cleanup(func() {
		for _, pid := range proctest.WithArg(arg) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}
