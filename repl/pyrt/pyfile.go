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
	R                  *Interp
	Name               string // as given to open()
	Vpath              string // the virtual absolute path, for files open for writing
	P                  *Path  // nil for io.StringIO
	Mode               string
	Binary             bool
	Readable, Writable bool
	Data               string // what reads return; for writers, what is written so far
	Pos                int    // read position in data
	dirty, Closed      bool
	Encoding, Errors   string
	Newline            starlark.Value
}

var (
	_ starlark.HasAttrs = (*PyFile)(nil)
	_ starlark.Iterable = (*PyFile)(nil)
	_ ContextManager    = (*PyFile)(nil)
)

func (r *Interp) PyOpen(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fileV starlark.Value
	mode := "r"
	var buffering int
	var encoding, errs, newline, closefd, opener starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	if err := UnpackArgs("open", args, kw, "file", &fileV, "mode?", &mode, "buffering?", &buffering,
		"encoding?", &encoding, "errors?", &errs, "newline?", &newline, "closefd?", &closefd, "opener?", &opener); err != nil {
		return nil, err
	}
	name, err := r.PathText("open", fileV)
	if err != nil {
		return nil, err
	}
	if name == "" { // no file at all, not the working directory
		return nil, &GivenPathError{FsError: &FsError{Op: "open", Vpath: r.Cwd, Kind: FsNotFound}, Given: name}
	}
	f, err := r.OpenFile(name, mode, encoding, errs, newline)
	var fe *FsError
	if errors.As(err, &fe) && fe.Vpath == r.Host.Absolute(name) {
		return nil, &GivenPathError{FsError: fe, Given: name} // e.filename is the name as given, as in Python
	}
	return f, err
}

// givenPathError is a file error of open(name), with name as given.
type GivenPathError struct {
	*FsError
	Given  string
	Given2 string // the destination of a rename, as given: CPython's filename2
}

func (e *GivenPathError) Unwrap() error { return e.FsError }

func (r *Interp) OpenFile(name, mode string, encoding, errs, newline starlark.Value) (*PyFile, error) {
	f := &PyFile{R: r, Name: name, P: r.NewPath(name), Mode: mode, Encoding: "utf-8", Errors: "strict", Newline: newline}
	if s, ok := newline.(starlark.String); ok && s != "" && s != "\n" && s != "\r" && s != "\r\n" {
		return nil, PyErrorf(ExcValueError, "illegal newline value: %s", string(s))
	}
	if s, ok := encoding.(starlark.String); ok {
		f.Encoding = string(s)
	}
	if s, ok := errs.(starlark.String); ok {
		f.Errors = string(s)
	}
	kind := ""
	for _, c := range mode {
		switch c {
		case 'r', 'w', 'a', 'x':
			if kind != "" {
				return nil, PyErrorf(ExcValueError, "must have exactly one of create/read/write/append mode")
			}
			kind = string(c)
		case 'b':
			f.Binary = true
		case 't':
		case '+':
			return nil, PyErrorf(ExcValueError, "mode %s is not supported in this REPL: read the file with 'r', then write it with 'w' or 'a'", pystr.Quote(mode))
		default:
			return nil, PyErrorf(ExcValueError, "invalid mode: %s", pystr.Quote(mode))
		}
	}
	if kind == "" {
		return nil, PyErrorf(ExcValueError, "Must have exactly one of create/read/write/append mode and at most one plus")
	}
	switch kind {
	case "r":
		f.Readable = true
		raw, err := f.P.Read("open")
		if err != nil {
			return nil, err
		}
		if f.Data, err = f.Decode(string(raw)); err != nil {
			return nil, err
		}
	case "w", "x":
		f.Writable = true
		root, rel, v, err := r.Host.Locate("open", name)
		if err != nil {
			return nil, err
		}
		f.Vpath = v
		if kind == "x" {
			if _, err := root.Lstat(rel); err == nil {
				return nil, r.Host.FsErr("open", v, &FsError{"open", v, fsExists, ""})
			}
		}
		if err := root.WriteFile(rel, nil, 0o644); err != nil {
			return nil, r.Host.FsErr("open", v, err)
		}
	case "a":
		f.Writable = true
		root, rel, v, err := r.Host.Locate("open", name)
		if err != nil {
			return nil, err
		}
		f.Vpath = v
		if err := root.CheckWrite("open", rel); err != nil {
			return nil, r.Host.FsErr("open", v, err)
		}
		if _, err := root.Lstat(rel); err == nil {
			raw, err := f.P.Read("open")
			if err != nil {
				return nil, err
			}
			f.Data = string(raw)
		} else if err := root.WriteFile(rel, nil, 0o644); err != nil {
			return nil, r.Host.FsErr("open", v, err)
		}
	}
	r.OpenFiles = append(r.OpenFiles, f)
	return f, nil
}

// decode turns a file's bytes into what reads return.
func (f *PyFile) Decode(raw string) (string, error) {
	if f.Binary {
		return raw, nil
	}
	enc := f.Encoding
	if strings.EqualFold(strings.ReplaceAll(enc, "_", "-"), "utf-8-sig") {
		raw, enc = strings.TrimPrefix(raw, "\ufeff"), "utf-8"
	}
	s, err := decodeBytes(raw, enc, f.Errors)
	if err != nil {
		return "", err
	}
	if f.Newline == starlark.None {
		s = UniversalNewlines(s)
	}
	return s, nil
}

// universalNewlines turns \r\n and \r into \n, as Python's text files do.
func UniversalNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func (f *PyFile) String() string { return f.ReprPy() }
func (f *PyFile) ReprPy() string {
	if f.P == nil {
		return "<_io.StringIO object>"
	}
	if f.Binary {
		return "<_io.BufferedReader name=" + pystr.Quote(f.Name) + ">"
	}
	return "<_io.TextIOWrapper name=" + pystr.Quote(f.Name) + " mode=" + pystr.Quote(f.Mode) + " encoding='UTF-8'>"
}
func (f *PyFile) Type() string          { return "file" }
func (f *PyFile) Freeze()               {}
func (f *PyFile) Truth() starlark.Bool  { return true }
func (f *PyFile) Hash() (uint32, error) { return starlark.String(f.Name).Hash() }

func (f *PyFile) value(s string) starlark.Value {
	if f.Binary {
		return starlark.Bytes(s)
	}
	return starlark.String(s)
}

func (f *PyFile) Check(read bool) error {
	switch {
	case f.Closed:
		return PyErrorf(ExcValueError, "I/O operation on closed file.")
	case read && !f.Readable:
		return &PyError{&PyException{Typ: excUnsupportedOp, Args: starlark.Tuple{starlark.String("not readable")}}}
	case !read && !f.Writable:
		return &PyError{&PyException{Typ: excUnsupportedOp, Args: starlark.Tuple{starlark.String("not writable")}}}
	}
	return nil
}

// readLine returns the next line with its "\n", or "" at the end.
func (f *PyFile) readLine(limit int) string {
	rest := f.Data[f.Pos:]
	i := strings.IndexByte(rest, '\n')
	end := len(rest)
	if i >= 0 {
		end = i + 1
	}
	if limit >= 0 && limit < end {
		end = f.charsToBytes(rest, limit)
	}
	f.Pos += end
	return rest[:end]
}

// charsToBytes returns the byte length of the first n characters of s
// (bytes for binary files).
func (f *PyFile) charsToBytes(s string, n int) int {
	if f.Binary {
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
	if err := f.Check(true); err != nil {
		return nil, false, err
	}
	if f.Pos >= len(f.Data) {
		return nil, false, nil
	}
	return f.value(f.readLine(-1)), true, nil
}

type fileLines struct{ f *PyFile }

func (it *fileLines) Next(p *starlark.Value) bool {
	if it.f.Closed || !it.f.Readable || it.f.Pos >= len(it.f.Data) {
		return false
	}
	*p = it.f.value(it.f.readLine(-1))
	return true
}
func (it *fileLines) Done() {}

func (f *PyFile) Enter() (starlark.Value, error) {
	if f.Closed {
		return nil, PyErrorf(ExcValueError, "I/O operation on closed file.")
	}
	return f, nil
}

func (f *PyFile) Exit() error { return f.Close() }

// flush writes what was written to the file.
func (f *PyFile) flush() error {
	if !f.dirty || f.P == nil {
		return nil
	}
	r := f.R
	syncing := r.syncing
	r.syncing = true // this write's own locate must not sync again
	err := f.P.Write("write", []byte(f.Data))
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
		if f.dirty && (v == "" || f.Vpath == v || strings.HasPrefix(f.Vpath, v+"/") || v == "/") {
			_ = f.flush()
		}
	}
}

func (f *PyFile) Close() error {
	if f.Closed {
		return nil
	}
	err := f.flush()
	f.Closed = true
	return err
}

func (f *PyFile) AttrNames() []string {
	return []string{"close", "closed", "encoding", "flush", "getvalue", "mode", "name", "read", "readable", "readline",
		"readlines", "seek", "tell", "writable", "write", "writelines"}
}

func (f *PyFile) Attr(name string) (starlark.Value, error) {
	switch name {
	case "closed":
		return starlark.Bool(f.Closed), nil
	case "name":
		return starlark.String(f.Name), nil
	case "mode":
		return starlark.String(f.Mode), nil
	case "encoding":
		return starlark.String(f.Encoding), nil
	}
	m, ok := FileMethods[name]
	if !ok {
		return nil, nil
	}
	return Builtin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return m(f, b.Name(), args, kw)
	}), nil
}

var FileMethods = map[string]func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error){
	"read": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		size := -1
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &size); err != nil {
			return nil, err
		}
		if err := f.Check(true); err != nil {
			return nil, err
		}
		rest := f.Data[f.Pos:]
		if size >= 0 {
			rest = rest[:f.charsToBytes(rest, size)]
		}
		f.Pos += len(rest)
		return f.value(rest), nil
	},
	"readline": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		size := -1
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &size); err != nil {
			return nil, err
		}
		if err := f.Check(true); err != nil {
			return nil, err
		}
		return f.value(f.readLine(size)), nil
	},
	"readlines": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		hint := -1
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &hint); err != nil {
			return nil, err
		}
		if err := f.Check(true); err != nil {
			return nil, err
		}
		var out []starlark.Value
		total := 0
		for f.Pos < len(f.Data) && (hint <= 0 || total < hint) {
			l := f.readLine(-1)
			total += len(l)
			out = append(out, f.value(l))
		}
		return starlark.NewList(out), nil
	},
	"write": FileWrite,
	"writelines": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var lines starlark.Value
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &lines); err != nil {
			return nil, err
		}
		err := Iterate(lines, func(v starlark.Value) (bool, error) {
			_, err := FileWrite(f, "writelines", starlark.Tuple{v}, nil)
			return err == nil, err
		})
		return starlark.None, err
	},
	"flush": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if f.Closed {
			return nil, PyErrorf(ExcValueError, "I/O operation on closed file.")
		}
		return starlark.None, f.flush()
	},
	"close": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, f.Close()
	},
	"seek": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var off, whence int
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &off, &whence); err != nil {
			return nil, err
		}
		if f.Closed {
			return nil, PyErrorf(ExcValueError, "I/O operation on closed file.")
		}
		switch whence {
		case 1:
			off += f.Pos
		case 2:
			off += len(f.Data)
		}
		f.Pos = max(0, min(off, len(f.Data)))
		return starlark.MakeInt(f.Pos), nil
	},
	"tell": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if f.Writable && f.P != nil {
			return starlark.MakeInt(len(f.Data)), nil
		}
		return starlark.MakeInt(f.Pos), nil
	},
	"readable": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Bool(f.Readable), nil
	},
	"writable": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Bool(f.Writable), nil
	},
	"getvalue": func(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if f.P != nil {
			return nil, PyErrorf(ExcAttribute, "'%s' object has no attribute 'getvalue'", "TextIOWrapper")
		}
		return f.value(f.Data), nil
	},
}

func FileWrite(f *PyFile, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &x); err != nil {
		return nil, err
	}
	if err := f.Check(false); err != nil {
		return nil, err
	}
	var s string
	switch v := x.(type) {
	case starlark.String:
		if f.Binary {
			return nil, PyErrorf(ExcTypeError, "a bytes-like object is required, not 'str'")
		}
		s = string(v)
	case starlark.Bytes:
		if !f.Binary {
			return nil, PyErrorf(ExcTypeError, "write() argument must be str, not bytes")
		}
		s = string(v)
	default:
		return nil, PyErrorf(ExcTypeError, "write() argument must be str, not %s", PyTypeName(x))
	}
	if f.P == nil {
		f.Data = f.Data[:f.Pos] + s + f.Data[min(f.Pos+len(s), len(f.Data)):]
		f.Pos += len(s)
	} else {
		f.Data += s
		f.dirty = true
	}
	if f.Binary {
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
			notes = append(notes, "could not write "+f.Name+" (left open): "+ErrorMessage(err))
		}
		if !f.Closed {
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
			if err := UnpackArgs(b.Name(), args, kw, "initial_value?", &initial); err != nil {
				return nil, err
			}
			s, _ := TextOf(initial)
			return &PyFile{R: r, Name: "<StringIO>", Mode: "r+", Binary: binary, Readable: true, Writable: true, Data: s, Newline: starlark.None}, nil
		}
	}
	return NewModule("io", starlark.StringDict{
		"StringIO": Builtin("io.StringIO", stringIO(false)), "BytesIO": Builtin("io.BytesIO", stringIO(true)),
		"UnsupportedOperation": excUnsupportedOp,
		"open":                 Builtin("io.open", r.PyOpen),
	})
}

// pathText returns a str or Path argument as the path text it holds.
func (r *Interp) PathText(fn string, v starlark.Value) (string, error) {
	switch v := v.(type) {
	case starlark.String:
		return string(v), nil
	case *Path:
		return v.P, nil
	case starlark.Bytes:
		return string(v), nil
	}
	return "", PyErrorf(ExcTypeError, "%s: expected str, bytes or os.PathLike object, not %s", fn, PyTypeName(v))
}
