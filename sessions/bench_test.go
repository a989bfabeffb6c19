package sessions

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"harness/llm"
)

// bigFile builds a conversation of about size bytes: turns of a user
// message, an assistant call with reasoning, and a large tool result with
// newlines, quotes and non-ASCII text, as REPL output is.
func bigFile(size int) *File {
	f := &File{Local: Local{Repository: "/repo"}}
	line := "func main() {\n\tfmt.Println(\"héllo\", x[1] < 2 && y)\n}\n"
	chunk := strings.Repeat(line, 50_000/len(line))
	enc, _ := llm.Message{Role: "tool", Content: chunk}.MarshalJSON()
	total := 0
	for i := 0; total < size; i++ {
		call := llm.ToolCall{ID: llm.NewCallID(), Name: "repl", Arguments: `{"code":"print(Path('a.go').read_text())"}`}
		a := llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call}}
		r, _ := json.Marshal(fmt.Sprintf("step %d: read the file", i))
		a.Set("reasoning_content", r)
		f.Append(llm.Message{Role: "user", Content: fmt.Sprintf("turn %d", i)}, a,
			llm.Message{Role: "tool", ToolCallID: call.ID, Content: chunk})
		total += len(enc) + 330
	}
	return f
}

// BenchmarkSave and BenchmarkLoad measure a 20 MB conversation:
//
//	go test ./sessions -run XXX -bench . -benchmem
//
// The target is at most 100 ms per operation and at most 3× the file size
// in memory (B/op counts every allocation, transient ones included; Save
// includes two fsyncs). cpu-ms/op is the process CPU time per operation,
// which a busy machine disturbs less than the wall time.
func BenchmarkSave(b *testing.B) {
	f := bigFile(20 << 20)
	path := filepath.Join(b.TempDir(), "root.json")
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if err := WriteFile(path, f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
	fi, _ := os.Stat(path)
	b.ReportMetric(float64(fi.Size())/(1<<20), "MB")
}

// BenchmarkLoad also reports the heap a loaded conversation keeps, as a
// multiple of the file size (kept-x), and the peak heap in use during a
// load (peak-x).
func BenchmarkLoad(b *testing.B) {
	path := filepath.Join(b.TempDir(), "root.json")
	if err := WriteFile(path, bigFile(20<<20)); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(path)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := Load(path)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	runtime.KeepAlive(f)
	f = nil
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(fi.Size())/(1<<20), "MB")
	b.ReportMetric(kept/float64(fi.Size()), "kept-x")
}

// cpuTime returns the process's user+system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkEncode(b *testing.B) {
	f := bigFile(20 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if err := f.Encode(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
