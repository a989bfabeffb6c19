// argparse's HelpFormatter: usage lines (wrapped as CPython wraps them at
// 78 columns, the width it uses when output is not a terminal), the
// sections of format_help and the help of each argument.

package pytext

import (
	"regexp"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

type argFormatter struct {
	p                        *argParser
	prog                     string
	width, maxHelp           int
	indent, actionMax        int
	rawDescription, rawText  bool
	withDefaults, typeMetvar bool
	err                      error // the first error of a help % its parameters
}

func (p *argParser) newFormatter() *argFormatter {
	return &argFormatter{p: p, prog: p.prog, width: 78, maxHelp: 24, rawDescription: p.formatter == "raw_description" || p.formatter == "raw_text",
		rawText: p.formatter == "raw_text", withDefaults: p.formatter == "defaults", typeMetvar: p.formatter == "metavar_type"}
}

// finish is HelpFormatter.format_help's clean-up of the joined parts.
func finishHelp(s string) string {
	s = longBreak.ReplaceAllString(s, "\n\n")
	if s = strings.Trim(s, "\n"); s == "" {
		return ""
	}
	return s + "\n"
}

var longBreak = regexp.MustCompile(`\n\n\n+`)

func (p *argParser) formatUsage() string {
	f := p.newFormatter()
	return finishHelp(f.formatUsageText(p.usage, p.actions, p.exclusive, "usage: "))
}

func (p *argParser) formatHelp() (string, error) {
	f := p.newFormatter()
	for _, g := range p.groups {
		for _, a := range g.actions {
			f.noteLength(a)
		}
	}
	var sb strings.Builder
	sb.WriteString(f.formatUsageText(p.usage, p.actions, p.exclusive, "usage: "))
	sb.WriteString(f.text(p.description, 0))
	for _, g := range p.groups {
		sb.WriteString(f.section(g))
	}
	sb.WriteString(f.text(p.epilog, 0))
	return finishHelp(sb.String()), f.err
}

// noteLength is what add_argument records: the longest invocation.
func (f *argFormatter) noteLength(a *argAction) {
	if a.helpSuppressed() {
		return
	}
	n := runes(f.invocation(a))
	for _, s := range a.subActions {
		n = max(n, runes(f.invocation(s)))
	}
	f.actionMax = max(f.actionMax, n+2)
}

func (f *argFormatter) section(g *argGroup) string {
	f.indent += 2
	var sb strings.Builder
	sb.WriteString(f.text(g.description, f.indent))
	for _, a := range g.actions {
		if !a.helpSuppressed() {
			sb.WriteString(f.action(a))
		}
	}
	f.indent -= 2
	if sb.Len() == 0 {
		return ""
	}
	heading := ""
	if g.title != starlark.None && g.title != argparseSuppress {
		heading = strings.Repeat(" ", f.indent) + pyrt.PyStr(g.title) + ":\n"
	}
	return "\n" + heading + sb.String() + "\n"
}

// text is add_text's item: nothing for None or SUPPRESS.
func (f *argFormatter) text(v starlark.Value, indent int) string {
	if v == starlark.None || v == argparseSuppress || v == nil {
		return ""
	}
	return f.formatText(pyrt.PyStr(v), indent)
}

var asciiSpace = regexp.MustCompile(`[ \t\n\r\f\v]+`)

// formatText is _format_text at the given indent.
func (f *argFormatter) formatText(text string, indent int) string {
	if strings.Contains(text, "%(prog)") {
		d := starlark.NewDict(1)
		_ = d.SetKey(starlark.String("prog"), starlark.String(f.prog))
		s, err := pyrt.PercentFormat(f.p.r.Thread, text, d)
		if err != nil && f.err == nil {
			f.err = err
		}
		text = s
	}
	width := max(f.width-indent, 11)
	pad := strings.Repeat(" ", indent)
	if f.rawDescription {
		var sb strings.Builder
		for _, l := range splitLinesKeep(text) {
			sb.WriteString(pad + l)
		}
		return sb.String() + "\n\n"
	}
	text = strings.TrimSpace(asciiSpace.ReplaceAllString(text, " "))
	w := &wrapper{width: width, initial: pad, subsequent: pad, breakLong: true, breakHyphens: true, drop: true, replaceWS: true, expandTabs: true}
	return strings.Join(w.wrap(text), "\n") + "\n\n"
}

// action is _format_action.
func (f *argFormatter) action(a *argAction) string {
	helpPos := min(f.actionMax+2, f.maxHelp)
	helpWidth := max(f.width-helpPos, 11)
	actionWidth := helpPos - f.indent - 2
	header := f.invocation(a)
	pad := strings.Repeat(" ", f.indent)
	helpText := ""
	if a.help != starlark.None {
		helpText = pyrt.PyStr(a.help)
	}
	indentFirst := 0
	switch {
	case helpText == "":
		header = pad + header + "\n"
	case runes(header) <= actionWidth:
		header = pad + header + strings.Repeat(" ", actionWidth-runes(header)) + "  "
	default:
		header = pad + header + "\n"
		indentFirst = helpPos
	}
	parts := []string{header}
	if strings.TrimSpace(helpText) != "" {
		if expanded := f.expandHelp(a); expanded != "" {
			lines := f.splitLines(expanded, helpWidth)
			parts = append(parts, strings.Repeat(" ", indentFirst)+lines[0]+"\n")
			for _, l := range lines[1:] {
				parts = append(parts, strings.Repeat(" ", helpPos)+l+"\n")
			}
		}
	} else if !strings.HasSuffix(header, "\n") {
		parts = append(parts, "\n")
	}
	f.indent += 2
	for _, s := range a.subActions {
		parts = append(parts, f.action(s))
	}
	f.indent -= 2
	return strings.Join(parts, "")
}

func (f *argFormatter) splitLines(text string, width int) []string {
	if f.rawText {
		return strings.Split(strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n")
	}
	text = strings.TrimSpace(asciiSpace.ReplaceAllString(text, " "))
	w := &wrapper{width: width, breakLong: true, breakHyphens: true, drop: true, replaceWS: true, expandTabs: true}
	lines := w.wrap(text)
	if len(lines) == 0 {
		return []string{""}
	}
	return lines
}

// expandHelp is _expand_help: help % the action's attributes.
func (f *argFormatter) expandHelp(a *argAction) string {
	help := pyrt.PyStr(a.help)
	if f.withDefaults && !strings.Contains(help, "%(default)") && a.defaultV != argparseSuppress &&
		(len(a.options) > 0 || a.nargsIs("?") || a.nargsIs("*")) {
		help += " (default: %(default)s)"
	}
	if !strings.Contains(help, "%") {
		return help
	}
	d := starlark.NewDict(12)
	v := &argActionValue{a}
	for _, name := range append(argActionFields, "version") {
		x, _ := v.Attr(name)
		if x == nil || x == argparseSuppress {
			continue
		}
		if name == "type" && x != starlark.None {
			x = starlark.String(argTypeName(x))
		}
		if name == "choices" && x != starlark.None {
			var cs []string
			_ = pyrt.Iterate(x, func(c starlark.Value) (bool, error) { cs = append(cs, pyrt.PyStr(c)); return true, nil })
			x = starlark.String(strings.Join(cs, ", "))
		}
		_ = d.SetKey(starlark.String(name), x)
	}
	_ = d.SetKey(starlark.String("prog"), starlark.String(f.prog))
	s, err := pyrt.PercentFormat(f.p.r.Thread, help, d)
	if err != nil && f.err == nil {
		f.err = err
	}
	return s
}

// invocation is _format_action_invocation.
func (f *argFormatter) invocation(a *argAction) string {
	if len(a.options) == 0 {
		return f.metavars(a, f.defaultMetavar(a), 1)[0]
	}
	if a.takesNone() {
		return strings.Join(a.options, ", ")
	}
	args := f.formatArgs(a, f.defaultMetavar(a))
	parts := make([]string, len(a.options))
	for i, o := range a.options {
		parts[i] = o + " " + args
	}
	return strings.Join(parts, ", ")
}

func (f *argFormatter) defaultMetavar(a *argAction) string {
	if f.typeMetvar && a.typ != starlark.None {
		return argTypeName(a.typ)
	}
	if len(a.options) > 0 {
		return strings.ToUpper(a.dest)
	}
	return a.dest
}

// metavars is _metavar_formatter(action, default)(n).
func (f *argFormatter) metavars(a *argAction, def string, n int) []string {
	result := def
	switch {
	case a.metavar != starlark.None:
		if t, ok := a.metavar.(starlark.Tuple); ok {
			out := make([]string, len(t))
			for i, x := range t {
				out[i] = pyrt.PyStr(x)
			}
			return out
		}
		result = pyrt.PyStr(a.metavar)
	case a.sub != nil:
		result = "{" + strings.Join(a.sub.names, ",") + "}"
	case a.choices != starlark.None:
		var cs []string
		_ = pyrt.Iterate(a.choices, func(c starlark.Value) (bool, error) { cs = append(cs, pyrt.PyStr(c)); return true, nil })
		result = "{" + strings.Join(cs, ",") + "}"
	}
	out := make([]string, n)
	for i := range out {
		out[i] = result
	}
	return out
}

// formatArgs is _format_args.
func (f *argFormatter) formatArgs(a *argAction, def string) string {
	mv := func(n int) []string {
		m := f.metavars(a, def, n)
		for len(m) < n {
			m = append(m, m[len(m)-1])
		}
		return m
	}
	switch {
	case a.nargs == starlark.None:
		return mv(1)[0]
	case a.nargsIs("?"):
		return "[" + mv(1)[0] + "]"
	case a.nargsIs("*"):
		if m := f.metavars(a, def, 1); len(m) == 2 {
			return "[" + m[0] + " [" + m[1] + " ...]]"
		}
		return "[" + mv(1)[0] + " ...]"
	case a.nargsIs("+"):
		m := mv(2)
		return m[0] + " [" + m[1] + " ...]"
	case a.nargsIs("..."):
		return "..."
	case a.nargsIs("A..."):
		return mv(1)[0] + " ..."
	case a.nargsIs(string(argparseSuppress)):
		return ""
	}
	n, _ := a.nargsInt()
	return strings.Join(mv(n)[:n], " ")
}
