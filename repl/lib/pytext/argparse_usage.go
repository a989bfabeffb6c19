// argparse's usage line: HelpFormatter._format_usage and
// _format_actions_usage, wrapped as CPython wraps it.

package pytext

import (
	"regexp"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// formatUsageText is _format_usage: prefix, usage and a blank line.
func (f *argFormatter) formatUsageText(usage starlark.Value, actions []*argAction, groups []*argGroup, prefix string) string {
	if usage == argparseSuppress {
		return ""
	}
	var text string
	switch {
	case usage != starlark.None:
		d := starlark.NewDict(1)
		_ = d.SetKey(starlark.String("prog"), starlark.String(f.prog))
		s, err := pyrt.PercentFormat(f.p.r.Thread, pyrt.PyStr(usage), d)
		if err != nil {
			s = pyrt.PyStr(usage)
		}
		text = s
	case len(actions) == 0:
		text = f.prog
	default:
		text = f.wrapUsage(actions, groups, prefix)
	}
	return prefix + text + "\n\n"
}

func (f *argFormatter) wrapUsage(actions []*argAction, groups []*argGroup, prefix string) string {
	prog := f.prog
	var opts, pos []*argAction
	for _, a := range actions {
		if len(a.options) > 0 {
			opts = append(opts, a)
		} else {
			pos = append(pos, a)
		}
	}
	actionUsage := f.actionsUsage(append(append([]*argAction(nil), opts...), pos...), groups)
	usage := prog
	if actionUsage != "" {
		usage += " " + actionUsage
	}
	textWidth := f.width - f.indent
	if runes(prefix)+runes(usage) <= textWidth {
		return usage
	}
	optParts := usageParts(f.actionsUsage(opts, groups))
	posParts := usageParts(f.actionsUsage(pos, groups))
	getLines := func(parts []string, indent string, prefix *string) []string {
		return usageLines(parts, indent, prefix, textWidth)
	}
	var lines []string
	if float64(runes(prefix)+runes(prog)) <= 0.75*float64(textWidth) {
		indent := strings.Repeat(" ", runes(prefix)+runes(prog)+1)
		switch {
		case len(optParts) > 0:
			lines = getLines(append([]string{prog}, optParts...), indent, &prefix)
			lines = append(lines, getLines(posParts, indent, nil)...)
		case len(posParts) > 0:
			lines = getLines(append([]string{prog}, posParts...), indent, &prefix)
		default:
			lines = []string{prog}
		}
	} else {
		indent := strings.Repeat(" ", runes(prefix))
		lines = getLines(append(append([]string(nil), optParts...), posParts...), indent, nil)
		if len(lines) > 1 {
			lines = append(getLines(optParts, indent, nil), getLines(posParts, indent, nil)...)
		}
		lines = append([]string{prog}, lines...)
	}
	return strings.Join(lines, "\n")
}

// usageLines is _format_usage's get_lines: parts joined into lines of at
// most width columns, each after indent (the first after prefix when set).
func usageLines(parts []string, indent string, prefix *string, width int) []string {
	var lines, line []string
	n := runes(indent) - 1
	if prefix != nil {
		n = runes(*prefix) - 1
	}
	for _, part := range parts {
		if n+1+runes(part) > width && len(line) > 0 {
			lines = append(lines, indent+strings.Join(line, " "))
			line, n = nil, runes(indent)-1
		}
		line = append(line, part)
		n += runes(part) + 1
	}
	if len(line) > 0 {
		lines = append(lines, indent+strings.Join(line, " "))
	}
	if prefix != nil && len(lines) > 0 {
		lines[0] = lines[0][len(indent):]
	}
	return lines
}

// usageParts is re.findall(r'\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+', s).
func usageParts(s string) []string {
	var out []string
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' }
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			i++
			continue
		}
		end := -1
		if s[i] == '(' || s[i] == '[' {
			closer := byte(')')
			if s[i] == '[' {
				closer = ']'
			}
			for k := i + 1; k < len(s) && s[k] != '\n'; k++ {
				if s[k] != closer {
					continue
				}
				m := k
				for m < len(s) && s[m] == closer {
					m++
				}
				if m == len(s) || isSpace(s[m]) {
					end = m
					break
				}
			}
		}
		if end < 0 {
			end = i
			for end < len(s) && !isSpace(s[end]) {
				end++
			}
		}
		out = append(out, s[i:end])
		i = end
	}
	return out
}

var (
	usageOpenSpace  = regexp.MustCompile(`([\[(]) `)
	usageSpaceClose = regexp.MustCompile(` ([\])])`)
	usageEmpty      = regexp.MustCompile(`[\[(] *[\])]`)
)

// actionsUsage is _format_actions_usage.
func (f *argFormatter) actionsUsage(actions []*argAction, groups []*argGroup) string {
	inGroup, inserts := groupInserts(actions, groups)
	parts := make([]*string, len(actions))
	for i, a := range actions {
		if a.helpSuppressed() {
			if inserts[i] == "|" {
				delete(inserts, i)
			} else if inserts[i+1] == "|" {
				delete(inserts, i+1)
			}
			continue
		}
		part := f.usagePart(a, inGroup[a])
		parts[i] = &part
	}
	keys := make([]int, 0, len(inserts))
	for k := range inserts {
		keys = append(keys, k)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(keys)))
	for _, k := range keys {
		s := inserts[k]
		k = min(k, len(parts))
		parts = append(parts[:k], append([]*string{&s}, parts[k:]...)...)
	}
	var items []string
	for _, p := range parts {
		if p != nil {
			items = append(items, *p)
		}
	}
	text := strings.Join(items, " ")
	text = usageOpenSpace.ReplaceAllString(text, "$1")
	text = usageSpaceClose.ReplaceAllString(text, "$1")
	text = usageEmpty.ReplaceAllString(text, "")
	return strings.TrimSpace(text)
}

// groupInserts finds the mutually exclusive groups whose actions are
// consecutive in actions: their actions, and the brackets and bars to
// insert at each index.
func groupInserts(actions []*argAction, groups []*argGroup) (map[*argAction]bool, map[int]string) {
	inGroup := map[*argAction]bool{}
	inserts := map[int]string{}
	add := func(i int, s string) {
		if prev, ok := inserts[i]; ok {
			inserts[i] = prev + " " + s
		} else {
			inserts[i] = s
		}
	}
	for _, g := range groups {
		start := -1
		for i, a := range actions {
			if len(g.actions) > 0 && a == g.actions[0] {
				start = i
				break
			}
		}
		end := start + len(g.actions)
		if start < 0 || end > len(actions) || !sameActions(actions[start:end], g.actions) {
			continue
		}
		exposed := 0
		for _, a := range g.actions {
			inGroup[a] = true
			if !a.helpSuppressed() {
				exposed++
			}
		}
		if !g.required {
			add(start, "[")
			add(end, "]")
		} else if exposed > 1 {
			add(start, "(")
			add(end, ")")
		}
		for i := start + 1; i < end; i++ {
			inserts[i] = "|"
		}
	}
	return inGroup, inserts
}

func sameActions(a, b []*argAction) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// usagePart is one action's part of the usage line.
func (f *argFormatter) usagePart(a *argAction, grouped bool) string {
	if len(a.options) == 0 {
		part := f.formatArgs(a, f.defaultMetavar(a))
		if grouped && len(part) >= 2 && part[0] == '[' && part[len(part)-1] == ']' {
			part = part[1 : len(part)-1]
		}
		return part
	}
	part := a.options[0]
	if !a.takesNone() {
		part += " " + f.formatArgs(a, f.defaultMetavar(a))
	}
	if !a.required && !grouped {
		part = "[" + part + "]"
	}
	return part
}
