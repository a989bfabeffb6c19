// The shutil module over the mounts: copies, moves and tree removal with
// the permission checks of Path.

package pyfs

import (
	"io/fs"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func shutilModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("shutil", starlark.StringDict{
		"copyfile": pyrt.Builtin("shutil.copyfile", shutilCopy(r, false)),
		"copy":     pyrt.Builtin("shutil.copy", shutilCopy(r, true)),
		"copy2":    pyrt.Builtin("shutil.copy2", shutilCopy(r, true)),
		"copytree": pyrt.Builtin("shutil.copytree", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return shutilCopytree(r, p0, p1, p2, p3)
		}),
		"move": pyrt.Builtin("shutil.move", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return shutilMove(r, p0, p1, p2, p3)
		}),
		"rmtree": pyrt.Builtin("shutil.rmtree", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return shutilRmtree(r, p0, p1, p2, p3)
		}),
		"which": pyrt.Builtin("shutil.which", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return shutilWhich(r, p0, p1, p2, p3)
		}),
		"copyfileobj":     pyrt.Builtin("shutil.copyfileobj", shutilCopyfileobj),
		"ignore_patterns": pyrt.Builtin("shutil.ignore_patterns", ignorePatterns),
		"Error":           &pyrt.ExcType{TypeName: "Error", Module: "shutil", Base: pyrt.ExcOSError},
	})
}

// kindOf stats p: whether it exists and is a directory.
func kindOf(r *pyrt.Interp, op, p string) (exists, dir bool, err error) {
	root, rel, v, err := r.Host.Locate(op, p)
	if err != nil {
		return false, false, err
	}
	fi, err := root.Stat(rel)
	switch {
	case pyrt.FsKindOf(err) == pyrt.FsNotFound:
		return false, false, nil
	case err != nil:
		return false, false, r.Host.FsErr(op, v, err)
	}
	return true, fi.IsDir(), nil
}

func copyFile(r *pyrt.Interp, op, src, dst string) error {
	data, err := r.NewPath(src).Read(op)
	if err != nil {
		return err
	}
	if err := r.NewPath(dst).Write(op, data); err != nil {
		return err
	}
	sroot, srel, _, _ := r.Host.Locate(op, src)
	droot, drel, _, _ := r.Host.Locate(op, dst)
	if fi, err := sroot.Stat(srel); err == nil && droot != nil {
		_ = droot.Chmod(drel, fi.Mode().Perm())
	}
	return nil
}

func twoPaths(r *pyrt.Interp, fn string, args starlark.Tuple, kw []starlark.Tuple, extra ...any) (string, string, error) {
	var a, b starlark.Value
	pairs := append([]any{"src", &a, "dst", &b}, extra...)
	if err := pyrt.UnpackArgs(fn, args, kw, pairs...); err != nil {
		return "", "", err
	}
	s, err := r.PathText(fn, a)
	if err != nil {
		return "", "", err
	}
	d, err := r.PathText(fn, b)
	return s, d, err
}

// shutilCopy is copyfile(src, dst) and, intoDir, copy(src, dst) where a
// directory dst receives src under its name.
func shutilCopy(r *pyrt.Interp, intoDir bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var follow bool
		src, dst, err := twoPaths(r, b.Name(), args, kw, "follow_symlinks?", &follow)
		if err != nil {
			return nil, err
		}
		if _, dir, err := kindOf(r, "copy", src); err != nil {
			return nil, err
		} else if dir {
			return nil, r.Host.FsErr("copy", r.Host.Absolute(src), &pyrt.FsError{Op: "copy", Vpath: r.Host.Absolute(src), Kind: pyrt.FsIsDir, Reason: "use shutil.copytree for directories"})
		}
		if intoDir {
			if _, dir, err := kindOf(r, "copy", dst); err == nil && dir {
				dst = joinPath(dst, r.NewPath(src).Name())
			}
		}
		if err := copyFile(r, "copy", src, dst); err != nil {
			return nil, err
		}
		return starlark.String(dst), nil
	}
}

func ignorePatterns(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pats []string
	for _, a := range args {
		s, ok := starlark.AsString(a)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "ignore_patterns() takes strings")
		}
		pats = append(pats, s)
	}
	return pyrt.Builtin("ignore_patterns", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		out := new(starlark.Set)
		if len(args) != 2 {
			return out, nil
		}
		err := pyrt.Iterate(args[1], func(v starlark.Value) (bool, error) {
			name, _ := starlark.AsString(v)
			for _, p := range pats {
				if fnmatchRE(p).MatchString(name) {
					return true, out.Insert(v)
				}
			}
			return true, nil
		})
		return out, err
	}), nil
}

func shutilCopytree(r *pyrt.Interp, thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var ignore starlark.Value = starlark.None
	existOK, symlinks := false, false
	src, dst, err := twoPaths(r, b.Name(), args, kw, "symlinks?", &symlinks, "ignore?", &ignore, "dirs_exist_ok?", &existOK)
	if err != nil {
		return nil, err
	}
	if err := copyTree(r, thread, src, dst, ignore, existOK); err != nil {
		return nil, err
	}
	return starlark.String(dst), nil
}

func copyTree(r *pyrt.Interp, thread *starlark.Thread, src, dst string, ignore starlark.Value, existOK bool) error {
	if err := r.Host.CallOf().Ctx().Err(); err != nil {
		return err
	}
	names, dirs, _, err := entries(r, "copytree", src)
	if err != nil {
		return err
	}
	root, rel, v, err := r.Host.Locate("copytree", dst)
	if err != nil {
		return err
	}
	if fi, err := root.Stat(rel); err == nil && (!existOK || !fi.IsDir()) {
		return r.Host.FsErr("copytree", v, &pyrt.FsError{Op: "copytree", Vpath: v, Kind: pyrt.FsExists, Reason: ""})
	}
	if err := root.MkdirAll(rel, 0o755); err != nil {
		return r.Host.FsErr("copytree", v, err)
	}
	skip := map[string]bool{}
	if ignore != starlark.None {
		list := make([]starlark.Value, len(names))
		for i, n := range names {
			list[i] = starlark.String(n)
		}
		got, err := starlark.Call(thread, ignore, starlark.Tuple{starlark.String(src), starlark.NewList(list)}, nil)
		if err != nil {
			return err
		}
		_ = pyrt.Iterate(got, func(v starlark.Value) (bool, error) {
			s, _ := starlark.AsString(v)
			skip[s] = true
			return true, nil
		})
	}
	for i, n := range names {
		if skip[n] {
			continue
		}
		s, d := joinPath(src, n), joinPath(dst, n)
		if dirs[i] {
			err = copyTree(r, thread, s, d, ignore, existOK)
		} else {
			err = copyFile(r, "copytree", s, d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// shutilMove is move(src, dst): a rename within a mount (replacing a file
// at dst), a copy then removal across mounts.
func shutilMove(r *pyrt.Interp, thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	src, dst, err := twoPaths(r, b.Name(), args, kw, "copy_function?", new(starlark.Value))
	if err != nil {
		return nil, err
	}
	exists, srcDir, err := kindOf(r, "move", src)
	if err != nil {
		return nil, err
	}
	if !exists {
		v := r.Host.Absolute(src)
		return nil, r.Host.FsErr("move", v, &pyrt.FsError{Op: "move", Vpath: v, Kind: pyrt.FsNotFound, Reason: ""})
	}
	if e, dir, err := kindOf(r, "move", dst); err == nil && e && dir {
		dst = joinPath(dst, r.NewPath(src).Name())
	} else if e && !srcDir {
		droot, drel, dv, _ := r.Host.Locate("move", dst)
		if err := droot.Remove(drel); err != nil {
			return nil, r.Host.FsErr("move", dv, err)
		}
	}
	sroot, srel, _, _ := r.Host.Locate("move", src)
	droot, drel, dv, err := r.Host.Locate("move", dst)
	if err != nil {
		return nil, err
	}
	if sroot == droot {
		if err := sroot.Rename(srel, drel); err != nil {
			return nil, r.Host.FsErr("move", dv, err)
		}
		return starlark.String(dst), nil
	}
	if srcDir {
		err = copyTree(r, thread, src, dst, starlark.None, false)
	} else {
		err = copyFile(r, "move", src, dst)
	}
	if err != nil {
		return nil, err
	}
	return starlark.String(dst), removeTree(r, src)
}

func shutilRmtree(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pv starlark.Value
	var ignoreErrors bool
	var onerror starlark.Value = starlark.None
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "path", &pv, "ignore_errors?", &ignoreErrors, "onerror?", &onerror, "onexc?", &onerror); err != nil {
		return nil, err
	}
	p, err := r.PathText(b.Name(), pv)
	if err != nil {
		return nil, err
	}
	if err := removeTree(r, p); err != nil && !ignoreErrors {
		return nil, err
	}
	return starlark.None, nil
}

// removeTree removes p and everything below it, without following
// symlinks.
func removeTree(r *pyrt.Interp, p string) error {
	root, rel, v, err := r.Host.Locate("rmtree", p)
	if err != nil {
		return err
	}
	if rel == "." {
		return r.Host.FsErr("rmtree", v, &pyrt.FsError{Op: "rmtree", Vpath: v, Kind: pyrt.FsInvalid, Reason: "a mount cannot be removed"})
	}
	fi, err := root.Lstat(rel)
	if err != nil {
		return r.Host.FsErr("rmtree", v, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return pyrt.PyErrorf(pyrt.ExcOSError, "Cannot call rmtree on a symbolic link")
	}
	if !fi.IsDir() {
		return r.Host.FsErr("rmtree", v, &pyrt.FsError{Op: "rmtree", Vpath: v, Kind: pyrt.FsNotDir, Reason: ""})
	}
	var walk func(rel string) error
	walk = func(rel string) error {
		if err := r.Host.CallOf().Ctx().Err(); err != nil {
			return err
		}
		list, err := root.ReadDir(rel)
		if err != nil {
			return r.Host.FsErr("rmtree", pyrt.Virtual(root, rel), err)
		}
		for _, e := range list {
			child := pyrt.JoinRel(rel, e.Name())
			if e.IsDir() {
				if err := walk(child); err != nil {
					return err
				}
				continue
			}
			if err := root.Remove(child); err != nil {
				return r.Host.FsErr("rmtree", pyrt.Virtual(root, child), err)
			}
		}
		return r.Host.FsErr("rmtree", pyrt.Virtual(root, rel), root.Remove(rel))
	}
	return walk(rel)
}

// shutilWhich is which(cmd): the command's name when run() would find it
// (host paths are never shown in the REPL), None otherwise.
func shutilWhich(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "cmd", &name, "mode?", new(starlark.Value), "path?", new(starlark.Value)); err != nil {
		return nil, err
	}
	if r.Host.CommandDenied(name) {
		return starlark.None, nil
	}
	if _, ok := r.Host.CommandAllowed(name); ok {
		return starlark.String(name), nil
	}
	if _, err := r.Host.LookPath(name); err == nil {
		return starlark.String(name), nil
	}
	return starlark.None, nil
}
