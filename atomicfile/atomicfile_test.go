package atomicfile

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	return cmd.Process.Pid
}

func TestTempNameParses(t *testing.T) {
	for _, base := range []string{"a.txt", "root.json", ".hidden", "x.harness-1-000000000000", strings.Repeat("é", 200)} {
		t.Run(base[:min(len(base), 12)], func(t *testing.T) {
			name := TempName(base)
			if len(name) > maxName {
				t.Fatalf("%d bytes", len(name))
			}
			got, pid, ok := Parse(name)
			if !ok || pid != os.Getpid() || !strings.HasPrefix(base, got) || !utf8Valid(got) {
				t.Fatalf("Parse(%q) = %q, %d, %v", name, got, pid, ok)
			}
			if len(base) < 200 && got != base {
				t.Errorf("base %q, want %q", got, base)
			}
		})
	}
	if a, b := TempName("a"), TempName("a"); a == b {
		t.Error("two temporaries share a name")
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "?") == s }

func TestParseRefuses(t *testing.T) {
	for _, name := range []string{
		"a.txt", ".a.txt", "a.harness-12-0123456789ab", ".harness-12-0123456789ab",
		".a.harness-12-0123456789a", ".a.harness-12-0123456789abc", ".a.harness-12-0123456789AB",
		".a.harness--0123456789ab", ".a.harness-012-0123456789ab", ".a.harness-x1-0123456789ab",
		".a.harness-0-0123456789ab", ".a.harness-99999999999-0123456789ab", ".root.json.123.tmp",
	} {
		if _, _, ok := Parse(name); ok {
			t.Errorf("Parse(%q) accepted", name)
		}
	}
	if base, pid, ok := Parse(".a.harness-1-2.harness-12-0123456789ab"); !ok || base != "a.harness-1-2" || pid != 12 {
		t.Errorf("nested marker: %q %d %v", base, pid, ok)
	}
}

func TestSweepRemovesOnlyOrphans(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	orphan := ".a.txt.harness-" + strconv.Itoa(dead) + "-0123456789ab"
	mine := TempName("b.txt")
	live := ".c.txt.harness-1-0123456789ab" // PID 1 always runs
	other := ".d.txt.tmp-123"
	for _, n := range []string{orphan, mine, live, other, "e.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A directory with an orphan's name is not a temporary file.
	if err := os.Mkdir(filepath.Join(dir, ".f.harness-"+strconv.Itoa(dead)+"-0123456789ab"), 0o700); err != nil {
		t.Fatal(err)
	}
	removed, err := Sweep(OS, dir)
	if err != nil || !slices.Equal(removed, []string{orphan}) {
		t.Fatalf("Sweep = %v, %v", removed, err)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if len(left) != 5 || slices.Contains(left, orphan) {
		t.Errorf("left %v", left)
	}
}

func TestSweeperOnce(t *testing.T) {
	dir := t.TempDir()
	orphan := filepath.Join(dir, ".a.harness-"+strconv.Itoa(deadPID(t))+"-0123456789ab")
	var s Sweeper
	os.WriteFile(orphan, nil, 0o600)
	s.Once(OS, dir)
	if _, err := os.Stat(orphan); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the first Once kept the orphan")
	}
	os.WriteFile(orphan, nil, 0o600)
	s.Once(OS, dir)
	if _, err := os.Stat(orphan); err != nil {
		t.Error("the second Once swept again")
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	orphan := filepath.Join(dir, ".f.txt.harness-"+strconv.Itoa(deadPID(t))+"-0123456789ab")
	os.WriteFile(orphan, []byte("torn"), 0o600)
	Sweep(OS, dir)
	if err := Write(p, 0o640, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("content %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode())
	}
	if _, err := os.Stat(orphan); !errors.Is(err, os.ErrNotExist) {
		t.Error("Sweep kept the orphan")
	}
	// A failing writer leaves the old file and no temporary.
	boom := errors.New("boom")
	Sweep(OS, dir)
	if err := Write(p, 0o640, func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("content after a failed write %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("entries %v", entries)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(TempName("a.txt"))
	f.Add(".a.harness-12-0123456789ab")
	f.Add(".harness-")
	f.Fuzz(func(t *testing.T, name string) {
		base, pid, ok := Parse(name)
		if !ok {
			return
		}
		if pid <= 0 || "."+base+marker+strconv.Itoa(pid)+"-"+name[len(name)-12:] != name {
			t.Fatalf("Parse(%q) = %q, %d", name, base, pid)
		}
	})
}

// TestWriteFor names temporaries after another process, as a REPL worker
// does for its harness: they are that process's, kept while it lives.
func TestWriteFor(t *testing.T) {
	defer WriteFor(0)
	parent := os.Getppid()
	WriteFor(parent)
	name := TempName("x.txt")
	if _, pid, ok := Parse(name); !ok || pid != parent {
		t.Fatalf("TempName = %q (pid %d)", name, pid)
	}
	if Orphan(name) {
		t.Error("a temporary of the process written for is an orphan")
	}
	dead := ".y.txt.harness-" + strconv.Itoa(deadPID(t)) + "-0123456789ab"
	if !Orphan(dead) {
		t.Error("a dead writer's temporary is not an orphan")
	}
	WriteFor(0)
	if _, pid, _ := Parse(TempName("z")); pid != os.Getpid() {
		t.Errorf("after WriteFor(0): pid %d", pid)
	}
}
