// Package replib holds the helper files shipped with harness: reasoning.star,
// glob.star and search.star. install.sh copies them into
// $HARNESS_HOME/replib/, where every subagent's REPL loads them in name
// order; this package embeds the same files so tests (and harness doctor)
// can install and load them.
//
//   - reasoning(text): a no-op the model uses to record its reasoning; a call
//     that is only reasoning("...") on a plain string is never run.
//   - glob(pattern, path=None, exclude=()): sorted relative paths.
//   - search(pattern, path=None, glob=None, exclude=()): struct(path, line,
//     text) records for matching lines, skipping files with a NUL byte.
package replib

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

//go:embed *.star
var files embed.FS

// Names returns the shipped file names in load order.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// Source returns the text of a shipped file, e.g. Source("glob.star").
func Source(name string) ([]byte, error) { return files.ReadFile(name) }

// Install writes the shipped files into dir (creating it), overwriting only
// files of the same names.
func Install(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range Names() {
		data, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
