// Loading the replib helper files and describing their functions.

package repl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/config"
	"harness/jail"
	"harness/repl/pyrt"
	"harness/repl/rewrite"
)

// helper is one public helper function.
type helper struct {
	name, signature, doc, file string
}

// loadHelpers runs every replib/*.star file in name order into the globals.
// Each file sees the predeclared names and what earlier files defined; all
// its top-level names become globals (private ones too, so they stay
// callable), and its public functions are listed in help(). A file that
// fails is reported and contributes nothing.
func (r *interp) loadHelpers() {
	r.helpers, r.loadErrors = nil, nil
	r.helperLog.begin()
	for _, f := range r.helperFiles() {
		file := f.Name + ".star"
		var err error
		if f.Error != "" {
			err = errors.New(f.Error)
		} else {
			err = r.loadHelper(file, f.Data)
		}
		if err != nil {
			r.loadErrors = append(r.loadErrors, fmt.Sprintf("replib/%s: %s", file, describeLoadError(err)))
			r.helperLog.failed(file, describeLoadError(err))
		}
	}
	r.publish()
	if len(r.loadErrors) > 0 {
		r.loadReport = "Helper files that failed to load (left out of help(); fix them in $HARNESS_HOME/replib):\n  " +
			strings.Join(r.loadErrors, "\n  ") + "\n"
	}
}

func describeLoadError(err error) string {
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		return backtrace(ee, func(p syntax.Position) syntax.Position { return p })
	}
	return err.Error()
}

// helperLoadTimeout bounds the time one helper file may take to load, so
// that an endless loop at a file's top level cannot hang every new REPL.
var helperLoadTimeout = 5 * time.Second

// loadHelper runs one helper file as a call of its own, with the memory
// watchdog and a time limit, and adds its names to the globals. Its
// printed output and failure notes are dropped.
func (r *interp) loadHelper(file string, src []byte) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), helperLoadTimeout)
	defer cancel()
	r.Thread.Uncancel()
	c := newCall(r, ctx, "")
	c.out.emit = nil
	r.setCall(c)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error while loading: %v", p)
		}
		c.finish()
		r.setCall(nil)
		switch reason := c.reason(); {
		case err != nil && reason == pyrt.StopCancel:
			err = fmt.Errorf("did not finish loading within %v; is there an endless loop at the top level?", helperLoadTimeout)
		case err != nil && reason == pyrt.StopMemory:
			err = fmt.Errorf("passed this REPL's memory limit (max_memory_mb = %d) while loading", r.opts.MaxMemoryMB)
		}
		r.helperLog.stopped(file, err) // a stop's place is where a step check fell: none is given
	}()
	return r.execHelper(file, src)
}

// execHelper parses, guards and runs a helper file, then merges its
// top-level names into the globals and records its public functions.
func (r *interp) execHelper(file string, src []byte) error {
	pre, err := helperPrepass(string(src))
	if err != nil {
		pe := err.(*rewrite.Error)
		line, col := rewrite.LineCol(string(src), rewrite.LineStarts(string(src)), pe.Pos)
		return &syntax.Error{Pos: syntax.MakePosition(&file, int32(line), int32(col)), Msg: pe.Msg}
	}
	r.helperLog.pm = pre.PM
	f, err := r.FileOpts.Parse(file, pre.Text, 0)
	if err != nil {
		return err
	}
	if err := rewrite.ASTPass(f, rewrite.ASTOptions{Loads: pre.Loads, Marks: pre.Marks, Methods: pyrt.PyMethods}); err != nil {
		return err
	}
	pyrt.GuardRepeats(f)
	prog, err := starlark.FileProgram(f, r.Globals.Has)
	if err != nil {
		return err
	}
	globals, err := prog.Init(r.Thread, r.Globals)
	if err != nil {
		return err
	}
	globals.Freeze()
	names := globals.Keys() // sorted
	var found []helper
	for _, name := range names {
		fn, ok := globals[name].(*starlark.Function)
		if ok && !strings.HasPrefix(name, "_") && fn.Position().Filename() == file {
			found = append(found, helper{name: name, signature: signature(fn), doc: cleandoc(fn.Doc()), file: file})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		return lineOf(globals[found[i].name]) < lineOf(globals[found[j].name])
	})
	for name, v := range globals {
		r.Globals[name] = v
	}
	r.helperLog.loaded(file, globals)
	r.helpers = append(r.helpers, found...)
	return nil
}

// cleandoc trims a docstring like Python's inspect.cleandoc: the common
// indentation of the lines after the first is removed, and leading and
// trailing blank lines are dropped.
func cleandoc(doc string) string {
	lines := strings.Split(strings.ReplaceAll(doc, "\t", "    "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		if t := strings.TrimLeft(l, " "); t != "" {
			if n := len(l) - len(t); indent < 0 || n < indent {
				indent = n
			}
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		if indent > 0 && len(lines[i]) >= indent {
			lines[i] = lines[i][indent:]
		}
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

func lineOf(v starlark.Value) int32 {
	if fn, ok := v.(*starlark.Function); ok {
		return fn.Position().Line
	}
	return 0
}

// signature renders a function's parameters as they are declared. Starlark
// orders them: positional, keyword-only, *args, **kwargs.
func signature(fn *starlark.Function) string {
	n, kwonly := fn.NumParams(), fn.NumKwonlyParams()
	npos := n - kwonly - boolInt(fn.HasVarargs()) - boolInt(fn.HasKwargs())
	param := func(i int) string {
		name, _ := fn.Param(i)
		if d := fn.ParamDefault(i); d != nil {
			name += "=" + d.String()
		}
		return name
	}
	var params []string
	for i := 0; i < npos; i++ {
		params = append(params, param(i))
	}
	if fn.HasVarargs() {
		name, _ := fn.Param(npos + kwonly)
		params = append(params, "*"+name)
	} else if kwonly > 0 {
		params = append(params, "*")
	}
	for i := npos; i < npos+kwonly; i++ {
		params = append(params, param(i))
	}
	if fn.HasKwargs() {
		name, _ := fn.Param(n - 1)
		params = append(params, "**"+name)
	}
	return fn.Name() + "(" + strings.Join(params, ", ") + ")"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// loadInfo is what other goroutines may ask about the loaded helpers
// without waiting for a running call.
type loadInfo struct {
	functions map[string]string
	errors    []string
}

// publish records the current helpers and load errors for Functions and
// LoadErrors.
func (r *interp) publish() {
	info := &loadInfo{functions: map[string]string{}, errors: append([]string(nil), r.loadErrors...)}
	for _, f := range replFunctions {
		if r.hasMount(f.mount) {
			info.functions[f.name] = f.signature
		}
	}
	for _, h := range r.helpers {
		info.functions[h.name] = h.signature
	}
	r.info.Store(info)
}

// Functions returns the REPL functions and loaded public helpers by name,
// each with its signature, so a tool call naming one can be answered with a
// pointer to call it in REPL code. It does not wait for a running call.
func (r *REPL) Functions() map[string]string {
	out := map[string]string{}
	for k, v := range r.current().loadedInfo().functions {
		out[k] = v
	}
	return out
}

// LoadErrors returns one message per helper file that failed to load in the
// current interpreter (after New or a state reset).
func (r *REPL) LoadErrors() []string {
	return append([]string(nil), r.current().loadedInfo().errors...)
}

// CheckHelpers loads $home/replib/*.star in a throwaway REPL over an empty
// temporary repository and returns one message per file that failed to
// load (harness doctor uses it).
func CheckHelpers(home string) ([]string, error) {
	dir, err := os.MkdirTemp("", "harness-replib-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	root, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadOnly })
	if err != nil {
		return nil, err
	}
	defer root.Close()
	r, err := New(Options{Repository: root, Home: home, RepoDir: dir})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.LoadErrors(), nil
}

// helperCache keeps the pre-pass of helper files, which every new REPL
// loads again unchanged.
var helperCache struct {
	sync.Mutex
	m map[string]*rewrite.Prepassed
}

func helperPrepass(src string) (*rewrite.Prepassed, error) {
	helperCache.Lock()
	out, ok := helperCache.m[src]
	helperCache.Unlock()
	if ok {
		return out, nil
	}
	out, err := rewrite.Prepass(src)
	if err != nil {
		return nil, err
	}
	helperCache.Lock()
	if helperCache.m == nil || len(helperCache.m) > 256 {
		helperCache.m = map[string]*rewrite.Prepassed{}
	}
	helperCache.m[src] = out
	helperCache.Unlock()
	return out, nil
}
