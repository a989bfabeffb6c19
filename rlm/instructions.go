// Instruction files (package instructions): what each agent is given in its
// start-up call, at each root turn, and when a subagent first works below a
// directory with its own file.

package rlm

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"harness/instructions"
	"harness/jail"
	"harness/patch"
	"harness/sessions"
)

// Instructions finds the instruction files agents are given
// (*instructions.Finder).
type Instructions interface {
	// Startup reads the person's own file and those from the
	// repository's top down to the launch directory, capped together.
	Startup() []instructions.File
	// Nested reads the file of dir, a directory relative to the
	// repository, through fsys; ok is false when it has none.
	Nested(fsys instructions.FS, dir string) (instructions.File, bool)
	MaxBytes() int
}

// rootInstructionsNote ends the root's instructions: it only delegates.
const rootInstructionsNote = "(Your subagents are given these files themselves when they start: do not repeat them in their tasks.)"

// startupInstructions returns the text the agent's start-up call gives
// after its own result: the start-up files whose current text no visible
// tool result of the agent's conversation holds yet (all of them for a new
// agent), or "". A file given before with another text is marked as
// replacing it. Skipped files are told to the person as Notices.
func (a *agent) startupInstructions() string {
	in := a.r.opts.Instructions
	if in == nil {
		return ""
	}
	a.fmu.Lock()
	var results []string
	for _, m := range sessions.Visible(a.file.Items) {
		if m.Role == "tool" {
			results = append(results, m.Content)
		}
	}
	a.fmu.Unlock()
	var due []instructions.File
	changed := map[string]bool{}
	a.startupFiles = a.startupFiles[:0]
	for _, f := range in.Startup() {
		a.startupFiles = append(a.startupFiles, f.Path)
		f = a.redactFile(f)
		switch {
		case instructions.Block(f) == "":
			due = append(due, f) // left out by the cap: named in the note
		case !anyHolds(results, func(s string) bool { return instructions.Given(s, f) }):
			due = append(due, f)
			changed[f.Name] = anyHolds(results, func(s string) bool { return instructions.Mentioned(s, f.Name) })
			a.noteSkipped(f)
		}
	}
	text := instructions.Render(due, changed, in.MaxBytes())
	if text != "" && a.depth == 0 {
		text += "\n\n" + rootInstructionsNote
	}
	return text
}

func anyHolds(texts []string, holds func(string) bool) bool {
	for _, s := range texts {
		if holds(s) {
			return true
		}
	}
	return false
}

// redactFile passes f's text through the redactor, so it compares with
// what was saved.
func (a *agent) redactFile(f instructions.File) instructions.File {
	f.Text = a.r.opts.Redactor.String(f.Text)
	return f
}

// noteSkipped tells the person that f could not be given.
func (a *agent) noteSkipped(f instructions.File) {
	if f.Err != nil {
		a.emit(Notice{Agent: a.ref(), Message: "instruction file " + f.Name + " skipped: " + f.Err.Error()})
	}
}

// touch records a repository path the running REPL call resolved
// (REPLEnv.Touched).
func (a *agent) touch(p string) {
	a.mu.Lock()
	a.touched = append(a.touched, p)
	a.mu.Unlock()
}

// withText appends extra to a tool result on a paragraph of its own.
func withText(result, extra string) string {
	if extra == "" {
		return result
	}
	if result == "" {
		return extra
	}
	return strings.TrimRight(result, "\n") + "\n\n" + extra
}

// nestedInstructions returns the text appended to the result of a
// subagent's call that touched paths below directories with their own
// instruction file not given to this agent yet: each such file once, with
// its path. A file the call touched itself (read_file of pkg/AGENTS.md)
// counts as given without being appended. Nothing is read when the
// permission level forbids reading the repository.
func (a *agent) nestedInstructions(tool string, args map[string]json.RawMessage) string {
	in := a.r.opts.Instructions
	repo := a.roots[jail.Repository]
	if in == nil || a.depth == 0 || repo == nil {
		return ""
	}
	touched := a.touchedBy(tool, args)
	if len(touched) == 0 || repo.CheckRead("read", ".") != nil {
		return ""
	}
	self := map[string]bool{}
	for _, p := range touched {
		self[p] = true
	}
	var out []string
	for _, dir := range nestedDirs(repo, touched) {
		if a.nested[dir] {
			continue
		}
		f, ok := in.Nested(repoFS{repo}, dir)
		if !ok {
			continue
		}
		if a.nested == nil {
			a.nested = map[string]bool{}
		}
		a.nested[dir] = true
		if self[f.Name] || slices.Contains(a.startupFiles, f.Path) {
			continue // read by the call itself, or given at the start (a home inside the repository)
		}
		f = a.redactFile(f)
		a.noteSkipped(f)
		out = append(out, instructions.RenderNested(f, in.MaxBytes()))
	}
	return strings.Join(out, "\n\n")
}

// touchedBy returns the repository paths a finished call touched: the
// path of read_file, grep and list, the files apply_patch names, the
// paths the REPL code resolved. Calls on another root touch none.
func (a *agent) touchedBy(tool string, args map[string]json.RawMessage) []string {
	if tool == REPLTool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.touched
	}
	if r := str(args, "root"); r != "" && r != jail.Repository {
		return nil
	}
	switch tool {
	case ReadFileTool, GrepTool, ListTool:
		return []string{str(args, "path")}
	case ApplyPatchTool:
		p, err := patch.Parse(str(args, "patch"))
		if err != nil {
			return nil
		}
		var out []string
		for _, op := range p.Ops {
			out = append(out, op.Path)
			if op.MoveTo != "" {
				out = append(out, op.MoveTo)
			}
		}
		return out
	}
	return nil
}

// nestedDirs lists the directories below the repository that the touched
// paths lie in, shallow ones first, each once: every parent of a path, and
// the path itself when it is a directory.
func nestedDirs(repo *jail.Root, touched []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		if d != "." && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, p := range touched {
		c, err := jail.Clean(p)
		if err != nil || c == "." {
			continue
		}
		parts := strings.Split(c, "/")
		for i := 1; i < len(parts); i++ {
			add(path.Join(parts[:i]...))
		}
		if fi, err := repo.Stat(c); err == nil && fi.IsDir() {
			add(c)
		}
	}
	return out
}

// repoFS opens the repository's files for instructions.Finder.Nested: a
// component that is not a directory counts as absent.
type repoFS struct{ r *jail.Root }

func (f repoFS) Open(name string) (*os.File, error) {
	file, err := f.r.Open(name)
	if jail.KindOf(err) == jail.KindNotDir {
		return nil, fs.ErrNotExist
	}
	return file, err
}
