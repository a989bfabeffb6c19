// warnings: warn, filterwarnings, simplefilter, resetwarnings and
// catch_warnings(record=...), with CPython 3.11's default filters and its
// "program.py:LINE: Category: message" line on stderr.

package pydev

import (
	"fmt"
	"regexp"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

type warnFilter struct {
	action   string
	message  *regexp.Regexp // nil: any
	category *pyrt.ExcType
	lineno   int
}

type warnState struct {
	r        *pyrt.Interp
	filters  []warnFilter
	shown    map[string]bool // "default" and "module" registry, cleared when filters change
	once     map[string]bool
	record   *starlark.List // catch_warnings(record=True)'s list, or nil
	showHook starlark.Value // showwarning replaced by the program, or nil
}

func defaultWarnFilters() []warnFilter {
	return []warnFilter{
		{action: "default", category: pyrt.ExcDeprecation, lineno: -1}, // default::DeprecationWarning:__main__
		{action: "ignore", category: pyrt.ExcDeprecation},
		{action: "ignore", category: excPendingDeprecation},
		{action: "ignore", category: excImportWarning},
		{action: "ignore", category: excResourceWarning},
	}
}

var (
	excPendingDeprecation = &pyrt.ExcType{TypeName: "PendingDeprecationWarning", Base: pyrt.ExcWarning}
	excImportWarning      = &pyrt.ExcType{TypeName: "ImportWarning", Base: pyrt.ExcWarning}
	excResourceWarning    = &pyrt.ExcType{TypeName: "ResourceWarning", Base: pyrt.ExcWarning}
	excSyntaxWarning      = &pyrt.ExcType{TypeName: "SyntaxWarning", Base: pyrt.ExcWarning}
	excFutureWarning      = &pyrt.ExcType{TypeName: "FutureWarning", Base: pyrt.ExcWarning}
	excBytesWarning       = &pyrt.ExcType{TypeName: "BytesWarning", Base: pyrt.ExcWarning}
	excUnicodeWarning     = &pyrt.ExcType{TypeName: "UnicodeWarning", Base: pyrt.ExcWarning}
	excEncodingWarning    = &pyrt.ExcType{TypeName: "EncodingWarning", Base: pyrt.ExcWarning}
)

var warnActions = map[string]bool{"default": true, "error": true, "ignore": true, "always": true, "module": true, "once": true}

func (w *warnState) addFilter(action, message string, category *pyrt.ExcType, lineno int, appendIt bool) error {
	if !warnActions[action] {
		return pyrt.PyErrorf(pyrt.ExcValueError, "invalid action: %s", pyrt.PyRepr(starlark.String(action)))
	}
	f := warnFilter{action: action, category: category, lineno: lineno}
	if message != "" {
		re, err := regexp.Compile("(?i)^(?:" + message + ")")
		if err != nil {
			return pyrt.PyErrorf(pyrt.ExcValueError, "bad message pattern %q: %v", message, err)
		}
		f.message = re
	}
	if appendIt {
		w.filters = append(w.filters, f)
	} else {
		w.filters = append([]warnFilter{f}, w.filters...)
	}
	w.shown = map[string]bool{}
	return nil
}

// action is the filter action for a warning.
func (w *warnState) action(text string, cat *pyrt.ExcType, line int) string {
	for _, f := range w.filters {
		if f.message != nil && !f.message.MatchString(text) {
			continue
		}
		if !cat.IsSubclass(f.category) || (f.lineno > 0 && f.lineno != line) {
			continue
		}
		return f.action
	}
	return "default"
}

// warn is warnings.warn(message, category, stacklevel).
func (w *warnState) warn(thread *starlark.Thread, msg starlark.Value, cat *pyrt.ExcType, stacklevel int) error {
	var exc *pyrt.PyException
	if e, ok := msg.(*pyrt.PyException); ok && e.Typ.IsSubclass(pyrt.ExcWarning) {
		exc, cat = e, e.Typ
	} else {
		v, err := cat.CallInternal(thread, starlark.Tuple{msg}, nil)
		if err != nil {
			return err
		}
		exc = v.(*pyrt.PyException)
	}
	text := exc.Str()
	line := 0
	if d := thread.CallStackDepth(); stacklevel < d {
		line = int(thread.CallFrame(stacklevel).Pos.Line)
	}
	key := fmt.Sprintf("%s\x00%s\x00%d", text, cat.TypeName, line)
	switch w.action(text, cat, line) {
	case "ignore":
		return nil
	case "error":
		return &pyrt.PyError{Exc: exc}
	case "once":
		k := text + "\x00" + cat.TypeName
		if w.once[k] {
			return nil
		}
		w.once[k] = true
	case "module":
		k := text + "\x00" + cat.TypeName + "\x00module"
		if w.shown[k] {
			return nil
		}
		w.shown[k] = true
	case "default":
		if w.shown[key] {
			return nil
		}
		w.shown[key] = true
	}
	if w.record != nil {
		return w.record.Append(&warnMessage{exc: exc, cat: cat, line: line})
	}
	if w.showHook != nil {
		_, err := starlark.Call(thread, w.showHook, starlark.Tuple{exc, cat, starlark.String("program.py"), starlark.MakeInt(line)}, nil)
		return err
	}
	return w.r.WriteStd(1, formatWarning(text, cat, line))
}

func formatWarning(text string, cat *pyrt.ExcType, line int) string {
	return fmt.Sprintf("program.py:%d: %s: %s\n", line, cat.TypeName, text)
}

// warnMessage is what catch_warnings(record=True) records.
type warnMessage struct {
	exc  *pyrt.PyException
	cat  *pyrt.ExcType
	line int
}

func (m *warnMessage) String() string {
	return fmt.Sprintf("{message : %s, category : %s, filename : 'program.py', lineno : %d, line : None}", m.exc.ReprPy(), pyrt.PyRepr(starlark.String(m.cat.TypeName)), m.line)
}
func (m *warnMessage) Type() string          { return "WarningMessage" }
func (m *warnMessage) Freeze()               {}
func (m *warnMessage) Truth() starlark.Bool  { return true }
func (m *warnMessage) Hash() (uint32, error) { return 0, nil }
func (m *warnMessage) AttrNames() []string {
	return []string{"category", "file", "filename", "line", "lineno", "message", "source"}
}
func (m *warnMessage) Attr(name string) (starlark.Value, error) {
	switch name {
	case "message":
		return m.exc, nil
	case "category":
		return m.cat, nil
	case "filename":
		return starlark.String("program.py"), nil
	case "lineno":
		return starlark.MakeInt(m.line), nil
	case "line", "file", "source":
		return starlark.None, nil
	}
	return nil, nil
}

// catchWarnings is warnings.catch_warnings(): filters, registry and
// showwarning restored on exit.
type catchWarnings struct {
	w      *warnState
	record bool
	saved  warnState
}

func (c *catchWarnings) String() string {
	return fmt.Sprintf("catch_warnings(record=%s)", pyrt.PyRepr(starlark.Bool(c.record)))
}
func (c *catchWarnings) Type() string          { return "catch_warnings" }
func (c *catchWarnings) Freeze()               {}
func (c *catchWarnings) Truth() starlark.Bool  { return true }
func (c *catchWarnings) Hash() (uint32, error) { return 0, nil }
func (c *catchWarnings) Enter() (starlark.Value, error) {
	c.saved = *c.w
	c.w.filters = append([]warnFilter(nil), c.w.filters...)
	c.w.shown = map[string]bool{}
	if c.record {
		c.w.record, c.w.showHook = starlark.NewList(nil), nil
		return c.w.record, nil
	}
	return starlark.None, nil
}
func (c *catchWarnings) Exit() error {
	c.w.filters, c.w.record, c.w.showHook = c.saved.filters, c.saved.record, c.saved.showHook
	c.w.shown = map[string]bool{}
	return nil
}

func warningsModule(r *pyrt.Interp) starlark.Value {
	w := &warnState{r: r, filters: defaultWarnFilters(), shown: map[string]bool{}, once: map[string]bool{}}
	category := func(name string, v starlark.Value) (*pyrt.ExcType, error) {
		if v == nil || v == starlark.None {
			return pyrt.ExcUserWarning, nil
		}
		t, ok := v.(*pyrt.ExcType)
		if !ok || !t.IsSubclass(pyrt.ExcWarning) {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "category must be a Warning subclass, not '%s'", pyrt.PyTypeName(v))
		}
		return t, nil
	}
	filter := func(name string, simple bool) *starlark.Builtin {
		return pyrt.Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var action, message, module string
			var cat starlark.Value = pyrt.ExcWarning
			lineno, appendIt := 0, false
			var err error
			if simple {
				err = pyrt.UnpackArgs(name, args, kw, "action", &action, "category?", &cat, "lineno?", &lineno, "append?", &appendIt)
			} else {
				err = pyrt.UnpackArgs(name, args, kw, "action", &action, "message?", &message, "category?", &cat, "module?", &module, "lineno?", &lineno, "append?", &appendIt)
			}
			if err != nil {
				return nil, err
			}
			t, err := category(name, cat)
			if err != nil {
				return nil, err
			}
			if module != "" {
				if re, rerr := regexp.Compile("^(?:" + module + ")"); rerr != nil || !re.MatchString("__main__") {
					return starlark.None, nil // a filter for another module never matches REPL code
				}
			}
			return starlark.None, w.addFilter(action, message, t, lineno, appendIt)
		})
	}
	members := starlark.StringDict{
		"warn": pyrt.Builtin("warn", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var msg, cat starlark.Value
			stacklevel := 1
			var source starlark.Value
			if err := pyrt.UnpackArgs("warn", args, kw, "message", &msg, "category?", &cat, "stacklevel?", &stacklevel, "source?", &source); err != nil {
				return nil, err
			}
			t, err := category("warn", cat)
			if err != nil {
				return nil, err
			}
			return starlark.None, w.warn(thread, msg, t, stacklevel)
		}),
		"filterwarnings": filter("filterwarnings", false),
		"simplefilter":   filter("simplefilter", true),
		"resetwarnings": pyrt.Builtin("resetwarnings", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			w.filters, w.shown = nil, map[string]bool{}
			return starlark.None, nil
		}),
		"formatwarning": pyrt.Builtin("formatwarning", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var msg, cat, filename, line starlark.Value
			var lineno int
			if err := pyrt.UnpackArgs("formatwarning", args, kw, "message", &msg, "category", &cat, "filename", &filename, "lineno", &lineno, "line?", &line); err != nil {
				return nil, err
			}
			return starlark.String(fmt.Sprintf("%s:%d: %s: %s\n", pyrt.PyStr(filename), lineno, pyrt.PyStr(pyrt.MustAttr(cat, "__name__")), pyrt.PyStr(msg))), nil
		}),
		"catch_warnings": pyrt.Builtin("catch_warnings", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			record := false
			if err := pyrt.UnpackArgs("catch_warnings", args, kw, "record?", &record); err != nil {
				return nil, err
			}
			return &catchWarnings{w: w, record: record}, nil
		}),
	}
	for _, t := range []*pyrt.ExcType{pyrt.ExcWarning, pyrt.ExcUserWarning, pyrt.ExcDeprecation, pyrt.ExcRuntimeWarning, excPendingDeprecation, excImportWarning, excResourceWarning, excSyntaxWarning, excFutureWarning, excBytesWarning, excUnicodeWarning, excEncodingWarning} {
		members[t.TypeName] = t
	}
	return pyrt.NewModule("warnings", members)
}
