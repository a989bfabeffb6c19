// argparse: ArgumentParser with CPython 3.11's parsing algorithm (option
// and positional patterns matched against the nargs regexes,
// argparse_parse.go), its error messages ("usage: ..." then
// "prog: error: ...", SystemExit(2)), help text (argparse_help.go)
// and Namespace results (argparse_values.go). A REPL call has no
// command line: parse_args() with no list parses [], as sys.argv[1:] is.

package pytext

import (
	"path"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var (
	excArgumentError     = &pyrt.ExcType{TypeName: "ArgumentError", Module: "argparse", Base: pyrt.ExcException}
	excArgumentTypeError = &pyrt.ExcType{TypeName: "ArgumentTypeError", Module: "argparse", Base: pyrt.ExcException}
	argparseSuppress     = starlark.String("==SUPPRESS==")
	argParserType        = &pyrt.PyType{TypeName: "ArgumentParser", Module: "argparse"}
	argNamespaceType     = &pyrt.PyType{TypeName: "Namespace", Module: "argparse"}
)

// argAction is one add_argument: an argparse.Action.
type argAction struct {
	kind       string // store, store_const, store_true, store_false, append, append_const, count, help, version, extend, parsers
	options    []string
	dest       string
	nargs      starlark.Value // None, "?", "*", "+", "...", "A...", "==SUPPRESS==" or an int
	constV     starlark.Value
	defaultV   starlark.Value
	typ        starlark.Value
	choices    starlark.Value
	required   bool
	help       starlark.Value
	metavar    starlark.Value
	version    starlark.Value
	sub        *subparsersInfo // kind "parsers"
	subActions []*argAction    // a parsers action's lines in help
}

func (a *argAction) nargsIs(s string) bool {
	n, ok := a.nargs.(starlark.String)
	return ok && string(n) == s
}

// nargsInt returns nargs when it is an int.
func (a *argAction) nargsInt() (int, bool) {
	if i, ok := a.nargs.(starlark.Int); ok {
		n, _ := i.Int64()
		return int(n), true
	}
	return 0, false
}

func (a *argAction) takesNone() bool {
	n, ok := a.nargsInt()
	return ok && n == 0
}

func (a *argAction) helpSuppressed() bool { return a.help == argparseSuppress }

// argGroup is an argument group (titled) or a mutually exclusive group.
type argGroup struct {
	title, description starlark.Value
	actions            []*argAction
	exclusive          bool
	required           bool
	parser             *argParser
	container          *argGroup // a mutually exclusive group's container (nil: the parser)
}

type subparsersInfo struct {
	names   []string // the choices, aliases included, in order
	parsers map[string]*argParser
	prog    string
	maker   *argParser // the parser add_subparsers was called on
}

// argParser is an ArgumentParser.
type argParser struct {
	r                            *pyrt.Interp
	prog                         string
	usage, description, epilog   starlark.Value
	formatter                    string // "", "raw_description", "raw_text", "defaults"
	formatterClass               starlark.Value
	actions                      []*argAction
	groups                       []*argGroup // the action groups, positionals and options first
	exclusive                    []*argGroup
	defaultKeys                  []string
	defaults                     map[string]starlark.Value
	argumentDefault              starlark.Value
	addHelp, exitOnError, abbrev bool
	subparsers                   *argAction
	subGroup                     *argGroup
	negativeOptions              bool
}

func argparseModule(r *pyrt.Interp) starlark.Value {
	argParserType.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return newArgParser(r, args, kw)
	}
	argNamespaceType.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Namespace.__init__() takes 1 positional argument but %d were given", len(args)+1)
		}
		ns := newArgNamespace()
		for _, kv := range kw {
			_ = ns.d.SetKey(kv[0], kv[1])
		}
		return ns, nil
	}
	marker := func(name string) *pyrt.PyType { return &pyrt.PyType{TypeName: name, Module: "argparse"} }
	return pyrt.NewModule("argparse", starlark.StringDict{
		"ArgumentParser": argParserType, "Namespace": argNamespaceType,
		"ArgumentError": excArgumentError, "ArgumentTypeError": excArgumentTypeError,
		"SUPPRESS": argparseSuppress, "OPTIONAL": starlark.String("?"), "ZERO_OR_MORE": starlark.String("*"),
		"ONE_OR_MORE": starlark.String("+"), "REMAINDER": starlark.String("..."), "PARSER": starlark.String("A..."),
		"HelpFormatter": marker("HelpFormatter"), "RawDescriptionHelpFormatter": marker("RawDescriptionHelpFormatter"),
		"RawTextHelpFormatter": marker("RawTextHelpFormatter"), "ArgumentDefaultsHelpFormatter": marker("ArgumentDefaultsHelpFormatter"),
		"MetavarTypeHelpFormatter": marker("MetavarTypeHelpFormatter"),
		"FileType":                 &pyrt.Unavailable{ModName: "argparse.FileType", Why: "take a path (type=str) and open it with open() or pathlib"},
		"BooleanOptionalAction":    &pyrt.Unavailable{ModName: "argparse.BooleanOptionalAction", Why: "two options, --x (action='store_true') and --no-x (action='store_false', dest='x')"},
	})
}

func newArgParser(r *pyrt.Interp, args starlark.Tuple, kw []starlark.Tuple) (*argParser, error) {
	var prog, usage, desc, epilog, fmtClass, parents, prefix, argDefault, conflict, fromfile starlark.Value = starlark.None, starlark.None,
		starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	addHelp, exitOnError, allowAbbrev := true, true, true
	if err := pyrt.UnpackArgs("ArgumentParser", args, kw, "prog?", &prog, "usage?", &usage, "description?", &desc, "epilog?", &epilog,
		"parents?", &parents, "formatter_class?", &fmtClass, "prefix_chars?", &prefix, "fromfile_prefix_chars?", &fromfile,
		"argument_default?", &argDefault, "conflict_handler?", &conflict, "add_help?", &addHelp, "allow_abbrev?", &allowAbbrev,
		"exit_on_error?", &exitOnError); err != nil {
		return nil, err
	}
	if prefix != starlark.None && pyrt.PyStr(prefix) != "-" {
		return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "argparse here takes options that start with '-' only (prefix_chars='-')")
	}
	if fromfile != starlark.None {
		return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "fromfile_prefix_chars is not supported here: read the file and pass its lines to parse_args")
	}
	if conflict != starlark.None && pyrt.PyStr(conflict) != "error" {
		return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "conflict_handler=%s is not supported here: give each option once", pyrt.PyRepr(conflict))
	}
	p := &argParser{r: r, usage: usage, description: desc, epilog: epilog, exitOnError: exitOnError, abbrev: allowAbbrev,
		addHelp: addHelp, argumentDefault: argDefault, defaults: map[string]starlark.Value{}, formatterClass: fmtClass}
	if prog != starlark.None {
		p.prog = pyrt.PyStr(prog)
	} else {
		p.prog = scriptName(r)
	}
	if t, ok := fmtClass.(*pyrt.PyType); ok {
		p.formatter = map[string]string{"RawDescriptionHelpFormatter": "raw_description", "RawTextHelpFormatter": "raw_text",
			"ArgumentDefaultsHelpFormatter": "defaults", "MetavarTypeHelpFormatter": "metavar_type"}[t.TypeName]
	}
	p.groups = []*argGroup{{title: starlark.String("positional arguments"), description: starlark.None, parser: p},
		{title: starlark.String("options"), description: starlark.None, parser: p}}
	if addHelp {
		if _, err := p.addArgument(starlark.Tuple{starlark.String("-h"), starlark.String("--help")}, []starlark.Tuple{
			{starlark.String("action"), starlark.String("help")}, {starlark.String("default"), argparseSuppress},
			{starlark.String("help"), starlark.String("show this help message and exit")}}, nil); err != nil {
			return nil, err
		}
	}
	if parents != starlark.None {
		if err := p.addParents(parents); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// addParents copies the actions, groups and defaults of the parent parsers.
func (p *argParser) addParents(parents starlark.Value) error {
	ps, err := pyrt.ListOf(parents)
	if err != nil {
		return err
	}
	for _, pv := range ps {
		pp, ok := pv.(*argParser)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute '_action_groups'", pyrt.PyTypeName(pv))
		}
		groupOf := map[*argAction]*argGroup{}
		for _, g := range pp.groups {
			mine := p.groupTitled(g.title)
			if mine == nil {
				mine = &argGroup{title: g.title, description: g.description, parser: p}
				p.groups = append(p.groups, mine)
			}
			for _, a := range g.actions {
				groupOf[a] = mine
			}
		}
		for _, g := range pp.exclusive {
			mg := &argGroup{exclusive: true, required: g.required, parser: p}
			p.exclusive = append(p.exclusive, mg)
			for _, a := range g.actions {
				groupOf[a] = mg
			}
		}
		for _, a := range pp.actions {
			if err := p.addAction(a, groupOf[a]); err != nil {
				return err
			}
		}
		for _, k := range pp.defaultKeys {
			p.setDefault(k, pp.defaults[k])
		}
	}
	return nil
}

func (p *argParser) groupTitled(title starlark.Value) *argGroup {
	for _, g := range p.groups {
		if eq, _ := starlark.Equal(g.title, title); eq {
			return g
		}
	}
	return nil
}

func (p *argParser) setDefault(k string, v starlark.Value) {
	if _, ok := p.defaults[k]; !ok {
		p.defaultKeys = append(p.defaultKeys, k)
	}
	p.defaults[k] = v
}

// scriptName is the default prog: the base name of sys.argv[0].
func scriptName(r *pyrt.Interp) string {
	if m, err := r.Module("sys"); err == nil {
		if argv, err := pyrt.ModuleMember(m, "argv"); err == nil {
			if l, ok := argv.(*starlark.List); ok && l.Len() > 0 {
				if s := pyrt.PyStr(l.Index(0)); s != "" {
					return path.Base(s)
				}
			}
		}
	}
	return ""
}

// addAction adds a to group g (nil: the parser's positionals or options),
// as _add_action does after the conflict check.
func (p *argParser) addAction(a *argAction, g *argGroup) error {
	for _, o := range a.options {
		if p.optionAction(o) != nil {
			return argumentError(a, "conflicting option string: "+o)
		}
	}
	if g != nil && g.exclusive {
		if a.required {
			return pyrt.PyErrorf(pyrt.ExcValueError, "mutually exclusive arguments must be optional")
		}
		if err := p.addAction(a, g.container); err != nil {
			return err
		}
		g.actions = append(g.actions, a)
		return nil
	}
	if g == nil {
		g = p.groups[1]
		if len(a.options) == 0 {
			g = p.groups[0]
		}
	}
	p.actions = append(p.actions, a)
	g.actions = append(g.actions, a)
	for _, o := range a.options {
		if negativeNumber(o) {
			p.negativeOptions = true
		}
	}
	return nil
}

func (p *argParser) optionAction(o string) *argAction {
	for _, a := range p.actions {
		for _, x := range a.options {
			if x == o {
				return a
			}
		}
	}
	return nil
}

// newAction is an Action with the defaults of Action.__init__.
func newAction() *argAction {
	return &argAction{kind: "store", nargs: starlark.None, constV: starlark.None, defaultV: starlark.None, typ: starlark.None,
		choices: starlark.None, help: starlark.None, metavar: starlark.None, version: starlark.None}
}

// addArgument is add_argument(*names, **options) into group g (nil: the
// parser's default groups).
func (p *argParser) addArgument(args starlark.Tuple, kw []starlark.Tuple, g *argGroup) (starlark.Value, error) {
	a := newAction()
	for _, v := range args {
		s, ok := v.(starlark.String)
		if !ok || s == "" {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "add_argument() names must be non-empty strings")
		}
		a.options = append(a.options, string(s))
	}
	set, err := a.setOptions(kw)
	if err != nil {
		return nil, err
	}
	if len(a.options) == 0 || len(a.options) == 1 && a.options[0][0] != '-' {
		err = a.positional(set)
	} else {
		err = a.optional(set)
	}
	if err != nil {
		return nil, err
	}
	if !set["default"] {
		if v, ok := p.defaults[a.dest]; ok {
			a.defaultV = v
		} else if p.argumentDefault != starlark.None {
			a.defaultV = p.argumentDefault
		}
	}
	if err := a.checkKind(set); err != nil {
		return nil, err
	}
	if a.typ != starlark.None {
		if _, ok := a.typ.(starlark.Callable); !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "%s is not callable", pyrt.PyRepr(a.typ))
		}
	}
	if t, ok := a.metavar.(starlark.Tuple); ok {
		if n, isInt := a.nargsInt(); !isInt && len(t) != 1 && !a.nargsIs("*") && !a.nargsIs("+") || isInt && n != len(t) || a.nargsIs("*") && len(t) != 1 && len(t) != 2 || a.nargsIs("+") && len(t) != 2 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "length of metavar tuple does not match nargs")
		}
	}
	if err := p.addAction(a, g); err != nil {
		return nil, err
	}
	return &argActionValue{a}, nil
}

// setOptions reads add_argument's keywords; it returns the ones given.
func (a *argAction) setOptions(kw []starlark.Tuple) (map[string]bool, error) {
	set := map[string]bool{}
	fields := map[string]*starlark.Value{"nargs": &a.nargs, "const": &a.constV, "default": &a.defaultV, "type": &a.typ,
		"choices": &a.choices, "help": &a.help, "metavar": &a.metavar, "version": &a.version}
	for _, kv := range kw {
		k, v := string(kv[0].(starlark.String)), kv[1]
		set[k] = true
		if f, ok := fields[k]; ok {
			*f = v
			continue
		}
		switch k {
		case "action":
			s, ok := v.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "action= takes the name of an action here ('store', 'store_true', 'append', 'count', ...); Action subclasses are not supported")
			}
			a.kind = string(s)
		case "required":
			a.required = bool(v.Truth())
		case "dest":
			if v != starlark.None {
				a.dest = pyrt.PyStr(v)
			}
		} // other keywords: checkKind names the action class that refuses them
	}
	if set["dest"] && a.dest == "" {
		set["dest"] = false
	}
	return set, nil
}

func (a *argAction) positional(set map[string]bool) error {
	if len(a.options) == 0 {
		if !set["dest"] {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "_ActionsContainer._get_positional_kwargs() missing 1 required positional argument: 'dest'")
		}
	} else {
		if set["dest"] {
			return pyrt.PyErrorf(pyrt.ExcValueError, "dest supplied twice for positional argument")
		}
		a.dest = a.options[0]
	}
	a.options = nil
	if set["required"] {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "'required' is an invalid argument for positionals")
	}
	if !a.nargsIs("?") && !a.nargsIs("*") || a.nargsIs("*") && !set["default"] {
		a.required = true
	}
	return nil
}

func (a *argAction) optional(set map[string]bool) error {
	var long string
	for _, o := range a.options {
		if o[0] != '-' {
			return pyrt.PyErrorf(pyrt.ExcValueError, "invalid option string %s: must start with a character '-'", pyrt.PyRepr(starlark.String(o)))
		}
		if long == "" && len(o) > 1 && o[1] == '-' {
			long = o
		}
	}
	if set["dest"] {
		return nil
	}
	if long == "" {
		long = a.options[0]
	}
	a.dest = strings.TrimLeft(long, "-")
	if a.dest == "" {
		return pyrt.PyErrorf(pyrt.ExcValueError, "dest= is required for options like %s", pyrt.PyRepr(starlark.String(a.options[len(a.options)-1])))
	}
	a.dest = strings.ReplaceAll(a.dest, "-", "_")
	return nil
}

// allowed are the keywords each action class takes besides
// option_strings, dest, default, required and help.
var argKindKeywords = map[string]string{
	"store": "nargs const type choices metavar", "append": "nargs const type choices metavar", "extend": "nargs const type choices metavar",
	"store_const": "const metavar", "append_const": "const metavar", "store_true": "", "store_false": "", "count": "",
	"help": "", "version": "version",
}

var argKindClass = map[string]string{"store": "_StoreAction", "append": "_AppendAction", "extend": "_ExtendAction",
	"store_const": "_StoreConstAction", "append_const": "_AppendConstAction", "store_true": "_StoreTrueAction",
	"store_false": "_StoreFalseAction", "count": "_CountAction", "help": "_HelpAction", "version": "_VersionAction"}

// checkKind applies the action class's constructor: its keywords, its
// nargs and its defaults.
func (a *argAction) checkKind(set map[string]bool) error {
	allowed, ok := argKindKeywords[a.kind]
	if !ok {
		return pyrt.PyErrorf(pyrt.ExcValueError, "unknown action \"%s\"", a.kind)
	}
	for k := range set {
		switch k {
		case "action", "dest", "default", "required", "help":
			if a.kind != "help" && a.kind != "version" || k != "required" {
				continue
			}
		}
		if !strings.Contains(" "+allowed+" ", " "+k+" ") {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "%s.__init__() got an unexpected keyword argument '%s'", argKindClass[a.kind], k)
		}
	}
	switch a.kind {
	case "store", "append", "extend":
		if a.takesNone() {
			if a.kind == "append" {
				return pyrt.PyErrorf(pyrt.ExcValueError, "nargs for append actions must be != 0; if arg strings are not supplying the value to append, the append const action may be more appropriate")
			}
			return pyrt.PyErrorf(pyrt.ExcValueError, "nargs for store actions must be != 0; if you have nothing to store, actions such as store true or store const may be more appropriate")
		}
		if a.constV != starlark.None && !a.nargsIs("?") {
			return pyrt.PyErrorf(pyrt.ExcValueError, "nargs must be '?' to supply const")
		}
	case "store_true", "store_false":
		a.constV = starlark.Bool(a.kind == "store_true")
		if !set["default"] {
			a.defaultV = starlark.Bool(a.kind == "store_false")
		}
	case "help", "version":
		if !set["dest"] {
			a.dest = string(argparseSuppress)
		}
		if !set["default"] {
			a.defaultV = argparseSuppress
		}
		if a.kind == "version" && !set["help"] {
			a.help = starlark.String("show program's version number and exit")
		}
	}
	if a.kind != "store" && a.kind != "append" && a.kind != "extend" {
		a.nargs = starlark.MakeInt(0)
	}
	return nil
}

// argumentError is ArgumentError(action, message).
func argumentError(a *argAction, msg string) error {
	name := argActionName(a)
	text := msg
	var arg starlark.Value = starlark.None
	if a != nil {
		arg = &argActionValue{a}
	}
	attrs := starlark.StringDict{"message": starlark.String(msg), "argument_name": starlark.None}
	if name != "" {
		text = "argument " + name + ": " + msg
		attrs["argument_name"] = starlark.String(name)
	}
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: excArgumentError, Args: starlark.Tuple{arg, starlark.String(msg)}, Text: text, Attrs: attrs}}
}

// argActionName is _get_action_name.
func argActionName(a *argAction) string {
	switch {
	case a == nil:
		return ""
	case len(a.options) > 0:
		return strings.Join(a.options, "/")
	case a.metavar != starlark.None && a.metavar != argparseSuppress:
		return pyrt.PyStr(a.metavar)
	case a.dest != string(argparseSuppress) && a.dest != "":
		return a.dest
	case a.sub != nil && len(a.sub.names) > 0:
		return "{" + strings.Join(a.sub.names, ",") + "}"
	}
	return ""
}
