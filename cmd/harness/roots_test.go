package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"harness/config"
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
			cfg := &config.Config{RLM: config.RLM{StorePath: tc.store}}
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
