// import: the Python modules the REPL provides, built once per
// interpreter when first imported.

package pyrt

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// moduleMakers build the importable modules; each is documented in help().
var ModuleMakers map[string]func(r *Interp) starlark.Value

func init() {
	ModuleMakers = map[string]func(r *Interp) starlark.Value{
		"json":            (*Interp).JsonModule,
		"re":              func(r *Interp) starlark.Value { return r.Globals["re"] },
		"math":            (*Interp).MathModule,
		"time":            (*Interp).TimeModule,
		"datetime":        (*Interp).datetimeModule,
		"os":              (*Interp).osModule,
		"os.path":         (*Interp).osPathModule,
		"pathlib":         (*Interp).pathlibModule,
		"glob":            (*Interp).globModule,
		"subprocess":      (*Interp).subprocessModule,
		"shutil":          (*Interp).shutilModule,
		"collections":     (*Interp).collectionsModule,
		"itertools":       (*Interp).itertoolsModule,
		"functools":       (*Interp).functoolsModule,
		"textwrap":        (*Interp).textwrapModule,
		"string":          (*Interp).stringModule,
		"sys":             (*Interp).sysModule,
		"random":          (*Interp).randomModule,
		"hashlib":         (*Interp).hashlibModule,
		"base64":          (*Interp).base64Module,
		"fnmatch":         (*Interp).fnmatchModule,
		"csv":             (*Interp).csvModule,
		"pprint":          (*Interp).pprintModule,
		"typing":          (*Interp).typingModule,
		"statistics":      (*Interp).statisticsModule,
		"heapq":           (*Interp).heapqModule,
		"bisect":          (*Interp).bisectModule,
		"copy":            (*Interp).copyModule,
		"operator":        (*Interp).operatorModule,
		"io":              (*Interp).ioModule,
		"collections.abc": (*Interp).typingModule,
		"dataclasses":     (*Interp).dataclassesModule,
		"tomllib":         (*Interp).tomllibModule,
		"abc":             (*Interp).abcModule,
		"struct":          (*Interp).structModule,
		"binascii":        (*Interp).binasciiModule,
		"zlib":            (*Interp).zlibModule,
		"gzip":            (*Interp).gzipModule,
		"zipfile":         (*Interp).zipfileModule,
		"difflib":         (*Interp).difflibModule,
		"shlex":           (*Interp).shlexModule,
		"html":            (*Interp).htmlModule,
		"enum":            (*Interp).enumModule,
		"contextlib":      (*Interp).contextlibModule,
		"ast":             (*Interp).astModule,
		"traceback":       (*Interp).tracebackModule,
		"warnings":        (*Interp).warningsModule,
		"logging":         (*Interp).loggingModule,
		"tempfile":        (*Interp).tempfileModule,
		"argparse":        (*Interp).argparseModule,
		"fractions":       (*Interp).fractionsModule,
		"inspect":         (*Interp).inspectModule,
		"types":           (*Interp).typesModule,
		"configparser":    (*Interp).configparserModule,
		"decimal":         (*Interp).decimalModule,
		"calendar":        (*Interp).calendarModule,
		"uuid":            (*Interp).uuidModule,
		"secrets":         (*Interp).secretsModule,
		"tarfile":         (*Interp).tarfileModule,
	}
}

// moduleHints say what to use instead of modules models often import.
var moduleHints = map[string]string{
	"unittest": `assert statements, or the project's tests through run(["go", "test", "./..."]) or run(["python3", "-m", "pytest"])`,
	"yaml":     "json or tomllib for configuration files; YAML needs a command through run()",
	"numpy":    "lists with math, statistics and sum/min/max", "pandas": "lists of dicts with csv, statistics and sorted",
	"requests": `a command through run(["curl", "-sS", url]) (needs approval)`, "urllib": `a command through run(["curl", "-sS", url]) (needs approval)`,
}

// moduleList is the sorted names of the importable modules.
func ModuleList() []string {
	var names []string
	for n := range ModuleMakers {
		if n != "collections.abc" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// module returns the module called name, building it on first use.
func (r *Interp) Module(name string) (starlark.Value, error) {
	if m, ok := r.Modules[name]; ok {
		return m, nil
	}
	make, ok := ModuleMakers[name]
	if !ok {
		r.Host.CallOf().NoteUnsupported("import " + name + ": module not available")
		text := "module " + name + " is not available in this REPL; "
		if hint, ok := moduleHints[strings.Split(name, ".")[0]]; ok {
			text += "use " + hint
		} else {
			text += "available: " + strings.Join(ModuleList(), ", ")
		}
		return nil, &pyError{&PyException{Typ: excModuleNotFound, args: starlark.Tuple{starlark.String(name)}, text: text}}
	}
	m := make(r)
	r.Modules[name] = m
	return m, nil
}

func newModule(name string, members starlark.StringDict) *starlarkstruct.Module {
	if members == nil {
		members = starlark.StringDict{}
	}
	if _, ok := members["__name__"]; !ok {
		members["__name__"] = starlark.String(name) // module.__name__, as programs read it
	}
	return &starlarkstruct.Module{Name: name, Members: members}
}

// AsModule returns the module v is: a plain one, or sys (whose argv can
// be assigned).
func AsModule(v starlark.Value) (*starlarkstruct.Module, bool) {
	switch m := v.(type) {
	case *starlarkstruct.Module:
		return m, true
	case *sysModule:
		return m.Module, true
	}
	return nil, false
}

// pyImport is import name [as x]: full binds the named module, otherwise
// the first component (after checking the whole path exists).
func (r *Interp) pyImport(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name := string(args[0].(starlark.String))
	full := len(args) > 1 && bool(args[1].Truth())
	if name == "__future__" {
		return newModule("__future__", nil), nil
	}
	m, err := r.Module(name)
	if err != nil {
		return nil, err
	}
	if !full && strings.Contains(name, ".") {
		return r.Module(name[:strings.IndexByte(name, '.')])
	}
	return m, nil
}

// pyFrom is from module import a, b: the list of the named members.
func (r *Interp) pyFrom(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name := string(args[0].(starlark.String))
	if strings.HasPrefix(name, ".") {
		return nil, &pyError{&PyException{Typ: excImport, text: "relative imports (from " + name + " import ...) have no package to import from in the REPL"}}
	}
	m, err := r.Module(name)
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, 0, len(args)-1)
	for _, a := range args[1:] {
		member := string(a.(starlark.String))
		v, err := moduleMember(m, member)
		if err != nil {
			if sub, err2 := r.Module(name + "." + member); err2 == nil {
				v, err = sub, nil
			}
		}
		if err != nil {
			return nil, &pyError{&PyException{Typ: excImport, text: "cannot import name '" + member + "' from '" + name + "' (the REPL's " + name + " has: " + strings.Join(PublicNames(m), ", ") + ")"}}
		}
		out = append(out, v)
	}
	return starlark.NewList(out), nil
}

func moduleMember(m starlark.Value, name string) (starlark.Value, error) {
	if h, ok := m.(starlark.HasAttrs); ok {
		v, err := h.Attr(name)
		if err == nil && v != nil {
			return v, nil
		}
	}
	return nil, pyErrorf(ExcAttribute, "module has no attribute '%s'", name)
}

func PublicNames(m starlark.Value) []string {
	var out []string
	if h, ok := m.(starlark.HasAttrs); ok {
		for _, n := range h.AttrNames() {
			if !strings.HasPrefix(n, "_") {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// pyImportStar is from module import *; the driver runs it between chunks.
func (r *Interp) pyImportStar(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	m, err := r.Module(string(args[0].(starlark.String)))
	if err != nil {
		return nil, err
	}
	for _, n := range PublicNames(m) {
		v, _ := moduleMember(m, n)
		r.Globals[n] = v
	}
	return starlark.None, nil
}

// unavailable stands for a member the REPL deliberately does not provide
// (os.environ): using it raises an error saying why.
type unavailable struct{ name, why string }

func (u *unavailable) String() string        { return "<" + u.name + ": not available>" }
func (u *unavailable) Type() string          { return "unavailable" }
func (u *unavailable) Freeze()               {}
func (u *unavailable) Truth() starlark.Bool  { return true }
func (u *unavailable) Hash() (uint32, error) { return 0, u.err() }
func (u *unavailable) err() error {
	return pyErrorf(excNotImplemented, "%s is not available in this REPL: %s", u.name, u.why)
}
func (u *unavailable) AttrNames() []string { return nil }
func (u *unavailable) Attr(string) (starlark.Value, error) {
	return nil, u.err()
}
func (u *unavailable) Get(starlark.Value) (starlark.Value, bool, error) { return nil, false, u.err() }
func (u *unavailable) CallInternal(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, u.err()
}
func (u *unavailable) Name() string { return u.name }

// builtin wraps a Go function as a module member called module.name.
func builtin(name string, f BuiltinFunc) *starlark.Builtin { return starlark.NewBuiltin(name, f) }
