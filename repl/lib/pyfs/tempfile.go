// tempfile: temporary files and directories under /store/tmp (the REPL's
// gettempdir()), made through the mounts and removed as CPython removes
// them: TemporaryDirectory at the end of its with block or cleanup(),
// NamedTemporaryFile(delete=True) when closed. TemporaryFile and
// SpooledTemporaryFile are in memory, like io.BytesIO/StringIO.

package pyfs

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

const tempDirName = "/store/tmp"

func tempfileModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("tempfile", starlark.StringDict{
		"gettempdir":    pyrt.Builtin("tempfile.gettempdir", tempGettempdir(r, false)),
		"gettempdirb":   pyrt.Builtin("tempfile.gettempdirb", tempGettempdir(r, true)),
		"gettempprefix": pyrt.Builtin("tempfile.gettempprefix", constFunc(starlark.String("tmp"))),
		"mkdtemp": pyrt.Builtin("tempfile.mkdtemp", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return tempMkdtemp(r, p0, p1, p2, p3)
		}),
		"mkstemp": pyrt.Builtin("tempfile.mkstemp", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return tempMkstemp(r, p0, p1, p2, p3)
		}),
		"TemporaryDirectory": pyrt.Builtin("tempfile.TemporaryDirectory", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return tempDirectory(r, p0, p1, p2, p3)
		}),
		"NamedTemporaryFile": pyrt.Builtin("tempfile.NamedTemporaryFile", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return tempNamedFile(r, p0, p1, p2, p3)
		}),
		"TemporaryFile": pyrt.Builtin("tempfile.TemporaryFile", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return tempMemoryFile(r, p0, p1, p2, p3)
		}),
		"SpooledTemporaryFile": pyrt.Builtin("tempfile.SpooledTemporaryFile", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return tempMemoryFile(r, p0, p1, p2, p3)
		}),
		"tempdir":  starlark.None,
		"template": starlark.String("tmp"),
	})
}

func constFunc(v starlark.Value) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
			return nil, err
		}
		return v, nil
	}
}

// tempRoot makes /store/tmp if it is missing and returns it.
func tempRoot(r *pyrt.Interp) (string, error) {
	root, rel, _, err := r.Host.Locate("mkdir", tempDirName)
	if err != nil {
		return "", pyrt.PyErrorf(pyrt.ExcFileNotFound, "[Errno 2] No usable temporary directory found in ['%s']", tempDirName)
	}
	if err := root.MkdirAll(rel, 0o777); err != nil {
		return "", r.Host.FsErr("mkdir", tempDirName, err)
	}
	return tempDirName, nil
}

func tempGettempdir(r *pyrt.Interp, asBytes bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
			return nil, err
		}
		d, err := tempRoot(r)
		if err != nil {
			return nil, err
		}
		if asBytes {
			return starlark.Bytes(d), nil
		}
		return starlark.String(d), nil
	}
}

// tempNames are the suffix, prefix and dir arguments of the functions.
type tempNames struct {
	suffix, prefix, dir starlark.Value
}

func newTempNames() *tempNames {
	return &tempNames{starlark.None, starlark.None, starlark.None}
}

func (t *tempNames) args() []any {
	return []any{"suffix?", &t.suffix, "prefix?", &t.prefix, "dir?", &t.dir}
}

const tempChars = "abcdefghijklmnopqrstuvwxyz0123456789_"

// create makes a new name in dir (gettempdir() when None) and creates it
// with make, trying other names while one exists, as CPython does.
func tempCreate(r *pyrt.Interp, fn string, t *tempNames, mk func(tempSpot) error) (string, error) {
	text := func(v starlark.Value, def string) (string, error) {
		if v == starlark.None {
			return def, nil
		}
		if s, ok := pyrt.TextOf(v); ok {
			return s, nil
		}
		return r.PathText(fn, v)
	}
	suffix, err := text(t.suffix, "")
	if err != nil {
		return "", err
	}
	prefix, err := text(t.prefix, "tmp")
	if err != nil {
		return "", err
	}
	dir := ""
	if t.dir == starlark.None {
		if dir, err = tempRoot(r); err != nil {
			return "", err
		}
	} else if dir, err = text(t.dir, ""); err != nil {
		return "", err
	}
	for range 100 {
		var sb strings.Builder
		for range 8 {
			sb.WriteByte(tempChars[rand.IntN(len(tempChars))])
		}
		name := joinPath(dir, prefix+sb.String()+suffix)
		root, rel, v, err := r.Host.Locate("open", name)
		if err != nil {
			return "", err
		}
		if _, err := root.Lstat(rel); err == nil {
			continue
		}
		if err := mk(tempSpot{root.Mkdir, root.WriteFile, rel}); err != nil {
			return "", r.Host.FsErr("open", v, err)
		}
		return name, nil
	}
	return "", pyrt.PyErrorf(pyrt.ExcFileExists, "[Errno 17] No usable temporary file name found")
}

// tempSpot is where a new temporary entry goes.
type tempSpot struct {
	mkdir func(string, fs.FileMode) error
	write func(string, []byte, fs.FileMode) error
	rel   string
}

func mkdirSpot(s tempSpot) error { return s.mkdir(s.rel, 0o700) }
func fileSpot(s tempSpot) error  { return s.write(s.rel, nil, 0o600) }

func tempMkdtemp(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	t := newTempNames()
	if err := pyrt.UnpackArgs(b.Name(), args, kw, t.args()...); err != nil {
		return nil, err
	}
	name, err := tempCreate(r, b.Name(), t, mkdirSpot)
	if err != nil {
		return nil, err
	}
	return starlark.String(name), nil
}

func tempMkstemp(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	t := newTempNames()
	var text bool
	if err := pyrt.UnpackArgs(b.Name(), args, kw, append(t.args(), "text?", &text)...); err != nil {
		return nil, err
	}
	name, err := tempCreate(r, b.Name(), t, fileSpot)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{starlark.MakeInt(fds(r).open(name)), starlark.String(name)}, nil
}

// tempDir is a TemporaryDirectory.
type tempDir struct {
	r       *pyrt.Interp
	name    string
	ignore  bool
	removed bool
}

var (
	_ starlark.HasAttrs   = (*tempDir)(nil)
	_ pyrt.ContextManager = (*tempDir)(nil)
)

func tempDirectory(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	t := newTempNames()
	d := &tempDir{r: r}
	if err := pyrt.UnpackArgs(b.Name(), args, kw, append(t.args(), "ignore_cleanup_errors?", &d.ignore)...); err != nil {
		return nil, err
	}
	name, err := tempCreate(r, b.Name(), t, mkdirSpot)
	if err != nil {
		return nil, err
	}
	d.name = name
	return d, nil
}

func (d *tempDir) String() string        { return fmt.Sprintf("<TemporaryDirectory %s>", pystr.Quote(d.name)) }
func (d *tempDir) Type() string          { return "TemporaryDirectory" }
func (d *tempDir) Freeze()               {}
func (d *tempDir) Truth() starlark.Bool  { return true }
func (d *tempDir) Hash() (uint32, error) { return starlark.String(d.name).Hash() }
func (d *tempDir) AttrNames() []string   { return []string{"cleanup", "name"} }

func (d *tempDir) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(d.name), nil
	case "cleanup":
		return pyrt.Builtin("cleanup", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return starlark.None, d.Exit()
		}), nil
	}
	return nil, nil
}

func (d *tempDir) Enter() (starlark.Value, error) { return starlark.String(d.name), nil }

func (d *tempDir) Exit() error {
	if d.removed {
		return nil
	}
	d.removed = true
	d.r.SyncFiles(d.r.Host.Absolute(d.name))
	if exists, _, _ := kindOf(d.r, "rmtree", d.name); !exists {
		return nil // CPython ignores a directory already removed
	}
	if err := removeTree(d.r, d.name); err != nil && !d.ignore {
		return err
	}
	return nil
}
