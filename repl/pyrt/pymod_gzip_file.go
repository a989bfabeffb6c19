// The file object of gzip.open and gzip.GzipFile: an in-memory file whose
// contents are decompressed when opened or compressed when closed.

package pyrt

import (
	"fmt"
	"path"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

type gzipFile struct {
	r       *Interp
	inner   *PyFile // what reads read and writes write, uncompressed
	target  *Path   // the file, or nil for fileobj
	fileobj *PyFile
	name    string
	prefix  string // for mode "a", the members already in the file
	level   int
	mtime   int64
	writing bool
	closed  bool
}

var (
	_ starlark.HasAttrs = (*gzipFile)(nil)
	_ starlark.Iterable = (*gzipFile)(nil)
	_ contextManager    = (*gzipFile)(nil)
)

func (r *Interp) newGzipFile(fileV starlark.Value, mode string, level int, mtimeV starlark.Value, text bool) (*gzipFile, error) {
	if !strings.Contains(mode, "b") {
		mode += "b"
	}
	if strings.Trim(mode, "rwaxb") != "" {
		return nil, pyErrorf(excValueError, "invalid mode: %s", pystr.Quote(mode))
	}
	kind := strings.TrimSuffix(mode, "b")
	if kind != "r" && kind != "w" && kind != "a" && kind != "x" || strings.Count(mode, "b") > 1 {
		return nil, pyErrorf(excValueError, "Invalid mode: %s", pystr.Quote(mode))
	}
	if level < 0 || level > 9 {
		return nil, pyErrorf(excValueError, "Invalid initialization option")
	}
	mtime, err := gzipMtime(mtimeV)
	if err != nil {
		return nil, err
	}
	g := &gzipFile{r: r, level: level, mtime: mtime, writing: kind != "r"}
	g.inner = &PyFile{r: r, mode: mode, binary: true, encoding: "utf-8", errors: "strict", newline: starlark.None}
	var raw string
	if f, ok := fileV.(*PyFile); ok {
		g.fileobj, g.name = f, ""
		if f.p != nil {
			g.name = f.name
		}
		if !g.writing {
			if err := f.check(true); err != nil {
				return nil, err
			}
			raw, f.pos = f.data[f.pos:], len(f.data)
		}
	} else {
		name, err := r.pathText("open", fileV)
		if err != nil {
			return nil, err
		}
		g.name, g.target = name, r.newPath(name)
		if g.writing {
			if raw, err = g.prepareWrite(kind); err != nil {
				return nil, err
			}
			g.prefix = raw
		} else {
			data, err := g.target.read("open")
			if err != nil {
				return nil, err
			}
			raw = string(data)
		}
	}
	g.inner.name = g.name
	if g.writing {
		g.inner.writable = true
		return g, nil
	}
	out, err := gzipDecompress([]byte(raw))
	if err != nil {
		return nil, err
	}
	g.inner.readable, g.inner.data = true, string(out)
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
		return "", g.r.Host.FsErr("open", v, &FsError{"open", v, fsExists, ""})
	case kind == "a" && statErr == nil:
		data, err := g.target.read("open")
		return string(data), err
	}
	return "", g.r.Host.FsErr("open", v, root.WriteFile(rel, nil, 0o644))
}

func (g *gzipFile) close() error {
	if g.closed {
		return nil
	}
	g.closed, g.inner.closed = true, true
	if !g.writing {
		return nil
	}
	name := path.Base(g.name)
	if g.fileobj != nil && g.fileobj.p == nil {
		name = ""
	}
	name = strings.TrimSuffix(name, ".gz")
	out, err := gzipCompress([]byte(g.inner.data), g.level, g.mtime, name, 255)
	if err != nil {
		return err
	}
	if g.fileobj != nil {
		_, err := fileWrite(g.fileobj, "write", starlark.Tuple{starlark.Bytes(out)}, nil)
		return err
	}
	return g.target.write("close", append([]byte(g.prefix), out...))
}

func (g *gzipFile) enter() (starlark.Value, error) {
	if g.closed {
		return nil, pyErrorf(excValueError, "I/O operation on closed file.")
	}
	return g, nil
}
func (g *gzipFile) exit() error { return g.close() }

func (g *gzipFile) String() string { return g.reprPy() }
func (g *gzipFile) reprPy() string {
	if !g.inner.binary {
		return "<_io.TextIOWrapper name=" + pystr.Quote(g.name) + " encoding='" + g.inner.encoding + "'>"
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
		return builtin("close", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, g.close()
		}), nil
	case "flush":
		return builtin("flush", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			if g.closed {
				return nil, pyErrorf(excValueError, "I/O operation on closed file.")
			}
			return starlark.None, nil
		}), nil
	case "write":
		if g.inner.binary {
			return builtin("write", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				if len(args) == 1 {
					if _, ok := args[0].(starlark.Bytes); !ok {
						return nil, pyErrorf(excTypeError, "memoryview: a bytes-like object is required, not '%s'", pyTypeName(args[0]))
					}
				}
				return fileWrite(g.inner, "write", args, kw)
			}), nil
		}
		return g.inner.Attr(name)
	case "read", "readline", "readlines", "writelines", "seek", "tell", "readable", "writable":
		return g.inner.Attr(name)
	}
	return nil, nil
}
