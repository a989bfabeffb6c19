// Path methods pathlib has beyond the original set: open, touch,
// as_posix, absolute, is_relative_to, with_stem; read_text decodes as
// Python does.

package pyrt

import (
	"strings"

	"go.starlark.net/starlark"
)

func init() {
	pathMethods["open"] = (*Path).open
	pathMethods["touch"] = (*Path).touch
	pathMethods["as_posix"] = (*Path).asPosix
	pathMethods["absolute"] = (*Path).absolutePath
	pathMethods["expanduser"] = (*Path).asPosix
	pathMethods["is_relative_to"] = (*Path).isRelativeTo
	pathMethods["with_stem"] = (*Path).withStem
	pathMethods["read_text"] = (*Path).readTextPy
	pathMethods["samefile"] = (*Path).samefile
	pathMethods["replace"] = (*Path).replace
}

// open is Path.open(mode="r", ...), the file object of open().
func (p *Path) open(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	mode := "r"
	var buffering int
	var encoding, errs, newline starlark.Value = starlark.None, starlark.None, starlark.None
	if err := UnpackArgs(b.Name(), args, kw, "mode?", &mode, "buffering?", &buffering, "encoding?", &encoding, "errors?", &errs, "newline?", &newline); err != nil {
		return nil, err
	}
	return p.r.OpenFile(p.P, mode, encoding, errs, newline)
}

// readTextPy is read_text(encoding=None, errors=None): UTF-8 decoded
// strictly (UnicodeDecodeError on invalid bytes unless errors= says
// otherwise) with universal newlines, as Python reads text.
func (p *Path) readTextPy(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var encoding, errs starlark.Value = starlark.None, starlark.None
	if err := UnpackArgs(b.Name(), args, kw, "encoding?", &encoding, "errors?", &errs, "newline?", new(starlark.Value)); err != nil {
		return nil, err
	}
	data, err := p.Read("read_text")
	if err != nil {
		return nil, err
	}
	f := &PyFile{Encoding: "utf-8", Errors: "strict", Newline: starlark.None}
	if s, ok := encoding.(starlark.String); ok {
		f.Encoding = string(s)
	}
	if s, ok := errs.(starlark.String); ok {
		f.Errors = string(s)
	}
	text, err := f.Decode(string(data))
	if err != nil {
		return nil, err
	}
	return starlark.String(text), nil
}

func (p *Path) touch(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	existOK := true
	if err := UnpackArgs(b.Name(), args, kw, "mode?", new(int), "exist_ok?", &existOK); err != nil {
		return nil, err
	}
	root, rel, v, err := p.r.Host.Locate("touch", p.P)
	if err != nil {
		return nil, err
	}
	if _, err := root.Lstat(rel); err == nil {
		if !existOK {
			return nil, p.r.Host.FsErr("touch", v, &FsError{"touch", v, fsExists, ""})
		}
		if err := root.CheckWrite("touch", rel); err != nil {
			return nil, p.r.Host.FsErr("touch", v, err)
		}
		return starlark.None, nil
	}
	return starlark.None, p.r.Host.FsErr("touch", v, root.WriteFile(rel, nil, 0o644))
}

func (p *Path) asPosix(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	if b.Name() == "Path.expanduser" {
		return p, nil
	}
	return starlark.String(p.P), nil
}

func (p *Path) absolutePath(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	return p.r.NewPath(p.r.Host.Absolute(p.P)), nil
}

func (p *Path) isRelativeTo(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	q, err := p.otherPath(b, args, kw)
	if err != nil {
		return nil, err
	}
	_, ok := p.relative(q)
	return starlark.Bool(ok), nil
}

func (p *Path) withStem(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var stem string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &stem); err != nil {
		return nil, err
	}
	if p.Name() == "" || stem == "" || strings.Contains(stem, "/") {
		return nil, PyErrorf(ExcValueError, "%s has an empty name", PyRepr(p))
	}
	return p.parent().join(stem + p.suffix()), nil
}

func (p *Path) samefile(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	q, err := p.otherPath(b, args, kw)
	if err != nil {
		return nil, err
	}
	return starlark.Bool(p.r.Host.Absolute(p.P) == p.r.Host.Absolute(q.P)), nil
}

// replace is Path.replace(target): rename, an existing file at target
// removed first (a directory there is IsADirectoryError), as os.replace.
func (p *Path) replace(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var target starlark.Value
	if err := UnpackArgs(b.Name(), args, kw, "target", &target); err != nil {
		return nil, err
	}
	dst, err := p.r.PathOf(b.Name(), target)
	if err != nil {
		return nil, err
	}
	if root, rel, v, err := p.r.Host.Locate("replace", dst.P); err == nil {
		if fi, err := root.Lstat(rel); err == nil {
			if fi.IsDir() {
				return nil, p.r.Host.FsErr("replace", v, &FsError{Op: "replace", Vpath: v, Kind: FsIsDir})
			}
			if err := root.Remove(rel); err != nil {
				return nil, p.r.Host.FsErr("replace", v, err)
			}
		}
	}
	return p.Rename(thread, b, starlark.Tuple{dst}, nil)
}
