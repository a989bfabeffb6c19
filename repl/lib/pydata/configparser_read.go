// configparser: reading INI text (CPython's RawConfigParser._read), files
// over the mounts, strings, dicts, and write().

package pydata

import (
	"math"
	"strings"
	"unicode"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// cpSpace is str.isspace for one character.
func cpSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

func cpStrip(s string) string { return strings.TrimFunc(s, cpSpace) }

// cpReader is the state of one _read.
type cpReader struct {
	p        *cpParser
	fpname   starlark.Value
	added    map[string]bool // sections and section\x00option seen in this source
	pending  map[*cpOptions]map[string][]string
	cur      *cpOptions
	sectname string
	optname  string
	indent   int
	perr     *pyrt.PyException
}

// commentStart is where an inline or full-line comment starts in line,
// -1 for none; the rounds are CPython's (each prefix's next occurrence in
// turn, stopping at the first round finding one after a space).
func (p *cpParser) commentStart(line string) int {
	start := math.MaxInt
	next := map[string]int{}
	for _, pre := range p.inline {
		next[pre] = -1
	}
	for start == math.MaxInt && len(next) > 0 {
		found := map[string]int{}
		for _, pre := range p.inline {
			idx, ok := next[pre]
			if !ok || pre == "" {
				continue
			}
			i := strings.Index(line[idx+1:], pre)
			if i < 0 {
				continue
			}
			i += idx + 1
			found[pre] = i
			if i == 0 || cpSpace(lastRune(line[:i])) {
				start = min(start, i)
			}
		}
		next = found
	}
	for _, pre := range p.comments {
		if strings.HasPrefix(cpStrip(line), pre) {
			return 0
		}
	}
	if start == math.MaxInt {
		return -1
	}
	return start
}

func lastRune(s string) rune {
	r := []rune(s)
	if len(r) == 0 {
		return 0
	}
	return r[len(r)-1]
}

// parse reads lines (each with its line end) from the source named fpname.
func (p *cpParser) parse(lines []string, fpname starlark.Value) error {
	rd := &cpReader{p: p, fpname: fpname, added: map[string]bool{}, pending: map[*cpOptions]map[string][]string{}}
	err := rd.run(lines)
	rd.join()
	if err != nil {
		return err
	}
	if rd.perr != nil {
		return &pyrt.PyError{Exc: rd.perr}
	}
	return nil
}

func (rd *cpReader) run(lines []string) error {
	p := rd.p
	for i, line := range lines {
		lineno := i + 1
		cs := p.commentStart(line)
		value := line
		if cs >= 0 {
			value = line[:cs]
		}
		value = cpStrip(value)
		if value == "" {
			if p.emptyLines {
				if cs < 0 && rd.cur != nil && rd.optname != "" && rd.hasValue() {
					rd.appendLine("")
				}
			} else {
				rd.indent = math.MaxInt
			}
			continue
		}
		level := 0
		if j := strings.IndexFunc(line, func(r rune) bool { return !cpSpace(r) }); j >= 0 {
			level = len([]rune(line[:j]))
		}
		if rd.cur != nil && rd.optname != "" && level > rd.indent {
			if !rd.hasValue() {
				return pyrt.PyErrorf(pyrt.ExcAttribute, "'NoneType' object has no attribute 'append'")
			}
			rd.appendLine(value)
			continue
		}
		rd.indent = level
		if err := rd.header(value, line, lineno); err != nil {
			return err
		}
	}
	return nil
}

func (rd *cpReader) hasValue() bool {
	_, ok := rd.pending[rd.cur][rd.optname]
	return ok
}

func (rd *cpReader) appendLine(s string) {
	m := rd.pending[rd.cur]
	m[rd.optname] = append(m[rd.optname], s)
}

// header handles a section header or an option line.
func (rd *cpReader) header(value, line string, lineno int) error {
	p := rd.p
	if strings.HasPrefix(value, "[") {
		if j := strings.LastIndexByte(value, ']'); j >= 2 {
			return rd.section(value[1:j], lineno)
		}
	}
	if rd.cur == nil {
		return cpRaise(excCPMissingSection, rd.fpname, starlark.MakeInt(lineno), starlark.String(line))
	}
	opt, val, ok := p.splitOption(value)
	if !ok {
		return rd.parseError(lineno, line)
	}
	if opt == "" {
		if err := rd.parseError(lineno, line); err != nil {
			return err
		}
	}
	name, err := p.xform(starlark.String(strings.TrimRightFunc(opt, cpSpace)))
	if err != nil {
		return err
	}
	key := rd.sectname + "\x00" + name
	if p.strict && rd.added[key] {
		return errDupOption(rd.sectname, name, rd.fpname, lineno)
	}
	rd.added[key] = true
	rd.optname = name
	if m := rd.pending[rd.cur]; m != nil {
		delete(m, name)
	}
	if val == nil {
		rd.cur.Set(name, starlark.None)
		return nil
	}
	if rd.pending[rd.cur] == nil {
		rd.pending[rd.cur] = map[string][]string{}
	}
	rd.pending[rd.cur][name] = []string{cpStrip(*val)}
	rd.cur.Set(name, starlark.String(""))
	return nil
}

func (rd *cpReader) section(name string, lineno int) error {
	p := rd.p
	rd.sectname = name
	rd.optname = ""
	if sec, ok := p.sections[name]; ok {
		if p.strict && rd.added[name] {
			return errDupSection(name, rd.fpname, lineno)
		}
		rd.cur = sec.opts
		rd.added[name] = true
	} else if name == p.defaultSection() {
		rd.cur = p.defaults.opts
	} else {
		rd.cur = p.newSection(name).opts
		rd.added[name] = true
	}
	return nil
}

// splitOption matches the option regex: the name before the first
// delimiter, and the value after it (nil for a valueless option when
// allow_no_value is set); ok is false when the line is no option.
func (p *cpParser) splitOption(value string) (string, *string, bool) {
	for i := 0; i < len(value); i++ {
		for _, d := range p.delimiters {
			if d != "" && strings.HasPrefix(value[i:], d) {
				rest := strings.TrimLeftFunc(value[i+len(d):], cpSpace)
				return strings.TrimRightFunc(value[:i], cpSpace), &rest, true
			}
		}
	}
	if p.allowNoValue {
		return value, nil, true
	}
	return "", nil, false
}

func (rd *cpReader) parseError(lineno int, line string) error {
	if rd.perr == nil {
		e := &pyrt.PyException{Typ: excCPParsing}
		if err := excCPParsing.Init(e, starlark.Tuple{rd.fpname}, nil); err != nil {
			return err
		}
		rd.perr = e
	}
	cpParsingAppend(rd.perr, lineno, line)
	return nil
}

// join makes the multi-line values read into str, as
// _join_multiline_values does.
func (rd *cpReader) join() {
	for opts, m := range rd.pending {
		for name, lines := range m {
			if _, ok := opts.vals[name]; ok {
				opts.vals[name] = starlark.String(strings.TrimRightFunc(strings.Join(lines, "\n"), cpSpace))
			}
		}
	}
}

// splitLines splits text after each "\n", as iterating a StringIO does.
func cpSplitLines(text string) []string {
	var lines []string
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i+1])
		text = text[i+1:]
	}
	return lines
}

// read is read(filenames): each file that opens is parsed; the others
// (any OSError) are skipped. It returns the names read.
func (p *cpParser) Read(filenames starlark.Value) (starlark.Value, error) {
	var names []starlark.Value
	switch filenames.(type) {
	case starlark.String, starlark.Bytes, *pyrt.Path:
		names = []starlark.Value{filenames}
	default:
		var err error
		if names, err = pyrt.ListOf(filenames); err != nil {
			return nil, err
		}
	}
	var ok []starlark.Value
	for _, n := range names {
		path, err := p.r.PathText("open", n)
		if err != nil {
			return nil, err
		}
		data, err := p.r.NewPath(path).Read("open")
		if err != nil {
			if p.r.ExceptionOf(err).Typ.IsSubclass(pyrt.ExcOSError) {
				continue
			}
			return nil, err
		}
		text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
		if err := p.parse(cpSplitLines(text), n); err != nil {
			return nil, err
		}
		if pth, isPath := n.(*pyrt.Path); isPath {
			n = starlark.String(pth.P)
		}
		ok = append(ok, n)
	}
	return starlark.NewList(ok), nil
}

// readFile is read_file(f, source=None): f is any iterable of lines.
func (p *cpParser) readFile(f, source starlark.Value) error {
	if source == nil || source == starlark.None {
		source = starlark.String("<???>")
		if h, ok := f.(starlark.HasAttrs); ok {
			if v, err := h.Attr("name"); err == nil && v != nil {
				source = v
			}
		}
	}
	var lines []string
	err := pyrt.Iterate(f, func(v starlark.Value) (bool, error) {
		s, ok := v.(starlark.String)
		if !ok {
			return false, pyrt.PyErrorf(pyrt.ExcTypeError, "read_file() needs lines of str, not %s", pyrt.PyTypeName(v))
		}
		lines = append(lines, string(s))
		return true, nil
	})
	if err != nil {
		return err
	}
	return p.parse(lines, source)
}

// readDict is read_dict(dictionary, source='<dict>').
func (p *cpParser) readDict(dictionary, source starlark.Value) error {
	added := map[string]bool{}
	sections, err := cpItemsOf(p.thread, dictionary)
	if err != nil {
		return err
	}
	for _, sk := range sections {
		name := pyrt.PyStr(sk[0])
		if err := p.addSection(starlark.String(name)); err != nil {
			pe, isPy := err.(*pyrt.PyError)
			isDup := isPy && (pe.Exc.Typ == excCPDupSection || pe.Exc.Typ == pyrt.ExcValueError)
			if !isDup || p.strict && added[name] {
				return err
			}
		}
		added[name] = true
		keys, err := cpItemsOf(p.thread, sk[1])
		if err != nil {
			return err
		}
		for _, kv := range keys {
			key, err := p.xform(starlark.String(pyrt.PyStr(kv[0])))
			if err != nil {
				return err
			}
			value := kv[1]
			if value != starlark.None {
				value = starlark.String(pyrt.PyStr(value))
			}
			if p.strict && added[name+"\x00"+key] {
				return errDupOption(name, key, source, 0)
			}
			added[name+"\x00"+key] = true
			if err := p.Set(starlark.String(name), starlark.String(key), value); err != nil {
				return err
			}
		}
	}
	return nil
}

// write is write(fp, space_around_delimiters=True).
func (p *cpParser) Write(thread *starlark.Thread, fp starlark.Value, spaces bool) error {
	if len(p.delimiters) == 0 {
		return pyrt.PyErrorf(pyrt.ExcIndexError, "tuple index out of range")
	}
	d := p.delimiters[0]
	if spaces {
		d = " " + d + " "
	}
	if len(p.defaults.opts.keys) > 0 {
		if err := p.writeSection(thread, fp, p.defaultSection(), p.defaults.opts, d); err != nil {
			return err
		}
	}
	for _, name := range p.order {
		if err := p.writeSection(thread, fp, name, p.sections[name].opts, d); err != nil {
			return err
		}
	}
	return nil
}

func (p *cpParser) writeSection(thread *starlark.Thread, fp starlark.Value, name string, opts *cpOptions, d string) error {
	w := func(s string) error {
		_, err := pyrt.CallMethod(thread, fp, "write", starlark.Tuple{starlark.String(s)}, nil)
		return err
	}
	if err := w("[" + name + "]\n"); err != nil {
		return err
	}
	for _, k := range opts.keys {
		v := opts.vals[k]
		text := ""
		if v != starlark.None || !p.allowNoValue {
			text = d + strings.ReplaceAll(pyrt.PyStr(v), "\n", "\n\t")
		}
		if err := w(k + text + "\n"); err != nil {
			return err
		}
	}
	return w("\n")
}
