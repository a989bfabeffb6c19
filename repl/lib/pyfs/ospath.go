// os.path: Python's posixpath on virtual paths; the file tests go through
// the mounts.

package pyfs

import (
	"io/fs"
	"path"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func osPathModule(r *pyrt.Interp) starlark.Value {
	str1 := func(name string, f func(string) string) *starlark.Builtin {
		return pyrt.Builtin("os.path."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			p, err := onePath(r, b.Name(), args, kw, "")
			if err != nil {
				return nil, err
			}
			return starlark.String(f(p)), nil
		})
	}
	test := func(name string, f func(p string) bool) *starlark.Builtin {
		return pyrt.Builtin("os.path."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			p, err := onePath(r, b.Name(), args, kw, "")
			if err != nil {
				return nil, err
			}
			return starlark.Bool(f(p)), nil
		})
	}
	return pyrt.NewModule("os.path", starlark.StringDict{
		"sep": starlark.String("/"), "curdir": starlark.String("."), "pardir": starlark.String(".."),
		"join": pyrt.Builtin("os.path.join", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return pathJoin(r, p0, p1, p2, p3)
		}),
		"basename":   str1("basename", func(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }),
		"dirname":    str1("dirname", func(p string) string { d, _ := splitPath(p); return d }),
		"normpath":   str1("normpath", normpath),
		"abspath":    str1("abspath", r.Host.Absolute),
		"realpath":   str1("realpath", r.Host.Absolute),
		"normcase":   str1("normcase", func(p string) string { return p }),
		"expanduser": str1("expanduser", func(p string) string { return p }),
		"expandvars": str1("expandvars", func(p string) string { return p }),
		"isabs":      test("isabs", func(p string) bool { return strings.HasPrefix(p, "/") }),
		"exists":     test("exists", func(p string) bool { ok, _ := statTest(r, p, true); return ok }),
		"lexists":    test("lexists", func(p string) bool { ok, _ := statTest(r, p, false); return ok }),
		"isfile":     test("isfile", func(p string) bool { ok, dir := statTest(r, p, true); return ok && !dir }),
		"isdir":      test("isdir", func(p string) bool { _, dir := statTest(r, p, true); return dir }),
		"islink":     test("islink", func(p0 string) bool { return isLink(r, p0) }),
		"split": pyrt.Builtin("os.path.split", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			p, err := onePath(r, b.Name(), args, kw, "")
			if err != nil {
				return nil, err
			}
			head, tail := splitPath(p)
			return starlark.Tuple{starlark.String(head), starlark.String(tail)}, nil
		}),
		"splitext": pyrt.Builtin("os.path.splitext", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			p, err := onePath(r, b.Name(), args, kw, "")
			if err != nil {
				return nil, err
			}
			root, ext := splitExt(p)
			return starlark.Tuple{starlark.String(root), starlark.String(ext)}, nil
		}),
		"getsize":  pyrt.Builtin("os.path.getsize", statField(r, "st_size")),
		"getmtime": pyrt.Builtin("os.path.getmtime", statField(r, "st_mtime")),
		"getctime": pyrt.Builtin("os.path.getctime", statField(r, "st_mtime")),
		"getatime": pyrt.Builtin("os.path.getatime", statField(r, "st_mtime")),
		"relpath": pyrt.Builtin("os.path.relpath", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return relpath(r, p0, p1, p2, p3)
		}),
		"commonprefix": pyrt.Builtin("os.path.commonprefix", commonprefix(r, false)),
		"commonpath":   pyrt.Builtin("os.path.commonpath", commonprefix(r, true)),
		"samefile": pyrt.Builtin("os.path.samefile", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var a, c starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &a, &c); err != nil {
				return nil, err
			}
			pa, err := r.PathText(b.Name(), a)
			if err != nil {
				return nil, err
			}
			pc, err := r.PathText(b.Name(), c)
			if err != nil {
				return nil, err
			}
			return starlark.Bool(r.Host.Absolute(pa) == r.Host.Absolute(pc)), nil
		}),
	})
}

func pathJoin(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 || len(kw) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "join() missing 1 required positional argument: 'a'")
	}
	out := ""
	for i, a := range args {
		p, err := r.PathText(b.Name(), a)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			out = p
			continue
		}
		out = joinPath(out, p)
	}
	return starlark.String(out), nil
}

// splitPath is posixpath.split: the head without trailing slashes (unless
// it is all slashes) and the last component.
func splitPath(p string) (string, string) {
	i := strings.LastIndexByte(p, '/') + 1
	head, tail := p[:i], p[i:]
	if head != "" && strings.Trim(head, "/") != "" {
		head = strings.TrimRight(head, "/")
	}
	return head, tail
}

// splitExt is posixpath.splitext: leading dots of the name are not an
// extension.
func splitExt(p string) (string, string) {
	base := p[strings.LastIndexByte(p, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || strings.Trim(base[:dot], ".") == "" {
		return p, ""
	}
	cut := len(p) - len(base) + dot
	return p[:cut], p[cut:]
}

// normpath is posixpath.normpath.
func normpath(p string) string {
	if p == "" {
		return "."
	}
	lead := ""
	if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
		lead = "/"
	}
	return lead + path.Clean(p)
}

// statTest stats p in its mount; a path that is missing, outside the
// mounts or not readable does not exist, as os.path's tests say.
func statTest(r *pyrt.Interp, p string, follow bool) (exists, isDir bool) {
	root, rel, _, err := r.Host.Locate("stat", p)
	if err != nil {
		return false, false
	}
	var fi fs.FileInfo
	if follow {
		fi, err = root.Stat(rel)
	} else {
		fi, err = root.Lstat(rel)
	}
	if err != nil {
		return false, false
	}
	return true, fi.IsDir()
}

func isLink(r *pyrt.Interp, p string) bool {
	root, rel, _, err := r.Host.Locate("stat", p)
	if err != nil {
		return false
	}
	fi, err := root.Lstat(rel)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

func statField(r *pyrt.Interp, field string) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		p, err := onePath(r, b.Name(), args, kw, "")
		if err != nil {
			return nil, err
		}
		st, err := r.NewPath(p).Stat(thread, starlark.NewBuiltin("stat", nil), nil, nil)
		if err != nil {
			return nil, err
		}
		return st.(starlark.HasAttrs).Attr(field)
	}
}

// relpath is os.path.relpath(path, start=os.curdir), lexically.
func relpath(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pv starlark.Value
	var sv starlark.Value = starlark.String(".")
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "path", &pv, "start?", &sv); err != nil {
		return nil, err
	}
	p, err := r.PathText(b.Name(), pv)
	if err != nil {
		return nil, err
	}
	start, err := r.PathText(b.Name(), sv)
	if err != nil {
		return nil, err
	}
	if p == "" {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "no path specified")
	}
	pp, sp := strings.Split(strings.Trim(r.Host.Absolute(p), "/"), "/"), strings.Split(strings.Trim(r.Host.Absolute(start), "/"), "/")
	i := 0
	for i < len(pp) && i < len(sp) && pp[i] == sp[i] {
		i++
	}
	var parts []string
	for range sp[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, pp[i:]...)
	if len(parts) == 0 {
		return starlark.String("."), nil
	}
	return starlark.String(strings.Join(parts, "/")), nil
}

func commonprefix(r *pyrt.Interp, byComponent bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var list starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &list); err != nil {
			return nil, err
		}
		vals, err := pyrt.ListOf(list)
		if err != nil {
			return nil, err
		}
		var paths []string
		for _, v := range vals {
			p, err := r.PathText(b.Name(), v)
			if err != nil {
				return nil, err
			}
			paths = append(paths, p)
		}
		if len(paths) == 0 {
			if byComponent {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "commonpath() arg is an empty sequence")
			}
			return starlark.String(""), nil
		}
		if !byComponent {
			prefix := paths[0]
			for _, p := range paths[1:] {
				for !strings.HasPrefix(p, prefix) {
					prefix = prefix[:len(prefix)-1]
				}
			}
			return starlark.String(prefix), nil
		}
		abs := strings.HasPrefix(paths[0], "/")
		common := strings.Split(strings.Trim(paths[0], "/"), "/")
		for _, p := range paths[1:] {
			if strings.HasPrefix(p, "/") != abs {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Can't mix absolute and relative paths")
			}
			parts := strings.Split(strings.Trim(p, "/"), "/")
			n := 0
			for n < len(common) && n < len(parts) && common[n] == parts[n] {
				n++
			}
			common = common[:n]
		}
		out := strings.Join(common, "/")
		if abs {
			out = "/" + out
		}
		return starlark.String(out), nil
	}
}
