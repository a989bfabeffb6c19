package failures

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAppendAndCount(t *testing.T) {
	home := t.TempDir()
	l := Open(home)
	if n, err := l.Count("anything"); err != nil || n != 0 {
		t.Fatalf("empty log: got %d, %v", n, err)
	}
	notes := []Note{
		{Session: "s1", Kind: KindDenied, Message: "run: permission denied: git\nmore", Code: "run(['git'])"},
		{Session: "s2", Kind: KindDenied, Message: "run: permission denied: git\nother detail", Code: "x"},
		{Session: "s2", Kind: KindUnsupported, Message: "undefined: isinstance", Code: "isinstance(1, int)"},
	}
	want := []int{1, 2, 1}
	for i, n := range notes {
		got, err := l.Record(n)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[i] {
			t.Errorf("Record #%d: count %d, want %d", i, got, want[i])
		}
	}
	data, err := os.ReadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3", len(lines))
	}
	var n Note
	if err := json.Unmarshal([]byte(lines[0]), &n); err != nil {
		t.Fatal(err)
	}
	if n.Session != "s1" || n.Kind != KindDenied || n.Code != "run(['git'])" || time.Since(n.Time) > time.Minute {
		t.Errorf("round trip: %+v", n)
	}
	for _, key := range []string{`"time"`, `"session"`, `"kind"`, `"message"`, `"code"`} {
		if !strings.Contains(lines[0], key) {
			t.Errorf("line lacks %s: %s", key, lines[0])
		}
	}
}

func TestDamagedLineIsSkipped(t *testing.T) {
	home := t.TempDir()
	l := Open(home)
	if err := os.WriteFile(l.Path(), []byte("{not json \"message\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := l.Record(Note{Message: "x"}); err != nil || got != 1 {
		t.Fatalf("got %d, %v", got, err)
	}
}

func TestConcurrentAppends(t *testing.T) {
	l := Open(t.TempDir())
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.Append(Note{Message: "same"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n, err := l.Count("same\nignored"); err != nil || n != 20 {
		t.Fatalf("got %d, %v", n, err)
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{"a\nb": "a", "  a  ": "a", "": "", "\nb": "b"} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedacting(t *testing.T) {
	home := t.TempDir()
	l := Open(home).Redacting(func(s string) string { return strings.ReplaceAll(s, "sk-secret", "[REDACTED]") })
	n, err := l.Record(Note{Session: "s", Kind: KindDenied, Message: "denied sk-secret\nmore", Code: "run(['x', 'sk-secret'])"})
	if err != nil || n != 1 {
		t.Fatalf("Record = %d, %v", n, err)
	}
	b, err := os.ReadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "sk-secret") || !strings.Contains(string(b), "[REDACTED]") {
		t.Fatalf("secret written: %s", b)
	}
	if c, _ := l.Count("denied sk-secret"); c != 1 {
		t.Fatalf("Count of the redacted message = %d, want 1", c)
	}
}
