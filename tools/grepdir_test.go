package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/config"
	"harness/jail"
)

// The directory handles grep's walk shares with its workers are all closed
// when the search ends, whether it completes or is cancelled.
func TestGrepClosesDirectoryHandles(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skip("needs /proc/self/fd")
	}
	dir := t.TempDir()
	for i := range 40 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("d%02d/sub/f.txt", i)), []byte("needle\n"))
		writeFile(t, filepath.Join(dir, fmt.Sprintf("d%02d/g.txt", i)), []byte("hay\n"))
	}
	r, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadOnly })
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	before := fds()
	out, err := Grep(context.Background(), r, GrepArgs{Pattern: "needle"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, ":1:needle\n"); n != 40 {
		t.Fatalf("found %d matches, want 40:\n%s", n, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	Grep(ctx, r, GrepArgs{Pattern: "needle"}, 0)
	if after := fds(); after > before {
		t.Fatalf("%d file descriptors open after grep, %d before", after, before)
	}
}
