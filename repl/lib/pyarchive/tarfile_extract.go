// tarfile extraction into the mounts: extract and extractall with
// CPython's filters ("data", "tar", "fully_trusted" or a callable). Every
// member must land inside the destination whatever the filter: a name
// that escapes it raises OutsideDestinationError, as the "data" filter
// does, and a leading "/" is dropped. Links are extracted as copies of
// their targets in the archive (CPython's fallback where links cannot be
// made); modification times are not set.

package pyarchive

import (
	"io/fs"
	"path"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

// tarFilters are tarfile.data_filter, tar_filter and fully_trusted_filter.
var tarFilters = map[string]pyrt.BuiltinFunc{
	"data_filter":          tarFilterFunc("data"),
	"tar_filter":           tarFilterFunc("tar"),
	"fully_trusted_filter": tarFilterFunc("fully_trusted"),
}

func tarFilterFunc(kind string) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var info *tarInfo
		var dest string
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &info, &dest); err != nil {
			return nil, err
		}
		out, err := tarFilter(kind, info, dest)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

func tarFilterErr(typ *pyrt.ExcType, format string, info *tarInfo, rest ...any) error {
	return pyrt.PyErrorf(typ, format, append([]any{pystr.Quote(info.name)}, rest...)...)
}

// tarFilter is CPython's _get_filtered_attrs for "data" and "tar" (with
// dest an absolute path): a copy of info, or info itself when unchanged.
func tarFilter(kind string, info *tarInfo, dest string) (*tarInfo, error) {
	if kind == "fully_trusted" {
		return info, nil
	}
	out := info.clone()
	out.name = strings.TrimLeft(info.name, "/")
	target := path.Join(dest, out.name)
	if !insideDir(target, dest) {
		return nil, tarFilterErr(excTarOutside, "%s would be extracted to %s, which is outside the destination", info, pystr.Quote(target))
	}
	mode := info.mode & 0o755
	if kind == "data" {
		switch {
		case info.isReg() || info.isLnk():
			if mode&0o100 == 0 {
				mode &^= 0o111
			}
			mode |= 0o600
		case info.isDir() || info.isSym():
			mode = -1 // not set
		default:
			return nil, tarFilterErr(excTarSpecial, "%s is a special file", info)
		}
		out.noOwner = 0xf
		if info.isLnk() || info.isSym() {
			if strings.HasPrefix(info.linkname, "/") {
				return nil, tarFilterErr(excTarAbsLink, "%s is a link to an absolute path", info)
			}
			link := path.Join(dest, info.linkname)
			if info.isSym() {
				link = path.Join(dest, path.Dir(out.name), info.linkname)
			}
			if !insideDir(link, dest) {
				return nil, tarFilterErr(excTarLinkOutside, "%s would link to %s, which is outside the destination", info, pystr.Quote(link))
			}
		}
	}
	out.mode = mode
	if out.name == info.name && out.mode == info.mode && out.noOwner == info.noOwner {
		return info, nil
	}
	return out, nil
}

func insideDir(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// extractFilter turns filter= into a function of a member and the
// destination: a name of CPython's filters, one of them, or a callable.
func (a *tarArchive) extractFilter(thread *starlark.Thread, v starlark.Value) (func(*tarInfo, string) (*tarInfo, error), error) {
	named := func(kind string) func(*tarInfo, string) (*tarInfo, error) {
		return func(t *tarInfo, dest string) (*tarInfo, error) { return tarFilter(kind, t, dest) }
	}
	switch f := v.(type) {
	case starlark.NoneType:
		return named("fully_trusted"), nil
	case starlark.String:
		switch f {
		case "data", "tar", "fully_trusted":
			return named(string(f)), nil
		}
	case starlark.Callable:
		return func(t *tarInfo, dest string) (*tarInfo, error) {
			res, err := starlark.Call(thread, f, starlark.Tuple{t, starlark.String(dest)}, nil)
			if err != nil || res == starlark.None {
				return nil, err
			}
			ti, ok := res.(*tarInfo)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'name'", pyrt.PyTypeName(res))
			}
			return ti, nil
		}, nil
	}
	return nil, pyrt.PyErrorf(pyrt.ExcValueError, "filter %s not found", pyrt.PyRepr(v))
}

func (a *tarArchive) extractDest(v starlark.Value) (string, error) {
	if v == starlark.None {
		return a.r.Host.Absolute("."), nil
	}
	p, err := a.r.PathText("extract", v)
	if err != nil {
		return "", err
	}
	if p == "" {
		p = "."
	}
	return a.r.Host.Absolute(p), nil
}

// extractOne filters m and writes it under dest; every name must stay
// inside dest, whatever the filter.
func (a *tarArchive) extractOne(m *tarMember, dest string, filter func(*tarInfo, string) (*tarInfo, error)) error {
	info, err := filter(m.info, dest)
	if err != nil || info == nil {
		return err
	}
	name := strings.TrimLeft(info.name, "/")
	target := path.Join(dest, name)
	if !insideDir(target, dest) {
		return tarFilterErr(excTarOutside, "%s would be extracted to %s, which is outside the destination", info, pystr.Quote(target))
	}
	src := m
	for hops := 0; src.info.isLnk() || src.info.isSym(); hops++ {
		if src, err = a.linkTarget(src); err != nil || hops > 40 {
			return pyrt.PyErrorf(excTarExtract, "unable to resolve link inside archive")
		}
	}
	switch {
	case src.info.isDir():
		return a.extractDir(target)
	case src.info.isReg():
		if src.truncated {
			return pyrt.PyErrorf(excTarRead, "unexpected end of data")
		}
		mode := info.mode
		if src != m || mode < 0 {
			mode = src.info.mode & 0o755
		}
		return a.extractFile(target, src.data, mode)
	}
	return pyrt.PyErrorf(excTarExtract, "the REPL cannot make %s: it extracts files, directories and links only", pystr.Quote(info.name))
}

func (a *tarArchive) extractDir(target string) error {
	root, rel, v, err := a.r.Host.Locate("extract", target)
	if err != nil {
		return err
	}
	return a.r.Host.FsErr("extract", v, root.MkdirAll(rel, 0o755))
}

func (a *tarArchive) extractFile(target string, data []byte, mode int64) error {
	root, rel, v, err := a.r.Host.Locate("extract", target)
	if err != nil {
		return err
	}
	if parent := path.Dir(rel); parent != "." && parent != "" {
		if err := root.MkdirAll(parent, 0o755); err != nil {
			return a.r.Host.FsErr("extract", path.Dir(v), err)
		}
	}
	a.r.SyncFiles(v)
	if fi, err := root.Lstat(rel); err == nil && !fi.IsDir() {
		_ = root.Remove(rel) // CPython replaces what is there
	}
	if err := root.WriteFile(rel, data, 0o644); err != nil {
		return a.r.Host.FsErr("extract", v, err)
	}
	if mode >= 0 {
		_ = root.Chmod(rel, fs.FileMode(mode&0o777))
	}
	return nil
}

func tarExtract(a *tarArchive, thread *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var memberV, dirV, filterV starlark.Value = nil, starlark.String(""), starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "member", &memberV, "path?", &dirV, "set_attrs?", new(bool),
		"numeric_owner?", new(bool), "filter?", &filterV); err != nil {
		return nil, err
	}
	if err := a.Check("r"); err != nil {
		return nil, err
	}
	filter, err := a.extractFilter(thread, filterV)
	if err != nil {
		return nil, err
	}
	m, err := a.memberOf(memberV, "name")
	if err != nil {
		return nil, err
	}
	dest, err := a.extractDest(dirV)
	if err != nil {
		return nil, err
	}
	return starlark.None, a.extractOne(m, dest, filter)
}

func tarExtractAll(a *tarArchive, thread *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var dirV, members, filterV starlark.Value = starlark.String("."), starlark.None, starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "path?", &dirV, "members?", &members, "numeric_owner?", new(bool),
		"filter?", &filterV); err != nil {
		return nil, err
	}
	if err := a.Check("r"); err != nil {
		return nil, err
	}
	filter, err := a.extractFilter(thread, filterV)
	if err != nil {
		return nil, err
	}
	chosen, err := a.chosen(members)
	if err != nil {
		return nil, err
	}
	dest, err := a.extractDest(dirV)
	if err != nil {
		return nil, err
	}
	for _, m := range chosen {
		if err := a.extractOne(m, dest, filter); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}
