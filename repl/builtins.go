// The predeclared names of the REPL and the small REPL functions.

package repl

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"go.starlark.net/lib/json"
	"go.starlark.net/lib/math"
	ltime "go.starlark.net/lib/time"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"harness/jail"
	"harness/repl/lib/pydata"
	"harness/repl/lib/pynum"
	"harness/repl/lib/pytext"
	"harness/repl/pyrt"
)

// replFunction describes one REPL function for help() and Functions().
type replFunction struct {
	name, signature, doc string
	mount                string // only where this mount exists
}

// replFunctions lists the REPL functions in help() order.
var replFunctions = []replFunction{
	{"FYI", "FYI()", "print the date, this agent's prompt-token count and the model", ""},
	{"help", "help(name=None)", "print this description of the REPL, or the documentation of one function, helper or module", ""},
	{"run", "run(argv, cwd=None)", `run a host command without a shell; returns {"exit_code", "stdout", "stderr"} (see Commands)`, ""},
	{"Path", "Path(*parts)", "a path in /repository, /store or /library (pathlib names; see Files)", ""},
	{"try_call", "try_call(f, *args, **kwargs)", `call f and return struct(value=..., error=None) or struct(value=None, error="message"): the stand-in for try/except`, ""},
	{"chdir", "chdir(path)", "change the REPL's working directory (relative paths start there; run() is not affected)", ""},
	{"getcwd", "getcwd()", "the REPL's working directory as a virtual path", ""},
	{"lib_source", "lib_source(name)", "the current text of the helper file replib/<name>.star", ""},
	{"store_summary", "store_summary()", "print the file count, total bytes, latest change and most recently changed files of /store", jail.Store},
	{"library_summary", "library_summary()", "the same for /library", jail.Library},
	{"mcp", "mcp(server, tool, **arguments)", "call an MCP server's tool (see MCP servers)", mcpNeeds},
	{"mcp_tools", "mcp_tools(server=None)", "the MCP servers' tools: dicts of server, name, description, input_schema, allowed, direct", mcpNeeds},
}

// hasMount reports whether the named mount exists in this REPL (or, for
// mcpNeeds, whether it reaches MCP servers).
func (r *interp) hasMount(name string) bool {
	switch name {
	case "":
		return true
	case jail.Store:
		return r.opts.Store != nil
	case jail.Library:
		return r.opts.Library != nil
	case mcpNeeds:
		return r.opts.MCP != nil
	}
	return false
}

// builtins returns a fresh globals dict holding the predeclared names.
func (r *interp) builtins() starlark.StringDict {
	g := starlark.StringDict{
		"json":   json.Module,
		"math":   math.Module,
		"time":   ltime.Module,
		"struct": starlark.NewBuiltin("struct", starlarkstruct.Make),
		"re":     pytext.ReModule(r.Interp),
	}
	impl := map[string]pyrt.BuiltinFunc{
		"FYI": r.fyi, "help": r.help, "run": r.run, "Path": r.PathCtor, "try_call": r.tryCall,
		"chdir": r.Chdir, "getcwd": r.Getcwd, "lib_source": r.libSource,
		"store_summary": r.summary(jail.Store), "library_summary": r.summary(jail.Library),
		"mcp": r.mcpCall, "mcp_tools": r.mcpTools,
	}
	for _, f := range replFunctions {
		if r.hasMount(f.mount) {
			g[f.name] = starlark.NewBuiltin(f.name, impl[f.name])
		}
	}
	r.SizedBuiltins(g)
	r.PyBuiltins(g)
	g["json"], g["math"], g["time"] = pydata.JsonModule(r.Interp), pynum.MathModule(r.Interp), r.TimeModule()
	if r.opts.testHooks {
		for name, f := range testBuiltins {
			g[name] = starlark.NewBuiltin(name, f(r))
		}
	}
	return g
}

// testBuiltins are functions registered by this package's test files (a
// test binary's workers predeclare them when bound with test hooks, to
// reach past the jail on purpose); a harness binary has none.
var testBuiltins = map[string]func(r *interp) pyrt.BuiltinFunc{}

func (r *interp) tryCall(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("try_call: missing the function to call")
	}
	v, err := starlark.Call(thread, args[0], args[1:], kw)
	err = r.IterError(err)
	if err != nil {
		if c := callOf(r); c.stopped() {
			return nil, err // a stop (Esc, memory) is never caught
		}
		return starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{
			"value": starlark.None, "error": starlark.String(pyrt.ErrorMessage(err)),
		}), nil
	}
	return starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{
		"value": v, "error": starlark.None,
	}), nil
}

func (r *interp) libSource(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &name); err != nil {
		return nil, err
	}
	name = strings.TrimSuffix(name, ".star")
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return nil, fmt.Errorf("lib_source: %q is not a helper file name; pass a name like \"glob\" for replib/glob.star", name)
	}
	data, err := r.homeFile("replib/" + name + ".star")
	if err != nil {
		return nil, fmt.Errorf("lib_source: replib/%s.star: not found; the helper files are: %s", name, strings.Join(r.helperFileNames(), ", "))
	}
	return starlark.String(data), nil
}

func (r *interp) fyi(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	c := callOf(r)
	info, err := hostCall[struct{}, fyiReply](r, c, "fyi", struct{}{})
	if err != nil {
		return nil, fmt.Errorf("FYI: %v", err)
	}
	text := FYIText(time.Now(), info.Tokens, info.Estimated, info.Model)
	if info.Window > 0 {
		text += WindowLine(info.Window)
	}
	c.write(text)
	return starlark.None, nil
}

// FYIText is the text of FYI: the date, the prompt-token count ("~" when
// estimated; "unknown" when tokens < 0) and the model, one per line, ending
// in a newline. The root's FYI tool uses it too.
func FYIText(now time.Time, tokens int, estimated bool, model string) string {
	count := "unknown"
	if tokens >= 0 {
		count = fmt.Sprint(tokens)
		if estimated {
			count = "~" + count
		}
	}
	return fmt.Sprintf("Date: %s\nPrompt tokens: %s\nModel: %s\n", now.Format("Monday, 2006-01-02 15:04 MST"), count, model)
}

// WindowLine is FYI's line for a known context window, after FYIText's.
func WindowLine(tokens int) string {
	return fmt.Sprintf("Context window: %d tokens\n", tokens)
}

// summary returns store_summary or library_summary.
func (r *interp) summary(mount string) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
			return nil, err
		}
		root := r.opts.Store
		if mount == jail.Library {
			root = r.opts.Library
		}
		text, err := r.summarize(root)
		if err != nil {
			return nil, err
		}
		callOf(r).write(text)
		return starlark.None, nil
	}
}

type fileStat struct {
	rel   string
	size  int64
	mtime time.Time
}

// summarize walks root (not following symlinks) and describes its regular
// files.
func (r *interp) summarize(root *jail.Root) (string, error) {
	c := callOf(r)
	var files []fileStat
	var walk func(dir string) error
	walk = func(dir string) error {
		if c.ctx.Err() != nil {
			return fmt.Errorf("%s_summary: cancelled", root.Name())
		}
		entries, err := root.ReadDir(dir)
		if err != nil {
			return r.fsErr(root.Name()+"_summary", pyrt.Virtual(runtimeRoot(root), dir), err)
		}
		for _, e := range entries {
			rel := pyrt.JoinRel(dir, e.Name())
			switch {
			case e.IsDir():
				if err := walk(rel); err != nil {
					return err
				}
			case e.Type().IsRegular():
				fi, err := e.Info()
				if err != nil {
					continue // removed while walking
				}
				files = append(files, fileStat{rel, fi.Size(), fi.ModTime()})
			}
		}
		return nil
	}
	if err := walk("."); err != nil {
		return "", err
	}
	name := "/" + root.Name()
	if len(files) == 0 {
		return name + ": empty\n", nil
	}
	sort.Slice(files, func(i, j int) bool {
		if !files[i].mtime.Equal(files[j].mtime) {
			return files[i].mtime.After(files[j].mtime)
		}
		return files[i].rel < files[j].rel
	})
	var total int64
	for _, f := range files {
		total += f.size
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %d files, %d bytes, latest change %s\n", name, len(files), total,
		files[0].mtime.UTC().Format(time.RFC3339))
	sb.WriteString("most recently changed:\n")
	for i := 0; i < len(files) && i < 5; i++ {
		fmt.Fprintf(&sb, "  %s/%s\n", name, files[i].rel)
	}
	return sb.String(), nil
}
