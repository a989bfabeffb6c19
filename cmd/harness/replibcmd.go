// harness replib check: every helper file (or the ones named) loaded in
// a fresh REPL over a scratch repository and checked (package replcheck).

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"harness/config"
	"harness/replcheck"
)

const replibUsage = `Usage:
  harness replib check [-v] [FILE...]
        load each helper file in a fresh REPL, as a depth-1 subagent's REPL
        loads $HARNESS_HOME/replib, and report per file: its load error at
        file:line:column, its public functions as help() lists them, the names
        it shadows, and every docstring example (>>> code, then the expected
        output) run and compared as doctest does. Without FILE, every file in
        $HARNESS_HOME/replib; a FILE outside it is checked as if installed
        there (a NAME alone is $HARNESS_HOME/replib/NAME.star).

  -v   list every example, not only the failing ones

Examples run in an empty scratch repository (read-write) and store, so they
create the files they need; approvals are refused. The last line is
"N passed, N failed"; the exit code is 1 when anything failed, 2 on bad usage.
`

func cmdReplib(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, replibUsage)
		return exitOK
	}
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprintf(stderr, "harness replib: want the subcommand check\n\n%s", replibUsage)
		return exitUsage
	}
	verbose := false
	var names []string
	for _, a := range args[1:] {
		switch {
		case a == "-h" || a == "--help":
			fmt.Fprint(stdout, replibUsage)
			return exitOK
		case a == "-v":
			verbose = true
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "harness replib check: unknown argument %q\n\n%s", a, replibUsage)
			return exitUsage
		default:
			names = append(names, a)
		}
	}
	cfg, rc := loadConfig(stderr)
	if rc != exitOK {
		return rc
	}
	files, err := helperFilesToCheck(filepath.Join(cfg.Home, "replib"), names)
	if err != nil {
		fmt.Fprintf(stderr, "harness replib check: %v\n", err)
		return exitUsage
	}
	commands = newCommands()
	go commands.Start()
	return checkHelpers(cfg, files, verbose, stdout, stderr)
}

// helperFilesToCheck returns the files named (each a path, or the name
// of an installed file), or every installed file when none is.
func helperFilesToCheck(replib string, names []string) ([]replcheck.File, error) {
	if len(names) == 0 {
		paths, _ := filepath.Glob(filepath.Join(replib, "*.star"))
		if len(paths) == 0 {
			return nil, fmt.Errorf("no helper files in %s (run ./install.sh for the shipped ones, or name a FILE)", replib)
		}
		sort.Strings(paths)
		names = paths
	}
	seen := map[string]string{}
	var out []replcheck.File
	for _, n := range names {
		p := n
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) && !strings.ContainsRune(n, os.PathSeparator) {
			if alt := filepath.Join(replib, strings.TrimSuffix(n, ".star")+".star"); fileExists(alt) {
				p = alt
			}
		}
		if !strings.HasSuffix(p, ".star") {
			return nil, fmt.Errorf("%s: helper files end in .star (the REPL loads only those)", n)
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		base := filepath.Base(p)
		if other, ok := seen[base]; ok {
			return nil, fmt.Errorf("%s and %s have the same name: the REPL would load one of them", other, p)
		}
		seen[base] = p
		out = append(out, replcheck.File{Name: base, Path: p, Source: src})
	}
	return out, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// checkHelpers checks files in REPLs whose helpers are the installed ones
// with files in their place, over a scratch repository and store emptied
// before each file.
func checkHelpers(cfg *config.Config, files []replcheck.File, verbose bool, stdout, stderr io.Writer) int {
	scratch, err := os.MkdirTemp("", "harness-replib-check-")
	if err != nil {
		fmt.Fprintln(stderr, "harness replib check:", err)
		return exitError
	}
	defer os.RemoveAll(scratch)
	home, repo := filepath.Join(scratch, "home"), filepath.Join(scratch, "repository")
	if err := scratchHome(cfg.Home, home, files); err != nil {
		fmt.Fprintln(stderr, "harness replib check:", err)
		return exitError
	}
	sc := *cfg // the store is a scratch one too
	if cfg.RLM.StorePath != "" {
		sc.RLM.StorePath = filepath.Join(scratch, "store")
	}
	for _, d := range []string{repo, sc.RLM.StorePath} {
		if d != "" {
			os.MkdirAll(d, 0o755)
		}
	}
	w, rc := openWorkbench(&sc, repo, config.PermReadWrite, "", stderr)
	if rc != exitOK {
		return rc
	}
	defer w.close()
	w.startMCP()
	newREPL := func() (replcheck.REPL, error) {
		for _, d := range []string{w.dir, sc.RLM.StorePath} {
			if err := emptyDir(d); err != nil {
				return nil, err
			}
		}
		base := w.replOptions(&sc, nil, nil)
		base.Home = home
		r, err := w.newREPL(base, nil, refuse{})
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	res, err := replcheck.Check(context.Background(), replcheck.Options{Files: files, New: newREPL, Out: stdout, Verbose: verbose})
	if err != nil {
		fmt.Fprintln(stderr, "harness replib check:", err)
		return exitError
	}
	if res.Failed > 0 {
		return exitError
	}
	return exitOK
}

// scratchHome makes home a $HARNESS_HOME whose replib holds the installed
// helper files with files put in (replacing the installed ones of the
// same names), and the same repl-notes.md.
func scratchHome(real, home string, files []replcheck.File) error {
	dir := filepath.Join(home, "replib")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	installed, _ := filepath.Glob(filepath.Join(real, "replib", "*.star"))
	for _, p := range installed {
		if data, err := os.ReadFile(p); err == nil {
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644); err != nil {
				return err
			}
		}
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Source, 0o644); err != nil {
			return err
		}
	}
	if notes, err := os.ReadFile(filepath.Join(real, "repl-notes.md")); err == nil {
		return os.WriteFile(filepath.Join(home, "repl-notes.md"), notes, 0o644)
	}
	return nil
}

// emptyDir removes everything in dir ("" is no directory).
func emptyDir(dir string) error {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
