// logging's module functions and handler methods.

package pydev

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func (h *logHandler) AttrNames() []string {
	return []string{"close", "flush", "format", "formatter", "level", "setFormatter", "setLevel", "stream", "terminator"}
}

func (h *logHandler) Attr(name string) (starlark.Value, error) {
	switch name {
	case "level":
		return starlark.MakeInt(h.level), nil
	case "formatter":
		if h.formatter == nil {
			return starlark.None, nil
		}
		return h.formatter, nil
	case "terminator":
		return starlark.String(h.term), nil
	case "stream":
		if h.stream == nil {
			return sysStream(h.r, 1), nil
		}
		return h.stream, nil
	case "baseFilename":
		if h.file != "" {
			return starlark.String(h.file), nil
		}
	}
	var f pyrt.BuiltinFunc
	switch name {
	case "setLevel":
		f = func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			n, err := levelArg(v)
			h.level = n
			return starlark.None, err
		}
	case "setFormatter":
		f = func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			switch x := v.(type) {
			case *logFormatter:
				h.formatter = x
			case starlark.NoneType:
				h.formatter = nil
			default:
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "logging.Formatter subclasses of your own are not supported in this REPL; pass the format to logging.Formatter")
			}
			return starlark.None, nil
		}
	case "flush", "close":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if h.file != "" && h.stream != nil {
				_, err := pyrt.CallMethod(thread, h.stream, name, nil, nil)
				return starlark.None, err
			}
			return starlark.None, nil
		}
	case "format":
		f = func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var rec *logRecord
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &rec); err != nil {
				return nil, err
			}
			fm := h.formatter
			if fm == nil {
				fm = &logFormatter{fmt: "%(message)s", style: "%"}
			}
			s, err := fm.format(thread, rec)
			return starlark.String(s), err
		}
	default:
		return nil, nil
	}
	return pyrt.Builtin("Handler."+name, f), nil
}

func (h *logHandler) SetField(name string, v starlark.Value) error {
	if name == "terminator" {
		h.term = pyrt.PyStr(v)
		return nil
	}
	return pyrt.PyErrorf(pyrt.ExcAttribute, "setting %s.%s is not supported in this REPL", h.kind, name)
}

// sysStream is sys.stdout (0) or sys.stderr (1).
func sysStream(r *pyrt.Interp, stream int) starlark.Value {
	if stream == 1 {
		return &pyrt.StdStream{R: r, Name: "<stderr>"}
	}
	return &pyrt.StdStream{R: r, Name: "<stdout>"}
}

func fileHandler(r *pyrt.Interp, thread *starlark.Thread, filename starlark.Value, mode string) (*logHandler, error) {
	name, err := r.PathText("FileHandler", filename)
	if err != nil {
		return nil, err
	}
	f, err := r.PyOpen(thread, nil, starlark.Tuple{filename, starlark.String(mode)}, []starlark.Tuple{{starlark.String("encoding"), starlark.String("utf-8")}})
	if err != nil {
		return nil, err
	}
	return &logHandler{r: r, kind: "FileHandler", stream: f, file: name, term: "\n"}, nil
}

func loggingModule(r *pyrt.Interp) starlark.Value {
	st := &logState{r: r, loggers: map[string]*logger{}}
	st.root = &logger{st: st, name: "root", level: 30, propagate: true}
	members := starlark.StringDict{
		"root": st.root,
		"getLogger": pyrt.Builtin("getLogger", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var name starlark.Value = starlark.None
			if err := pyrt.UnpackArgs("getLogger", args, kw, "name?", &name); err != nil {
				return nil, err
			}
			if name == starlark.None {
				return st.root, nil
			}
			s, ok := name.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "A logger name must be a string")
			}
			return st.getLogger(string(s)), nil
		}),
		"getLevelName": pyrt.Builtin("getLevelName", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			if s, ok := v.(starlark.String); ok {
				if n, ok := logLevelNums[string(s)]; ok && string(s) != "WARN" && string(s) != "FATAL" {
					return starlark.MakeInt(n), nil
				}
				return starlark.String("Level " + string(s)), nil
			}
			n, err := pyrt.IndexInt(v)
			if err != nil {
				return starlark.String("Level " + pyrt.PyStr(v)), nil
			}
			return starlark.String(levelName(n)), nil
		}),
		"disable": pyrt.Builtin("disable", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value = starlark.MakeInt(50)
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "level?", &v); err != nil {
				return nil, err
			}
			n, err := levelArg(v)
			st.disable = n
			return starlark.None, err
		}),
		"basicConfig": pyrt.Builtin("basicConfig", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, st.basicConfig(thread, args, kw)
		}),
		"Formatter": pyrt.Builtin("Formatter", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var fmtS, datefmt starlark.Value = starlark.None, starlark.None
			style := "%"
			var validate bool
			if err := pyrt.UnpackArgs("Formatter", args, kw, "fmt?", &fmtS, "datefmt?", &datefmt, "style?", &style, "validate?", &validate); err != nil {
				return nil, err
			}
			return newLogFormatter(optStr(fmtS), optStr(datefmt), style)
		}),
		"StreamHandler": pyrt.Builtin("StreamHandler", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var stream starlark.Value = starlark.None
			if err := pyrt.UnpackArgs("StreamHandler", args, kw, "stream?", &stream); err != nil {
				return nil, err
			}
			return streamHandler(r, stream), nil
		}),
		"FileHandler": pyrt.Builtin("FileHandler", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var filename, encoding, delay, errs starlark.Value
			mode := "a"
			if err := pyrt.UnpackArgs("FileHandler", args, kw, "filename", &filename, "mode?", &mode, "encoding?", &encoding, "delay?", &delay, "errors?", &errs); err != nil {
				return nil, err
			}
			return fileHandler(r, thread, filename, mode)
		}),
		"NullHandler": pyrt.Builtin("NullHandler", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return &logHandler{r: r, kind: "NullHandler", null: true, term: "\n"}, nil
		}),
		"shutdown": pyrt.Builtin("shutdown", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}),
		"BASIC_FORMAT": starlark.String("%(levelname)s:%(name)s:%(message)s"),
	}
	for name, n := range logLevelNums {
		members[name] = starlark.MakeInt(n)
	}
	for _, name := range []string{"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"} {
		name := name
		members[name] = pyrt.Builtin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if st.root.handlerCount() == 0 {
				if err := st.basicConfig(thread, nil, nil); err != nil {
					return nil, err
				}
			}
			m, _ := st.root.Attr(name)
			return starlark.Call(thread, m, args, kw)
		})
	}
	return pyrt.NewModule("logging", members)
}

func optStr(v starlark.Value) string {
	if v == nil || v == starlark.None {
		return ""
	}
	return pyrt.PyStr(v)
}

func streamHandler(r *pyrt.Interp, stream starlark.Value) *logHandler {
	h := &logHandler{r: r, kind: "StreamHandler", term: "\n"}
	if s, ok := stream.(*pyrt.StdStream); ok && s.Stream() == 1 {
		stream = starlark.None
	}
	if stream != starlark.None {
		h.stream = stream
	}
	return h
}

// basicConfig configures the root logger once (again with force=True).
func (st *logState) basicConfig(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) error {
	if len(args) > 0 {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "basicConfig() takes 0 positional arguments but %d were given", len(args))
	}
	var level, format, datefmt, stream, filename, handlers starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	style, filemode := "%", "a"
	var force bool
	var encoding, errs starlark.Value
	if err := pyrt.UnpackArgs("basicConfig", nil, kw, "level?", &level, "format?", &format, "datefmt?", &datefmt, "style?", &style,
		"stream?", &stream, "filename?", &filename, "filemode?", &filemode, "handlers?", &handlers, "force?", &force, "encoding?", &encoding, "errors?", &errs); err != nil {
		return err
	}
	if force {
		st.root.setHandlers(nil)
	}
	if st.root.handlerCount() > 0 {
		return nil
	}
	if stream != starlark.None && filename != starlark.None {
		return pyrt.PyErrorf(pyrt.ExcValueError, "'stream' and 'filename' should not be specified together")
	}
	fm, err := newLogFormatter(optStr(format), optStr(datefmt), style)
	if err != nil {
		return err
	}
	if format == starlark.None {
		fm.fmt = map[string]string{"%": "%(levelname)s:%(name)s:%(message)s", "{": "{levelname}:{name}:{message}"}[style]
	}
	var hs []*logHandler
	switch {
	case handlers != starlark.None:
		err = pyrt.Iterate(handlers, func(v starlark.Value) (bool, error) {
			h, ok := v.(*logHandler)
			if !ok {
				return false, pyrt.PyErrorf(pyrt.ExcTypeError, "logging handlers here are StreamHandler, FileHandler and NullHandler, not %s", pyrt.PyTypeName(v))
			}
			hs = append(hs, h)
			return true, nil
		})
	case filename != starlark.None:
		var h *logHandler
		h, err = fileHandler(st.r, thread, filename, filemode)
		hs = append(hs, h)
	default:
		hs = append(hs, streamHandler(st.r, stream))
	}
	if err != nil {
		return err
	}
	for _, h := range hs {
		if h.formatter == nil {
			h.formatter = fm
		}
	}
	st.root.setHandlers(hs)
	if level != starlark.None {
		n, err := levelArg(level)
		if err != nil {
			return err
		}
		st.root.level = n
	}
	return nil
}
