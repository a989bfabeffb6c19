// Virtual paths: mapping /repository, /store and /library onto jail roots.

package repl

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"harness/failures"
	"harness/jail"
	"harness/repl/pyrt"
)

// mountRoots returns the mounted roots in display order.
func (r *interp) mountRoots() []*jail.Root {
	roots := []*jail.Root{r.opts.Repository}
	if r.opts.Store != nil {
		roots = append(roots, r.opts.Store)
	}
	if r.opts.Library != nil {
		roots = append(roots, r.opts.Library)
	}
	return roots
}

func (r *interp) mountNames() string {
	var names []string
	for _, m := range r.mountRoots() {
		names = append(names, "/"+m.Name())
	}
	return strings.Join(names, ", ")
}

// absolute returns p joined to the working directory and cleaned lexically.
func (r *interp) absolute(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = r.Cwd + "/" + p
	}
	return path.Clean(p)
}

// locate maps a path written in REPL code to its root and root-relative
// path. The error for a path outside every mount is KindEscape.
func (r *interp) locate(op, p string) (*jail.Root, string, string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return nil, "", "", &pyrt.FsError{Op: op, Vpath: strings.ReplaceAll(p, "\x00", `\x00`), Kind: pyrt.FsInvalid, Reason: "the path contains a NUL byte"}
	}
	if p == "" {
		return nil, "", "", &pyrt.FsError{Op: op, Vpath: `""`, Kind: pyrt.FsInvalid, Reason: "the path is empty"}
	}
	v := r.absolute(p)
	r.SyncFiles(v)
	name, rel, _ := strings.Cut(strings.TrimPrefix(v, "/"), "/")
	for _, m := range r.mountRoots() {
		if m.Name() == name {
			if rel == "" {
				rel = "."
			}
			r.touch(name, rel)
			return m, rel, v, nil
		}
	}
	e := &pyrt.FsError{Op: op, Vpath: v, Kind: pyrt.FsEscape,
		Reason: "the REPL sees only " + r.mountNames() + "; host paths and paths above a mount do not exist here"}
	r.noteFS(e)
	return nil, "", v, e
}

// fsErr converts an error from a jail root (or from reading an opened file)
// into an error naming the virtual path and its kind, and notes denials.
func (r *interp) fsErr(op, vpath string, err error) error {
	if err == nil {
		return nil
	}
	var fe *pyrt.FsError
	if errors.As(err, &fe) {
		return fe // already converted and noted
	}
	out := &pyrt.FsError{Op: op, Vpath: vpath}
	var je *jail.Error
	if errors.As(err, &je) {
		out.Kind, out.Reason = runtimeKind(je.Kind), je.Reason
		if je.Root != "" {
			out.Vpath = "/" + je.Root
			if je.Path != "." && je.Path != "" {
				out.Vpath += "/" + je.Path
			}
		}
	} else {
		out.Kind, out.Reason = classify(err)
	}
	r.noteFS(out)
	return out
}

// classify names the kind of an error that did not come from jail, without
// its text (which could contain a host path).
func classify(err error) (pyrt.FsKind, string) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pyrt.FsNotFound, ""
	case errors.Is(err, fs.ErrExist):
		return pyrt.FsExists, ""
	case errors.Is(err, fs.ErrPermission):
		return pyrt.FsPermission, "the system refused access"
	case errors.Is(err, syscall.ENOTDIR):
		return pyrt.FsNotDir, ""
	case errors.Is(err, syscall.EISDIR):
		return pyrt.FsIsDir, ""
	case errors.Is(err, syscall.ENOTEMPTY):
		return pyrt.FsOther, "the directory is not empty"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return pyrt.FsOther, errno.Error()
	}
	return pyrt.FsOther, "input/output error"
}

// noteFS records permission and escape errors as app denials.
func (r *interp) noteFS(e *pyrt.FsError) {
	if e.Kind == pyrt.FsPermission || e.Kind == pyrt.FsEscape {
		if c := r.call.Load(); c != nil {
			c.note(failures.KindDenied, e.Error())
		}
	}
}
