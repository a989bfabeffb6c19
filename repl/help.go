// help(): the output limit, repl-notes.md and the five sections, kept
// short (it is in every subagent's context); help(name) for one name.

package repl

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"harness/config"
	"harness/jail"
	"harness/repl/pyrt"
	"harness/repl/pystr"
	"harness/sandbox"
)

// helperBudget is the most help() spends on the helper functions; past it
// they are listed by signature only (help(name) shows one in full).
const helperBudget = 1100

func (r *interp) help(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var what starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0, &what); err != nil {
		return nil, err
	}
	if what != nil {
		callOf(r).write(r.helpOn(what))
		return starlark.None, nil
	}
	callOf(r).write(r.helpText())
	return starlark.None, nil
}

// helpText returns what help() prints.
func (r *interp) helpText() string {
	var sb strings.Builder
	if r.opts.OutputLimit > 0 {
		fmt.Fprintf(&sb, "Output limit: %d bytes per call.\n", r.opts.OutputLimit)
	} else {
		sb.WriteString("Output limit: none.\n")
	}
	if notes, err := r.homeFile("repl-notes.md"); err == nil && len(notes) > 0 {
		sb.WriteString("\n" + strings.TrimRight(string(notes), "\n") + "\n")
	}
	r.helpFiles(&sb)
	helpStarlark(&sb)
	r.helpFunctions(&sb)
	r.helpCommands(&sb)
	r.helpMCP(&sb)
	r.helpHelpers(&sb)
	return sb.String()
}

func access(root *jail.Root) string {
	switch {
	case root.Level().CanWrite():
		return "read-write"
	case root.Level().CanRead():
		return "read-only"
	}
	return "no access"
}

func (r *interp) helpFiles(sb *strings.Builder) {
	repo := r.opts.Repository
	sb.WriteString("\n## Files\n")
	fmt.Fprintf(sb, "/repository (%s now, level %s; the user can change it): the working directory, relative paths start at %s.\n",
		access(repo), repo.Level(), r.Cwd)
	if r.opts.Store != nil {
		sb.WriteString("/store: shared by all agents and sessions, read-write; pass data on by writing here and naming the path.\n")
		if r.opts.Siblings {
			sb.WriteString("Other subagents may run at the same time: each write replaces the whole file at once (never half written), " +
				"and when two agents write the same file the last one wins; use a file name of your own.\n")
		}
	}
	if r.opts.Library != nil {
		sb.WriteString("/library: this session's conversations, read-only.\n")
	}
	sb.WriteString("Nothing else exists; Path, open(), os, glob and shutil see only these. " +
		"Tools take repository paths or root=\"store\"/\"library\".\n")
	prot := r.opts.protection
	if prot == "" {
		prot = "this REPL runs inside harness; only its path checks confine it."
	}
	sb.WriteString("Protection: " + prot + "\n")
}

func helpStarlark(sb *strings.Builder) {
	sb.WriteString("\n## Starlark\n")
	sb.WriteString("Starlark with Python's meaning: classes, try/with, match, generators, decorators, hints. " +
		"Variables persist between calls; an error stops the call there.\n")
	var mods []string
	for _, m := range pyrt.ModuleList() {
		if m != "os.path" { // os's, and so implied
			mods = append(mods, m)
		}
	}
	sb.WriteString("Modules: " + strings.Join(mods, " ") + ".\n")
	sb.WriteString("Missing: except*, complex, threads.\n")
	sb.WriteString("Use instead:\n")
	for _, u := range useInsteadTable {
		fmt.Fprintf(sb, "  %s → %s\n", u.name, u.alternative)
	}
}

func (r *interp) helpFunctions(sb *strings.Builder) {
	sb.WriteString("\n## REPL functions\n")
	var sigs []string
	for _, f := range replFunctions {
		if r.hasMount(f.mount) && f.name != "chdir" && f.name != "getcwd" {
			sigs = append(sigs, f.signature)
		}
	}
	sb.WriteString(strings.Join(sigs, ", ") + "\n")
}

func (r *interp) helpCommands(sb *strings.Builder) {
	cmds := r.opts.Commands
	sb.WriteString("\n## Commands\n")
	sb.WriteString(`run(["go", "test", "./..."]) or subprocess.run(argv, capture_output=True, text=True, timeout=60) runs a program ` +
		`in the repository: no shell unless ["sh", "-c", …] or shell=True, no stdin, relative paths (the host has no /repository). ` +
		`run() returns {"exit_code", "stdout", "stderr"}. Others need approval each time; absolute paths and '..' are refused.` + "\n")
	sb.WriteString(r.sandboxLine() + "\n")
	var allow []string
	for name := range cmds.Allow {
		if !containsString(cmds.Deny, name) {
			allow = append(allow, name)
		}
	}
	sort.Strings(allow)
	deny := append([]string(nil), cmds.Deny...)
	sort.Strings(deny)
	fmt.Fprintf(sb, "Run without asking: %s. Always refused: %s.\n", listOrNone(allow), listOrNone(deny))
}

// helpHelpers lists the helpers with the first sentence of their
// docstrings, or by signature alone when that passes helperBudget.
func (r *interp) helpHelpers(sb *strings.Builder) {
	sb.WriteString("\n## Helper functions\n")
	if len(r.helpers) == 0 {
		sb.WriteString("(none loaded)\n")
		return
	}
	var full strings.Builder
	for _, h := range r.helpers {
		full.WriteString(helpLine(h.signature, h.doc) + "\n")
	}
	if full.Len() <= helperBudget {
		sb.WriteString(full.String())
		return
	}
	sigs := make([]string, len(r.helpers))
	for i, h := range r.helpers {
		sigs[i] = h.signature
	}
	sb.WriteString(strings.Join(sigs, ", ") + "\n(help(name) shows a helper's docstring.)\n")
}

// helpLine is a helper's line in help(): its signature and the first
// sentence of its docstring.
func helpLine(signature, doc string) string {
	if s := firstSentence(doc); s != "" {
		return signature + ": " + s
	}
	return signature
}

// firstSentence returns a docstring's first sentence, on one line, at
// most 100 bytes.
func firstSentence(doc string) string {
	s := strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > 100 {
		s = cut(s, 97) + "..."
	}
	return s
}

// helpOn is help(x): a helper's or REPL function's documentation, a
// module's names, or a value's type.
func (r *interp) helpOn(v starlark.Value) string {
	if m, ok := pyrt.AsModule(v); ok {
		return m.Name + ": " + strings.Join(pyrt.PublicNames(v), " ") + "\n" + moduleNotes[m.Name]
	}
	name := ""
	switch x := v.(type) {
	case starlark.String:
		name = string(x)
	case *starlark.Function:
		name = x.Name()
	case *starlark.Builtin:
		name = x.Name()
	}
	for _, h := range r.helpers {
		if h.name == name {
			return h.signature + "\n" + indent(h.doc) + "(from replib/" + h.file + "; lib_source(" + pystr.Quote(strings.TrimSuffix(h.file, ".star")) + ") shows it)\n"
		}
	}
	for _, f := range replFunctions {
		if f.name == name && r.hasMount(f.mount) {
			return f.signature + ": " + f.doc + "\n"
		}
	}
	if _, ok := pyrt.ModuleMakers[name]; ok {
		m, _ := r.Module(name)
		return name + ": " + strings.Join(pyrt.PublicNames(m), " ") + "\n" + moduleNotes[name]
	}
	if fn, ok := v.(*starlark.Function); ok {
		return signature(fn) + "\n" + indent(cleandoc(fn.Doc()))
	}
	return "No documentation for " + pyrt.PyRepr(v) + "; help() describes the REPL.\n"
}

// moduleNotes follow a module's names in help(module).
var moduleNotes = map[string]string{
	"re":       "Patterns run on RE2 (linear time); those it cannot run (lookaround, backreferences, atomic groups) on a backtracking engine that stops a match after 2 s.\n",
	"argparse": "A REPL call has no command line: parse_args() with no list parses [] (sys.argv[1:]); pass the list to parse.\n",
}

func indent(doc string) string {
	if doc == "" {
		return ""
	}
	var sb strings.Builder
	for _, l := range strings.Split(doc, "\n") {
		sb.WriteString("    " + l + "\n")
	}
	return sb.String()
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, ", ")
}

func containsString(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// metadataLine says whether a confined command can change file metadata
// outside its writable folders.
func metadataLine() string {
	if sandbox.MetadataProtected() {
		return "Everything else is mounted read-only for it, so it cannot change file metadata there either (chmod, touch -d and extended attributes fail with \"Read-only file system\")."
	}
	return "It can still change the metadata of files elsewhere (chmod, touch -d, extended attributes): this system makes no mount namespace for it, and Landlock does not cover metadata."
}

// sandboxLine says how run() confines commands ([commands] sandbox).
func (r *interp) sandboxLine() string {
	cmds := r.opts.Commands
	if cmds.Sandbox != config.SandboxWorkspace {
		return "Sandbox: none; once allowed, a command can do whatever the user can."
	}
	where := "the repository"
	if r.opts.Store != nil {
		where += ", /store"
	}
	where += ", the system temp folder"
	for _, w := range cmds.Writable {
		where += ", " + w
	}
	line := "Sandbox: every command runs confined (sandbox = \"workspace\"): it may read and execute anything but write only in " +
		where + "; a write elsewhere fails with \"Permission denied\" (or \"Read-only file system\"). " + metadataLine()
	if !cmds.Network {
		line += " TCP connections are blocked (network = false)."
	}
	if sandbox.ABI() >= 6 {
		line += " It cannot signal processes outside its sandbox (harness included) nor reach abstract Unix sockets made outside it."
	}
	return line
}
