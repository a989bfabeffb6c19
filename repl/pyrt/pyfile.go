// open(): file objects over the mounts, and io.StringIO.

package pyrt

import (
	"errors"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

// pyFile is an open file. Reading files are read whole when opened
// (subject to the memory limit), text decoded with Python's universal
// newlines; writes are kept and written to the file, whole, on flush(),
// close(), the end of a with block and the end of the REPL call, so a
// file left open is never left unwritten. Pending writes are also
// written before anything else touches the file's path (a read, a stat,
// a copy, another open: see syncFiles) and before a command starts, so
// open(p, "w").write(s) followed by a read of p or a command sees s, as
// in CPython, which closes an unreferenced file at once. Permissions are
// checked when the file is opened (a file opened for writing is created
// or truncated then, as in Python) and again at each write.
type PyFile struct {
	r                  *Interp
	name               string // as given to open()
	vpath              string // the virtual absolute path, for files open for writing
	p                  *Path  // nil for io.StringIO
	mode               string
	binary             bool
	readable, writable bool
	data               string // what reads return; for writers, what is written so far
	pos                int    // read position in data
	dirty, closed      bool
	encoding, errors   string
	newline            starlark.Value
}

var (
	_ starlark.HasAttrs = (*PyFile)(nil)
	_ starlark.Iterable = (*PyFile)(nil)
	_ contextManager    = (*PyFile)(nil)
)

func (r *Interp) pyOpen(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fileV starlark.Value
	mode := "r"
	var buffering int
	var encoding, errs, newline, closefd, opener starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs("open", args, kw, "file", &fileV, "mode?", &mode, "buffering?", &buffering,
		"encoding?", &encoding, "errors?", &errs, "newline?", &newline, "closefd?", &closefd, "opener?", &opener); err != nil {
		return nil, err
	}
	name, err := r.pathText("open", fileV)
	if err != nil {
		return nil, err
	}
	f, err := r.openFile(name, mode, encoding, errs, newline)
	var fe *FsError
	if errors.As(err, &fe) && fe.Vpath == r.Host.Absolute(name) {
		return nil, &givenPathError{fe, name} // e.filename is the name as given, as in Python
	}
	return f, err
}

// givenPathError is a file error of open(name), with name as given.
type givenPathError struct {
	*FsError
	given string
}

func (e *givenPathError) Unwrap() error { return e.FsError }

func (r *Interp) openFile(name, mode string, encoding, errs, newline starlark.Value) (*PyFile, error) {
	f := &PyFile{r: r, name: name, p: r.newPath(name), mode: mode, encoding: "utf-8", errors: "strict", newline: newline}
	if s, ok := encoding.(starlark.String); ok {
		f.encoding = string(s)
	}
	if s, ok := errs.(starlark.String); ok {
		f.errors = string(s)
	}
	kind := ""
	for _, c := range mode {
		switch c {
		case 'r', 'w', 'a', 'x':
			if kind != "" {
				return nil, pyErrorf(excValueError, "must have exactly one of create/read/write/append mode")
			}
			kind = string(c)
		case 'b':
			f.binary = true
		case 't':
		case '+':
			return nil, pyErrorf(excValueError, "mode %s is not supported in this REPL: read the file with 'r', then write it with 'w' or 'a'", pystr.Quote(mode))
		default:
			return nil, pyErrorf(excValueError, "invalid mode: %s", pystr.Quote(mode))
		}
	}
	if kind == "" {
		return nil, pyErrorf(excValueError, "Must have exactly one of create/read/write/append mode and at most one plus")
	}
	switch kind {
	case "r":
		f.readable = true
		raw, err := f.p.read("open")
		if err != nil {
			return nil, err
		}
		if f.data, err = f.decode(string(raw)); err != nil {
			return nil, err
		}
	case "w", "x":
		f.writable = true
		root, rel, v, err := r.Host.Locate("open", name)
		if err != nil {
			return nil, err
		}
		f.vpath = v
		if kind == "x" {
			if _, err := root.Lstat(rel); err == nil {
				return nil, r.Host.FsErr("open", v, &FsError{"open", v, fsExists, ""})
			}
		}
		if err := root.WriteFile(rel, nil, 0o644); err != nil {
			return nil, r.Host.FsErr("open", v, err)
		}
	case "a":
		f.writable = true
		root, rel, v, err := r.Host.Locate("open", name)
		if err != nil {
			return nil, err
		}
		f.vpath = v
		if err := root.CheckWrite("open", rel); err != nil {
			return nil, r.Host.FsErr("open", v, err)
		}
		if _, err := root.Lstat(rel); err == nil {
			raw, err := f.p.read("open")
			if err != nil {
				return nil, err
			}
			f.data = string(raw)
		} else if err := root.WriteFile(rel, nil, 0o644); err != nil {
			return nil, r.Host.FsErr("open", v, err)
		}
	}
	r.OpenFiles = append(r.OpenFiles, f)
	return f, nil
}

// decode turns a file's bytes into what reads return.
func (f *PyFile) decode(raw string) (string, error) {
	if f.binary {
		return raw, nil
	}
	enc := f.encoding
	if strings.EqualFold(strings.ReplaceAll(enc, "_", "-"), "utf-8-sig") {
		raw, enc = strings.TrimPrefix(raw, "\ufeff"), "utf-8"
	}
	s, err := decodeBytes(raw, enc, f.errors)
	if err != nil {
		return "", err
	}
	if f.newline == starlark.None {
		s = universalNewlines(s)
	}
	return s, nil
}

// universalNewlines turns \r\n and \r into \n, as Python's text files do.
func universalNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func (f *PyFile) String() string { return f.reprPy() }
func (f *PyFile) reprPy() string {
	if f.p == nil {
		return "<_io.StringIO object>"
	}
	if f.binary {
		return "<_io.BufferedReader name=" + pystr.Quote(f.name) + ">"
	}
	return "<_io.TextIOWrapper name=" + pystr.Quote(f.name) + " mode=" + pystr.Quote(f.mode) + " encoding='UTF-8'>"
}
func (f *PyFile) Type() string          { return "file" }
func (f *PyFile) Freeze()               {}
func (f *PyFile) Truth() starlark.Bool  { return true }
func (f *PyFile) Hash() (uint32, error) { return starlark.String(f.name).Hash() }

func (f *PyFile) value(s string) starlark.Value {
	if f.binary {
		return starlark.Bytes(s)
	}
	return starlark.String(s)
}

func (f *PyFile) check(read bool) error {
	switch {
	case f.closed:
		return pyErrorf(excValueError, "I/O operation on closed file.")
	case read && !f.readable:
		return &pyError{&PyException{Typ: excUnsupportedOp, args: starlark.Tuple{starlark.String("not readable")}}}
	case !read && !f.writable:
		return &pyError{&PyException{Typ: excUnsupportedOp, args: starlark.Tuple{starlark.String("not writable")}}}
	}
	return nil
}

// readLine returns the next line with its "\n", or "" at the end.
func (f *PyFile) readLine(limit int) string {
	rest := f.data[f.pos:]
	i := strings.IndexByte(rest, '\n')
	end := len(rest)
	if i >= 0 {
		end = i + 1
	}
	if limit >= 0 && limit < end {
		end = f.charsToBytes(rest, limit)
	}
	f.pos += end
	return rest[:end]
}

// charsToBytes returns the byte length of the first n characters of s
// (bytes for binary files).
func (f *PyFile) charsToBytes(s string, n int) int {
	if f.binary {
		return min(n, len(s))
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

func (f *PyFile) Iterate() starlark.Iterator { return &fileLines{f} }

// nextLine is next(f): the next line, or false at the end.
func (f *PyFile) nextLine() (starlark.Value, bool, error) {
	if err := f.check(true); err != nil {
		return nil, false, err
	}
	if f.pos >= len(f.data) {
		return nil, false, nil
	}
	return f.value(f.readLine(-1)), true, nil
}

type fileLines struct{ f *PyFile }

func (it *fileLines) Next(p *starlark.Value) bool {
	if it.f.closed || !it.f.readable || it.f.pos >= len(it.f.data) {
		return false
	}
	*p = it.f.value(it.f.readLine(-1))
	return true
}
func (it *fileLines) Done() {}

func (f *PyFile) enter() (starlark.Value, error) {
	if f.closed {
		return nil, pyErrorf(excValueError, "I/O operation on closed file.")
	}
	return f, nil
}

func (f *PyFile) exit() error { return f.close() }

// flush writes what was written to the file.
func (f *PyFile) flush() error {
	if !f.dirty || f.p == nil {
		return nil
	}
	r := f.r
	syncing := r.syncing
	r.syncing = true // this write's own locate must not sync again
	err := f.p.write("write", []byte(f.data))
	r.syncing = syncing
	if err != nil {
		return err
	}
	f.dirty = false
	return nil
}

// syncFiles writes the pending writes of the open files at virtual path v
// or beneath it (all of them when v is ""), before an operation on v
// reads the file system or a command starts. A file that cannot be
// written keeps its writes, and the error comes at its close or at the
// end of the call.
func (r *Interp) SyncFiles(v string) {
	if r.syncing || len(r.OpenFiles) == 0 {
		return
	}
	for _, f := range r.OpenFiles {
		if f.dirty && (v == "" || f.vpath == v || strings.HasPrefix(f.vpath, v+"/") || v == "/") {
			_ = f.flush()
		}
	}
}

func (f *PyFile) close() error {
	if f.closed {
		return nil
	}
	err := f.flush()
	f.closed = true
	return err
}

func (f *PyFile) AttrNames() []string {
	return []string{"close", "closed", "encoding", "flush", "getvalue", "mode", "name", "read", "readable", "readline",
		"readlines", "seek", "tell", "writable", "write", "writelines"}
}

func (f *PyFile) Attr(name string) (starlark.Value, error) {
	switch name {
	case "closed":
		return starlark.Bool(f.closed), nil
	case "name":
		return starlark.String(f.name), nil
	case "mode":
		return starlark.String(f.mode), nil
	case "encoding":
		return starlark.String(f.encoding), nil
	}
	m, ok := fileMethods[name]
	if !ok {
		return nil, nil
	}
	return builtin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return m(f, b.Name(), args, kw)
	}), nil
}

var fileMethods = map[string]func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error){
	"read": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		size := -1
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &size); err != nil {
			return nil, err
		}
		if err := f.check(true); err != nil {
			return nil, err
		}
		rest := f.data[f.pos:]
		if size >= 0 {
			rest = rest[:f.charsToBytes(rest, size)]
		}
		f.pos += len(rest)
		return f.value(rest), nil
	},
	"readline": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		size := -1
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &size); err != nil {
			return nil, err
		}
		if err := f.check(true); err != nil {
			return nil, err
		}
		return f.value(f.readLine(size)), nil
	},
	"readlines": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		hint := -1
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &hint); err != nil {
			return nil, err
		}
		if err := f.check(true); err != nil {
			return nil, err
		}
		var out []starlark.Value
		total := 0
		for f.pos < len(f.data) && (hint <= 0 || total < hint) {
			l := f.readLine(-1)
			total += len(l)
			out = append(out, f.value(l))
		}
		return starlark.NewList(out), nil
	},
	"write": fileWrite,
	"writelines": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var lines starlark.Value
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &lines); err != nil {
			return nil, err
		}
		err := iterate(lines, func(v starlark.Value) (bool, error) {
			_, err := fileWrite(f, "writelines", starlark.Tuple{v}, nil)
			return err == nil, err
		})
		return starlark.None, err
	},
	"flush": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if f.closed {
			return nil, pyErrorf(excValueError, "I/O operation on closed file.")
		}
		return starlark.None, f.flush()
	},
	"close": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, f.close()
	},
	"seek": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var off, whence int
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &off, &whence); err != nil {
			return nil, err
		}
		if f.closed {
			return nil, pyErrorf(excValueError, "I/O operation on closed file.")
		}
		switch whence {
		case 1:
			off += f.pos
		case 2:
			off += len(f.data)
		}
		f.pos = max(0, min(off, len(f.data)))
		return starlark.MakeInt(f.pos), nil
	},
	"tell": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if f.writable && f.p != nil {
			return starlark.MakeInt(len(f.data)), nil
		}
		return starlark.MakeInt(f.pos), nil
	},
	"readable": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Bool(f.readable), nil
	},
	"writable": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Bool(f.writable), nil
	},
	"getvalue": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if f.p != nil {
			return nil, pyErrorf(ExcAttribute, "'%s' object has no attribute 'getvalue'", "TextIOWrapper")
		}
		return f.value(f.data), nil
	},
}

func fileWrite(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &x); err != nil {
		return nil, err
	}
	if err := f.check(false); err != nil {
		return nil, err
	}
	var s string
	switch v := x.(type) {
	case starlark.String:
		if f.binary {
			return nil, pyErrorf(excTypeError, "a bytes-like object is required, not 'str'")
		}
		s = string(v)
	case starlark.Bytes:
		if !f.binary {
			return nil, pyErrorf(excTypeError, "write() argument must be str, not bytes")
		}
		s = string(v)
	default:
		return nil, pyErrorf(excTypeError, "write() argument must be str, not %s", pyTypeName(x))
	}
	if f.p == nil {
		f.data = f.data[:f.pos] + s + f.data[min(f.pos+len(s), len(f.data)):]
		f.pos += len(s)
	} else {
		f.data += s
		f.dirty = true
	}
	if f.binary {
		return starlark.MakeInt(len(s)), nil
	}
	return starlark.MakeInt(utf8.RuneCountInString(s)), nil
}

// flushFiles writes the files left open at the end of a call; it returns
// a notice for each that could not be written.
func (r *Interp) FlushFiles() string {
	var notes []string
	keep := r.OpenFiles[:0]
	for _, f := range r.OpenFiles {
		if err := f.flush(); err != nil {
			notes = append(notes, "could not write "+f.name+" (left open): "+ErrorMessage(err))
		}
		if !f.closed {
			keep = append(keep, f)
		}
	}
	r.OpenFiles = keep
	return strings.Join(notes, "\n")
}

func (r *Interp) ioModule() starlark.Value {
	stringIO := func(binary bool) BuiltinFunc {
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var initial starlark.Value = starlark.String("")
			if binary {
				initial = starlark.Bytes("")
			}
			if err := starlark.UnpackArgs(b.Name(), args, kw, "initial_value?", &initial); err != nil {
				return nil, err
			}
			s, _ := textOf(initial)
			return &PyFile{r: r, name: "<StringIO>", mode: "r+", binary: binary, readable: true, writable: true, data: s, newline: starlark.None}, nil
		}
	}
	return newModule("io", starlark.StringDict{
		"StringIO": builtin("io.StringIO", stringIO(false)), "BytesIO": builtin("io.BytesIO", stringIO(true)),
		"UnsupportedOperation": excUnsupportedOp,
		"open":                 builtin("io.open", r.pyOpen),
	})
}

// pathText returns a str or Path argument as the path text it holds.
func (r *Interp) pathText(fn string, v starlark.Value) (string, error) {
	switch v := v.(type) {
	case starlark.String:
		return string(v), nil
	case *Path:
		return v.P, nil
	case starlark.Bytes:
		return string(v), nil
	}
	return "", pyErrorf(excTypeError, "%s: expected str, bytes or os.PathLike object, not %s", fn, pyTypeName(v))
}
