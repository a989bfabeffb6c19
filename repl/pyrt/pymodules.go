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
		"re":       func(r *Interp) starlark.Value { return r.Globals["re"] },
		"time":     (*Interp).TimeModule,
		"datetime": (*Interp).datetimeModule,
		"io":       (*Interp).ioModule,
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
		return nil, &PyError{&PyException{Typ: excModuleNotFound, Args: starlark.Tuple{starlark.String(name)}, Text: text}}
	}
	m := make(r)
	r.Modules[name] = m
	return m, nil
}

func NewModule(name string, members starlark.StringDict) *starlarkstruct.Module {
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
	case *SysModule:
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
		return NewModule("__future__", nil), nil
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
		return nil, &PyError{&PyException{Typ: excImport, Text: "relative imports (from " + name + " import ...) have no package to import from in the REPL"}}
	}
	m, err := r.Module(name)
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, 0, len(args)-1)
	for _, a := range args[1:] {
		member := string(a.(starlark.String))
		v, err := ModuleMember(m, member)
		if err != nil {
			if sub, err2 := r.Module(name + "." + member); err2 == nil {
				v, err = sub, nil
			}
		}
		if err != nil {
			return nil, &PyError{&PyException{Typ: excImport, Text: "cannot import name '" + member + "' from '" + name + "' (the REPL's " + name + " has: " + strings.Join(PublicNames(m), ", ") + ")"}}
		}
		out = append(out, v)
	}
	return starlark.NewList(out), nil
}

func ModuleMember(m starlark.Value, name string) (starlark.Value, error) {
	if h, ok := m.(starlark.HasAttrs); ok {
		v, err := h.Attr(name)
		if err == nil && v != nil {
			return v, nil
		}
	}
	return nil, PyErrorf(ExcAttribute, "module has no attribute '%s'", name)
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
		v, _ := ModuleMember(m, n)
		r.Globals[n] = v
	}
	return starlark.None, nil
}

// unavailable stands for a member the REPL deliberately does not provide
// (os.environ): using it raises an error saying why.
type Unavailable struct{ ModName, Why string }

func (u *Unavailable) String() string        { return "<" + u.ModName + ": not available>" }
func (u *Unavailable) Type() string          { return "unavailable" }
func (u *Unavailable) Freeze()               {}
func (u *Unavailable) Truth() starlark.Bool  { return true }
func (u *Unavailable) Hash() (uint32, error) { return 0, u.Err() }
func (u *Unavailable) Err() error {
	return PyErrorf(ExcNotImplemented, "%s is not available in this REPL: %s", u.ModName, u.Why)
}
func (u *Unavailable) AttrNames() []string { return nil }
func (u *Unavailable) Attr(string) (starlark.Value, error) {
	return nil, u.Err()
}
func (u *Unavailable) Get(starlark.Value) (starlark.Value, bool, error) { return nil, false, u.Err() }
func (u *Unavailable) CallInternal(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, u.Err()
}
func (u *Unavailable) Name() string { return u.ModName }

// builtin wraps a Go function as a module member called module.name.
func Builtin(name string, f BuiltinFunc) *starlark.Builtin { return starlark.NewBuiltin(name, f) }
