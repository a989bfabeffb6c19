package replib

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestInstall(t *testing.T) {
	want := []string{"glob.star", "reasoning.star", "search.star"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	dir := filepath.Join(t.TempDir(), "replib")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "mine.star"), []byte("def mine():\n    pass\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "glob.star"), []byte("old"), 0o644)
	if err := Install(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range want {
		got, _ := os.ReadFile(filepath.Join(dir, name))
		src, _ := Source(name)
		if string(got) != string(src) || len(src) == 0 {
			t.Errorf("%s not installed", name)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "mine.star")); string(got) != "def mine():\n    pass\n" {
		t.Error("Install touched a user file")
	}
}
