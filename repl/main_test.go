// The test binary as a REPL worker and as the sandbox shim, and the choice
// between running the tests against workers or in-process.

package repl

import (
	"os"
	"sync"
	"testing"

	"harness/sandbox"
	"harness/sandbox/sandboxtest"
	"harness/worker"
)

// inProcess reports whether the tests run against the interpreter in this
// process (REPL_TEST_INPROCESS=1) instead of against worker processes, the
// way harness runs it. It reads the variable while the tests run, so that
// go test's cache tells the two runs apart.
func inProcess() bool { return os.Getenv("REPL_TEST_INPROCESS") == "1" }

var (
	poolOnce sync.Once
	pool     *worker.Pool
)

// testPool is the workers' pool shared by the tests.
func testPool() *worker.Pool {
	poolOnce.Do(func() {
		// No sleep at exit in race builds; the zone as harness passes it.
		env := []string{"GORACE=atexit_sleep_ms=0"}
		if tz, ok := os.LookupEnv("TZ"); ok {
			env = append(env, "TZ="+tz)
		}
		pool = worker.NewPool(worker.Config{Env: env})
	})
	return pool
}

func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case worker.Subcommand:
			os.Exit(ServeWorker())
		case sandbox.Subcommand:
			os.Exit(sandbox.Main(os.Args[2:], os.Stderr))
		}
	}
	if os.Getenv("REPL_TEST_PROBE") == "dial" {
		os.Exit(sandboxtest.Dial(os.Args[1]))
	}
	code := m.Run()
	if pool != nil {
		pool.Close()
	}
	os.Exit(code)
}

// inProcessOnly skips a test that reaches into the interpreter's own
// structures, which live in the worker process when the tests run against
// workers; worker_test.go covers the same behaviour there.
func inProcessOnly(t testing.TB) {
	t.Helper()
	if !inProcess() {
		t.Skip("reaches into the in-process interpreter; run with REPL_TEST_INPROCESS=1 (the worker's equivalent is in worker_test.go)")
	}
}
