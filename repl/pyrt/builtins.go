// Path(), os.chdir and os.getcwd: the builtins over the working directory.

package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"
)

type BuiltinFunc = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

func (r *Interp) PathCtor(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(kw) > 0 {
		return nil, fmt.Errorf("Path: unexpected keyword arguments")
	}
	p := r.NewPath(".")
	for _, a := range args {
		q, err := r.PathOf("Path", a)
		if err != nil {
			return nil, err
		}
		p = p.join(q.P)
	}
	return p, nil
}

func (r *Interp) Chdir(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var target starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &target); err != nil {
		return nil, err
	}
	p, err := r.PathOf(b.Name(), target)
	if err != nil {
		return nil, err
	}
	root, rel, v, err := r.Host.Locate("chdir", p.P)
	if err != nil {
		return nil, err
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, r.Host.FsErr("chdir", v, err)
	}
	if !fi.IsDir() {
		return nil, r.Host.FsErr("chdir", v, &FsError{"chdir", v, fsNotDir, ""})
	}
	r.Cwd = v
	return starlark.None, nil
}

func (r *Interp) Getcwd(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	return starlark.String(r.Cwd), nil
}
