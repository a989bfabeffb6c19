// Virtual paths: mapping /repository, /store and /library onto jail roots.

package repl

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"harness/failures"
	"harness/jail"
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
		p = r.cwd + "/" + p
	}
	return path.Clean(p)
}

// fsKind is the kind of a file error as the runtime and the standard
// modules name it (py*.go, pymod_*.go), so that they need not import
// jail: the mounts are the one place that knows file errors come from
// jail (TestRuntimeFilesReachNoHost checks).
type fsKind = jail.Kind

// The kinds of file errors the runtime raises or tests for.
const (
	fsNotFound   = jail.KindNotFound
	fsExists     = jail.KindExists
	fsPermission = jail.KindPermission
	fsEscape     = jail.KindEscape
	fsNotDir     = jail.KindNotDir
	fsIsDir      = jail.KindIsDir
	fsInvalid    = jail.KindInvalid
)

// fsKindOf is the kind of a file error (jail.KindOf).
func fsKindOf(err error) fsKind { return jail.KindOf(err) }

// fsError is a file error as the model sees it: a virtual path and a kind.
type fsError struct {
	op, vpath string
	kind      jail.Kind
	reason    string
}

func (e *fsError) Error() string {
	msg := fmt.Sprintf("%s %s: %s", e.op, e.vpath, e.kind)
	if e.reason != "" {
		msg += ": " + e.reason
	}
	return msg
}

// locate maps a path written in REPL code to its root and root-relative
// path. The error for a path outside every mount is KindEscape.
func (r *interp) locate(op, p string) (*jail.Root, string, string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return nil, "", "", &fsError{op, strings.ReplaceAll(p, "\x00", `\x00`), jail.KindInvalid, "the path contains a NUL byte"}
	}
	if p == "" {
		return nil, "", "", &fsError{op, `""`, jail.KindInvalid, "the path is empty"}
	}
	v := r.absolute(p)
	r.syncFiles(v)
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
	e := &fsError{op, v, jail.KindEscape,
		"the REPL sees only " + r.mountNames() + "; host paths and paths above a mount do not exist here"}
	r.noteFS(e)
	return nil, "", v, e
}

// virtual returns the virtual path of rel inside root.
func virtual(root *jail.Root, rel string) string {
	if rel == "." || rel == "" {
		return "/" + root.Name()
	}
	return "/" + root.Name() + "/" + rel
}

// fsErr converts an error from a jail root (or from reading an opened file)
// into an error naming the virtual path and its kind, and notes denials.
func (r *interp) fsErr(op, vpath string, err error) error {
	if err == nil {
		return nil
	}
	var fe *fsError
	if errors.As(err, &fe) {
		return fe // already converted and noted
	}
	out := &fsError{op: op, vpath: vpath}
	var je *jail.Error
	if errors.As(err, &je) {
		out.kind, out.reason = je.Kind, je.Reason
		if je.Root != "" {
			out.vpath = "/" + je.Root
			if je.Path != "." && je.Path != "" {
				out.vpath += "/" + je.Path
			}
		}
	} else {
		out.kind, out.reason = classify(err)
	}
	r.noteFS(out)
	return out
}

// classify names the kind of an error that did not come from jail, without
// its text (which could contain a host path).
func classify(err error) (jail.Kind, string) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return jail.KindNotFound, ""
	case errors.Is(err, fs.ErrExist):
		return jail.KindExists, ""
	case errors.Is(err, fs.ErrPermission):
		return jail.KindPermission, "the system refused access"
	case errors.Is(err, syscall.ENOTDIR):
		return jail.KindNotDir, ""
	case errors.Is(err, syscall.EISDIR):
		return jail.KindIsDir, ""
	case errors.Is(err, syscall.ENOTEMPTY):
		return jail.KindOther, "the directory is not empty"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return jail.KindOther, errno.Error()
	}
	return jail.KindOther, "input/output error"
}

// noteFS records permission and escape errors as app denials.
func (r *interp) noteFS(e *fsError) {
	if e.kind == jail.KindPermission || e.kind == jail.KindEscape {
		if c := r.call.Load(); c != nil {
			c.note(failures.KindDenied, e.Error())
		}
	}
}
