package rlm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"harness/llmtest"
	"harness/patch"
)

// TestFileLocks: a lock waits while any of its files is held, whatever
// the order they are named in, and files held by no one are free.
func TestFileLocks(t *testing.T) {
	var l fileLocks
	waited := make(chan string, 4)
	l.onWait = func(k string) { waited <- k }
	unlockAB := l.lock([]string{"r:b", "r:a", "r:a"})
	unlockC := l.lock([]string{"r:c"}) // free: does not wait
	got := make(chan string, 1)
	go func() {
		unlock := l.lock([]string{"r:c", "r:a"})
		unlock()
		got <- "locked"

	}()
	select {
	case k := <-waited:
		if k != "r:a" {
			t.Errorf("waited for %s", k)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second lock of r:a did not wait")
	}
	unlockAB()
	select {
	case k := <-waited: // r:c is still held
		if k != "r:a" {
			t.Errorf("waited again for %s", k)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the lock of r:c and r:a did not wait for r:c")
	}
	unlockC()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the lock was not taken once its files were free")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.held) != 0 {
		t.Errorf("held after unlocking: %v", l.held)
	}
}

// TestParallelPatchesOfOneFile: two siblings patch the same lines of one
// file at once; the patches are applied one after the other, so the second
// one's hunk no longer matches and is refused with patch's mismatch error,
// never merged.
func TestParallelPatchesOfOneFile(t *testing.T) {
	edit := func(to string) llmtest.Reply {
		p := fmt.Sprintf("*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+%s\n*** End Patch\n", to)
		return llmtest.Call(ApplyPatchTool, fmt.Sprintf(`{"patch":%q}`, p))
	}
	s := newScript(map[string][]llmtest.Reply{
		"go": {calls("A", "B"), llmtest.Text("all done")},
		"A":  {edit("TWO-A"), llmtest.Text("A done")},
		"B":  {edit("TWO-B"), llmtest.Text("B done")},
	})
	r, _ := parallelRig(t, 2, 2, s)
	r.opts.Files.ApplyPatch = patch.Apply
	file := filepath.Join(r.opts.RepoDir, "a.txt")
	if err := os.WriteFile(file, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := awaitResult(t, runTurn(r, context.Background()))
	if res.Status != Done {
		t.Fatalf("result %+v", res)
	}
	var applied, refused []string
	for _, e := range eventsOf[ToolResult](r) {
		if e.Name != ApplyPatchTool {
			continue
		}
		if e.Failed {
			refused = append(refused, e.Content)
		} else {
			applied = append(applied, e.Agent.Name)
		}
	}
	if len(applied) != 1 || len(refused) != 1 {
		t.Fatalf("applied by %v, refused %q; want one of each", applied, refused)
	}
	if !strings.Contains(refused[0], "does not match") || !strings.Contains(refused[0], "Nothing was changed") {
		t.Errorf("refusal %q", refused[0])
	}
	got, _ := os.ReadFile(file)
	if want := "one\nTWO-" + applied[0] + "\nthree\n"; string(got) != want {
		t.Errorf("a.txt is %q, want %q", got, want)
	}
}

// TestPatchKeysClean: two spellings of one file's path are one lock (the
// patch parser cleans them), so two
// agents cannot patch it at once by naming it differently.
func TestPatchKeysClean(t *testing.T) {
	for _, c := range []struct{ patch, want string }{
		{"*** Begin Patch\n*** Update File: ./a.go\n@@\n-x\n+y\n*** End Patch\n", "[repository:a.go]"},
		{"*** Begin Patch\n*** Update File: dir/./b.go\n*** Move to: ./c.go\n@@\n-x\n+y\n*** End Patch\n", "[repository:dir/b.go repository:c.go]"},
		{"not a patch", "[]"},
	} {
		if got := fmt.Sprint(patchKeys("repository", c.patch)); got != c.want {
			t.Errorf("patchKeys(%q) = %s, want %s", c.patch, got, c.want)
		}
	}
}
