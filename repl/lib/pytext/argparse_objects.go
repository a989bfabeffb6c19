// argparse's Python objects: ArgumentParser's methods, argument groups,
// the actions add_argument returns and the subparsers action.

package pytext

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func (p *argParser) String() string {
	return "ArgumentParser(prog=" + pyrt.PyRepr(starlark.String(p.prog)) + ", usage=" + pyrt.PyRepr(p.usage) + ", description=" + pyrt.PyRepr(p.description) +
		", formatter_class=" + p.formatterRepr() + ", conflict_handler='error', add_help=" + pyrt.PyRepr(starlark.Bool(p.addHelp)) + ")"
}

func (p *argParser) formatterRepr() string {
	if p.formatterClass == starlark.None {
		return "<class 'argparse.HelpFormatter'>"
	}
	return pyrt.PyRepr(p.formatterClass)
}

func (p *argParser) ReprPy() string        { return p.String() }
func (p *argParser) Type() string          { return "ArgumentParser" }
func (p *argParser) PyClass() *pyrt.PyType { return argParserType }
func (p *argParser) Freeze()               {}
func (p *argParser) Truth() starlark.Bool  { return true }
func (p *argParser) Hash() (uint32, error) { return 0, nil }

var argParserMethods = []string{"add_argument", "add_argument_group", "add_mutually_exclusive_group", "add_subparsers", "error", "exit",
	"format_help", "format_usage", "get_default", "parse_args", "parse_intermixed_args", "parse_known_args", "print_help", "print_usage", "set_defaults"}

func (p *argParser) AttrNames() []string {
	return append([]string{"add_help", "allow_abbrev", "description", "epilog", "exit_on_error", "formatter_class", "prog", "usage"}, argParserMethods...)
}

func (p *argParser) Attr(name string) (starlark.Value, error) {
	switch name {
	case "prog":
		return starlark.String(p.prog), nil
	case "usage":
		return p.usage, nil
	case "description":
		return p.description, nil
	case "epilog":
		return p.epilog, nil
	case "add_help":
		return starlark.Bool(p.addHelp), nil
	case "allow_abbrev":
		return starlark.Bool(p.abbrev), nil
	case "exit_on_error":
		return starlark.Bool(p.exitOnError), nil
	case "formatter_class":
		return p.formatterClass, nil
	}
	for _, m := range argParserMethods {
		if m == name {
			return pyrt.Builtin("ArgumentParser."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				return p.call(name, args, kw)
			}), nil
		}
	}
	return nil, nil
}

func (p *argParser) SetField(name string, v starlark.Value) error {
	switch name {
	case "prog":
		p.prog = pyrt.PyStr(v)
	case "usage":
		p.usage = v
	case "description":
		p.description = v
	case "epilog":
		p.epilog = v
	default:
		return pyrt.PyErrorf(pyrt.ExcAttribute, "cannot set %s of an ArgumentParser here", name)
	}
	return nil
}

func (p *argParser) call(name string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	switch name {
	case "add_argument":
		return p.addArgument(args, kw, nil)
	case "add_argument_group":
		return p.addGroup(name, args, kw, nil)
	case "add_mutually_exclusive_group":
		return p.addExclusive(args, kw, nil)
	case "add_subparsers":
		return p.addSubparsers(args, kw)
	case "parse_args", "parse_known_args", "parse_intermixed_args":
		return p.parseCall(name, args, kw)
	case "set_defaults":
		if len(args) > 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "_ActionsContainer.set_defaults() takes 1 positional argument but %d were given", len(args)+1)
		}
		for _, kv := range kw {
			k := string(kv[0].(starlark.String))
			p.setDefault(k, kv[1])
			for _, a := range p.actions {
				if a.dest == k {
					a.defaultV = kv[1]
				}
			}
		}
		return starlark.None, nil
	case "get_default":
		var dest string
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &dest); err != nil {
			return nil, err
		}
		for _, a := range p.actions {
			if a.dest == dest && a.defaultV != starlark.None {
				return a.defaultV, nil
			}
		}
		if v, ok := p.defaults[dest]; ok {
			return v, nil
		}
		return starlark.None, nil
	}
	return p.output(name, args, kw)
}

// output is the methods that format, print and exit.
func (p *argParser) output(name string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	switch name {
	case "format_help", "format_usage":
		if err := starlark.UnpackPositionalArgs(name, args, kw, 0); err != nil {
			return nil, err
		}
		if name == "format_help" {
			text, err := p.formatHelp()
			return starlark.String(text), err
		}
		return starlark.String(p.formatUsage()), nil
	case "print_help", "print_usage":
		var file starlark.Value = starlark.None
		if err := pyrt.UnpackArgs(name, args, kw, "file?", &file); err != nil {
			return nil, err
		}
		text, err := p.formatUsage(), error(nil)
		if name == "print_help" {
			if text, err = p.formatHelp(); err != nil {
				return nil, err
			}
		}
		if file == starlark.None {
			return starlark.None, p.r.WriteStd(0, text)
		}
		_, err = pyrt.CallMethod(p.r.Thread, file, "write", starlark.Tuple{starlark.String(text)}, nil)
		return starlark.None, err
	case "error":
		var msg starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &msg); err != nil {
			return nil, err
		}
		return nil, p.Fail(pyrt.PyStr(msg))
	}
	var status starlark.Value = starlark.MakeInt(0)
	var msg starlark.Value = starlark.None
	if err := pyrt.UnpackArgs(name, args, kw, "status?", &status, "message?", &msg); err != nil {
		return nil, err
	}
	text := ""
	if msg != starlark.None && msg.Truth() {
		text = pyrt.PyStr(msg)
	}
	return nil, p.Exit(status, text)
}

// parseCall is parse_args and parse_known_args (args None: sys.argv[1:],
// which is empty in the REPL).
func (p *argParser) parseCall(name string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if name == "parse_intermixed_args" {
		return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "parse_intermixed_args is not supported here: put the options before the positionals and use parse_args")
	}
	var list, nsV starlark.Value = starlark.None, starlark.None
	if err := pyrt.UnpackArgs(name, args, kw, "args?", &list, "namespace?", &nsV); err != nil {
		return nil, err
	}
	var strs []string
	if list == starlark.None {
		list = starlark.NewList(nil)
		if m, err := p.r.Module("sys"); err == nil {
			if argv, err := pyrt.ModuleMember(m, "argv"); err == nil {
				if l, err := pyrt.ListOf(argv); err == nil && len(l) > 0 {
					list = starlark.NewList(l[1:])
				}
			}
		}
	}
	if err := pyrt.Iterate(list, func(v starlark.Value) (bool, error) {
		s, ok := v.(starlark.String)
		if !ok {
			return false, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object is not subscriptable", pyrt.PyTypeName(v))
		}
		strs = append(strs, string(s))
		return true, nil
	}); err != nil {
		return nil, err
	}
	var ns *argNamespace
	if nsV != starlark.None {
		n, ok := nsV.(*argNamespace)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "namespace= takes an argparse.Namespace here")
		}
		ns = n
	}
	ns, extras, err := p.parseKnownArgs(strs, ns)
	if err != nil {
		return nil, err
	}
	if name == "parse_known_args" {
		return starlark.Tuple{ns, starlark.NewList(pyrt.ToTuple(extras))}, nil
	}
	if len(extras) > 0 {
		return nil, p.Fail("unrecognized arguments: " + strings.Join(extras, " "))
	}
	return ns, nil
}

// addGroup is add_argument_group(title=None, description=None).
func (p *argParser) addGroup(name string, args starlark.Tuple, kw []starlark.Tuple, _ *argGroup) (starlark.Value, error) {
	var title, desc starlark.Value = starlark.None, starlark.None
	if err := pyrt.UnpackArgs(name, args, kw, "title?", &title, "description?", &desc, "conflict_handler?", new(string),
		"prefix_chars?", new(string), "argument_default?", new(starlark.Value)); err != nil {
		return nil, err
	}
	g := &argGroup{title: title, description: desc, parser: p}
	p.groups = append(p.groups, g)
	return g, nil
}

// addExclusive is add_mutually_exclusive_group(required=False) in
// container c (nil: the parser).
func (p *argParser) addExclusive(args starlark.Tuple, kw []starlark.Tuple, c *argGroup) (starlark.Value, error) {
	var required bool
	if err := pyrt.UnpackArgs("add_mutually_exclusive_group", args, kw, "required?", &required); err != nil {
		return nil, err
	}
	g := &argGroup{title: starlark.None, description: starlark.None, exclusive: true, required: required, parser: p, container: c}
	p.exclusive = append(p.exclusive, g)
	return g, nil
}

func (g *argGroup) String() string {
	if g.exclusive {
		return "<argparse._MutuallyExclusiveGroup object>"
	}
	return "<argparse._ArgumentGroup object>"
}
func (g *argGroup) Type() string {
	return strings.Trim(strings.TrimPrefix(g.String(), "<argparse."), " object>")
}
func (g *argGroup) Freeze()               {}
func (g *argGroup) Truth() starlark.Bool  { return true }
func (g *argGroup) Hash() (uint32, error) { return 0, nil }
func (g *argGroup) AttrNames() []string {
	return []string{"add_argument", "add_argument_group", "add_mutually_exclusive_group", "description", "required", "set_defaults", "title"}
}

func (g *argGroup) Attr(name string) (starlark.Value, error) {
	p := g.parser
	switch name {
	case "title":
		return g.title, nil
	case "description":
		return g.description, nil
	case "required":
		return starlark.Bool(g.required), nil
	case "add_argument":
		return pyrt.Builtin("add_argument", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return p.addArgument(args, kw, g)
		}), nil
	case "add_mutually_exclusive_group":
		return pyrt.Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return p.addExclusive(args, kw, g)
		}), nil
	case "add_argument_group", "set_defaults":
		return pyrt.Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return p.call(name, args, kw)
		}), nil
	}
	return nil, nil
}

func (g *argGroup) SetField(name string, v starlark.Value) error {
	switch name {
	case "title":
		g.title = v
	case "description":
		g.description = v
	case "required":
		g.required = bool(v.Truth())
	default:
		return pyrt.PyErrorf(pyrt.ExcAttribute, "cannot set %s of an argument group here", name)
	}
	return nil
}

// addSubparsers is add_subparsers(title=, description=, prog=, dest=,
// required=, help=, metavar=).
func (p *argParser) addSubparsers(args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if p.subparsers != nil {
		return nil, p.Fail("cannot have multiple subparser arguments")
	}
	var title, desc, prog, dest, help, metavar, class, action starlark.Value = nil, nil, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	var required bool
	if err := pyrt.UnpackArgs("add_subparsers", args, kw, "title?", &title, "description?", &desc, "prog?", &prog, "dest?", &dest,
		"required?", &required, "help?", &help, "metavar?", &metavar, "parser_class?", &class, "action?", &action); err != nil {
		return nil, err
	}
	g := p.groups[0]
	if title != nil || desc != nil {
		if title == nil {
			title = starlark.String("subcommands")
		}
		if desc == nil {
			desc = starlark.None
		}
		g = &argGroup{title: title, description: desc, parser: p}
		p.groups = append(p.groups, g)
	}
	a := newAction()
	a.kind, a.dest, a.defaultV, a.nargs, a.required, a.help, a.metavar = "parsers", string(argparseSuppress), starlark.None, starlark.String("A..."), required, help, metavar
	if dest != starlark.None {
		a.dest = pyrt.PyStr(dest)
	}
	a.sub = &subparsersInfo{parsers: map[string]*argParser{}, maker: p}
	if prog != starlark.None {
		a.sub.prog = pyrt.PyStr(prog)
	} else {
		var pos []*argAction
		for _, x := range p.actions {
			if len(x.options) == 0 {
				pos = append(pos, x)
			}
		}
		f := p.newFormatter()
		a.sub.prog = strings.TrimSpace(f.formatUsageText(p.usage, pos, p.exclusive, ""))
	}
	if err := p.addAction(a, g); err != nil {
		return nil, err
	}
	p.subparsers, p.subGroup = a, g
	return &argActionValue{a}, nil
}

// addParser is the subparsers action's add_parser(name, help=, aliases=,
// **ArgumentParser's keywords).
func (a *argAction) addParser(p *argParser, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := starlark.UnpackPositionalArgs("add_parser", args, nil, 1, &name); err != nil {
		return nil, err
	}
	var rest []starlark.Tuple
	var help starlark.Value
	var aliases []string
	hasProg := false
	for _, kv := range kw {
		switch k := string(kv[0].(starlark.String)); k {
		case "help":
			help = kv[1]
		case "aliases":
			l, err := pyrt.ListOf(kv[1])
			if err != nil {
				return nil, err
			}
			for _, x := range l {
				aliases = append(aliases, pyrt.PyStr(x))
			}
		default:
			hasProg = hasProg || k == "prog" && kv[1] != starlark.None
			rest = append(rest, kv)
		}
	}
	if !hasProg {
		rest = append(rest, starlark.Tuple{starlark.String("prog"), starlark.String(a.sub.prog + " " + name)})
	}
	for _, n := range append([]string{name}, aliases...) {
		if _, ok := a.sub.parsers[n]; ok {
			what := "subparser"
			if n != name {
				what = "subparser alias"
			}
			return nil, argumentError(a, "conflicting "+what+": "+n)
		}
	}
	if help != nil {
		pseudo := newAction()
		pseudo.dest, pseudo.metavar, pseudo.help = name, starlark.String(name), help
		if len(aliases) > 0 {
			pseudo.metavar = starlark.String(name + " (" + strings.Join(aliases, ", ") + ")")
		}
		a.subActions = append(a.subActions, pseudo)
	}
	sub, err := newArgParser(p.r, nil, rest)
	if err != nil {
		return nil, err
	}
	for _, n := range append([]string{name}, aliases...) {
		a.sub.parsers[n] = sub
		a.sub.names = append(a.sub.names, n)
	}
	return sub, nil
}

// argActionValue is what add_argument and add_subparsers return.
type argActionValue struct {
	a *argAction
}

var argActionFields = []string{"option_strings", "dest", "nargs", "const", "default", "type", "choices", "required", "help", "metavar"}

func (v *argActionValue) String() string {
	parts := make([]string, len(argActionFields))
	for i, f := range argActionFields {
		x, _ := v.Attr(f)
		parts[i] = f + "=" + pyrt.PyRepr(x)
	}
	return v.Type() + "(" + strings.Join(parts, ", ") + ")"
}
func (v *argActionValue) ReprPy() string { return v.String() }
func (v *argActionValue) Type() string {
	if v.a.kind == "parsers" {
		return "_SubParsersAction"
	}
	return argKindClass[v.a.kind]
}
func (v *argActionValue) Freeze()               {}
func (v *argActionValue) Truth() starlark.Bool  { return true }
func (v *argActionValue) Hash() (uint32, error) { return 0, nil }
func (v *argActionValue) AttrNames() []string {
	names := append([]string(nil), argActionFields...)
	if v.a.sub != nil {
		names = append(names, "add_parser")
	}
	return names
}

func (v *argActionValue) Attr(name string) (starlark.Value, error) {
	a := v.a
	fields := map[string]starlark.Value{"nargs": a.nargs, "const": a.constV, "default": a.defaultV, "type": a.typ,
		"choices": a.choices, "help": a.help, "metavar": a.metavar, "dest": starlark.String(a.dest), "required": starlark.Bool(a.required)}
	if f, ok := fields[name]; ok {
		if name == "choices" && a.sub != nil {
			d := starlark.NewDict(len(a.sub.names))
			for _, n := range a.sub.names {
				_ = d.SetKey(starlark.String(n), a.sub.parsers[n])
			}
			return d, nil
		}
		return f, nil
	}
	switch name {
	case "option_strings":
		return starlark.NewList(pyrt.ToTuple(a.options)), nil
	case "version":
		if a.kind == "version" {
			return a.version, nil
		}
	case "add_parser":
		if a.sub != nil {
			return pyrt.Builtin("add_parser", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				return a.addParser(a.sub.owner(), args, kw)
			}), nil
		}
	}
	return nil, nil
}

func (s *subparsersInfo) owner() *argParser { return s.maker }

func (v *argActionValue) SetField(name string, x starlark.Value) error {
	switch name {
	case "default":
		v.a.defaultV = x
	case "help":
		v.a.help = x
	case "metavar":
		v.a.metavar = x
	case "choices":
		v.a.choices = x
	case "required":
		v.a.required = bool(x.Truth())
	default:
		return pyrt.PyErrorf(pyrt.ExcAttribute, "cannot set %s of an argparse action here", name)
	}
	return nil
}
