// SavePermission: rewrite [repl] permission in place, keeping every other byte.

package config

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"harness/atomicfile"
)

// SavePermission sets [repl] permission to p in the config file at path.
// Only the value's characters change: comments, key order, spacing, the
// quoting style (basic, literal or triple-quoted), trailing comments and CRLF
// line endings are all kept. The file is replaced atomically (a temporary
// file in the same directory, fsync, rename) with its mode kept; a symlink
// is followed and its target rewritten.
func SavePermission(path string, p Permission) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("save permission: %w", err)
	}
	text, err := withPermission(path, string(data), p)
	if err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("save permission: %w", err)
	}
	if err := writeAtomic(path, []byte(text), fi.Mode().Perm()); err != nil {
		return fmt.Errorf("save permission to %s: %w", path, err)
	}
	return nil
}

// withPermission returns text with the value of repl.permission replaced.
func withPermission(path, text string, p Permission) (string, error) {
	if _, err := toml.Decode(text, new(map[string]any)); err != nil {
		return "", fmt.Errorf("save permission: %w", syntaxError(path, text, err))
	}
	sp, ok := locate(text).spans["repl.permission"]
	if !ok || sp.ValStart < 0 {
		return "", &Error{File: path, Key: "repl.permission",
			Msg: "not found, so the new level cannot be saved; add permission = \"none\" under [repl]"}
	}
	old := text[sp.ValStart:sp.ValEnd]
	var delim string
	for _, d := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(old, d) {
			delim = d
			break
		}
	}
	if delim == "" {
		line, col := locate(text).pos(sp.ValStart)
		return "", &Error{File: path, Line: line, Col: col, Key: "repl.permission",
			Msg: "is not a string, so the new level cannot be saved; write permission = \"none\""}
	}
	out := text[:sp.ValStart] + delim + p.String() + delim + text[sp.ValEnd:]
	var check struct {
		REPL struct {
			Permission string `toml:"permission"`
		} `toml:"repl"`
	}
	if _, err := toml.Decode(out, &check); err != nil || check.REPL.Permission != p.String() {
		return "", fmt.Errorf("save permission: rewriting %s would not give permission = %q; set it by hand", path, p)
	}
	return out, nil
}

// writeAtomic replaces path with data (atomicfile.Write), after removing
// the temporaries of earlier writers in its directory that are gone: a
// temporary file in the same directory is written, synced and renamed over
// path, then the directory is synced, so a crash leaves either the old or
// the new file.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	atomicfile.Sweep(atomicfile.OS, filepath.Dir(path))
	return atomicfile.Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
