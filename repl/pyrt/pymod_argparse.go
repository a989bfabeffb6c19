//go:build ignore

// Draft, not built: the parser object, Namespace, the parse loop and help
// formatting are still to write.

// argparse: ArgumentParser with CPython 3.11's parsing algorithm (option
// and positional patterns matched against the nargs regexes), its error
// messages ("usage: ..." then "prog: error: ...", SystemExit(2)), help
// text (pymod_argparse_help.go) and Namespace results.

package pyrt

import (
	"path"
	"strings"

	"go.starlark.net/starlark"
)

var (
	excArgumentError     = &excType{name: "ArgumentError", module: "argparse", base: excException}
	excArgumentTypeError = &excType{name: "ArgumentTypeError", module: "argparse", base: excException}
	argparseSuppress     = starlark.String("==SUPPRESS==")
)

// argAction is one add_argument: an argparse.Action.
type argAction struct {
	kind        string // store, store_const, store_true, store_false, append, append_const, count, help, version, extend, parsers
	options     []string
	dest        string
	nargs       starlark.Value // None, "?", "*", "+", "...", "A...", "==SUPPRESS==" or an int
	constV      starlark.Value
	defaultV    starlark.Value
	typ         starlark.Value
	choices     starlark.Value
	required    bool
	help        starlark.Value
	metavar     starlark.Value
	version     string
	subparsers  *subparsersInfo
	pseudoChild bool // a subparser's line in help
}

func (a *argAction) nargsIs(s string) bool {
	n, ok := a.nargs.(starlark.String)
	return ok && string(n) == s
}

func (a *argAction) takesNone() bool {
	if i, ok := a.nargs.(starlark.Int); ok {
		n, _ := i.Int64()
		return n == 0
	}
	return false
}

type argGroup struct {
	title, description starlark.Value
	actions            []*argAction
	exclusive          bool
	required           bool
	parser             *argParser
}

type subparsersInfo struct {
	names   []string
	parsers map[string]*argParser
	aliases map[string]string
	helps   []*argAction
	prog    string
}

// argParser is an ArgumentParser.
type argParser struct {
	r                         *interp
	prog                      string
	usage, description, epilg starlark.Value
	formatter                 string // "", "raw_description", "raw_text", "defaults"
	actions                   []*argAction
	groups                    []*argGroup // the action groups, positional and options first
	exclusive                 []*argGroup
	defaults                  [][2]starlark.Value
	exitOnError, allowAbbrev  bool
	subparsers                *argAction
}

func (r *interp) argparseModule() starlark.Value {
	ns := r.namespaceType()
	parserType := &pyType{name: "ArgumentParser", module: "argparse"}
	parserType.call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return r.newArgParser(thread, args, kw)
	}
	marker := func(name string) *pyType { return &pyType{name: name, module: "argparse"} }
	return newModule("argparse", starlark.StringDict{
		"ArgumentParser": parserType, "Namespace": ns,
		"ArgumentError": excArgumentError, "ArgumentTypeError": excArgumentTypeError,
		"SUPPRESS": argparseSuppress, "OPTIONAL": starlark.String("?"), "ZERO_OR_MORE": starlark.String("*"),
		"ONE_OR_MORE": starlark.String("+"), "REMAINDER": starlark.String("..."),
		"HelpFormatter": marker("HelpFormatter"), "RawDescriptionHelpFormatter": marker("RawDescriptionHelpFormatter"),
		"RawTextHelpFormatter": marker("RawTextHelpFormatter"), "ArgumentDefaultsHelpFormatter": marker("ArgumentDefaultsHelpFormatter"),
		"FileType": &unavailable{name: "argparse.FileType", why: "take a path (type=str) and open it with open() or pathlib"},
	})
}

func (r *interp) newArgParser(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (*argParser, error) {
	var prog, usage, desc, epilog, fmtClass, parents, prefix, argDefault, conflict, fromfile starlark.Value = starlark.None, starlark.None,
		starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	addHelp, exitOnError, allowAbbrev := true, true, true
	if err := starlark.UnpackArgs("ArgumentParser", args, kw, "prog?", &prog, "usage?", &usage, "description?", &desc, "epilog?", &epilog,
		"parents?", &parents, "formatter_class?", &fmtClass, "prefix_chars?", &prefix, "fromfile_prefix_chars?", &fromfile,
		"argument_default?", &argDefault, "conflict_handler?", &conflict, "add_help?", &addHelp, "allow_abbrev?", &allowAbbrev,
		"exit_on_error?", &exitOnError); err != nil {
		return nil, err
	}
	if prefix != starlark.None && pyStr(prefix) != "-" {
		return nil, pyErrorf(excNotImplemented, "argparse here takes options that start with '-' only (prefix_chars='-')")
	}
	p := &argParser{r: r, usage: usage, description: desc, epilg: epilog, exitOnError: exitOnError, allowAbbrev: allowAbbrev}
	if prog != starlark.None {
		p.prog = pyStr(prog)
	} else {
		p.prog = r.scriptName()
	}
	if t, ok := fmtClass.(*pyType); ok {
		p.formatter = map[string]string{"RawDescriptionHelpFormatter": "raw_description", "RawTextHelpFormatter": "raw_text",
			"ArgumentDefaultsHelpFormatter": "defaults"}[t.name]
	}
	p.groups = []*argGroup{{title: starlark.String("positional arguments"), parser: p}, {title: starlark.String("options"), parser: p}}
	if addHelp {
		p.addAction(&argAction{kind: "help", options: []string{"-h", "--help"}, dest: "help", nargs: starlark.MakeInt(0),
			defaultV: argparseSuppress, help: starlark.String("show this help message and exit")}, nil)
	}
	if parents != starlark.None {
		ps, err := listOf(parents)
		if err != nil {
			return nil, err
		}
		for _, pv := range ps {
			if pp, ok := pv.(*argParser); ok {
				for _, a := range pp.actions {
					if a.kind != "help" {
						p.addAction(a, nil)
					}
				}
				p.defaults = append(p.defaults, pp.defaults...)
			}
		}
	}
	return p, nil
}

// scriptName is the default prog: the base name of sys.argv[0].
func (r *interp) scriptName() string {
	if m, err := r.module("sys"); err == nil {
		if argv, err := moduleMember(m, "argv"); err == nil {
			if l, ok := argv.(*starlark.List); ok && l.Len() > 0 {
				return path.Base(pyStr(l.Index(0)))
			}
		}
	}
	return ""
}

func (p *argParser) addAction(a *argAction, g *argGroup) {
	p.actions = append(p.actions, a)
	if g == nil || g.exclusive {
		if len(a.options) > 0 {
			g2 := p.groups[1]
			if g != nil && g.exclusive && g.parser != nil && g.title != nil {
				g2 = g
			}
			g2.actions = append(g2.actions, a)
		} else {
			p.groups[0].actions = append(p.groups[0].actions, a)
		}
		if g != nil && g.exclusive {
			g.actions = append(g.actions, a)
		}
		return
	}
	g.actions = append(g.actions, a)
}

// addArgument is add_argument(*names, **options) into group g (nil: the
// parser's default groups).
func (p *argParser) addArgument(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple, g *argGroup) (starlark.Value, error) {
	a := &argAction{kind: "store", nargs: starlark.None, constV: starlark.None, defaultV: starlark.None, typ: starlark.None,
		choices: starlark.None, help: starlark.None, metavar: starlark.None}
	for _, v := range args {
		s, ok := v.(starlark.String)
		if !ok {
			return nil, pyErrorf(excTypeError, "add_argument() names must be strings")
		}
		a.options = append(a.options, string(s))
	}
	positional := len(a.options) > 0 && !strings.HasPrefix(a.options[0], "-")
	if len(a.options) == 0 {
		return nil, pyErrorf(excTypeError, "add_argument() missing required argument: 'dest'")
	}
	var dest string
	hasDefault, hasRequired, hasNargs := false, false, false
	for _, kv := range kw {
		k, v := string(kv[0].(starlark.String)), kv[1]
		switch k {
		case "action":
			a.kind = pyStr(v)
		case "nargs":
			a.nargs, hasNargs = v, true
		case "const":
			a.constV = v
		case "default":
			a.defaultV, hasDefault = v, true
		case "type":
			a.typ = v
		case "choices":
			a.choices = v
		case "required":
			a.required, hasRequired = bool(v.Truth()), true
		case "help":
			a.help = v
		case "metavar":
			a.metavar = v
		case "dest":
			dest = pyStr(v)
		case "version":
			a.version = pyStr(v)
		default:
			return nil, pyErrorf(excTypeError, "add_argument() got an unexpected keyword argument '%s'", k)
		}
	}
	if positional {
		if len(a.options) > 1 || dest != "" {
			return nil, pyErrorf(excValueError, "dest supplied twice for positional argument")
		}
		a.dest, a.options = a.options[0], nil
		if !hasNargs || !(a.nargsIs("?") || a.nargsIs("*")) || a.nargsIs("*") && !hasDefault {
			a.required = true
		}
		if hasRequired {
			return nil, pyErrorf(excTypeError, "'required' is an invalid argument for positionals")
		}
	} else {
		a.dest = dest
		if dest == "" {
			first := a.options[0]
			for _, o := range a.options {
				if strings.HasPrefix(o, "--") {
					first = o
					break
				}
			}
			a.dest = strings.ReplaceAll(strings.TrimLeft(first, "-"), "-", "_")
		}
	}
	switch a.kind {
	case "store", "append", "extend":
		if a.takesNone() {
			return nil, pyErrorf(excValueError, "nargs for store actions must be != 0; if you have nothing to store, actions such as store true or store const may be more appropriate")
		}
	case "store_const", "append_const":
		a.nargs = starlark.MakeInt(0)
	case "store_true", "store_false":
		a.nargs, a.constV = starlark.MakeInt(0), starlark.Bool(a.kind == "store_true")
		if !hasDefault {
			a.defaultV = starlark.Bool(a.kind == "store_false")
		}
	case "count", "help", "version":
		a.nargs = starlark.MakeInt(0)
		if a.kind == "help" && !hasDefault {
			a.defaultV = argparseSuppress
		}
		if a.kind == "version" {
			if !hasDefault {
				a.defaultV = argparseSuppress
			}
			if a.help == starlark.None {
				a.help = starlark.String("show program's version number and exit")
			}
		}
	default:
		return nil, pyErrorf(excValueError, "unknown action \"%s\"", a.kind)
	}
	if a.typ != starlark.None {
		if _, ok := a.typ.(starlark.Callable); !ok {
			return nil, pyErrorf(excValueError, "%s is not callable", pyRepr(a.typ))
		}
	}
	for _, o := range a.options {
		if prev := p.optionAction(o); prev != nil {
			return nil, &pyError{&pyException{typ: excArgumentError, text: "argument " + strings.Join(a.options, "/") + ": conflicting option string: " + o}}
		}
	}
	for _, d := range p.defaults {
		if pyStr(d[0]) == a.dest {
			a.defaultV = d[1]
		}
	}
	p.addAction(a, g)
	return &argActionValue{a}, nil
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

// argActionValue is what add_argument returns.
type argActionValue struct{ a *argAction }

func (v *argActionValue) String() string {
	a := v.a
	opts := make([]string, len(a.options))
	for i, o := range a.options {
		opts[i] = pyRepr(starlark.String(o))
	}
	return "_" + strings.ToUpper(a.kind[:1]) + a.kind[1:] + "Action(option_strings=[" + strings.Join(opts, ", ") + "], dest=" + pyRepr(starlark.String(a.dest)) + ", nargs=" + pyRepr(a.nargs) + ", const=" + pyRepr(a.constV) + ", default=" + pyRepr(a.defaultV) + ", type=" + pyRepr(a.typ) + ", choices=" + pyRepr(a.choices) + ", required=" + pyRepr(starlark.Bool(a.required)) + ", help=" + pyRepr(a.help) + ", metavar=" + pyRepr(a.metavar) + ")"
}
func (v *argActionValue) Type() string          { return "Action" }
func (v *argActionValue) Freeze()               {}
func (v *argActionValue) Truth() starlark.Bool  { return true }
func (v *argActionValue) Hash() (uint32, error) { return 0, nil }
func (v *argActionValue) AttrNames() []string {
	return []string{"choices", "const", "default", "dest", "help", "metavar", "nargs", "option_strings", "required", "type"}
}
func (v *argActionValue) Attr(name string) (starlark.Value, error) {
	a := v.a
	switch name {
	case "dest":
		return starlark.String(a.dest), nil
	case "option_strings":
		return starlark.NewList(toTuple(a.options)), nil
	case "nargs":
		return a.nargs, nil
	case "const":
		return a.constV, nil
	case "default":
		return a.defaultV, nil
	case "type":
		return a.typ, nil
	case "choices":
		return a.choices, nil
	case "required":
		return starlark.Bool(a.required), nil
	case "help":
		return a.help, nil
	case "metavar":
		return a.metavar, nil
	}
	return nil, nil
}

func (v *argActionValue) SetField(name string, x starlark.Value) error {
	switch name {
	case "default":
		v.a.defaultV = x
	case "help":
		v.a.help = x
	case "required":
		v.a.required = bool(x.Truth())
	default:
		return pyErrorf(excAttribute, "cannot set %s of an argparse action here", name)
	}
	return nil
}
