// The file object of gzip.open and gzip.GzipFile: an in-memory file whose
// contents are decompressed when opened or compressed when closed.

package pyarchive

import (
	"fmt"
	"path"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

type gzipFile struct {
	r       *pyrt.Interp
	inner   *pyrt.PyFile // what reads read and writes write, uncompressed
	target  *pyrt.Path   // the file, or nil for fileobj
	fileobj *pyrt.PyFile
	name    string
	prefix  string // for mode "a", the members already in the file
	level   int
	mtime   int64
	writing bool
	closed  bool
}

var (
	_ starlark.HasAttrs   = (*gzipFile)(nil)
	_ starlark.Iterable   = (*gzipFile)(nil)
	_ pyrt.ContextManager = (*gzipFile)(nil)
)

func newGzipFile(r *pyrt.Interp, fileV starlark.Value, mode string, level int, mtimeV starlark.Value, text bool) (*gzipFile, error) {
	if !strings.Contains(mode, "b") {
		mode += "b"
	}
	if strings.Trim(mode, "rwaxb") != "" {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "invalid mode: %s", pystr.Quote(mode))
	}
	kind := strings.TrimSuffix(mode, "b")
	if kind != "r" && kind != "w" && kind != "a" && kind != "x" || strings.Count(mode, "b") > 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Invalid mode: %s", pystr.Quote(mode))
	}
	if level < 0 || level > 9 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Invalid initialization option")
	}
	mtime, err := gzipMtime(mtimeV)
	if err != nil {
		return nil, err
	}
	g := &gzipFile{r: r, level: level, mtime: mtime, writing: kind != "r"}
	g.inner = &pyrt.PyFile{R: r, Mode: mode, Binary: true, Encoding: "utf-8", Errors: "strict", Newline: starlark.None}
	var raw string
	if f, ok := fileV.(*pyrt.PyFile); ok {
		g.fileobj, g.name = f, ""
		if f.P != nil {
			g.name = f.Name
		}
		if !g.writing {
			if err := f.Check(true); err != nil {
				return nil, err
			}
			raw, f.Pos = f.Data[f.Pos:], len(f.Data)
		}
	} else {
		name, err := r.PathText("open", fileV)
		if err != nil {
			return nil, err
		}
		g.name, g.target = name, r.NewPath(name)
		if g.writing {
			if raw, err = g.prepareWrite(kind); err != nil {
				return nil, err
			}
			g.prefix = raw
		} else {
			data, err := g.target.Read("open")
			if err != nil {
				return nil, err
			}
			raw = string(data)
		}
	}
	g.inner.Name = g.name
	if g.writing {
		g.inner.Writable = true
		return g, nil
	}
	out, err := gzipDecompress([]byte(raw))
	if err != nil {
		return nil, err
	}
	g.inner.Readable, g.inner.Data = true, string(out)
	return g, nil
}

// prepareWrite creates or truncates the file now, as Python does, and for
// mode "a" returns what it holds already.
func (g *gzipFile) prepareWrite(kind string) (string, error) {
	root, rel, v, err := g.r.Host.Locate("open", g.name)
	if err != nil {
		return "", err
	}
	_, statErr := root.Lstat(rel)
	switch {
	case kind == "x" && statErr == nil:
		return "", g.r.Host.FsErr("open", v, &pyrt.FsError{Op: "open", Vpath: v, Kind: pyrt.FsExists, Reason: ""})
	case kind == "a" && statErr == nil:
		data, err := g.target.Read("open")
		return string(data), err
	}
	return "", g.r.Host.FsErr("open", v, root.WriteFile(rel, nil, 0o644))
}

func (g *gzipFile) Close() error {
	if g.closed {
		return nil
	}
	g.closed, g.inner.Closed = true, true
	if !g.writing {
		return nil
	}
	name := path.Base(g.name)
	if g.fileobj != nil && g.fileobj.P == nil {
		name = ""
	}
	name = strings.TrimSuffix(name, ".gz")
	out, err := gzipCompress([]byte(g.inner.Data), g.level, g.mtime, name, 255)
	if err != nil {
		return err
	}
	if g.fileobj != nil {
		_, err := pyrt.FileWrite(g.fileobj, "write", starlark.Tuple{starlark.Bytes(out)}, nil)
		return err
	}
	return g.target.Write("close", append([]byte(g.prefix), out...))
}

func (g *gzipFile) Enter() (starlark.Value, error) {
	if g.closed {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "I/O operation on closed file.")
	}
	return g, nil
}
func (g *gzipFile) Exit() error { return g.Close() }

func (g *gzipFile) String() string { return g.ReprPy() }
func (g *gzipFile) ReprPy() string {
	if !g.inner.Binary {
		return "<_io.TextIOWrapper name=" + pystr.Quote(g.name) + " encoding='" + g.inner.Encoding + "'>"
	}
	return fmt.Sprintf("<gzip _io.BufferedReader name=%s %p>", pystr.Quote(g.name), g)
}
func (g *gzipFile) Type() string               { return "GzipFile" }
func (g *gzipFile) Freeze()                    {}
func (g *gzipFile) Truth() starlark.Bool       { return true }
func (g *gzipFile) Hash() (uint32, error)      { return starlark.String(g.name).Hash() }
func (g *gzipFile) Iterate() starlark.Iterator { return g.inner.Iterate() }

func (g *gzipFile) AttrNames() []string {
	return []string{"close", "closed", "flush", "name", "read", "readable", "readline", "readlines",
		"seek", "tell", "writable", "write", "writelines"}
}

func (g *gzipFile) Attr(name string) (starlark.Value, error) {
	switch name {
	case "closed":
		return starlark.Bool(g.closed), nil
	case "name":
		return starlark.String(g.name), nil
	case "close":
		return pyrt.Builtin("close", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, g.Close()
		}), nil
	case "flush":
		return pyrt.Builtin("flush", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			if g.closed {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "I/O operation on closed file.")
			}
			return starlark.None, nil
		}), nil
	case "write":
		if g.inner.Binary {
			return pyrt.Builtin("write", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				if len(args) == 1 {
					if _, ok := args[0].(starlark.Bytes); !ok {
						return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "memoryview: a bytes-like object is required, not '%s'", pyrt.PyTypeName(args[0]))
					}
				}
				return pyrt.FileWrite(g.inner, "write", args, kw)
			}), nil
		}
		return g.inner.Attr(name)
	case "read", "readline", "readlines", "writelines", "seek", "tell", "readable", "writable":
		return g.inner.Attr(name)
	}
	return nil, nil
}
