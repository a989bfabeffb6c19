// argparse's parse loop: CPython 3.11's _parse_known_args, option strings
// and positionals matched against the nargs patterns.

package pytext

import (
	"errors"
	"regexp"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var negativeNumberRe = regexp.MustCompile(`^-\d+$|^-\d*\.\d+$`)

func negativeNumber(s string) bool { return negativeNumberRe.MatchString(s) }

// optTuple is what _parse_optional finds: the action (nil: unknown), the
// option string and the explicit argument after '=' or a short option.
type optTuple struct {
	action   *argAction
	option   string
	explicit *string
}

// argRun is one _parse_known_args.
type argRun struct {
	p           *argParser
	ns          *argNamespace
	args        []string
	pattern     string
	options     map[int]optTuple
	seen        map[*argAction]bool
	seenNonDef  map[*argAction]bool
	conflicts   map[*argAction][]*argAction
	extras      []string
	positionals []*argAction
}

// parseKnownArgs is parse_known_args: the namespace and the strings left.
func (p *argParser) parseKnownArgs(args []string, ns *argNamespace) (*argNamespace, []string, error) {
	if ns == nil {
		ns = newArgNamespace()
	}
	for _, a := range p.actions {
		if a.dest != string(argparseSuppress) && !ns.has(a.dest) && a.defaultV != argparseSuppress {
			ns.Set(a.dest, a.defaultV)
		}
	}
	for _, k := range p.defaultKeys {
		if !ns.has(k) {
			ns.Set(k, p.defaults[k])
		}
	}
	run := &argRun{p: p, ns: ns, args: args, options: map[int]optTuple{}, seen: map[*argAction]bool{},
		seenNonDef: map[*argAction]bool{}, conflicts: map[*argAction][]*argAction{}}
	err := run.parse()
	var pe *pyrt.PyError
	if err != nil && p.exitOnError && errors.As(err, &pe) && pe.Exc.Typ == excArgumentError {
		return nil, nil, p.Fail(pe.Exc.Str())
	}
	if err != nil {
		return nil, nil, err
	}
	extras := run.extras
	if v, ok := ns.get("_unrecognized_args"); ok {
		l, _ := pyrt.ListOf(v)
		for _, x := range l {
			extras = append(extras, pyrt.PyStr(x))
		}
		ns.del("_unrecognized_args")
	}
	return ns, extras, nil
}

func (run *argRun) parse() error {
	for _, g := range run.p.exclusive {
		for i, a := range g.actions {
			run.conflicts[a] = append(run.conflicts[a], g.actions[:i]...)
			run.conflicts[a] = append(run.conflicts[a], g.actions[i+1:]...)
		}
	}
	if err := run.classify(); err != nil {
		return err
	}
	for _, a := range run.p.actions {
		if len(a.options) == 0 {
			run.positionals = append(run.positionals, a)
		}
	}
	maxOpt := -1
	for i := range run.options {
		maxOpt = max(maxOpt, i)
	}
	start := 0
	for start <= maxOpt {
		next := len(run.args)
		for i := range run.options {
			if i >= start && i < next {
				next = i
			}
		}
		if start != next {
			end, err := run.consumePositionals(start)
			if err != nil {
				return err
			}
			if end > start {
				start = end
				continue
			}
			start = end
		}
		if _, ok := run.options[start]; !ok {
			run.extras = append(run.extras, run.args[start:next]...)
			start = next
		}
		var err error
		if start, err = run.consumeOptional(start); err != nil {
			return err
		}
	}
	stop, err := run.consumePositionals(start)
	if err != nil {
		return err
	}
	run.extras = append(run.extras, run.args[stop:]...)
	return run.checkRequired()
}

// classify builds the pattern: O for an option, A for an argument, - for
// the first "--".
func (run *argRun) classify() error {
	var sb strings.Builder
	for i := 0; i < len(run.args); i++ {
		s := run.args[i]
		if s == "--" {
			sb.WriteString("-" + strings.Repeat("A", len(run.args)-i-1))
			break
		}
		t, ok, err := run.p.parseOptional(s)
		if err != nil {
			return err
		}
		if ok {
			run.options[i] = t
			sb.WriteByte('O')
		} else {
			sb.WriteByte('A')
		}
	}
	run.pattern = sb.String()
	return nil
}

func (run *argRun) checkRequired() error {
	var missing []string
	for _, a := range run.p.actions {
		if run.seen[a] {
			continue
		}
		if a.required {
			missing = append(missing, argActionName(a))
			continue
		}
		if s, ok := a.defaultV.(starlark.String); ok && a.defaultV != argparseSuppress {
			if v, has := run.ns.get(a.dest); has && v == a.defaultV {
				conv, err := run.p.getValue(a, string(s))
				if err != nil {
					return err
				}
				run.ns.Set(a.dest, conv)
			}
		}
	}
	if len(missing) > 0 {
		return run.p.Fail("the following arguments are required: " + strings.Join(missing, ", "))
	}
	for _, g := range run.p.exclusive {
		if !g.required {
			continue
		}
		found := false
		var names []string
		for _, a := range g.actions {
			found = found || run.seenNonDef[a]
			if !a.helpSuppressed() {
				names = append(names, argActionName(a))
			}
		}
		if !found {
			return run.p.Fail("one of the arguments " + strings.Join(names, " ") + " is required")
		}
	}
	return nil
}

func (run *argRun) takeAction(a *argAction, strs []string, option string) error {
	run.seen[a] = true
	v, isDefault, err := run.p.getValues(a, strs)
	if err != nil {
		return err
	}
	if !isDefault {
		run.seenNonDef[a] = true
		for _, c := range run.conflicts[a] {
			if run.seenNonDef[c] {
				return argumentError(a, "not allowed with argument "+argActionName(c))
			}
		}
	}
	if v == argparseSuppress {
		return nil
	}
	return run.p.act(a, run.ns, v, option)
}

func (run *argRun) consumeOptional(start int) (int, error) {
	t := run.options[start]
	a, option, explicit := t.action, t.option, t.explicit
	type todo struct {
		a      *argAction
		args   []string
		option string
	}
	var todos []todo
	stop := start + 1
	for {
		if a == nil {
			run.extras = append(run.extras, run.args[start])
			return start + 1, nil
		}
		if explicit == nil {
			n, err := run.p.matchArgument(a, run.pattern[start+1:])
			if err != nil {
				return 0, err
			}
			stop = start + 1 + n
			todos = append(todos, todo{a, run.args[start+1 : stop], option})
			break
		}
		n, err := run.p.matchArgument(a, "A")
		if err != nil {
			return 0, err
		}
		switch {
		case n == 0 && option[1] != '-' && *explicit != "":
			todos = append(todos, todo{a, nil, option})
			option = "-" + (*explicit)[:1]
			rest := (*explicit)[1:]
			next := run.p.optionAction(option)
			if next == nil {
				return 0, argumentError(a, "ignored explicit argument "+pyrt.PyRepr(starlark.String(*explicit)))
			}
			a, explicit = next, nil
			if rest != "" {
				explicit = &rest
			}
			continue
		case n == 1:
			todos = append(todos, todo{a, []string{*explicit}, option})
		default:
			return 0, argumentError(a, "ignored explicit argument "+pyrt.PyRepr(starlark.String(*explicit)))
		}
		break
	}
	for _, td := range todos {
		if err := run.takeAction(td.a, td.args, td.option); err != nil {
			return 0, err
		}
	}
	return stop, nil
}

func (run *argRun) consumePositionals(start int) (int, error) {
	counts := run.p.matchPartial(run.positionals, run.pattern[start:])
	for i, n := range counts {
		args := append([]string(nil), run.args[start:start+n]...)
		start += n
		if err := run.takeAction(run.positionals[i], args, ""); err != nil {
			return 0, err
		}
	}
	run.positionals = run.positionals[len(counts):]
	return start, nil
}

// parseOptional is _parse_optional: ok false for a positional string.
func (p *argParser) parseOptional(s string) (optTuple, bool, error) {
	if s == "" || s[0] != '-' {
		return optTuple{}, false, nil
	}
	if a := p.optionAction(s); a != nil {
		return optTuple{a, s, nil}, true, nil
	}
	if len(s) == 1 {
		return optTuple{}, false, nil
	}
	if opt, arg, ok := strings.Cut(s, "="); ok {
		if a := p.optionAction(opt); a != nil {
			return optTuple{a, opt, &arg}, true, nil
		}
	}
	tuples := p.optionTuples(s)
	if len(tuples) > 1 {
		var names []string
		for _, t := range tuples {
			names = append(names, t.option)
		}
		return optTuple{}, false, p.Fail("ambiguous option: " + s + " could match " + strings.Join(names, ", "))
	}
	if len(tuples) == 1 {
		return tuples[0], true, nil
	}
	if negativeNumber(s) && !p.negativeOptions || strings.Contains(s, " ") {
		return optTuple{}, false, nil
	}
	return optTuple{nil, s, nil}, true, nil
}

// optionTuples is _get_option_tuples: the options s abbreviates.
func (p *argParser) optionTuples(s string) []optTuple {
	var out []optTuple
	if s[1] == '-' {
		if !p.abbrev {
			return nil
		}
		prefix, arg, ok := strings.Cut(s, "=")
		var explicit *string
		if ok {
			explicit = &arg
		}
		for _, o := range p.optionStrings() {
			if strings.HasPrefix(o.option, prefix) {
				out = append(out, optTuple{o.action, o.option, explicit})
			}
		}
		return out
	}
	short, rest := s[:2], s[2:]
	for _, o := range p.optionStrings() {
		if o.option == short {
			r := rest
			out = append(out, optTuple{o.action, o.option, &r})
		} else if strings.HasPrefix(o.option, s) {
			out = append(out, optTuple{o.action, o.option, nil})
		}
	}
	return out
}

// optionStrings lists the option strings in the order they were added.
func (p *argParser) optionStrings() []optTuple {
	var out []optTuple
	for _, a := range p.actions {
		for _, o := range a.options {
			out = append(out, optTuple{a, o, nil})
		}
	}
	return out
}

// nargsPattern is _get_nargs_pattern.
func (a *argAction) nargsPattern() string {
	var pat string
	switch {
	case a.nargs == starlark.None:
		pat = "(-*A-*)"
	case a.nargsIs("?"):
		pat = "(-*A?-*)"
	case a.nargsIs("*"):
		pat = "(-*[A-]*)"
	case a.nargsIs("+"):
		pat = "(-*A[A-]*)"
	case a.nargsIs("..."):
		pat = "([-AO]*)"
	case a.nargsIs("A..."):
		pat = "(-*A[-AO]*)"
	case a.nargsIs(string(argparseSuppress)):
		pat = "(-*-*)"
	default:
		n, _ := a.nargsInt()
		pat = "(-*" + strings.Join(strings.Split(strings.Repeat("A", n), ""), "-*") + "-*)"
	}
	if len(a.options) > 0 {
		pat = strings.ReplaceAll(strings.ReplaceAll(pat, "-*", ""), "-", "")
	}
	return pat
}

func (p *argParser) matchArgument(a *argAction, pattern string) (int, error) {
	m := regexp.MustCompile("^" + a.nargsPattern()).FindStringSubmatch(pattern)
	if m == nil {
		msg := map[string]string{"None": "expected one argument", "'?'": "expected at most one argument", "'+'": "expected at least one argument"}[pyrt.PyRepr(a.nargs)]
		if msg == "" {
			n, _ := a.nargsInt()
			msg = "expected " + pyrt.PyRepr(a.nargs) + " argument" + pyrt.Plural(n)
		}
		return 0, argumentError(a, msg)
	}
	return len(m[1]), nil
}

// matchPartial is _match_arguments_partial: as many positionals as match.
func (p *argParser) matchPartial(actions []*argAction, pattern string) []int {
	for i := len(actions); i > 0; i-- {
		var sb strings.Builder
		for _, a := range actions[:i] {
			sb.WriteString(a.nargsPattern())
		}
		if m := regexp.MustCompile("^" + sb.String()).FindStringSubmatch(pattern); m != nil {
			out := make([]int, i)
			for j := range out {
				out[j] = len(m[j+1])
			}
			return out
		}
	}
	return nil
}
