// logging: loggers in a dotted hierarchy under the root logger, levels,
// basicConfig, StreamHandler/FileHandler/NullHandler, Formatter with
// %-, {- and $-style formats, and the module-level shortcuts. Output
// goes where CPython's goes: sys.stderr (the call's output) unless a
// stream or file is given. Handler and Filter subclasses written in the
// program are not supported (refused when added).

package pydev

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var logLevels = map[int]string{0: "NOTSET", 10: "DEBUG", 20: "INFO", 30: "WARNING", 40: "ERROR", 50: "CRITICAL"}
var logLevelNums = map[string]int{"NOTSET": 0, "DEBUG": 10, "INFO": 20, "WARNING": 30, "WARN": 30, "ERROR": 40, "CRITICAL": 50, "FATAL": 50}

func levelName(n int) string {
	if s, ok := logLevels[n]; ok {
		return s
	}
	return fmt.Sprintf("Level %d", n)
}

// levelArg reads a level: an int or a registered level name.
func levelArg(v starlark.Value) (int, error) {
	switch x := v.(type) {
	case starlark.String:
		if n, ok := logLevelNums[string(x)]; ok {
			return n, nil
		}
		return 0, pyrt.PyErrorf(pyrt.ExcValueError, "Unknown level: %s", pyrt.PyRepr(x))
	case starlark.Int, starlark.Bool:
		n, err := pyrt.IndexInt(x)
		return n, err
	}
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "Level not an integer or a valid string: %s", pyrt.PyRepr(v))
}

// logState is one REPL's logging module.
type logState struct {
	r       *pyrt.Interp
	root    *logger
	loggers map[string]*logger
	disable int
}

type logger struct {
	st        *logState
	name      string
	level     int
	parent    *logger
	handlerL  *starlark.List // logger.handlers, live: handlers[:] = [] and .clear() act; nil is empty
	propagate bool
	disabled  bool
}

var (
	_ starlark.HasAttrs    = (*logger)(nil)
	_ starlark.HasSetField = (*logger)(nil)
)

func (l *logger) String() string {
	kind := "Logger"
	if l.parent == nil {
		kind = "RootLogger"
	}
	return fmt.Sprintf("<%s %s (%s)>", kind, l.name, levelName(l.effective()))
}
func (l *logger) Type() string          { return "Logger" }
func (l *logger) Freeze()               {}
func (l *logger) Truth() starlark.Bool  { return true }
func (l *logger) Hash() (uint32, error) { return starlark.String(l.name).Hash() }

// handlers returns the logger's handlers; a value put in the list that is
// not one of logging's handlers is an error when a record reaches it.
func (l *logger) handlers() ([]*logHandler, error) {
	if l.handlerL == nil {
		return nil, nil
	}
	out := make([]*logHandler, 0, l.handlerL.Len())
	for i := 0; i < l.handlerL.Len(); i++ {
		h, ok := l.handlerL.Index(i).(*logHandler)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "logging handlers here are StreamHandler, FileHandler and NullHandler; a handler class of your own (%s) is not supported", pyrt.PyTypeName(l.handlerL.Index(i)))
		}
		out = append(out, h)
	}
	return out, nil
}

// setHandlers replaces the handlers, in the same list object.
func (l *logger) setHandlers(hs []*logHandler) {
	if l.handlerL == nil {
		l.handlerL = starlark.NewList(nil)
	}
	_ = l.handlerL.Clear()
	for _, h := range hs {
		_ = l.handlerL.Append(h)
	}
}

func (l *logger) handlerCount() int {
	if l.handlerL == nil {
		return 0
	}
	return l.handlerL.Len()
}

func (l *logger) effective() int {
	for c := l; c != nil; c = c.parent {
		if c.level != 0 {
			return c.level
		}
	}
	return 0
}

func (l *logger) enabledFor(level int) bool {
	return !l.disabled && level > l.st.disable && level >= l.effective()
}

// getLogger returns the logger called name, making it and fixing the
// parents of the loggers below it.
func (s *logState) getLogger(name string) *logger {
	if name == "" || name == "root" {
		return s.root
	}
	if l, ok := s.loggers[name]; ok {
		return l
	}
	l := &logger{st: s, name: name, propagate: true, parent: s.root}
	for p := name; strings.Contains(p, "."); {
		p = p[:strings.LastIndexByte(p, '.')]
		if q, ok := s.loggers[p]; ok {
			l.parent = q
			break
		}
	}
	for n, c := range s.loggers {
		if strings.HasPrefix(n, name+".") && (c.parent == l.parent) {
			c.parent = l
		}
	}
	s.loggers[name] = l
	return l
}

var logMethods = []string{"addHandler", "critical", "debug", "error", "exception", "fatal", "getChild", "getEffectiveLevel", "hasHandlers", "info", "isEnabledFor", "log", "removeHandler", "setLevel", "warn", "warning"}

func (l *logger) AttrNames() []string {
	return append([]string{"disabled", "handlers", "level", "name", "parent", "propagate"}, logMethods...)
}

func (l *logger) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(l.name), nil
	case "level":
		return starlark.MakeInt(l.level), nil
	case "parent":
		if l.parent == nil {
			return starlark.None, nil
		}
		return l.parent, nil
	case "propagate":
		return starlark.Bool(l.propagate), nil
	case "disabled":
		return starlark.Bool(l.disabled), nil
	case "handlers":
		if l.handlerL == nil {
			l.handlerL = starlark.NewList(nil)
		}
		return l.handlerL, nil
	}
	if lv, ok := logLevelNums[strings.ToUpper(name)]; ok && name == strings.ToLower(name) && name != "notset" {
		return pyrt.Builtin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Logger.%s() missing 1 required positional argument: 'msg'", name)
			}
			return starlark.None, l.log(thread, lv, args[0], args[1:], kw, false)
		}), nil
	}
	var f pyrt.BuiltinFunc
	switch name {
	case "exception":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Logger.exception() missing 1 required positional argument: 'msg'")
			}
			return starlark.None, l.log(thread, 40, args[0], args[1:], kw, true)
		}
	case "log":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) < 2 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Logger.log() missing required positional arguments: 'level' and 'msg'")
			}
			lv, err := starlark.AsInt32(args[0])
			if err != nil {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "level must be an integer")
			}
			return starlark.None, l.log(thread, lv, args[1], args[2:], kw, false)
		}
	case "setLevel":
		f = func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			n, err := levelArg(v)
			l.level = n
			return starlark.None, err
		}
	case "getEffectiveLevel":
		f = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(l.effective()), nil
		}
	case "isEnabledFor":
		f = func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var lv int
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &lv); err != nil {
				return nil, err
			}
			return starlark.Bool(l.enabledFor(lv)), nil
		}
	case "addHandler", "removeHandler":
		f = func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			h, ok := v.(*logHandler)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "logging handlers here are StreamHandler, FileHandler and NullHandler; a handler class of your own (%s) is not supported", pyrt.PyTypeName(v))
			}
			hs, err := l.handlers()
			if err != nil {
				return nil, err
			}
			for i, x := range hs {
				if x == h {
					if name == "removeHandler" {
						l.setHandlers(append(hs[:i:i], hs[i+1:]...))
					}
					return starlark.None, nil
				}
			}
			if name == "addHandler" {
				l.setHandlers(append(hs, h))
			}
			return starlark.None, nil
		}
	case "hasHandlers":
		f = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			for c := l; c != nil; c = c.parent {
				if c.handlerCount() > 0 {
					return starlark.True, nil
				}
				if !c.propagate {
					break
				}
			}
			return starlark.False, nil
		}
	case "getChild":
		f = func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var suffix string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &suffix); err != nil {
				return nil, err
			}
			if l.parent == nil {
				return l.st.getLogger(suffix), nil
			}
			return l.st.getLogger(l.name + "." + suffix), nil
		}
	default:
		return nil, nil
	}
	return pyrt.Builtin("Logger."+name, f), nil
}

func (l *logger) SetField(name string, v starlark.Value) error {
	switch name {
	case "propagate":
		l.propagate = bool(v.Truth())
	case "disabled":
		l.disabled = bool(v.Truth())
	case "level":
		n, err := levelArg(v)
		if err != nil {
			return err
		}
		l.level = n
	case "handlers":
		lst, ok := v.(*starlark.List)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "logger.handlers here must be a list, not %s", pyrt.PyTypeName(v))
		}
		l.handlerL = lst
	default:
		return pyrt.PyErrorf(pyrt.ExcAttribute, "setting Logger.%s is not supported in this REPL", name)
	}
	return nil
}

// log makes a record and hands it to the handlers of l and its parents.
func (l *logger) log(thread *starlark.Thread, level int, msg starlark.Value, args starlark.Tuple, kw []starlark.Tuple, excInfo bool) error {
	var extra starlark.Value
	for _, kv := range kw {
		switch k := string(kv[0].(starlark.String)); k {
		case "exc_info":
			excInfo = bool(kv[1].Truth())
		case "stack_info", "stacklevel":
		case "extra":
			extra = kv[1]
		default:
			return pyrt.PyErrorf(pyrt.ExcTypeError, "Logger._log() got an unexpected keyword argument '%s'", k)
		}
	}
	if !l.enabledFor(level) {
		return nil
	}
	rec := &logRecord{name: l.name, level: level, msg: msg, args: args, line: callerLine(thread), fn: callerFunc(thread), thread: thread}
	if len(args) == 1 {
		if _, ok := args[0].(starlark.Mapping); ok {
			rec.argsMap = args[0]
		}
	}
	if excInfo && len(l.st.r.Handling) > 0 {
		rec.exc = l.st.r.Handling[len(l.st.r.Handling)-1]
	}
	if extra != nil && extra != starlark.None {
		m, ok := extra.(starlark.IterableMapping)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "extra must be a dict")
		}
		rec.extra = starlark.StringDict{}
		for _, it := range m.Items() {
			rec.extra[pyrt.PyStr(it[0])] = it[1]
		}
	}
	found := 0
	for c := l; c != nil; c = c.parent {
		hs, err := c.handlers()
		if err != nil {
			return err
		}
		for _, h := range hs {
			found++
			if level >= h.level {
				if err := h.emit(thread, rec); err != nil {
					return err
				}
			}
		}
		if !c.propagate {
			break
		}
	}
	if found == 0 && level >= 30 {
		text, err := rec.message(thread)
		if err != nil {
			return err
		}
		return l.st.r.WriteStd(1, text+"\n") // logging.lastResort
	}
	return nil
}

// callerLine is the line of the Python code that called a builtin.
func callerLine(thread *starlark.Thread) int {
	if i := callerFrame(thread); i > 0 {
		return int(thread.CallFrame(i).Pos.Line)
	}
	return 0
}

// callerFrame is the depth of the innermost frame of the program's code
// below the logging call (logging.info calls the root logger's info: a
// builtin calling a builtin), or 0.
func callerFrame(thread *starlark.Thread) int {
	for i := 1; i < thread.CallStackDepth(); i++ {
		if _, ok := thread.DebugFrame(i).Callable().(*starlark.Builtin); !ok {
			return i
		}
	}
	return 0
}

// callerFunc is the name of the function that called the logging
// method, "<module>" at the top level, as Python's funcName.
func callerFunc(thread *starlark.Thread) string {
	if i := callerFrame(thread); i > 0 {
		switch name := thread.CallFrame(i).Name; {
		case name == "lambda":
			return "<lambda>"
		case name != "" && !strings.HasPrefix(name, "<"):
			return name
		}
	}
	return "<module>"
}

func sortedKeys(d starlark.StringDict) []string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
