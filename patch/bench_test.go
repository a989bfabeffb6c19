// Benchmarks: apply_patch on 1, 2 and 10 MB files with 100 hunks per MB, in memory and on disk.

package patch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"harness/config"
	"harness/jail"
)

// codeFile returns about mb megabytes of Go-like text made of small
// functions (unique first lines, many repeated lines) and a patch with
// hunks evenly spread over it, each changing one line of one function.
func codeFile(mb, hunks int) (text, patch string) {
	var b strings.Builder
	n := 0
	for b.Len() < mb<<20 {
		fmt.Fprintf(&b, "func f%07d() {\n\tx := %d\n\treturn x\n}\n\n", n, n)
		n++
	}
	var p strings.Builder
	p.WriteString("*** Begin Patch\n*** Update File: big.go\n")
	step := n / hunks
	for k := 0; k < hunks; k++ {
		f := k * step
		fmt.Fprintf(&p, "@@\n func f%07d() {\n-\tx := %d\n+\tx := %d\n \treturn x\n }\n", f, f, f+1)
	}
	p.WriteString("*** End Patch\n")
	return b.String(), p.String()
}

var benchSizes = []int{1, 2, 10}

// BenchmarkEngine measures parsing, splitting, locating and splicing in memory.
func BenchmarkEngine(b *testing.B) {
	for _, mb := range benchSizes {
		text, patch := codeFile(mb, 100*mb)
		b.Run(fmt.Sprintf("%dMB_%dhunks", mb, 100*mb), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			defer reportCPU(b)()
			for b.Loop() {
				p, err := Parse(patch)
				if err != nil {
					b.Fatal(err)
				}
				t := splitText(text)
				ms, err := locate("big.go", t, p.Ops[0].Hunks)
				if err != nil {
					b.Fatal(err)
				}
				out, _, _ := splice(t, p.Ops[0].Hunks, ms)
				if len(out) < len(text) {
					b.Fatalf("output size %d", len(out))
				}
			}
		})
	}
}

// BenchmarkApply measures the whole apply_patch call through the jail:
// read, locate, splice, atomic write with fsync, and the result views.
func BenchmarkApply(b *testing.B) {
	for _, mb := range benchSizes {
		counts := []int{100 * mb}
		if mb != 10 {
			counts = append(counts, 1000) // 1,000 hunks at every size, too
		}
		for _, hunks := range counts {
			text, patch := codeFile(mb, hunks)
			b.Run(fmt.Sprintf("%dMB_%dhunks", mb, hunks), func(b *testing.B) {
				dir := b.TempDir()
				r, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadWrite })
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				file := filepath.Join(dir, "big.go")
				b.SetBytes(int64(len(text)))
				defer reportCPU(b)()
				for b.Loop() {
					b.StopTimer()
					if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					if _, err := Apply(context.Background(), r, patch, 50000); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// reportCPU adds the process's CPU time per operation (user and system, all
// threads, including the garbage collector) as the metric cpu-ms/op: on a
// shared, loaded machine it is steadier than the wall time. The setup done
// while the timer is stopped is included, so it is an upper bound.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
