// textwrap, string and pprint.

package pytext

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

func textwrapModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("textwrap", starlark.StringDict{
		"dedent":      pyrt.Builtin("textwrap.dedent", twDedent),
		"indent":      pyrt.Builtin("textwrap.indent", twIndent),
		"wrap":        pyrt.Builtin("textwrap.wrap", twWrap(false)),
		"fill":        pyrt.Builtin("textwrap.fill", twWrap(true)),
		"shorten":     pyrt.Builtin("textwrap.shorten", twShorten),
		"TextWrapper": pyrt.Builtin("TextWrapper", newTextWrapper),
	})
}

func twDedent(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var text string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &text); err != nil {
		return nil, err
	}
	return starlark.String(dedent(text)), nil
}

// dedent is textwrap.dedent: the common leading whitespace of the lines
// that are not blank is removed; blank lines become empty.
func dedent(text string) string {
	lines := strings.Split(text, "\n")
	margin := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		switch {
		case first:
			margin, first = indent, false
		case strings.HasPrefix(indent, margin):
		case strings.HasPrefix(margin, indent):
			margin = indent
		default:
			i := 0
			for i < len(margin) && i < len(indent) && margin[i] == indent[i] {
				i++
			}
			margin = margin[:i]
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
		} else {
			lines[i] = strings.TrimPrefix(l, margin)
		}
	}
	return strings.Join(lines, "\n")
}

func twIndent(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var text, prefix string
	var pred starlark.Value = starlark.None
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "text", &text, "prefix", &prefix, "predicate?", &pred); err != nil {
		return nil, err
	}
	var sb strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		add := strings.TrimSpace(l) != ""
		if pred != starlark.None {
			v, err := starlark.Call(thread, pred, starlark.Tuple{starlark.String(l)}, nil)
			if err != nil {
				return nil, err
			}
			add = v.Truth() == starlark.True
		}
		if add {
			sb.WriteString(prefix)
		}
		sb.WriteString(l)
	}
	return starlark.String(sb.String()), nil
}

// wrapper holds textwrap.TextWrapper's options.
type wrapper struct {
	width                         int
	initial, subsequent           string
	breakLong, breakHyphens, drop bool
	replaceWS, expandTabs         bool
	maxLines, tabsize             int
	placeholder                   string
}

var wordSep = regexp.MustCompile(`\s+|[^\s]+`)

// chunks splits text into words and whitespace runs, hyphenated words
// after their hyphens.
func (w *wrapper) chunks(text string) []string {
	var out []string
	for _, c := range wordSep.FindAllString(text, -1) {
		if w.breakHyphens && !strings.ContainsAny(c, " \t\n") && strings.Contains(c, "-") {
			for len(c) > 0 {
				i := strings.Index(c[1:], "-")
				if i < 0 || i+2 >= len(c) {
					out = append(out, c)
					break
				}
				out = append(out, c[:i+2])
				c = c[i+2:]
			}
			continue
		}
		out = append(out, c)
	}
	return out
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// wrap is TextWrapper.wrap: lines of at most width characters.
func (w *wrapper) wrap(text string) []string {
	if w.expandTabs {
		text = pystr.ExpandTabs(text, w.tabsize)
	}
	if w.replaceWS {
		text = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\t' || r == '\v' || r == '\f' || r == '\r' {
				return ' '
			}
			return r
		}, text)
	}
	chunks := w.chunks(text)
	var lines []string
	for i := 0; i < len(chunks); {
		indent := w.subsequent
		if len(lines) == 0 {
			indent = w.initial
		}
		width := w.width - runes(indent)
		if w.drop && strings.TrimSpace(chunks[i]) == "" && len(lines) > 0 {
			i++
			continue
		}
		var cur []string
		n := 0
		for i < len(chunks) {
			l := runes(chunks[i])
			if n+l <= width {
				cur = append(cur, chunks[i])
				n += l
				i++
				continue
			}
			break
		}
		if i < len(chunks) && runes(chunks[i]) > width {
			cur = w.longWord(chunks, i, cur, width-n, width)
			if len(cur) > 0 && i < len(chunks) && chunks[i] == "" {
				i++ // the whole word went on this line
			}
		}
		if w.drop && len(cur) > 0 && strings.TrimSpace(cur[len(cur)-1]) == "" {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			if w.maxLines > 0 && len(lines) == w.maxLines-1 && i < len(chunks) {
				line := strings.Join(cur, "")
				for runes(line)+runes(w.placeholder) > width && len(cur) > 0 {
					cur = cur[:len(cur)-1]
					for len(cur) > 0 && strings.TrimSpace(cur[len(cur)-1]) == "" {
						cur = cur[:len(cur)-1]
					}
					line = strings.Join(cur, "")
				}
				lines = append(lines, indent+line+w.placeholder)
				return lines
			}
			lines = append(lines, indent+strings.Join(cur, ""))
		}
	}
	return lines
}

// longWord is CPython's _handle_long_word: a word longer than the line
// is cut to the room left (at its last hyphen before it when hyphens
// break), the cut part joins cur, even when empty (so that dropping the
// line's trailing whitespace drops that empty part and not the space
// before it, as CPython does), and the rest stays in chunks[i]. Without
// breakLong the word takes a line of its own.
func (w *wrapper) longWord(chunks []string, i int, cur []string, room, width int) []string {
	if width < 1 {
		room = 1
	}
	if !w.breakLong {
		if len(cur) == 0 {
			cur = append(cur, chunks[i])
			chunks[i] = ""
		}
		return cur
	}
	c := []rune(chunks[i])
	end := min(max(room, 0), len(c))
	if w.breakHyphens && len(c) > room {
		if h := lastHyphen(c[:end]); h > 0 {
			end = h + 1
		}
	}
	chunks[i] = string(c[end:])
	return append(cur, string(c[:end]))
}

// lastHyphen is the index of the last '-' in c that has something other
// than hyphens before it, or -1.
func lastHyphen(c []rune) int {
	for h := len(c) - 1; h > 0; h-- {
		if c[h] == '-' && strings.Trim(string(c[:h]), "-") != "" {
			return h
		}
	}
	return -1
}

func parseWrapper(fn string, args starlark.Tuple, kw []starlark.Tuple, width int) (string, *wrapper, error) {
	var text string
	w := &wrapper{width: width, breakLong: true, breakHyphens: true, drop: true, replaceWS: true, expandTabs: true, placeholder: " [...]", tabsize: 8}
	if err := pyrt.UnpackArgs(fn, args, kw, "text", &text, "width?", &w.width, "initial_indent?", &w.initial,
		"subsequent_indent?", &w.subsequent, "break_long_words?", &w.breakLong, "break_on_hyphens?", &w.breakHyphens,
		"drop_whitespace?", &w.drop, "replace_whitespace?", &w.replaceWS, "expand_tabs?", &w.expandTabs,
		"max_lines?", &w.maxLines, "placeholder?", &w.placeholder, "fix_sentence_endings?", new(bool), "tabsize?", &w.tabsize); err != nil {
		return "", nil, err
	}
	if w.width <= 0 {
		return "", nil, pyrt.PyErrorf(pyrt.ExcValueError, "invalid width %d (must be > 0)", w.width)
	}
	return text, w, nil
}

func twWrap(fill bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		text, w, err := parseWrapper(b.Name(), args, kw, 70)
		if err != nil {
			return nil, err
		}
		lines := w.wrap(text)
		if fill {
			return starlark.String(strings.Join(lines, "\n")), nil
		}
		out := make([]starlark.Value, len(lines))
		for i, l := range lines {
			out[i] = starlark.String(l)
		}
		return starlark.NewList(out), nil
	}
}

func twShorten(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	text, w, err := parseWrapper(b.Name(), args, kw, 70)
	if err != nil {
		return nil, err
	}
	w.maxLines = 1
	lines := w.wrap(strings.Join(strings.Fields(text), " "))
	if len(lines) == 0 {
		return starlark.String(""), nil
	}
	return starlark.String(lines[0]), nil
}

func stringModule(r *pyrt.Interp) starlark.Value {
	lower, upper, digits := "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"
	punct := "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	ws := " \t\n\r\x0b\x0c"
	return pyrt.NewModule("string", starlark.StringDict{
		"ascii_lowercase": starlark.String(lower), "ascii_uppercase": starlark.String(upper),
		"ascii_letters": starlark.String(lower + upper), "digits": starlark.String(digits),
		"hexdigits": starlark.String("0123456789abcdefABCDEF"), "octdigits": starlark.String("01234567"),
		"punctuation": starlark.String(punct), "whitespace": starlark.String(ws),
		"printable": starlark.String(digits + lower + upper + punct + ws),
		"Template":  templateType, "Formatter": formatterType,
		"capwords": pyrt.Builtin("string.capwords", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			var sep starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &s, &sep); err != nil {
				return nil, err
			}
			var words []string
			if sep == starlark.None {
				words = strings.Fields(s)
			} else {
				words = strings.Split(s, pyrt.PyStr(sep))
			}
			for i, w := range words {
				if w != "" {
					rs := []rune(strings.ToLower(w))
					words[i] = strings.ToUpper(string(rs[0])) + string(rs[1:])
				}
			}
			j := " "
			if sep != starlark.None {
				j = pyrt.PyStr(sep)
			}
			return starlark.String(strings.Join(words, j)), nil
		}),
	})
}

func pprintModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("pprint", starlark.StringDict{
		"pprint":  pyrt.Builtin("pprint.pprint", pprint(r, true)),
		"pp":      pyrt.Builtin("pprint.pp", pprint(r, true)),
		"pformat": pyrt.Builtin("pprint.pformat", pprint(r, false)),
	})
}

func pprint(r *pyrt.Interp, print bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var obj, stream starlark.Value = nil, starlark.None
		indent, width := 1, 80
		var depth starlark.Value = starlark.None
		compact, sortDicts, underscore := false, true, false
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "object", &obj, "stream?", &stream, "indent?", &indent, "width?", &width,
			"depth?", &depth, "compact?", &compact, "sort_dicts?", &sortDicts, "underscore_numbers?", &underscore); err != nil {
			return nil, err
		}
		if b.Name() == "pprint.pp" && !hasKw(kw, "sort_dicts") {
			sortDicts = false
		}
		p := &prettyPrinter{width: width, indent: indent, sortDicts: sortDicts, compact: compact}
		if err := p.setLimits(depth); err != nil {
			return nil, err
		}
		var sb strings.Builder
		p.format(&sb, obj, 0, 0, 0)
		if !print {
			return starlark.String(sb.String()), nil
		}
		sb.WriteString("\n")
		if stream != starlark.None {
			_, err := pyrt.CallMethod(thread, stream, "write", starlark.Tuple{starlark.String(sb.String())}, nil)
			return starlark.None, err
		}
		r.Host.CallOf().Write(sb.String())
		return starlark.None, nil
	}
}

func hasKw(kw []starlark.Tuple, name string) bool {
	for _, kv := range kw {
		if string(kv[0].(starlark.String)) == name {
			return true
		}
	}
	return false
}

type prettyPrinter struct {
	width, indent int
	sortDicts     bool
	compact       bool // as many items on a line as fit
	depth         int  // the levels of containers shown; deeper ones are {...}, [...], (...); 0: all
}

// setLimits checks indent, width and depth as PrettyPrinter does.
func (p *prettyPrinter) setLimits(depth starlark.Value) error {
	if p.indent < 0 {
		return pyrt.PyErrorf(pyrt.ExcValueError, "indent must be >= 0")
	}
	if depth != starlark.None {
		d, err := starlark.AsInt32(pyrt.BoolToInt(depth))
		if err != nil {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "'<=' not supported between instances of '%s' and 'int'", pyrt.PyTypeName(depth))
		}
		if d <= 0 {
			return pyrt.PyErrorf(pyrt.ExcValueError, "depth must be > 0")
		}
		p.depth = d
	}
	if p.width == 0 {
		return pyrt.PyErrorf(pyrt.ExcValueError, "width must be != 0")
	}
	return nil
}

// tooDeep reports whether a container at level is past the depth.
func (p *prettyPrinter) tooDeep(level int) bool { return p.depth > 0 && level >= p.depth }

// formatItems writes a list's or tuple's items at column in, CPython's
// PrettyPrinter._format_items: one a line, or with compact as many short
// ones a line as fit.
func (p *prettyPrinter) formatItems(sb *strings.Builder, items []starlark.Value, in, allowance, level int) {
	delimNL := ",\n" + strings.Repeat(" ", in)
	delim := ""
	width := p.width - in + 1
	maxWidth := width
	for i, e := range items {
		last := i == len(items)-1
		if last {
			maxWidth -= allowance
			width -= allowance
		}
		if p.compact {
			rep := p.repr(e, level)
			w := runes(rep) + 2
			if width < w {
				width = maxWidth
				if delim != "" {
					delim = delimNL
				}
			}
			if width >= w {
				width -= w
				sb.WriteString(delim)
				delim = ", "
				sb.WriteString(rep)
				continue
			}
		}
		sb.WriteString(delim)
		delim = delimNL
		al := 1
		if last {
			al = allowance
		}
		p.format(sb, e, in, al, level)
	}
}

// repr is the one-line repr of v at level, dicts sorted when sortDicts
// and non-empty containers past the depth shown as {...}, [...] or (...).
func (p *prettyPrinter) repr(v starlark.Value, level int) string {
	switch x := v.(type) {
	case *starlark.Dict:
		items := p.items(x)
		if len(items) > 0 && p.tooDeep(level) {
			return "{...}"
		}
		var sb strings.Builder
		sb.WriteByte('{')
		for i, kv := range items {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(p.repr(kv[0], level+1) + ": " + p.repr(kv[1], level+1))
		}
		sb.WriteByte('}')
		return sb.String()
	case *starlark.List, starlark.Tuple:
		open, close := "[", "]"
		if _, ok := v.(starlark.Tuple); ok {
			open, close = "(", ")"
		}
		var parts []string
		items := pyrt.Elems(v)
		if len(items) > 0 && p.tooDeep(level) {
			items = []starlark.Value{nil}
		}
		for _, e := range items {
			if e == nil {
				parts = append(parts, "...")
				break
			}
			parts = append(parts, p.repr(e, level+1))
		}
		if len(pyrt.Elems(v)) == 1 && open == "(" {
			close = ",)"
		}
		return open + strings.Join(parts, ", ") + close
	}
	return pyrt.PyRepr(v)
}

func (p *prettyPrinter) items(d *starlark.Dict) []starlark.Tuple {
	items := d.Items()
	if p.sortDicts {
		sort.SliceStable(items, func(i, j int) bool {
			lt, err := starlark.Compare(syntax.LT, items[i][0], items[j][0])
			if err != nil {
				return pyrt.PyRepr(items[i][0]) < pyrt.PyRepr(items[j][0])
			}
			return lt
		})
	}
	return items
}

// format writes v at column indent with allowance columns reserved after
// it (closing brackets and commas), breaking containers that do not fit
// one element per line, as pprint does.
func (p *prettyPrinter) format(sb *strings.Builder, v starlark.Value, indent, allowance, level int) {
	rep := p.repr(v, level)
	if runes(rep) <= p.width-indent-allowance {
		sb.WriteString(rep)
		return
	}
	switch x := v.(type) {
	case *starlark.Dict:
		items := p.items(x)
		if len(items) == 0 {
			sb.WriteString(rep)
			return
		}
		sb.WriteByte('{')
		in := indent + p.indent
		if p.indent > 1 {
			sb.WriteString(strings.Repeat(" ", p.indent-1))
		}
		for i, kv := range items {
			k := p.repr(kv[0], level+1)
			sb.WriteString(k + ": ")
			last := i == len(items)-1
			al := 1
			if last {
				al = allowance + 1
			}
			p.format(sb, kv[1], in+runes(k)+2, al, level+1)
			if !last {
				sb.WriteString(",\n" + strings.Repeat(" ", in))
			}
		}
		sb.WriteByte('}')
	case *starlark.List, starlark.Tuple:
		items := pyrt.Elems(v)
		open, close := "[", "]"
		if _, ok := v.(starlark.Tuple); ok {
			open, close = "(", ")"
			if len(items) == 1 {
				close = ",)"
			}
		}
		if len(items) == 0 {
			sb.WriteString(rep)
			return
		}
		sb.WriteString(open)
		in := indent + p.indent
		if p.indent > 1 {
			sb.WriteString(strings.Repeat(" ", p.indent-1))
		}
		p.formatItems(sb, items, in, allowance+len(close), level+1)
		sb.WriteString(close)
	default:
		sb.WriteString(rep)
	}
}
