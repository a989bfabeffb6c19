// Package jailtest builds the escape corpus the confinement tests of jail,
// tools and patch share: a root full of symlinks that try to leave it, next
// to an outside folder holding a secret that must never be read or changed.
package jailtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Secret is the text of the files outside the root.
const Secret = "SECRET-OUTSIDE"

// EscapeTree builds, in a temporary directory base:
//
//	base/outside/secret.txt, base/outside/dir/inner.txt   holding Secret
//	base/root/a.txt, base/root/sub/b.txt                   inside the root
//
// and in base/root the symlinks to_file, to_dir, to_parent, sub/up and chain
// (relative, leading outside), abs_out and abs_out_dir (absolute, outside),
// abs_in and abs_in_dir (absolute targets inside the root, still refused),
// loop1/loop2 and self (loops), and sub/via_link (through another link). It
// returns base and root.
func EscapeTree(t testing.TB) (base, root string) {
	t.Helper()
	base = t.TempDir()
	root = filepath.Join(base, "root")
	out := filepath.Join(base, "outside")
	for name, data := range map[string]string{
		"outside/secret.txt":    Secret + "\n",
		"outside/dir/inner.txt": Secret + "\n",
		"root/a.txt":            "inside\n",
		"root/sub/b.txt":        "inside too\n",
	} {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"to_file":      "../outside/secret.txt",
		"to_dir":       "../outside",
		"to_parent":    "..",
		"sub/up":       "../..",
		"chain":        "sub/../../outside",
		"abs_out":      filepath.Join(out, "secret.txt"),
		"abs_out_dir":  out,
		"abs_in":       filepath.Join(root, "a.txt"),
		"abs_in_dir":   filepath.Join(root, "sub"),
		"loop1":        "loop2",
		"loop2":        "loop1",
		"self":         "self",
		"sub/via_link": "../to_dir/secret.txt",
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	return base, root
}
