package repl

import (
	"io/fs"

	"harness/jail"
	"harness/repl/pyrt"
)

// jailRoot is a mount as the runtime sees it (pyrt.Root): the jail.Root
// it wraps confines every path and checks the permission level, and its
// errors say their kind (pyrt.KindedError) while still unwrapping to the
// *jail.Error that fsErr and the failure notes read.
type jailRoot struct{ r *jail.Root }

// runtimeRoot is root as a pyrt.Root (nil for nil).
func runtimeRoot(root *jail.Root) pyrt.Root {
	if root == nil {
		return nil
	}
	return jailRoot{root}
}

func (j jailRoot) Name() string   { return j.r.Name() }
func (j jailRoot) Writable() bool { return j.r.Level().CanWrite() }

func (j jailRoot) Stat(p string) (fs.FileInfo, error) {
	fi, err := j.r.Stat(p)
	return fi, kinded(err)
}

func (j jailRoot) Lstat(p string) (fs.FileInfo, error) {
	fi, err := j.r.Lstat(p)
	return fi, kinded(err)
}

func (j jailRoot) ReadDir(p string) ([]fs.DirEntry, error) {
	es, err := j.r.ReadDir(p)
	return es, kinded(err)
}

func (j jailRoot) ReadFile(p string) ([]byte, error) {
	b, err := j.r.ReadFile(p)
	return b, kinded(err)
}

func (j jailRoot) WriteFile(p string, data []byte, perm fs.FileMode) error {
	return kinded(j.r.WriteFile(p, data, perm))
}

func (j jailRoot) Mkdir(p string, perm fs.FileMode) error    { return kinded(j.r.Mkdir(p, perm)) }
func (j jailRoot) MkdirAll(p string, perm fs.FileMode) error { return kinded(j.r.MkdirAll(p, perm)) }
func (j jailRoot) Remove(p string) error                     { return kinded(j.r.Remove(p)) }
func (j jailRoot) Rename(oldp, newp string) error            { return kinded(j.r.Rename(oldp, newp)) }
func (j jailRoot) Chmod(p string, mode fs.FileMode) error    { return kinded(j.r.Chmod(p, mode)) }
func (j jailRoot) CheckWrite(op, p string) error             { return kinded(j.r.CheckWrite(op, p)) }

// kindedErr is an error of a jail root that says its pyrt kind.
type kindedErr struct{ err error }

func kinded(err error) error {
	if err == nil {
		return nil
	}
	return kindedErr{err}
}

func (e kindedErr) Error() string       { return e.err.Error() }
func (e kindedErr) Unwrap() error       { return e.err }
func (e kindedErr) FsKind() pyrt.FsKind { return runtimeKind(jail.KindOf(e.err)) }

// runtimeKinds names each jail kind as the runtime does.
var runtimeKinds = map[jail.Kind]pyrt.FsKind{
	jail.KindOther:      pyrt.FsOther,
	jail.KindNotFound:   pyrt.FsNotFound,
	jail.KindExists:     pyrt.FsExists,
	jail.KindPermission: pyrt.FsPermission,
	jail.KindEscape:     pyrt.FsEscape,
	jail.KindNotDir:     pyrt.FsNotDir,
	jail.KindIsDir:      pyrt.FsIsDir,
	jail.KindInvalid:    pyrt.FsInvalid,
}

func runtimeKind(k jail.Kind) pyrt.FsKind { return runtimeKinds[k] }
