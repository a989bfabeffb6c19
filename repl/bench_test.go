package repl

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"harness/worker"
)

// BenchmarkNew measures a fresh REPL loading 20 helper files (the 3
// shipped ones and 17 more of similar size).
func BenchmarkNew(b *testing.B) {
	inProcessOnly(b)
	e := newEnv(b)
	writeHelpers(b, e)
	opts := e.repl.opts
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		r, err := New(opts)
		if err != nil {
			b.Fatal(err)
		}
		if len(r.current().helpers) != 20 || len(r.current().loadErrors) != 0 {
			b.Fatalf("helpers %d, errors %v", len(r.current().helpers), r.current().loadErrors)
		}
		r.Close()
	}
}

// BenchmarkOnePlusOne measures the round trip of a trivial call.
func BenchmarkOnePlusOne(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		if out := e.repl.Exec(ctx, "1 + 1"); out != "2" {
			b.Fatal(out)
		}
	}
}

// reportCPU reports the process's CPU time per operation (user and system,
// all threads), which a loaded machine inflates far less than wall time.
// Call it after ResetTimer and run the returned function when done.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeHelpers adds 17 helper files of the shipped ones' size to e's
// replib, 20 in all.
func writeHelpers(b testing.TB, e *env) {
	dir := filepath.Join(e.home, "replib")
	for i := 0; i < 17; i++ {
		src := fmt.Sprintf("def helper_%02d(path, pattern = \"*\", limit = 10):\n    \"\"\"Helper %d: list up to limit paths.\"\"\"\n    out = []\n    for p in Path(path).glob(pattern):\n        if len(out) >= limit:\n            break\n        out.append(str(p))\n    return out\n\ndef _private_%02d(x):\n    return x\n", i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("h%02d.star", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstCall measures what a new subagent waits for: a REPL with
// 20 helper files built and its first call answered, from a warm spare
// worker (the pool starts the next spare between iterations, untimed).
// It reports the workers' peak RSS after that call.
func BenchmarkFirstCall(b *testing.B) {
	workersOnly(b)
	e := newEnv(b)
	writeHelpers(b, e)
	opts := e.repl.opts
	ctx := context.Background()
	var rss int64
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		opts.Workers.(*worker.Pool).WaitSpare()
		b.StartTimer()
		r, err := New(opts)
		if err != nil {
			b.Fatal(err)
		}
		if out := r.Exec(ctx, "1 + 1"); out != "2" {
			b.Fatal(out)
		}
		b.StopTimer()
		if n := len(r.Functions()); n < 20 {
			b.Fatalf("%d functions", n)
		}
		rss = max(rss, r.current().remote.proc.PeakRSS())
		r.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
}

// BenchmarkLoop measures a loop of indexing, arithmetic and a method call
// (the operations the AST pass routes through builtins).
func BenchmarkLoop(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	e.repl.Exec(ctx, "xs = list(range(10000))\ndef total(xs):\n    s = 0\n    for i in range(len(xs)):\n        s += xs[i] % 7\n    return s")
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		if out := e.repl.Exec(ctx, "total(xs)"); out != "29994" {
			b.Fatal(out)
		}
	}
}

// BenchmarkDictLoop measures the dict and set operations whose keys a bool
// can equal (a bool key is the int it is in Python): a dict display and a
// comprehension, d[k] = v, d[k], k in d, k in s, d.get and s.add.
func BenchmarkDictLoop(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	e.repl.Exec(ctx, "def work(n):\n    d = {}\n    s = set()\n    hits = 0\n    for i in range(n):\n        d[i] = i\n        s.add(i)\n        if i in d and i in s:\n            hits += d[i] - d.get(i, 0) + 1\n    c = {k: k for k in range(n)}\n    e = {i: 1, 'a': 2}\n    return hits + len(c) + len(e)")
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		if out := e.repl.Exec(ctx, "work(5000)"); out != "10002" {
			b.Fatal(out)
		}
	}
}
