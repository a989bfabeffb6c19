// tempfile's files: NamedTemporaryFile over the mounts, the in-memory
// TemporaryFile, and the descriptors of mkstemp with os.write, os.close
// and os.fdopen.

package pyfs

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// tempMode checks a tempfile mode: binary, readable, writable.
func tempMode(mode string) (binary, readable, writable bool, err error) {
	kind := ""
	for _, c := range mode {
		switch c {
		case 'r', 'w', 'a', 'x':
			if kind != "" {
				return false, false, false, pyrt.PyErrorf(pyrt.ExcValueError, "must have exactly one of create/read/write/append mode")
			}
			kind = string(c)
		case 'b':
			binary = true
		case '+':
			readable, writable = true, true
		case 't':
		default:
			return false, false, false, pyrt.PyErrorf(pyrt.ExcValueError, "invalid mode: '%s'", mode)
		}
	}
	if kind == "" {
		return false, false, false, pyrt.PyErrorf(pyrt.ExcValueError, "Must have exactly one of create/read/write/append mode and at most one plus")
	}
	return binary, readable || kind == "r", writable || kind != "r", nil
}

func tempFileArgs(r *pyrt.Interp, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple, extra ...any) (*pyrt.PyFile, *tempNames, error) {
	mode := "w+b"
	var buffering int
	var encoding, newline, errs starlark.Value = starlark.None, starlark.None, starlark.None
	t := newTempNames()
	pairs := append([]any{"mode?", &mode, "buffering?", &buffering, "encoding?", &encoding, "newline?", &newline}, t.args()...)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, append(append(pairs, extra...), "errors?", &errs)...); err != nil {
		return nil, nil, err
	}
	binary, readable, writable, err := tempMode(mode)
	if err != nil {
		return nil, nil, err
	}
	f := &pyrt.PyFile{R: r, Mode: mode, Binary: binary, Readable: readable, Writable: writable, Encoding: "utf-8", Errors: "strict", Newline: newline}
	if s, ok := encoding.(starlark.String); ok {
		f.Encoding = string(s)
	}
	if s, ok := errs.(starlark.String); ok {
		f.Errors = string(s)
	}
	return f, t, nil
}

// tempMemoryFile is TemporaryFile and SpooledTemporaryFile: a file that
// no one else sees, here an io.BytesIO or io.StringIO.
func tempMemoryFile(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var maxSize int
	var extra []any
	if strings.HasSuffix(b.Name(), "SpooledTemporaryFile") {
		args, kw = spooledArgs(args, kw, &maxSize)
	}
	f, _, err := tempFileArgs(r, b, args, kw, extra...)
	if err != nil {
		return nil, err
	}
	f.Name, f.Readable, f.Writable = "<StringIO>", true, true
	return f, nil
}

// spooledArgs takes SpooledTemporaryFile's first argument, max_size.
func spooledArgs(args starlark.Tuple, kw []starlark.Tuple, maxSize *int) (starlark.Tuple, []starlark.Tuple) {
	if len(args) > 0 {
		return args[1:], kw
	}
	var rest []starlark.Tuple
	for _, p := range kw {
		if s, _ := starlark.AsString(p[0]); s != "max_size" {
			rest = append(rest, p)
		}
	}
	return args, rest
}

// tempNamed is a NamedTemporaryFile: its file, removed when closed if
// delete is true.
type tempNamed struct {
	f      *pyrt.PyFile
	delete bool
}

var (
	_ starlark.HasAttrs   = (*tempNamed)(nil)
	_ starlark.Iterable   = (*tempNamed)(nil)
	_ pyrt.ContextManager = (*tempNamed)(nil)
)

func tempNamedFile(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	t := &tempNamed{delete: true}
	f, names, err := tempFileArgs(r, b, args, kw, "delete?", &t.delete)
	if err != nil {
		return nil, err
	}
	name, err := tempCreate(r, b.Name(), names, fileSpot)
	if err != nil {
		return nil, err
	}
	f.Name, f.P, f.Vpath = name, r.NewPath(name), r.Host.Absolute(name)
	r.OpenFiles = append(r.OpenFiles, f)
	t.f = f
	return t, nil
}

func (t *tempNamed) String() string {
	return fmt.Sprintf("<tempfile._TemporaryFileWrapper object at %p>", t)
}
func (t *tempNamed) Type() string                   { return "_TemporaryFileWrapper" }
func (t *tempNamed) Freeze()                        {}
func (t *tempNamed) Truth() starlark.Bool           { return true }
func (t *tempNamed) Hash() (uint32, error)          { return starlark.String(t.f.Name).Hash() }
func (t *tempNamed) Iterate() starlark.Iterator     { return t.f.Iterate() }
func (t *tempNamed) Enter() (starlark.Value, error) { _, err := t.f.Enter(); return t, err }
func (t *tempNamed) Exit() error                    { return t.Close() }

func (t *tempNamed) AttrNames() []string {
	return append(t.f.AttrNames(), "delete", "file")
}

func (t *tempNamed) Attr(name string) (starlark.Value, error) {
	switch name {
	case "delete":
		return starlark.Bool(t.delete), nil
	case "file":
		return t.f, nil
	case "close":
		return pyrt.Builtin("close", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return starlark.None, t.Close()
		}), nil
	}
	return t.f.Attr(name)
}

func (t *tempNamed) Close() error {
	if t.f.Closed {
		return nil
	}
	if err := t.f.Close(); err != nil || !t.delete {
		return err
	}
	r := t.f.R
	root, rel, v, err := r.Host.Locate("unlink", t.f.Name)
	if err != nil {
		return err
	}
	if _, err := root.Lstat(rel); err != nil {
		return nil // removed already: CPython ignores it
	}
	return r.Host.FsErr("unlink", v, root.Remove(rel))
}

// fdTable is the descriptors mkstemp returned, by number: the path each
// names. It lives in r.modules under a name no import can give.
type fdTable struct {
	next  int
	paths map[int]string
}

const fdTableKey = "\x00fds"

func (*fdTable) String() string        { return "<descriptors>" }
func (*fdTable) Type() string          { return "descriptors" }
func (*fdTable) Freeze()               {}
func (*fdTable) Truth() starlark.Bool  { return true }
func (*fdTable) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable") }

func fds(r *pyrt.Interp) *fdTable {
	if t, ok := r.Modules[fdTableKey].(*fdTable); ok {
		return t
	}
	t := &fdTable{next: 3, paths: map[int]string{}}
	r.Modules[fdTableKey] = t
	return t
}

func (t *fdTable) open(path string) int {
	fd := t.next
	t.next++
	t.paths[fd] = path
	return fd
}

func fdPath(r *pyrt.Interp, fn string, fd int) (string, error) {
	p, ok := fds(r).paths[fd]
	if !ok {
		return "", pyrt.PyErrorf(pyrt.ExcOSError, "[Errno 9] Bad file descriptor")
	}
	return p, nil
}

// osWrite is os.write(fd, data) on a descriptor of mkstemp: it appends.
func osWrite(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fd int
	var data starlark.Bytes
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &fd, &data); err != nil {
		return nil, err
	}
	name, err := fdPath(r, b.Name(), fd)
	if err != nil {
		return nil, err
	}
	p := r.NewPath(name)
	old, err := p.Read("write")
	if err != nil {
		return nil, err
	}
	if err := p.Write("write", append(old, data...)); err != nil {
		return nil, err
	}
	return starlark.MakeInt(len(data)), nil
}

func osClose(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fd int
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &fd); err != nil {
		return nil, err
	}
	if _, err := fdPath(r, b.Name(), fd); err != nil {
		return nil, err
	}
	delete(fds(r).paths, fd)
	return starlark.None, nil
}

// osFdopen is os.fdopen(fd, mode): the file of a descriptor of mkstemp,
// whose close closes the descriptor. Writing modes keep what os.write
// wrote, as the descriptor's position is its end here.
func osFdopen(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fd, buffering int
	mode := "r"
	var encoding, errs, newline starlark.Value = starlark.None, starlark.None, starlark.None
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "fd", &fd, "mode?", &mode, "buffering?", &buffering,
		"encoding?", &encoding, "errors?", &errs, "newline?", &newline); err != nil {
		return nil, err
	}
	name, err := fdPath(r, b.Name(), fd)
	if err != nil {
		return nil, err
	}
	delete(fds(r).paths, fd)
	open := strings.Replace(mode, "w", "a", 1)
	return r.OpenFile(name, open, encoding, errs, newline)
}
