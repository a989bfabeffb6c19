// Tests for SavePermission: only the value changes, on any layout.

package config

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestSavePermissionLayouts(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"basic", "[repl]\npermission = \"none\"\n", "[repl]\npermission = \"read-write\"\n"},
		{"literal", "[repl]\npermission = 'none'\n", "[repl]\npermission = 'read-write'\n"},
		{"multi-line basic", "[repl]\npermission = \"\"\"none\"\"\"\n", "[repl]\npermission = \"\"\"read-write\"\"\"\n"},
		{"multi-line literal", "[repl]\npermission = '''none'''\n", "[repl]\npermission = '''read-write'''\n"},
		{"no spaces", "[repl]\npermission=\"none\"\n", "[repl]\npermission=\"read-write\"\n"},
		{"odd spacing and comment", "[repl]\n\t  permission   =\t \"none\"   # cycle with Shift+Tab\n",
			"[repl]\n\t  permission   =\t \"read-write\"   # cycle with Shift+Tab\n"},
		{"quoted key", "[repl]\n\"permission\" = \"none\"\n", "[repl]\n\"permission\" = \"read-write\"\n"},
		{"literal quoted key", "[repl]\n'permission' = \"none\"\n", "[repl]\n'permission' = \"read-write\"\n"},
		{"spaced header", "[ repl ] # the REPL\npermission = \"none\"\n", "[ repl ] # the REPL\npermission = \"read-write\"\n"},
		{"quoted header", "[\"repl\"]\npermission = \"none\"\n", "[\"repl\"]\npermission = \"read-write\"\n"},
		{"dotted key", "repl.permission = \"none\"\n[chat]\n", "repl.permission = \"read-write\"\n[chat]\n"},
		{"dotted key with spaces", "repl . permission = \"none\"\n", "repl . permission = \"read-write\"\n"},
		{"inline table", "repl = { max = 1, permission = \"none\" }\n", "repl = { max = 1, permission = \"read-write\" }\n"},
		{"crlf", "# c\r\n[repl]\r\npermission = \"none\"\r\nx = 1\r\n", "# c\r\n[repl]\r\npermission = \"read-write\"\r\nx = 1\r\n"},
		{"no final newline", "[repl]\npermission = \"none\"", "[repl]\npermission = \"read-write\""},
		{"decoys", "[chat]\nprompt = \"\"\"\n[repl]\npermission = \"none\"\n\"\"\"\npermission = \"none\"\n# [repl] permission = \"none\"\n[repl]\nother = 'permission = \"none\"'\npermission = \"none\"\n[more]\npermission = \"none\"\n",
			"[chat]\nprompt = \"\"\"\n[repl]\npermission = \"none\"\n\"\"\"\npermission = \"none\"\n# [repl] permission = \"none\"\n[repl]\nother = 'permission = \"none\"'\npermission = \"read-write\"\n[more]\npermission = \"none\"\n"},
		{"sub-table after", "[repl]\npermission = \"none\"\n[repl.sub]\npermission = \"none\"\n", "[repl]\npermission = \"read-write\"\n[repl.sub]\npermission = \"none\"\n"},
		{"byte order mark", "\ufeff[repl]\npermission = \"none\"\n", "\ufeff[repl]\npermission = \"read-write\"\n"},
		{"same value", "[repl]\npermission = \"read-write\"\n", "[repl]\npermission = \"read-write\"\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			mustWrite(t, path, tc.in)
			if err := SavePermission(path, PermReadWrite); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestSavePermissionExample cycles the level in the example file and checks
// that each save changes exactly the one value and still loads.
func TestSavePermissionExample(t *testing.T) {
	d := newDirs(t)
	text := exampleWithStore(t, d.store)
	text = strings.ReplaceAll(text, "\n", "\r\n") // and keep CRLF while at it
	writeConfig(t, d.home, text)
	path := filepath.Join(d.home, "config.toml")
	cur := text
	for _, p := range []Permission{PermReadWrite, PermNone, PermReadOnly} {
		if err := SavePermission(path, p); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(d.home, d.launch)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.REPL.Permission != p {
			t.Errorf("after saving %v, loaded %v", p, cfg.REPL.Permission)
		}
		got, _ := os.ReadFile(path)
		old := `permission = "` + cfgPermission(cur) + `"`
		want := strings.Replace(cur, old, `permission = "`+p.String()+`"`, 1)
		if string(got) != want {
			t.Fatalf("saving %v changed more than the value", p)
		}
		cur = want
	}
}

func cfgPermission(text string) string {
	for _, p := range []string{"read-only", "read-write", "none"} {
		if strings.Contains(text, "\npermission = \""+p+"\"") {
			return p
		}
	}
	return ""
}

func TestSavePermissionKeepsModeAndSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.toml")
	mustWrite(t, real, "[repl]\npermission = \"none\"\n")
	if err := os.Chmod(real, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink("real.toml", link); err != nil {
		t.Fatal(err)
	}
	if err := SavePermission(link, PermReadOnly); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v", err)
	}
	fi, err := os.Stat(real)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, %v; want 0640", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(real); string(got) != "[repl]\npermission = \"read-only\"\n" {
		t.Errorf("got %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestSavePermissionErrors(t *testing.T) {
	tests := []struct{ name, in, msg string }{
		{"no key", "[repl]\nmax_memory_mb = 1\n", "repl.permission: not found"},
		{"no table", "[chat]\npermission = \"none\"\n", "repl.permission: not found"},
		{"not a string", "[repl]\npermission = 1\n", "config.toml:2:14: repl.permission: is not a string"},
		{"invalid TOML", "[repl\npermission = \"none\"\n", "invalid TOML"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			mustWrite(t, path, tc.in)
			err := SavePermission(path, PermReadWrite)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v; want it to contain %q", err, tc.msg)
			}
			if got, _ := os.ReadFile(path); string(got) != tc.in {
				t.Errorf("the file changed to %q", got)
			}
		})
	}
	err := SavePermission(filepath.Join(t.TempDir(), "missing.toml"), PermNone)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v", err)
	}
}

// TestSavePermissionRemovesOrphans: saving removes the temporaries that
// killed writers left next to config.toml, and keeps a live writer's.
func TestSavePermissionRemovesOrphans(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(p, []byte("[repl]\npermission = \"none\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	orphan := filepath.Join(dir, fmt.Sprintf(".config.toml.harness-%d-0123456789ab", dead.Process.Pid))
	live := filepath.Join(dir, ".config.toml.harness-1-0123456789ab")
	os.WriteFile(orphan, []byte("torn"), 0o600)
	os.WriteFile(live, []byte("in progress"), 0o600)
	if err := SavePermission(p, PermReadOnly); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(orphan); err == nil {
		t.Error("the orphan was kept")
	}
	if _, err := os.Stat(live); err != nil {
		t.Error("a live writer's temporary was removed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("entries %v", entries)
	}
}
