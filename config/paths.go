// The filesystem rules: the store, the launch directory and the sessions folder.

package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// checkPaths applies the rules that need the filesystem: [rlm.store] path
// must be an absolute, existing directory, neither inside nor containing the
// launch directory, and must neither contain nor lie inside
// $HARNESS_HOME/sessions; the launch directory must not contain the
// sessions folder either. Paths are compared after resolving symlinks.
func checkPaths(cfg *Config, loc *locator, launchDir string) error {
	c := &checker{file: cfg.Path, loc: loc}
	sessions := canonical(cfg.SessionsDir())
	var launch string
	if launchDir != "" {
		abs, err := filepath.Abs(launchDir)
		if err != nil {
			return fmt.Errorf("launch directory %q: %w", launchDir, err)
		}
		launch = canonical(abs)
		if within(sessions, launch) {
			c.errs = append(c.errs, &Error{Msg: fmt.Sprintf(
				"the launch directory %s contains harness's sessions folder %s; start harness from a project directory instead",
				abs, cfg.SessionsDir())})
		}
	}
	if store, ok := c.storeDir(cfg.RLM.StorePath); ok {
		const key = "rlm.store.path"
		switch {
		case within(sessions, store):
			c.valueErr(key, "%s contains harness's sessions folder %s; choose a directory outside %s, for example %s",
				cfg.RLM.StorePath, cfg.SessionsDir(), cfg.Home, filepath.Join(cfg.Home, "store"))
		case within(store, sessions):
			c.valueErr(key, "%s lies inside harness's sessions folder %s; choose a directory outside it, for example %s",
				cfg.RLM.StorePath, cfg.SessionsDir(), filepath.Join(cfg.Home, "store"))
		}
		switch {
		case launch == "":
		case within(store, launch):
			c.valueErr(key, "%s lies inside (or is) the launch directory %s; keep the store outside the repository, or start harness from another directory",
				cfg.RLM.StorePath, launchDir)
		case within(launch, store):
			c.valueErr(key, "%s contains the launch directory %s; keep the store outside the repository, or start harness from a directory outside the store",
				cfg.RLM.StorePath, launchDir)
		}
	}
	c.writableDirs(cfg.Commands.Writable)
	return collapse(c.errs)
}

// writableDirs checks that each [commands] writable entry is an absolute
// path to an existing directory.
func (c *checker) writableDirs(dirs []string) {
	const key = "commands.writable"
	for _, p := range dirs {
		if strings.HasPrefix(p, "~") {
			c.valueErr(key, "%q starts with ~, which is not expanded; write the full path, for example %q", p, "/home/you/.cache/go-build")
			continue
		}
		if !filepath.IsAbs(p) {
			c.valueErr(key, "%q is not an absolute path; write the full path of an existing directory", p)
			continue
		}
		fi, err := os.Stat(p)
		switch {
		case os.IsNotExist(err):
			c.valueErr(key, "%s does not exist; create it (mkdir -p %s) or remove it from writable", p, p)
		case err != nil:
			c.valueErr(key, "%s cannot be used: %v; fix its permissions or remove it from writable", p, err)
		case !fi.IsDir():
			c.valueErr(key, "%s is not a directory; list directories only (a command may write anywhere beneath them)", p)
		}
	}
}

// storeDir checks that p is an absolute path to an existing directory and
// returns its canonical form.
func (c *checker) storeDir(p string) (string, bool) {
	const key = "rlm.store.path"
	switch {
	case strings.HasPrefix(p, "~"):
		c.valueErr(key, "%q starts with ~, which is not expanded; write the full path, for example %q", p, "/home/you/.harness/store")
		return "", false
	case !filepath.IsAbs(p):
		c.valueErr(key, "%q is not an absolute path; write the full path of an existing directory", p)
		return "", false
	}
	fi, err := os.Stat(p)
	switch {
	case os.IsNotExist(err):
		c.valueErr(key, "%s does not exist; create it (mkdir -p %s) or point path at an existing directory (harness never creates it)", p, p)
		return "", false
	case err != nil:
		c.valueErr(key, "%s cannot be used: %v; fix its permissions or choose another directory", p, err)
		return "", false
	case !fi.IsDir():
		c.valueErr(key, "%s is not a directory; point path at a directory", p)
		return "", false
	}
	return canonical(p), true
}

// canonical resolves symlinks in p. For a path that does not exist yet, the
// longest existing prefix is resolved and the rest appended.
func canonical(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(canonical(parent), filepath.Base(p))
}

// within reports whether child is parent or lies below it.
func within(child, parent string) bool {
	rel, err := filepath.Rel(parent, child)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
