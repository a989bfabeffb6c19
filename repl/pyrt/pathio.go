// Path methods that touch files, each checked by jail when it runs.

package pyrt

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"go.starlark.net/starlark"
)

// probe stats p; missing and not-a-directory answers are false, other
// errors (permission, escape) are raised.
func (p *Path) probe(b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple, follow bool, test func(fs.FileInfo) bool) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	op := strings.TrimPrefix(b.Name(), "Path.")
	root, rel, v, err := p.r.Host.Locate(op, p.P)
	if err != nil {
		return nil, err
	}
	var fi fs.FileInfo
	if follow {
		fi, err = root.Stat(rel)
	} else {
		fi, err = root.Lstat(rel)
	}
	switch FsKindOf(err) {
	case fsNotFound, fsNotDir:
		return starlark.False, nil
	}
	if err != nil {
		return nil, p.r.Host.FsErr(op, v, err)
	}
	return starlark.Bool(test(fi)), nil
}

func (p *Path) exists(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return p.probe(b, args, kw, true, func(fs.FileInfo) bool { return true })
}

func (p *Path) isFile(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return p.probe(b, args, kw, true, func(fi fs.FileInfo) bool { return fi.Mode().IsRegular() })
}

func (p *Path) isDir(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return p.probe(b, args, kw, true, func(fi fs.FileInfo) bool { return fi.IsDir() })
}

func (p *Path) isSymlink(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return p.probe(b, args, kw, false, func(fi fs.FileInfo) bool { return fi.Mode()&fs.ModeSymlink != 0 })
}

// read returns the file's contents after checking its size against the
// memory budget.
func (p *Path) Read(op string) ([]byte, error) {
	root, rel, v, err := p.r.Host.Locate(op, p.P)
	if err != nil {
		return nil, err
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, p.r.Host.FsErr(op, v, err)
	}
	if fi.IsDir() {
		return nil, p.r.Host.FsErr(op, v, &FsError{op, v, fsIsDir, ""})
	}
	// Small files are left to the watchdog: asking for the budget can force
	// a collection, too slow to do for every file a search reads.
	if size := fi.Size(); size > BigAlloc && size > p.r.Host.CallOf().Budget() {
		return nil, fmt.Errorf("%s %s: the file is %d bytes, more than this REPL's memory limit leaves room for (max_memory_mb = %d); read it in parts with the read_file tool or search it with grep",
			op, v, size, p.r.Host.MaxMemoryMB())
	}
	data, err := root.ReadFile(rel)
	if err != nil {
		return nil, p.r.Host.FsErr(op, v, err)
	}
	return data, nil
}

func (p *Path) readText(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var encoding string
	if err := UnpackArgs(b.Name(), args, kw, "encoding?", &encoding); err != nil {
		return nil, err
	}
	data, err := p.Read("read_text")
	if err != nil {
		return nil, err
	}
	return starlark.String(data), nil
}

func (p *Path) readBytes(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	data, err := p.Read("read_bytes")
	if err != nil {
		return nil, err
	}
	return starlark.Bytes(data), nil
}

func (p *Path) Write(op string, data []byte) error {
	root, rel, v, err := p.r.Host.Locate(op, p.P)
	if err != nil {
		return err
	}
	return p.r.Host.FsErr(op, v, root.WriteFile(rel, data, 0o644))
}

func (p *Path) writeText(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var s, encoding string
	if err := UnpackArgs(b.Name(), args, kw, "data", &s, "encoding?", &encoding); err != nil {
		return nil, err
	}
	if err := p.Write("write_text", []byte(s)); err != nil {
		return nil, err
	}
	return starlark.MakeInt(len(s)), nil
}

func (p *Path) writeBytes(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var data starlark.Bytes
	if err := UnpackArgs(b.Name(), args, kw, "data", &data); err != nil {
		return nil, err
	}
	if err := p.Write("write_bytes", []byte(data)); err != nil {
		return nil, err
	}
	return starlark.MakeInt(len(data)), nil
}

func (p *Path) iterdir(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	root, rel, v, err := p.r.Host.Locate("iterdir", p.P)
	if err != nil {
		return nil, err
	}
	entries, err := root.ReadDir(rel)
	if err != nil {
		return nil, p.r.Host.FsErr("iterdir", v, err)
	}
	out := make([]starlark.Value, len(entries))
	for i, e := range entries {
		out[i] = p.join(e.Name())
	}
	return starlark.NewList(out), nil
}

func (p *Path) mkdir(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var parents, existOK bool
	var mode = 0o777
	if err := UnpackArgs(b.Name(), args, kw, "mode?", &mode, "parents?", &parents, "exist_ok?", &existOK); err != nil {
		return nil, err
	}
	root, rel, v, err := p.r.Host.Locate("mkdir", p.P)
	if err != nil {
		return nil, err
	}
	if fi, err := root.Stat(rel); err == nil {
		if existOK && fi.IsDir() {
			return starlark.None, nil
		}
		return nil, p.r.Host.FsErr("mkdir", v, &FsError{"mkdir", v, fsExists, ""})
	}
	if parents {
		err = root.MkdirAll(rel, fs.FileMode(mode))
	} else {
		err = root.Mkdir(rel, fs.FileMode(mode))
	}
	if FsKindOf(err) == fsExists && existOK {
		err = nil
	}
	return starlark.None, p.r.Host.FsErr("mkdir", v, err)
}

// removeEntry removes p after checking that it is (dir) or is not a directory.
func (p *Path) RemoveEntry(b *starlark.Builtin, op string, dir, missingOK bool) (starlark.Value, error) {
	root, rel, v, err := p.r.Host.Locate(op, p.P)
	if err != nil {
		return nil, err
	}
	fi, err := root.Lstat(rel)
	if err != nil {
		if missingOK && FsKindOf(err) == fsNotFound {
			return starlark.None, nil
		}
		return nil, p.r.Host.FsErr(op, v, err)
	}
	if rel == "." {
		return nil, p.r.Host.FsErr(op, v, &FsError{op, v, fsInvalid, "a mount cannot be removed"})
	}
	switch {
	case dir && !fi.IsDir():
		return nil, p.r.Host.FsErr(op, v, &FsError{op, v, fsNotDir, ""})
	case !dir && fi.IsDir():
		return nil, p.r.Host.FsErr(op, v, &FsError{op, v, fsIsDir, "use rmdir() for directories"})
	}
	return starlark.None, p.r.Host.FsErr(op, v, root.Remove(rel))
}

func (p *Path) unlink(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var missingOK bool
	if err := UnpackArgs(b.Name(), args, kw, "missing_ok?", &missingOK); err != nil {
		return nil, err
	}
	return p.RemoveEntry(b, "unlink", false, missingOK)
}

func (p *Path) rmdir(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	return p.RemoveEntry(b, "rmdir", true, false)
}

func (p *Path) Rename(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var target starlark.Value
	if err := UnpackArgs(b.Name(), args, kw, "target", &target); err != nil {
		return nil, err
	}
	dst, err := p.r.PathOf(b.Name(), target)
	if err != nil {
		return nil, err
	}
	root, rel, v, err := p.r.Host.Locate("rename", p.P)
	if err != nil {
		return nil, err
	}
	droot, drel, dv, err := p.r.Host.Locate("rename", dst.P)
	if err != nil {
		return nil, err
	}
	if droot != root {
		return nil, fmt.Errorf("rename %s to %s: cannot move between mounts; read the file and write it at the destination, then unlink the original", v, dv)
	}
	if err := root.Rename(rel, drel); err != nil {
		err = p.r.Host.FsErr("rename", v+" to "+dv, err)
		var fe *FsError
		if errors.As(err, &fe) {
			err = &GivenPathError{FsError: fe, Given: p.P, Given2: dst.P} // [Errno 2] ...: 'a' -> 'b'
		}
		return nil, err
	}
	return dst, nil
}

func (p *Path) glob(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pattern string
	var exclude starlark.Value = starlark.Tuple(nil)
	if err := UnpackArgs(b.Name(), args, kw, "pattern", &pattern, "exclude?", &exclude); err != nil {
		return nil, err
	}
	return p.globPaths("glob", pattern, exclude)
}

func (p *Path) rglob(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pattern string
	var exclude starlark.Value = starlark.Tuple(nil)
	if err := UnpackArgs(b.Name(), args, kw, "pattern", &pattern, "exclude?", &exclude); err != nil {
		return nil, err
	}
	return p.globPaths("rglob", "**/"+pattern, exclude)
}

// globPaths returns the sorted Paths below p matching pattern.
func (p *Path) globPaths(fn, pattern string, exclude starlark.Value) (starlark.Value, error) {
	skip, err := stringSet(fn, "exclude", exclude)
	if err != nil {
		return nil, err
	}
	switch {
	case pattern == "":
		return nil, PyErrorf(ExcValueError, "Unacceptable pattern: ''")
	case strings.HasPrefix(pattern, "/"):
		return nil, PyErrorf(ExcNotImplemented, "Non-relative patterns are unsupported")
	}
	comps := strings.Split(NormPath(pattern), "/")
	for _, c := range comps {
		if c == ".." {
			return nil, fmt.Errorf("%s: the pattern must not contain '..' components, got %q", fn, pattern)
		}
	}
	root, rel, v, err := p.r.Host.Locate(fn, p.P)
	if err != nil {
		return nil, err
	}
	w := &globber{r: p.r, c: p.r.Host.CallOf(), root: root, op: fn, skip: skip, seen: map[string]bool{}}
	if fi, err := root.Stat(rel); err != nil {
		if k := FsKindOf(err); k == fsNotFound || k == fsNotDir {
			return starlark.NewList(nil), nil // Python: nothing below a missing directory
		}
		return nil, p.r.Host.FsErr(fn, v, err)
	} else if !fi.IsDir() {
		return starlark.NewList(nil), nil // nor below a file
	}
	if err := w.walk(rel, "", comps); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(w.found))
	for i, f := range SortedStrings(w.found) {
		out[i] = p.join(f)
	}
	return starlark.NewList(out), nil
}

// stringSet unpacks a list/tuple/set of strings.
func stringSet(fn, arg string, v starlark.Value) (map[string]bool, error) {
	out := map[string]bool{}
	if v == nil || v == starlark.None {
		return out, nil
	}
	if s, ok := v.(starlark.String); ok {
		out[string(s)] = true
		return out, nil
	}
	it, ok := v.(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("%s: %s must be a list of names, got %s", fn, arg, v.Type())
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		s, ok := starlark.AsString(x)
		if !ok {
			return nil, fmt.Errorf("%s: %s must contain strings, got %s", fn, arg, x.Type())
		}
		out[s] = true
	}
	return out, nil
}
