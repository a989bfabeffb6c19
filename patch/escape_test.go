// The escape corpus for apply_patch: every operation, every writable root, every way out.

package patch

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/config"
	"harness/jail"
	"harness/jail/jailtest"
)

// outsideSnapshot records every entry under base but outside the root (or
// only inside it, with inside): path, mode, and content or link target.
func outsideSnapshot(t *testing.T, base string, inside bool) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		if rel == "outside" && inside {
			return filepath.SkipDir
		}
		if rel == "root" && !inside {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			v += " -> " + target
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			v += " " + string(b)
		}
		snap[rel] = v
		return nil
	})
	must(t, err)
	return snap
}

// escapeTargets are the paths tried in every position of every operation.
func escapeTargets(base string) []string {
	return []string{
		"..", "../outside/secret.txt", "sub/../../outside/secret.txt", "../../../../../../tmp/x",
		"./../outside/new.txt", filepath.Join(base, "outside", "secret.txt"), filepath.Join(base, "outside", "new.txt"),
		"/etc/passwd", "to_file", "to_dir/secret.txt", "to_dir/new.txt", "to_dir/dir/inner.txt", "to_dir/newdir/new.txt",
		"to_parent/outside/secret.txt", "to_parent/new.txt", "sub/up/outside/secret.txt", "sub/up/new.txt",
		"chain/secret.txt", "chain/new.txt", "abs_out", "abs_out_dir/secret.txt", "abs_out_dir/new.txt",
		"abs_in", "abs_in_dir/b.txt", "abs_in_dir/new.txt", "loop1", "loop1/x", "self", "self/x",
		"sub/via_link", "sub/via_link/x",
	}
}

// escapeOps are patch bodies trying a target P as every path an operation names.
var escapeOps = []string{
	"*** Add File: P\n+" + jailtest.Secret + "-written\n",
	"*** Update File: P\n@@\n-" + jailtest.Secret + "\n+changed\n",
	"*** Update File: P\n@@\n-inside\n+changed\n",
	"*** Replace File: P\n+changed\n",
	"*** Delete File: P\n",
	"*** Update File: a.txt\n*** Move to: P\n",
	"*** Update File: a.txt\n*** Move to: P\n@@\n-inside\n+changed\n",
	"*** Update File: P\n*** Move to: moved.txt\n",
	"*** Update File: P\n*** Move to: moved.txt\n@@\n-" + jailtest.Secret + "\n+changed\n",
}

func TestEscapeCorpus(t *testing.T) {
	for _, name := range []string{jail.Repository, jail.Store, jail.Library} {
		targets := escapeTargets("BASE") // BASE: the case's own base directory
		if name == jail.Library {
			targets = targets[:3] // refused before any operation is tried
		}
		for _, target := range targets {
			base, rootDir := jailtest.EscapeTree(t)
			for _, op := range escapeOps {
				if escapeCase(t, name, base, rootDir, target, op) {
					base, rootDir = jailtest.EscapeTree(t) // the root changed: start afresh
				}
			}
		}
	}
}

// escapeCase applies one patch and checks that nothing outside the root
// changed, that no message names a host path, and that no absolute symlink
// was followed. It reports whether the root changed.
func escapeCase(t *testing.T, name, base, rootDir, target, op string) bool {
	t.Helper()
	before := outsideSnapshot(t, base, false)
	inside := outsideSnapshot(t, base, true)
	r, err := jail.Open(name, rootDir, func() config.Permission { return config.PermReadWrite })
	must(t, err)
	defer r.Close()
	target = strings.ReplaceAll(target, "BASE", base)
	body := strings.ReplaceAll(op, "P", target)
	out, err := Apply(context.Background(), r, "*** Begin Patch\n"+body+"*** End Patch\n", 0)
	msg := out
	if err != nil {
		msg = err.Error()
	}
	// An absolute argument is echoed (whole or clipped), leaking nothing new.
	msg = strings.ReplaceAll(msg, target, "ARG")
	msg = strings.ReplaceAll(msg, strings.TrimSuffix(clip(target), "…"), "ARG")
	if strings.Contains(msg, base) || strings.Contains(msg, jailtest.Secret) {
		t.Errorf("%s: %q leaks a host path or outside text:\n%s", name, body, msg)
	}
	if after := outsideSnapshot(t, base, false); !sameEntries(before, after) {
		t.Errorf("%s: %q changed files outside the root:\nbefore %v\nafter  %v\nresult: %s", name, body, before, after, msg)
	}
	if name == jail.Library && err == nil {
		t.Errorf("library: %q succeeded: %s", body, out)
	}
	follows := strings.Contains(body, "Replace File: "+target) ||
		strings.Contains(body, "Update File: "+target) && strings.Contains(body, "@@")
	if strings.HasPrefix(target, "abs_in") && follows && err == nil {
		t.Errorf("%s: %q followed an absolute symlink: %s", name, body, out)
	}
	return !sameEntries(inside, outsideSnapshot(t, base, true))
}

func sameEntries(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
