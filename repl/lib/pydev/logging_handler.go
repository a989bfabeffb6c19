// logging's records, formatters and handlers.

package pydev

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// logRecord is one logging call.
type logRecord struct {
	name    string
	level   int
	msg     starlark.Value
	args    starlark.Tuple
	argsMap starlark.Value // args when it is one mapping
	line    int
	fn      string // funcName; "" is "<module>"
	exc     *pyrt.PyException
	extra   starlark.StringDict
	when    time.Time
	thread  *starlark.Thread
}

func (rec *logRecord) message(thread *starlark.Thread) (string, error) {
	s := pyrt.PyStr(rec.msg)
	if len(rec.args) == 0 {
		return s, nil
	}
	var args starlark.Value = rec.args
	if rec.argsMap != nil {
		args = rec.argsMap
	}
	return pyrt.PercentFormat(thread, s, args)
}

// attrs is the record's __dict__ as formats see it.
func (rec *logRecord) attrs(thread *starlark.Thread) (starlark.StringDict, error) {
	text, err := rec.message(thread)
	if err != nil {
		return nil, err
	}
	if rec.when.IsZero() {
		rec.when = time.Now()
	}
	var args starlark.Value = rec.args
	if rec.argsMap != nil {
		args = rec.argsMap
	}
	d := starlark.StringDict{
		"name": starlark.String(rec.name), "msg": rec.msg, "args": args, "message": starlark.String(text),
		"levelname": starlark.String(levelName(rec.level)), "levelno": starlark.MakeInt(rec.level),
		"pathname": starlark.String("program.py"), "filename": starlark.String("program.py"), "module": starlark.String("program"),
		"lineno": starlark.MakeInt(rec.line), "funcName": starlark.String(cmp.Or(rec.fn, "<module>")),
		"created": starlark.Float(float64(rec.when.UnixNano()) / 1e9), "msecs": starlark.Float(float64(rec.when.Nanosecond()/1e6) + 0.0),
		"threadName": starlark.String("MainThread"), "processName": starlark.String("MainProcess"),
		"exc_info": starlark.None, "exc_text": starlark.None, "stack_info": starlark.None,
	}
	for k, v := range rec.extra {
		d[k] = v
	}
	return d, nil
}

// logFormatter is logging.Formatter.
type logFormatter struct {
	fmt, datefmt, style string
}

func (f *logFormatter) String() string        { return "<logging.Formatter object>" }
func (f *logFormatter) Type() string          { return "Formatter" }
func (f *logFormatter) Freeze()               {}
func (f *logFormatter) Truth() starlark.Bool  { return true }
func (f *logFormatter) Hash() (uint32, error) { return 0, nil }

var defaultLogFmt = map[string]string{"%": "%(message)s", "{": "{message}", "$": "${message}"}

func newLogFormatter(fmtS, datefmt, style string) (*logFormatter, error) {
	if _, ok := defaultLogFmt[style]; !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Style must be one of: %%,{,$")
	}
	if fmtS == "" {
		fmtS = defaultLogFmt[style]
	}
	if style == "$" {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "logging's $-style formats are not supported in this REPL; use style='%%' or '{'")
	}
	return &logFormatter{fmt: fmtS, datefmt: datefmt, style: style}, nil
}

func (f *logFormatter) usesTime() bool {
	if f.style == "{" {
		return strings.Contains(f.fmt, "{asctime")
	}
	return strings.Contains(f.fmt, "%(asctime)")
}

func (f *logFormatter) format(thread *starlark.Thread, rec *logRecord) (string, error) {
	d, err := rec.attrs(thread)
	if err != nil {
		return "", err
	}
	if f.usesTime() {
		t := rec.when
		if f.datefmt != "" {
			d["asctime"] = starlark.String(pyrt.Strftime(t, f.datefmt))
		} else {
			d["asctime"] = starlark.String(fmt.Sprintf("%s,%03d", t.Format("2006-01-02 15:04:05"), t.Nanosecond()/1e6))
		}
	}
	var s string
	if f.style == "{" {
		kw := make([]starlark.Tuple, 0, len(d))
		for _, k := range sortedKeys(d) {
			kw = append(kw, starlark.Tuple{starlark.String(k), d[k]})
		}
		v, err := pyrt.CallMethod(thread, starlark.String(f.fmt), "format", nil, kw)
		if err != nil {
			return "", err
		}
		s = pyrt.PyStr(v)
	} else {
		m := starlark.NewDict(len(d))
		for k, v := range d {
			_ = m.SetKey(starlark.String(k), v)
		}
		if s, err = pyrt.PercentFormat(thread, f.fmt, m); err != nil {
			return "", err
		}
	}
	if rec.exc != nil {
		s += "\n" + formatExcText(rec.exc)
	}
	return s, nil
}

func (f *logFormatter) AttrNames() []string { return []string{"datefmt", "format", "formatTime"} }
func (f *logFormatter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "datefmt":
		if f.datefmt == "" {
			return starlark.None, nil
		}
		return starlark.String(f.datefmt), nil
	case "format":
		return pyrt.Builtin("Formatter.format", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var rec *logRecord
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &rec); err != nil {
				return nil, err
			}
			s, err := f.format(thread, rec)
			return starlark.String(s), err
		}), nil
	}
	return nil, nil
}

func (rec *logRecord) String() string {
	return fmt.Sprintf("<LogRecord: %s, %d, program.py, %d, %s>", rec.name, rec.level, rec.line, pyrt.PyRepr(rec.msg))
}
func (rec *logRecord) Type() string          { return "LogRecord" }
func (rec *logRecord) Freeze()               {}
func (rec *logRecord) Truth() starlark.Bool  { return true }
func (rec *logRecord) Hash() (uint32, error) { return 0, nil }
func (rec *logRecord) AttrNames() []string {
	return []string{"args", "filename", "funcName", "getMessage", "levelname", "levelno", "lineno", "module", "msg", "name", "pathname"}
}
func (rec *logRecord) Attr(name string) (starlark.Value, error) {
	if name == "getMessage" {
		return pyrt.Builtin("LogRecord.getMessage", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			s, err := rec.message(thread)
			return starlark.String(s), err
		}), nil
	}
	d, err := rec.attrs(rec.thread)
	if err != nil {
		return nil, err
	}
	return d[name], nil
}

// logHandler is StreamHandler (stream nil: sys.stderr), FileHandler
// (file an open file of the REPL) or NullHandler.
type logHandler struct {
	r         *pyrt.Interp
	kind      string
	level     int
	formatter *logFormatter
	stream    starlark.Value
	file      string // FileHandler's path as given
	null      bool
	term      string
}

func (h *logHandler) String() string {
	target := ""
	switch {
	case h.file != "":
		target = h.file + " "
	case h.kind == "StreamHandler" && h.stream == nil:
		target = "<stderr> "
	}
	return fmt.Sprintf("<%s %s(%s)>", h.kind, target, levelName(h.level))
}
func (h *logHandler) Type() string          { return h.kind }
func (h *logHandler) Freeze()               {}
func (h *logHandler) Truth() starlark.Bool  { return true }
func (h *logHandler) Hash() (uint32, error) { return 0, nil }

func (h *logHandler) emit(thread *starlark.Thread, rec *logRecord) error {
	if h.null {
		return nil
	}
	f := h.formatter
	if f == nil {
		f = &logFormatter{fmt: "%(message)s", style: "%"}
	}
	s, err := f.format(thread, rec)
	if err != nil {
		return err
	}
	s += h.term
	if h.stream == nil {
		return h.r.WriteStd(1, s)
	}
	if _, err := pyrt.CallMethod(thread, h.stream, "write", starlark.Tuple{starlark.String(s)}, nil); err != nil {
		return err
	}
	if h.file != "" {
		_, err = pyrt.CallMethod(thread, h.stream, "flush", nil, nil)
	}
	return err
}
