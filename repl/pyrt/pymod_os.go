// The os module over the REPL's mounts: the working directory, listings,
// walks, directories, removal and renames, checked like Path.

package pyrt

import (
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

func (r *Interp) osModule() starlark.Value {
	pathMod, _ := r.Module("os.path")
	noEnv := &unavailable{name: "os.environ", why: "the REPL does not expose the host environment; " +
		`commands started by run() or subprocess get it (minus [commands] env_filter): run(["printenv", "NAME"])`}
	return newModule("os", starlark.StringDict{
		"path": pathMod, "sep": starlark.String("/"), "altsep": starlark.None, "linesep": starlark.String("\n"),
		"curdir": starlark.String("."), "pardir": starlark.String(".."), "extsep": starlark.String("."),
		"name": starlark.String("posix"), "devnull": starlark.String("/dev/null"),
		"environ": noEnv, "getenv": noEnv,
		"F_OK": starlark.MakeInt(0), "R_OK": starlark.MakeInt(4), "W_OK": starlark.MakeInt(2), "X_OK": starlark.MakeInt(1),
		"getcwd": builtin("os.getcwd", r.Getcwd), "chdir": builtin("os.chdir", r.Chdir),
		"listdir": builtin("os.listdir", r.osListdir), "scandir": builtin("os.scandir", r.osScandir),
		"walk": builtin("os.walk", r.osWalk), "stat": builtin("os.stat", r.osStat),
		"makedirs": builtin("os.makedirs", r.osMkdir(true)), "mkdir": builtin("os.mkdir", r.osMkdir(false)),
		"remove": builtin("os.remove", r.osRemove(false)), "unlink": builtin("os.unlink", r.osRemove(false)),
		"rmdir": builtin("os.rmdir", r.osRemove(true)), "rename": builtin("os.rename", r.osRename(false)),
		"replace": builtin("os.replace", r.osRename(true)), "access": builtin("os.access", r.osAccess),
		"write": builtin("os.write", r.osWrite), "close": builtin("os.close", r.osClose), "fdopen": builtin("os.fdopen", r.osFdopen),
		"system": builtin("os.system", r.osSystem), "fspath": builtin("os.fspath", r.osFspath),
		"cpu_count": builtin("os.cpu_count", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(runtime.NumCPU()), nil
		}),
	})
}

func (r *Interp) onePath(fn string, args starlark.Tuple, kw []starlark.Tuple, def string) (string, error) {
	var v starlark.Value = starlark.String(def)
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &v); err != nil {
		return "", err
	}
	if def == "" && len(args) == 0 {
		return "", pyErrorf(excTypeError, "%s() missing required argument 'path'", fn)
	}
	return r.pathText(fn, v)
}

func (r *Interp) osFspath(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, err := r.onePath(b.Name(), args, kw, "")
	return starlark.String(p), err
}

// entries lists a directory: names sorted, and whether each is a
// directory (following symlinks, as os.walk classifies them) and a
// symlink.
func (r *Interp) entries(op, p string) ([]string, []bool, []bool, error) {
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
			if fi, err := root.Stat(JoinRel(rel, e.Name())); err == nil {
				dirs[i] = fi.IsDir()
			}
		}
	}
	return names, dirs, links, nil
}

func (r *Interp) osListdir(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, err := r.onePath(b.Name(), args, kw, ".")
	if err != nil {
		return nil, err
	}
	names, _, _, err := r.entries("listdir", p)
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
func (r *Interp) osWalk(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var topV starlark.Value
	topdown, followlinks := true, false
	var onerror starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kw, "top", &topV, "topdown?", &topdown, "onerror?", &onerror, "followlinks?", &followlinks); err != nil {
		return nil, err
	}
	top, err := r.pathText(b.Name(), topV)
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
		names, dirs, links, err := r.entries("walk", p)
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
		return newLazyIter(thread, "generator", next), nil
	}
	all, err := drain(next)
	if err != nil {
		return nil, err
	}
	return newListIter("generator", bottomUp(all)), nil
}

// bottomUp orders walk tuples (made top-down) so that every directory
// comes after the ones below it.
func bottomUp(all []starlark.Value) []starlark.Value {
	depth := func(v starlark.Value) int { return strings.Count(string(v.(starlark.Tuple)[0].(starlark.String)), "/") }
	out := append([]starlark.Value(nil), all...)
	sort.SliceStable(out, func(i, j int) bool { return depth(out[i]) > depth(out[j]) })
	return out
}

func (r *Interp) osStat(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, err := r.onePath(b.Name(), args, kw, "")
	if err != nil {
		return nil, err
	}
	return r.newPath(p).stat(thread, starlark.NewBuiltin("stat", nil), nil, nil)
}

func (r *Interp) osMkdir(parents bool) BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var pv starlark.Value
		mode := 0o777
		existOK := false
		var err error
		if parents {
			err = starlark.UnpackArgs(b.Name(), args, kw, "name", &pv, "mode?", &mode, "exist_ok?", &existOK)
		} else {
			err = starlark.UnpackArgs(b.Name(), args, kw, "path", &pv, "mode?", &mode)
		}
		if err != nil {
			return nil, err
		}
		p, err := r.pathText(b.Name(), pv)
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
			return nil, r.Host.FsErr("mkdir", v, &FsError{"mkdir", v, fsExists, ""})
		}
		if parents {
			err = root.MkdirAll(rel, fs.FileMode(mode))
		} else {
			err = root.Mkdir(rel, fs.FileMode(mode))
		}
		return starlark.None, r.Host.FsErr("mkdir", v, err)
	}
}

func (r *Interp) osRemove(dir bool) BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		p, err := r.onePath(b.Name(), args, kw, "")
		if err != nil {
			return nil, err
		}
		op := "unlink"
		if dir {
			op = "rmdir"
		}
		return r.newPath(p).removeEntry(b, op, dir, false)
	}
}

// osRename is os.rename (refusing to replace an existing file, as
// Path.rename does here) and os.replace (replacing a file).
func (r *Interp) osRename(replace bool) BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var src, dst starlark.Value
		if err := starlark.UnpackArgs(b.Name(), args, kw, "src", &src, "dst", &dst); err != nil {
			return nil, err
		}
		s, err := r.pathText(b.Name(), src)
		if err != nil {
			return nil, err
		}
		d, err := r.pathText(b.Name(), dst)
		if err != nil {
			return nil, err
		}
		if replace {
			if root, rel, v, err := r.Host.Locate("replace", d); err == nil {
				if fi, err := root.Lstat(rel); err == nil {
					if fi.IsDir() {
						return nil, r.Host.FsErr("replace", v, &FsError{"replace", v, fsIsDir, ""})
					}
					if err := root.Remove(rel); err != nil {
						return nil, r.Host.FsErr("replace", v, err)
					}
				}
			}
		}
		if _, err := r.newPath(s).rename(thread, starlark.NewBuiltin("rename", nil), starlark.Tuple{r.newPath(d)}, nil); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
}

// osAccess is os.access: whether the path exists and, for W_OK, whether
// its mount is writable now.
func (r *Interp) osAccess(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pv starlark.Value
	var mode int
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &pv, &mode); err != nil {
		return nil, err
	}
	p, err := r.pathText(b.Name(), pv)
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
func (r *Interp) osSystem(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var cmd string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &cmd); err != nil {
		return nil, err
	}
	res, err := r.pyCommand([]string{"sh", "-c", cmd}, "", 0)
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
func (r *Interp) osScandir(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	p, err := r.onePath(b.Name(), args, kw, ".")
	if err != nil {
		return nil, err
	}
	names, dirs, links, err := r.entries("scandir", p)
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
	return &scandirIter{pyIter: newListIter("ScandirIterator", out)}, nil
}

type scandirIter struct{ *pyIter }

func (s *scandirIter) enter() (starlark.Value, error) { return s, nil }
func (s *scandirIter) exit() error                    { return nil }

// dirEntry is os.DirEntry.
type dirEntry struct {
	r          *Interp
	name, path string
	dir, link  bool
}

func (d *dirEntry) String() string        { return d.reprPy() }
func (d *dirEntry) reprPy() string        { return "<DirEntry " + pystr.Quote(d.name) + ">" }
func (d *dirEntry) Type() string          { return "DirEntry" }
func (d *dirEntry) Freeze()               {}
func (d *dirEntry) Truth() starlark.Bool  { return true }
func (d *dirEntry) Hash() (uint32, error) { return starlark.String(d.path).Hash() }
func (d *dirEntry) AttrNames() []string {
	return []string{"is_dir", "is_file", "is_symlink", "name", "path", "stat"}
}
func (d *dirEntry) Attr(name string) (starlark.Value, error) {
	result := func(v bool) (starlark.Value, error) {
		return builtin("DirEntry."+name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
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
		return builtin("DirEntry.stat", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return d.r.newPath(d.path).stat(thread, starlark.NewBuiltin("stat", nil), nil, nil)
		}), nil
	}
	return nil, nil
}
