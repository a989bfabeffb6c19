// The os module over the REPL's mounts: the working directory, listings,
// walks, directories, removal and renames, checked like Path.

package pyfs

import (
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

func osModule(r *pyrt.Interp) starlark.Value {
	pathMod, _ := r.Module("os.path")
	noEnv := &pyrt.Unavailable{ModName: "os.environ", Why: "the REPL does not expose the host environment; " +
		`commands started by run() or subprocess get it (minus [commands] env_filter): run(["printenv", "NAME"])`}
	return pyrt.NewModule("os", starlark.StringDict{
		"path": pathMod, "sep": starlark.String("/"), "altsep": starlark.None, "linesep": starlark.String("\n"),
		"curdir": starlark.String("."), "pardir": starlark.String(".."), "extsep": starlark.String("."),
		"name": starlark.String("posix"), "devnull": starlark.String("/dev/null"),
		"environ": noEnv, "getenv": noEnv,
		"F_OK": starlark.MakeInt(0), "R_OK": starlark.MakeInt(4), "W_OK": starlark.MakeInt(2), "X_OK": starlark.MakeInt(1),
		"getcwd": pyrt.Builtin("os.getcwd", r.Getcwd), "chdir": pyrt.Builtin("os.chdir", r.Chdir),
		"listdir": pyrt.Builtin("os.listdir", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osListdir(r, p0, p1, p2, p3)
		}), "scandir": pyrt.Builtin("os.scandir", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osScandir(r, p0, p1, p2, p3)
		}),
		"walk": pyrt.Builtin("os.walk", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osWalk(r, p0, p1, p2, p3)
		}), "stat": pyrt.Builtin("os.stat", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osStat(r, p0, p1, p2, p3)
		}),
		"makedirs": pyrt.Builtin("os.makedirs", osMkdir(r, true)), "mkdir": pyrt.Builtin("os.mkdir", osMkdir(r, false)),
		"remove": pyrt.Builtin("os.remove", osRemove(r, false)), "unlink": pyrt.Builtin("os.unlink", osRemove(r, false)),
		"rmdir": pyrt.Builtin("os.rmdir", osRemove(r, true)), "rename": pyrt.Builtin("os.rename", osRename(r, false)),
		"replace": pyrt.Builtin("os.replace", osRename(r, true)), "access": pyrt.Builtin("os.access", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osAccess(r, p0, p1, p2, p3)
		}),
		"write": pyrt.Builtin("os.write", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osWrite(r, p0, p1, p2, p3)
		}), "close": pyrt.Builtin("os.close", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osClose(r, p0, p1, p2, p3)
		}), "fdopen": pyrt.Builtin("os.fdopen", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osFdopen(r, p0, p1, p2, p3)
		}),
		"system": pyrt.Builtin("os.system", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osSystem(r, p0, p1, p2, p3)
		}), "fspath": pyrt.Builtin("os.fspath", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return osFspath(r, p0, p1, p2, p3)
		}),
		"cpu_count": pyrt.Builtin("os.cpu_count", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(runtime.NumCPU()), nil
		}),
	})
}

func onePath(r *pyrt.Interp, fn string, args starlark.Tuple, kw []starlark.Tuple, def string) (string, error) {
	var v starlark.Value = starlark.String(def)
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &v); err != nil {
		return "", err
	}
	if def == "" && len(args) == 0 {
		return "", pyrt.PyErrorf(pyrt.ExcTypeError, "%s() missing required argument 'path'", fn)
	}
	return r.PathText(fn, v)
}

func osFspath(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, err := onePath(r, b.Name(), args, kw, "")
	return starlark.String(p), err
}

// entries lists a directory: names sorted, and whether each is a
// directory (following symlinks, as os.walk classifies them) and a
// symlink.
func entries(r *pyrt.Interp, op, p string) ([]string, []bool, []bool, error) {
	root, rel, v, err := r.Host.Locate(op, p)
	if err != nil {
		return nil, nil, nil, err
	}
	list, err := root.ReadDir(rel)
	if err != nil {
		return nil, nil, nil, r.Host.FsErr(op, v, err)
	}
	names := make([]string, len(list))
	dirs, links := make([]bool, len(list)), make([]bool, len(list))
	for i, e := range list {
		names[i] = e.Name()
		dirs[i] = e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			links[i] = true
			if fi, err := root.Stat(pyrt.JoinRel(rel, e.Name())); err == nil {
				dirs[i] = fi.IsDir()
			}
		}
	}
	return names, dirs, links, nil
}

func osListdir(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, err := onePath(r, b.Name(), args, kw, ".")
	if err != nil {
		return nil, err
	}
	names, _, _, err := entries(r, "listdir", p)
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(names))
	for i, n := range names {
		out[i] = starlark.String(n)
	}
	return starlark.NewList(out), nil
}

// joinPath is os.path.join of two parts.
func joinPath(a, b string) string {
	if strings.HasPrefix(b, "/") || a == "" {
		return b
	}
	if strings.HasSuffix(a, "/") {
		return a + b
	}
	return a + "/" + b
}

// osWalk is os.walk(top, topdown=True, onerror=None, followlinks=False).
// Top-down, it is lazy: a directory's subdirectories are entered after
// its tuple is consumed, in the order of its dirnames list then, so that
// assigning to dirs[:] prunes the walk as in Python.
func osWalk(r *pyrt.Interp, thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var topV starlark.Value
	topdown, followlinks := true, false
	var onerror starlark.Value = starlark.None
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "top", &topV, "topdown?", &topdown, "onerror?", &onerror, "followlinks?", &followlinks); err != nil {
		return nil, err
	}
	top, err := r.PathText(b.Name(), topV)
	if err != nil {
		return nil, err
	}
	c := r.Host.CallOf()
	type pending struct {
		path string
		dirs *starlark.List
		link map[string]bool
	}
	stack := []string{top}
	var last *pending
	read := func(p string) (*pending, starlark.Tuple, error) {
		names, dirs, links, err := entries(r, "walk", p)
		if err != nil {
			if onerror != starlark.None {
				exc := r.ExceptionOf(err)
				if _, err := starlark.Call(thread, onerror, starlark.Tuple{exc}, nil); err != nil {
					return nil, nil, err
				}
			}
			return nil, nil, nil
		}
		var d, f []starlark.Value
		link := map[string]bool{}
		for i, n := range names {
			if dirs[i] {
				d = append(d, starlark.String(n))
				link[n] = links[i]
			} else {
				f = append(f, starlark.String(n))
			}
		}
		dl := starlark.NewList(d)
		return &pending{p, dl, link}, starlark.Tuple{starlark.String(p), dl, starlark.NewList(f)}, nil
	}
	next := func() (starlark.Value, bool, error) {
		if last != nil {
			for i := last.dirs.Len() - 1; i >= 0; i-- {
				name, ok := starlark.AsString(last.dirs.Index(i))
				if ok && (followlinks || !last.link[name]) {
					stack = append(stack, joinPath(last.path, name))
				}
			}
			last = nil
		}
		for len(stack) > 0 {
			if err := c.Ctx().Err(); err != nil {
				return nil, false, fmt.Errorf("os.walk: cancelled")
			}
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pend, tuple, err := read(p)
			if err != nil {
				return nil, false, err
			}
			if tuple == nil {
				continue
			}
			last = pend
			return tuple, true, nil
		}
		return nil, false, nil
	}
	if topdown {
		return pyrt.NewLazyIter(thread, "generator", next), nil
	}
	all, err := pyrt.Drain(next)
	if err != nil {
		return nil, err
	}
	return pyrt.NewListIter("generator", bottomUp(all)), nil
}

// bottomUp orders walk tuples (made top-down) so that every directory
// comes after the ones below it.
func bottomUp(all []starlark.Value) []starlark.Value {
	depth := func(v starlark.Value) int { return strings.Count(string(v.(starlark.Tuple)[0].(starlark.String)), "/") }
	out := append([]starlark.Value(nil), all...)
	sort.SliceStable(out, func(i, j int) bool { return depth(out[i]) > depth(out[j]) })
	return out
}

func osStat(r *pyrt.Interp, thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, err := onePath(r, b.Name(), args, kw, "")
	if err != nil {
		return nil, err
	}
	return r.NewPath(p).Stat(thread, starlark.NewBuiltin("stat", nil), nil, nil)
}

func osMkdir(r *pyrt.Interp, parents bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var pv starlark.Value
		mode := 0o777
		existOK := false
		var err error
		if parents {
			err = pyrt.UnpackArgs(b.Name(), args, kw, "name", &pv, "mode?", &mode, "exist_ok?", &existOK)
		} else {
			err = pyrt.UnpackArgs(b.Name(), args, kw, "path", &pv, "mode?", &mode)
		}
		if err != nil {
			return nil, err
		}
		p, err := r.PathText(b.Name(), pv)
		if err != nil {
			return nil, err
		}
		root, rel, v, err := r.Host.Locate("mkdir", p)
		if err != nil {
			return nil, err
		}
		if fi, err := root.Stat(rel); err == nil {
			if existOK && fi.IsDir() {
				return starlark.None, nil
			}
			return nil, r.Host.FsErr("mkdir", v, &pyrt.FsError{Op: "mkdir", Vpath: v, Kind: pyrt.FsExists, Reason: ""})
		}
		if parents {
			err = root.MkdirAll(rel, fs.FileMode(mode))
		} else {
			err = root.Mkdir(rel, fs.FileMode(mode))
		}
		return starlark.None, r.Host.FsErr("mkdir", v, err)
	}
}

func osRemove(r *pyrt.Interp, dir bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		p, err := onePath(r, b.Name(), args, kw, "")
		if err != nil {
			return nil, err
		}
		op := "unlink"
		if dir {
			op = "rmdir"
		}
		return r.NewPath(p).RemoveEntry(b, op, dir, false)
	}
}

// osRename is os.rename (refusing to replace an existing file, as
// Path.rename does here) and os.replace (replacing a file).
func osRename(r *pyrt.Interp, replace bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var src, dst starlark.Value
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "src", &src, "dst", &dst); err != nil {
			return nil, err
		}
		s, err := r.PathText(b.Name(), src)
		if err != nil {
			return nil, err
		}
		d, err := r.PathText(b.Name(), dst)
		if err != nil {
			return nil, err
		}
		if replace {
			if root, rel, v, err := r.Host.Locate("replace", d); err == nil {
				if fi, err := root.Lstat(rel); err == nil {
					if fi.IsDir() {
						return nil, r.Host.FsErr("replace", v, &pyrt.FsError{Op: "replace", Vpath: v, Kind: pyrt.FsIsDir, Reason: ""})
					}
					if err := root.Remove(rel); err != nil {
						return nil, r.Host.FsErr("replace", v, err)
					}
				}
			}
		}
		if _, err := r.NewPath(s).Rename(thread, starlark.NewBuiltin("rename", nil), starlark.Tuple{r.NewPath(d)}, nil); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
}

// osAccess is os.access: whether the path exists and, for W_OK, whether
// its mount is writable now.
func osAccess(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pv starlark.Value
	var mode int
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &pv, &mode); err != nil {
		return nil, err
	}
	p, err := r.PathText(b.Name(), pv)
	if err != nil {
		return nil, err
	}
	root, rel, _, err := r.Host.Locate("access", p)
	if err != nil {
		return starlark.False, nil
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return starlark.False, nil
	}
	ok := true
	if mode&2 != 0 {
		ok = ok && root.Writable()
	}
	if mode&1 != 0 {
		ok = ok && (fi.IsDir() || fi.Mode().Perm()&0o111 != 0)
	}
	return starlark.Bool(ok), nil
}

// osSystem is os.system(cmd): sh -c cmd through run() (so with run()'s
// approvals), its output printed, its wait status returned.
func osSystem(r *pyrt.Interp, thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var cmd string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &cmd); err != nil {
		return nil, err
	}
	res, err := pyCommand(r, []string{"sh", "-c", cmd}, "", 0)
	if err != nil {
		return nil, err
	}
	r.Host.CallOf().Write(res.Stdout + res.Stderr)
	if res.ExitCode < 0 {
		return starlark.MakeInt(-res.ExitCode), nil
	}
	return starlark.MakeInt(res.ExitCode << 8), nil
}

// osScandir is os.scandir(path="."): DirEntry values, usable in with.
func osScandir(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, err := onePath(r, b.Name(), args, kw, ".")
	if err != nil {
		return nil, err
	}
	names, dirs, links, err := entries(r, "scandir", p)
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(names))
	for i, n := range names {
		full := n
		if p != "." || len(args) > 0 {
			full = joinPath(p, n)
		}
		out[i] = &dirEntry{r: r, name: n, path: full, dir: dirs[i], link: links[i]}
	}
	return &scandirIter{PyIter: pyrt.NewListIter("ScandirIterator", out)}, nil
}

type scandirIter struct{ *pyrt.PyIter }

func (s *scandirIter) Enter() (starlark.Value, error) { return s, nil }
func (s *scandirIter) Exit() error                    { return nil }

// dirEntry is os.DirEntry.
type dirEntry struct {
	r          *pyrt.Interp
	name, path string
	dir, link  bool
}

func (d *dirEntry) String() string        { return d.ReprPy() }
func (d *dirEntry) ReprPy() string        { return "<DirEntry " + pystr.Quote(d.name) + ">" }
func (d *dirEntry) Type() string          { return "DirEntry" }
func (d *dirEntry) Freeze()               {}
func (d *dirEntry) Truth() starlark.Bool  { return true }
func (d *dirEntry) Hash() (uint32, error) { return starlark.String(d.path).Hash() }
func (d *dirEntry) AttrNames() []string {
	return []string{"is_dir", "is_file", "is_symlink", "name", "path", "stat"}
}
func (d *dirEntry) Attr(name string) (starlark.Value, error) {
	result := func(v bool) (starlark.Value, error) {
		return pyrt.Builtin("DirEntry."+name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(v), nil
		}), nil
	}
	switch name {
	case "name":
		return starlark.String(d.name), nil
	case "path":
		return starlark.String(d.path), nil
	case "is_dir":
		return result(d.dir)
	case "is_file":
		return result(!d.dir)
	case "is_symlink":
		return result(d.link)
	case "stat":
		return pyrt.Builtin("DirEntry.stat", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return d.r.NewPath(d.path).Stat(thread, starlark.NewBuiltin("stat", nil), nil, nil)
		}), nil
	}
	return nil, nil
}
