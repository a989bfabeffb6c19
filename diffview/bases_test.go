package diffview

import (
	"errors"
	"fmt"
	"testing"
)

func TestBases(t *testing.T) {
	var b Bases
	p := "*** Begin Patch\n*** Replace File: a.txt\n+new\n*** Update File: b.txt\n@@\n-x\n+y\n*** End Patch\n"
	files := map[string]string{"a.txt": "old one\n"}
	read := func(path string) ([]byte, error) {
		if s, ok := files[path]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	}
	b.Record("repository", p, read)
	files["a.txt"] = "old two\n"
	b.Record("repository", p, read)
	if _, ok := b.Take("store", p); ok {
		t.Error("took a patch recorded for another root")
	}
	for _, want := range []string{"old one\n", "old two\n"} {
		got, ok := b.Take("repository", p)
		if !ok || got["a.txt"] != want || len(got) != 1 {
			t.Errorf("Take = %q %v, want a.txt %q", got, ok, want)
		}
	}
	if _, ok := b.Take("repository", p); ok {
		t.Error("took more than was recorded")
	}
	b.Record("repository", "not a patch", read)
	b.Record("repository", "*** Begin Patch\n*** Replace File: missing\n+x\n*** End Patch\n", read)
	if len(b.m) != 0 {
		t.Errorf("recorded %v for patches with nothing to keep", b.m)
	}
}

func TestBasesForgetsTheOldest(t *testing.T) {
	var b Bases
	read := func(string) ([]byte, error) { return []byte("old\n"), nil }
	patch := func(i int) string {
		return fmt.Sprintf("*** Begin Patch\n*** Replace File: f%d\n+x\n*** End Patch\n", i)
	}
	for i := 0; i < maxBases+10; i++ {
		b.Record("repository", patch(i), read)
	}
	if _, ok := b.Take("repository", patch(0)); ok {
		t.Error("the oldest record was kept past the limit")
	}
	if _, ok := b.Take("repository", patch(maxBases+9)); !ok {
		t.Error("the newest record was lost")
	}
	if len(b.order) != maxBases-1 {
		t.Errorf("%d records, want %d", len(b.order), maxBases-1)
	}
}
