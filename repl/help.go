// help(): the output limit, repl-notes.md and the five sections.

package repl

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"harness/config"
	"harness/jail"
)

func (r *interp) help(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	callOf(r).write(r.helpText())
	return starlark.None, nil
}

// helpText returns what help() prints.
func (r *interp) helpText() string {
	var sb strings.Builder
	if r.opts.OutputLimit > 0 {
		fmt.Fprintf(&sb, "Output limit: %d bytes per call; longer results are cut with a notice.\n", r.opts.OutputLimit)
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
	fmt.Fprintf(sb, "\n## Files\n")
	fmt.Fprintf(sb, "/repository: the repository, %s now (permission level %s; the user can change it at any time). "+
		"It is the working directory: relative paths start at %s. REPL code: Path(\"src/main.go\"). "+
		"Direct tools: read_file, grep, list and apply_patch with repository-relative paths.\n", access(repo), repo.Level(), r.cwd)
	if r.opts.Store != nil {
		sb.WriteString("/store: a directory shared by all subagents and sessions, read-write at every level. " +
			"REPL code: Path(\"/store/notes.md\"). Direct tools: pass root=\"store\" and store-relative paths. Pass data to other agents by writing it here and naming the path.\n")
	}
	if r.opts.Library != nil {
		sb.WriteString("/library: this session's root and depth-1 conversation files, read-only. " +
			"REPL code: Path(\"/library\").iterdir(). Direct tools: read_file, grep and list with root=\"library\".\n")
	}
	sb.WriteString("Nothing else exists: host paths and paths above a mount are outside every mount. " +
		"Path follows pathlib: Path(p), / joins, .name .stem .suffix .parent .parts, .exists() .is_file() .is_dir() .is_symlink(), " +
		".read_text() .read_bytes() .write_text(s) .write_bytes(b), .iterdir() .glob(pat) .rglob(pat), " +
		".mkdir(parents=False, exist_ok=False) .unlink() .rmdir() .rename(dst) .stat(), .resolve() (lexical), " +
		".joinpath() .with_name() .with_suffix() .relative_to() .match(), str(p). Errors name the virtual path and say what went wrong " +
		"(not found, permission denied, outside the root, not a directory, …).\n")
	prot := r.opts.protection
	if prot == "" {
		prot = "this REPL runs inside harness; only its path checks confine it."
	}
	sb.WriteString("Protection: " + prot + "\n")
}

func helpStarlark(sb *strings.Builder) {
	sb.WriteString("\n## Starlark\n")
	sb.WriteString("The REPL runs Starlark, a small Python dialect. Variables and functions persist between calls until your final answer. " +
		"Supported: def, lambda, if/elif/else, for, while, break/continue, comprehensions, int (arbitrary size), float, string, bytes, list, dict, set, tuple, " +
		"% and .format() formatting, slicing, and the built-ins abs any all bool bytes chr dict dir enumerate fail float getattr hasattr hash int len list " +
		"max min ord print range repr reversed set sorted str tuple type zip. Strings are UTF-8 byte sequences: s[i] and len(s) count bytes. " +
		"Top-level names can be rebound; functions cannot assign globals; recursion is allowed up to 2000 nested calls. An error stops the call, but what ran before it stays done. " +
		"Modules: json (encode, decode, indent), math, time (now, parse_time, time, …), struct, re (search, match, fullmatch, findall, sub, split, compile; " +
		"flags re.I re.M re.S; Go RE2 syntax, no backreferences).\n")
	sb.WriteString("Use instead:\n")
	for _, u := range useInsteadTable {
		fmt.Fprintf(sb, "  %s → %s\n", u.name, u.alternative)
	}
}

func (r *interp) helpFunctions(sb *strings.Builder) {
	sb.WriteString("\n## REPL functions\n")
	for _, f := range replFunctions {
		if r.hasMount(f.mount) {
			fmt.Fprintf(sb, "%s: %s\n", f.signature, f.doc)
		}
	}
	sb.WriteString("print(*args, sep=\" \"): printed output is part of the result.\n")
}

func (r *interp) helpCommands(sb *strings.Builder) {
	cmds := r.opts.Commands
	sb.WriteString("\n## Commands\n")
	sb.WriteString(`run(["go", "test", "./..."]) runs a host program without a shell (no pipes, globbing or redirection; ` +
		`use run(["sh", "-c", "..."]) when you need them). It returns {"exit_code": int, "stdout": str, "stderr": str} ` +
		`after the command ends (a negative exit code is the signal that killed it) and prints nothing. ` +
		`Commands start in the repository root (chdir() does not affect them); cwd="sub/dir" picks a repository-relative directory. ` +
		`They run on the host, where /repository, /store and /library do not exist: pass repository-relative paths. ` +
		`No stdin, no terminal, no timeout. Other names on PATH need the user's approval each time; a path with a slash ` +
		"(\"./script.sh\") runs a repository file, also with approval. Absolute paths and '..' are refused.\n")
	sb.WriteString(r.sandboxLine() + "\n")
	var allow []string
	for name := range cmds.Allow {
		if !containsString(cmds.Deny, name) {
			allow = append(allow, name)
		}
	}
	sort.Strings(allow)
	fmt.Fprintf(sb, "Run without asking: %s\n", listOrNone(allow))
	deny := append([]string(nil), cmds.Deny...)
	sort.Strings(deny)
	fmt.Fprintf(sb, "Always refused: %s\n", listOrNone(deny))
}

func (r *interp) helpHelpers(sb *strings.Builder) {
	sb.WriteString("\n## Helper functions\n")
	if len(r.helpers) == 0 {
		sb.WriteString("(none loaded)\n")
		return
	}
	for _, h := range r.helpers {
		fmt.Fprintf(sb, "%s\n", h.signature)
		if h.doc != "" {
			for _, line := range strings.Split(h.doc, "\n") {
				fmt.Fprintf(sb, "    %s\n", line)
			}
		}
	}
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
		where + "; a write elsewhere fails with \"Permission denied\"."
	if !cmds.Network {
		line += " TCP connections are blocked (network = false)."
	}
	return line
}
