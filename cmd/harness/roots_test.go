package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/config"
	"harness/diffview"
	"harness/jail"
)

func TestOpenRoots(t *testing.T) {
	level := func() config.Permission { return config.PermReadOnly }
	repo, store := t.TempDir(), t.TempDir()
	cases := []struct {
		name      string
		launch    string
		store     string
		code      int
		wantError string
	}{
		{"repository and store", repo, store, exitOK, ""},
		{"no store configured", repo, "", exitOK, ""},
		{"store gone since the config was checked", repo, filepath.Join(store, "gone"), exitUsage, "[rlm.store] path"},
		{"launch directory gone", filepath.Join(repo, "gone"), store, exitError, "current directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &config.Config{Home: t.TempDir(), RLM: config.RLM{StorePath: tc.store}} // the workers' log goes to Home
			var stderr bytes.Buffer
			rs, code := openRoots(cfg, tc.launch, level, &stderr)
			if code != tc.code {
				t.Fatalf("code %d, want %d (stderr %q)", code, tc.code, stderr.String())
			}
			if tc.code != exitOK {
				if rs != nil || !strings.Contains(stderr.String(), tc.wantError) {
					t.Fatalf("roots %v, stderr %q; want nil and %q", rs, stderr.String(), tc.wantError)
				}
				return
			}
			defer rs.close()
			if (rs.store != nil) != (tc.store != "") {
				t.Fatalf("store opened: %v, configured: %q", rs.store != nil, tc.store)
			}
			if _, err := rs.repo.ReadDir("."); err != nil {
				t.Fatalf("repository not readable at read-only: %v", err)
			}
		})
	}
}

// TestFileToolsRecordReplacedTexts: with bases, apply_patch records the
// text a Replace File replaces before the patch runs, and the patch still
// applies.
func TestFileToolsRecordReplacedTexts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadWrite })
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	p := agentParts{bases: new(diffview.Bases)}
	text := "*** Begin Patch\n*** Replace File: a.txt\n+new\n*** End Patch\n"
	if _, err := p.fileTools().ApplyPatch(context.Background(), root, text, 10000); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "new\n" {
		t.Errorf("file %q after the patch", b)
	}
	if olds, ok := p.bases.Take(jail.Repository, text); !ok || olds["a.txt"] != "old\n" {
		t.Errorf("recorded %q %v, want the old text", olds, ok)
	}
}
