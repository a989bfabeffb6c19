// The rules and prompts checks: the instruction files and prompt files
// found for the launch directory.

package doctor

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"harness/config"
	"harness/instructions"
	"harness/prompts"
)

// maxWalk bounds the directories the rules check visits looking for
// nested instruction files.
const maxWalk = 20000

// checkInstructions lists the instruction files and the prompt files.
func checkInstructions(p *printer, cfg *config.Config, launchDir string, commands []string) {
	if launchDir == "" {
		p.skip("rules", "no launch directory given")
		return
	}
	dir, err := filepath.EvalSymlinks(launchDir)
	if err != nil {
		p.skip("rules", "the launch directory: %v", err)
		return
	}
	if len(cfg.Chat.InstructionFiles) == 0 {
		p.ok("rules", "[chat] instruction_files = []: no instruction files are read")
	} else {
		checkRules(p, cfg, dir)
	}
	checkPrompts(p, cfg, dir, commands)
}

func checkRules(p *printer, cfg *config.Config, dir string) {
	f := instructions.New(instructions.Options{Home: cfg.Home, Names: cfg.Chat.InstructionFiles, MaxBytes: cfg.Chat.InstructionsMaxBytes}, dir)
	files := f.Startup()
	names := strings.Join(cfg.Chat.InstructionFiles, ", ")
	if len(files) == 0 {
		where := dir
		if f.Top() != dir {
			where = "the directories from " + f.Top() + " down to " + dir
		}
		p.ok("rules", "no instruction file (%s) in %s or %s", names, cfg.Home, where)
	}
	given := 0
	for _, file := range files {
		switch {
		case file.Err != nil:
			p.warn("rules", "%s (%d bytes) is skipped: %v", file.Path, file.Size, file.Err)
		case file.Omitted > 0:
			p.warn("rules", "%s: %d bytes, %d of them left out by [chat] instructions_max_bytes = %d", file.Path, file.Size, file.Omitted, f.MaxBytes())
		default:
			p.ok("rules", "%s: %d bytes, given to every agent at its start", file.Path, file.Size)
		}
		given += len(file.Text)
	}
	nested, stopped := nestedFiles(f, dir)
	for _, file := range nested {
		if slices.ContainsFunc(files, func(s instructions.File) bool { return s.Path == file.Path }) {
			continue // $HARNESS_HOME inside the launch directory: its file is listed above
		}
		if file.Err != nil {
			p.warn("rules", "%s (%d bytes) is skipped: %v", file.Path, file.Size, file.Err)
			continue
		}
		p.ok("rules", "%s: %d bytes, given to a subagent when it first works in %s/", file.Path, file.Size, filepath.Dir(file.Name))
	}
	if stopped {
		p.warn("rules", "stopped looking for nested instruction files after %d directories of %s", maxWalk, dir)
	}
}

// nestedFiles finds the instruction files of the directories below dir
// (not following symlinks, passing over .git), at most maxWalk of them.
func nestedFiles(f *instructions.Finder, dir string) (out []instructions.File, stopped bool) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, false
	}
	defer r.Close()
	root := instructions.RootFS(r)
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == dir {
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if n++; n > maxWalk {
			stopped = true
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(dir, p)
		if file, ok := f.Nested(root, filepath.ToSlash(rel)); ok {
			out = append(out, file)
		}
		return nil
	})
	return out, stopped
}

func checkPrompts(p *printer, cfg *config.Config, dir string, commands []string) {
	top := instructions.Top(dir)
	list, problems := prompts.Load(cfg.Home, top, commands)
	for _, pr := range list {
		origin := "yours"
		if pr.Repository {
			origin = "the repository's"
		}
		p.ok("prompts", "/%s: %s, %d bytes (%s)", pr.Name, pr.Path, pr.Size, origin)
	}
	for _, pr := range problems {
		p.warn("prompts", "%s", pr)
	}
	if len(list) == 0 && len(problems) == 0 {
		p.ok("prompts", "no prompt files in %s or %s", filepath.Join(cfg.Home, "prompts"), filepath.Join(top, ".harness", "prompts"))
	}
}
