// Benchmarks: grep over the Go source tree, side by side with GNU grep and ripgrep.

package tools

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"harness/config"
	"harness/jail"
)

// benchCases are the five searches of issue 4: a literal, an alternation, a
// class with a repeat, ignore-case, and context 2.
var benchCases = []struct {
	name string
	args GrepArgs
}{
	{"literal", GrepArgs{Pattern: "ErrNotExist"}},
	{"alternation", GrepArgs{Pattern: "ErrNotExist|ErrPermission|ErrClosed"}},
	{"class-repeat", GrepArgs{Pattern: "[0-9]{5,}"}},
	{"ignore-case", GrepArgs{Pattern: "errnotexist", IgnoreCase: true}},
	{"context-2", GrepArgs{Pattern: "ErrNotExist", Context: 2}},
}

// goSrc returns $(go env GOROOT)/src.
func goSrc(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no Go source tree: %v", err)
	}
	return dir
}

// gnuArgs and rgArgs are the equivalent command lines.
func gnuArgs(a GrepArgs) []string {
	args := []string{"-rnE"}
	if a.IgnoreCase {
		args = append(args, "-i")
	}
	if a.Context > 0 {
		args = append(args, "-C", "2")
	}
	return append(args, "--", a.Pattern, ".")
}

func rgArgs(a GrepArgs) []string {
	args := []string{"-n", "--no-ignore", "--hidden"}
	if a.IgnoreCase {
		args = append(args, "-i")
	}
	if a.Context > 0 {
		args = append(args, "-C", "2")
	}
	return append(args, "--", a.Pattern, ".")
}

func BenchmarkGrepGoSource(b *testing.B) {
	dir := goSrc(b)
	root, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadOnly })
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	// Warm the page cache so that no tool pays for the first read.
	if _, err := Grep(context.Background(), root, GrepArgs{Pattern: "warm"}, 0); err != nil {
		b.Fatal(err)
	}
	for _, c := range benchCases {
		b.Run(c.name+"/harness", func(b *testing.B) {
			lines := 0
			defer cpuMetric(b, syscall.RUSAGE_SELF)()
			for b.Loop() {
				out, err := Grep(context.Background(), root, c.args, 0)
				if err != nil {
					b.Fatal(err)
				}
				lines = strings.Count(out, "\n")
			}
			b.ReportMetric(float64(lines), "lines")
		})
		for _, tool := range []struct {
			name string
			args []string
		}{{"grep", gnuArgs(c.args)}, {"rg", rgArgs(c.args)}} {
			b.Run(c.name+"/"+tool.name, func(b *testing.B) {
				if _, err := exec.LookPath(tool.name); err != nil {
					b.Skipf("%s not installed", tool.name)
				}
				lines := 0
				defer cpuMetric(b, syscall.RUSAGE_CHILDREN)()
				for b.Loop() {
					cmd := exec.Command(tool.name, tool.args...)
					cmd.Dir = dir
					var out bytes.Buffer
					cmd.Stdout = &out
					_ = cmd.Run() // exit 1 means no match; output is what counts
					lines = bytes.Count(out.Bytes(), []byte{'\n'})
				}
				b.ReportMetric(float64(lines), "lines")
			})
		}
	}
}

// cpuMetric reports the CPU time (user+system) per operation of this
// process or of its children: on a shared machine it varies less than the
// wall time.
func cpuMetric(b *testing.B, who int) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64((cpu()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
