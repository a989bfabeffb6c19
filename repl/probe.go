// ProbeWorker: start one worker the way a subagent's REPL does, for
// harness doctor.

package repl

import (
	"context"
	"fmt"
	"os"
	"time"

	"harness/config"
	"harness/jail"
	"harness/worker"
)

// oneWorker starts a worker for each Get, keeping no spare.
type oneWorker struct{ cfg worker.Config }

func (o oneWorker) Get() (*worker.Process, error) { return worker.Start(o.cfg) }

// ProbeWorker starts a REPL worker over an empty temporary repository with
// the helpers of home, runs one call in it under a maxMemoryMB limit, and
// describes what happened: how long it took, its peak memory, and what
// confines it. An error says why a worker could not serve.
func ProbeWorker(home string, maxMemoryMB int) (string, error) {
	dir, err := os.MkdirTemp("", "harness-worker-check-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	root, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadOnly })
	if err != nil {
		return "", err
	}
	defer root.Close()
	start := time.Now()
	r, err := New(Options{Repository: root, Home: home, RepoDir: dir, MaxMemoryMB: maxMemoryMB, Workers: oneWorker{}})
	if err != nil {
		return "", err
	}
	defer r.Close()
	if out := r.Exec(context.Background(), "1 + 1"); out != "2" {
		return "", fmt.Errorf("a REPL worker answered 1 + 1 with %q", out)
	}
	took := time.Since(start)
	in := r.current()
	ready := in.remote.bound
	rss := in.remote.proc.PeakRSS()
	return fmt.Sprintf("a REPL worker started and answered in %v (peak RSS %.1f MiB); %s",
		took.Round(time.Millisecond), float64(rss)/(1<<20), ready.Protection), nil
}
