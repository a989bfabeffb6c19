package sessions

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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
	enc, _ := json.Marshal(chunk)
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
// in memory (B/op counts every allocation, transient ones included).
func BenchmarkSave(b *testing.B) {
	f := bigFile(20 << 20)
	path := filepath.Join(b.TempDir(), "root.json")
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteFile(path, f); err != nil {
			b.Fatal(err)
		}
	}
	fi, _ := os.Stat(path)
	b.ReportMetric(float64(fi.Size())/(1<<20), "MB")
}

func BenchmarkLoad(b *testing.B) {
	path := filepath.Join(b.TempDir(), "root.json")
	if err := WriteFile(path, bigFile(20<<20)); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(path)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fi.Size())/(1<<20), "MB")
}

// TestLoadMemory checks the heap a loaded 20 MB conversation keeps, and
// that the round trip is exact. Skipped with -short.
func TestLoadMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 20 MB file")
	}
	path := filepath.Join(t.TempDir(), "root.json")
	if err := WriteFile(path, bigFile(20<<20)); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if kept > 3*fi.Size() {
		t.Errorf("loaded conversation keeps %d bytes, more than 3× the %d-byte file", kept, fi.Size())
	}
	t.Logf("file %d bytes, heap kept after load %d bytes (%.2f×)", fi.Size(), kept, float64(kept)/float64(fi.Size()))
	runtime.KeepAlive(f)
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
