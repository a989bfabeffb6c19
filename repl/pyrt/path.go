// Path: the pathlib-style value through which REPL code reaches files.

package pyrt

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"harness/repl/pystr"
)

// Path is a path as written in REPL code, normalized like pathlib's
// PurePosixPath ("a//b/./c" is "a/b/c"; ".." is kept). Relative paths are
// resolved against the REPL's working directory when an operation runs.
type Path struct {
	r *Interp
	P string
}

var (
	_ starlark.Value      = (*Path)(nil)
	_ starlark.HasAttrs   = (*Path)(nil)
	_ starlark.HasBinary  = (*Path)(nil)
	_ starlark.Comparable = (*Path)(nil)
)

// normPath normalizes like pathlib: empty is ".", repeated slashes and "."
// components are dropped, a trailing slash is dropped.
func NormPath(s string) string {
	abs := strings.HasPrefix(s, "/")
	var parts []string
	for _, c := range strings.Split(s, "/") {
		if c != "" && c != "." {
			parts = append(parts, c)
		}
	}
	out := strings.Join(parts, "/")
	if abs {
		return "/" + out
	}
	if out == "" {
		return "."
	}
	return out
}

func (r *Interp) NewPath(s string) *Path { return &Path{r: r, P: NormPath(s)} }

func (p *Path) String() string        { return p.P }
func (p *Path) Type() string          { return "Path" }
func (p *Path) Freeze()               {}
func (p *Path) Truth() starlark.Bool  { return true }
func (p *Path) Hash() (uint32, error) { return starlark.String(p.P).Hash() }

func (p *Path) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.Compare(op, starlark.String(p.P), starlark.String(y.(*Path).P))
}

// join returns p / other, where an absolute other replaces p.
func (p *Path) join(other string) *Path {
	if strings.HasPrefix(other, "/") || p.P == "." {
		return p.r.NewPath(other)
	}
	return p.r.NewPath(p.P + "/" + other)
}

func (p *Path) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op != syntax.SLASH {
		return nil, nil
	}
	var other string
	switch y := y.(type) {
	case starlark.String:
		other = string(y)
	case *Path:
		other = y.P
	default:
		return nil, nil
	}
	if side == starlark.Left {
		return p.join(other), nil
	}
	return p.r.NewPath(other).join(p.P), nil
}

// pathOf accepts a Path or a string.
func (r *Interp) PathOf(fn string, v starlark.Value) (*Path, error) {
	switch v := v.(type) {
	case *Path:
		return v, nil
	case starlark.String:
		return r.NewPath(string(v)), nil
	}
	return nil, fmt.Errorf("%s: got %s, want Path or str", fn, v.Type())
}

// Lexical properties.

func (p *Path) Name() string {
	if p.P == "." || p.P == "/" {
		return ""
	}
	return path.Base(p.P)
}

func (p *Path) suffixes() []string {
	n := p.Name()
	if strings.HasSuffix(n, ".") {
		return nil
	}
	parts := strings.Split(strings.TrimLeft(n, "."), ".")
	var out []string
	for _, s := range parts[1:] {
		out = append(out, "."+s)
	}
	return out
}

func (p *Path) suffix() string {
	s := p.suffixes()
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

func (p *Path) parent() *Path {
	if p.P == "." || p.P == "/" {
		return p
	}
	return p.r.NewPath(path.Dir(p.P))
}

func (p *Path) parts() starlark.Tuple {
	var t starlark.Tuple
	s := p.P
	if strings.HasPrefix(s, "/") {
		t = append(t, starlark.String("/"))
		s = s[1:]
	}
	if s == "." || s == "" {
		return t
	}
	for _, c := range strings.Split(s, "/") {
		t = append(t, starlark.String(c))
	}
	return t
}

var pathFields = []string{"anchor", "drive", "name", "parent", "parents", "parts", "root", "stem", "suffix", "suffixes"}

var pathMethods = map[string]func(p *Path, thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error){
	"exists": (*Path).exists, "is_file": (*Path).isFile, "is_dir": (*Path).isDir,
	"is_symlink": (*Path).isSymlink, "is_absolute": (*Path).isAbsolute,
	"read_text": (*Path).readText, "read_bytes": (*Path).readBytes,
	"write_text": (*Path).writeText, "write_bytes": (*Path).writeBytes,
	"iterdir": (*Path).iterdir, "glob": (*Path).glob, "rglob": (*Path).rglob,
	"mkdir": (*Path).mkdir, "unlink": (*Path).unlink, "rmdir": (*Path).rmdir,
	"rename": (*Path).Rename, "stat": (*Path).Stat, "resolve": (*Path).resolve,
	"joinpath": (*Path).joinpath, "with_name": (*Path).withName, "with_suffix": (*Path).withSuffix,
	"relative_to": (*Path).relativeTo, "match": (*Path).match,
}

func (p *Path) AttrNames() []string {
	names := append([]string(nil), pathFields...)
	for n := range pathMethods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (p *Path) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(p.Name()), nil
	case "stem":
		n, s := p.Name(), p.suffix()
		return starlark.String(strings.TrimSuffix(n, s)), nil
	case "suffix":
		return starlark.String(p.suffix()), nil
	case "suffixes":
		var l []starlark.Value
		for _, s := range p.suffixes() {
			l = append(l, starlark.String(s))
		}
		return starlark.NewList(l), nil
	case "parent":
		return p.parent(), nil
	case "parts":
		return p.parts(), nil
	case "parents": // a tuple where pathlib has its own sequence type
		var t starlark.Tuple
		for q := p; q.P != "." && q.P != "/"; {
			q = q.parent()
			t = append(t, q)
		}
		return t, nil
	case "anchor", "root":
		if strings.HasPrefix(p.P, "/") {
			return starlark.String("/"), nil
		}
		return starlark.String(""), nil
	case "drive":
		return starlark.String(""), nil
	}
	m, ok := pathMethods[name]
	if !ok {
		return nil, nil
	}
	return starlark.NewBuiltin("Path."+name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return m(p, thread, b, args, kw)
	}), nil
}

// Lexical methods.

func (p *Path) isAbsolute(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	return starlark.Bool(strings.HasPrefix(p.P, "/")), nil
}

func (p *Path) resolve(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var strict bool
	if err := UnpackArgs(b.Name(), args, kw, "strict?", &strict); err != nil {
		return nil, err
	}
	return p.r.NewPath(p.r.Host.Absolute(p.P)), nil
}

func (p *Path) joinpath(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(kw) > 0 {
		return nil, fmt.Errorf("%s: unexpected keyword arguments", b.Name())
	}
	out := p
	for _, a := range args {
		q, err := p.r.PathOf(b.Name(), a)
		if err != nil {
			return nil, err
		}
		out = out.join(q.P)
	}
	return out, nil
}

func (p *Path) withName(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var n string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &n); err != nil {
		return nil, err
	}
	if p.Name() == "" || n == "" || strings.Contains(n, "/") || n == "." {
		return nil, fmt.Errorf("%s: invalid name %q for %s", b.Name(), n, p.P)
	}
	return p.parent().join(n), nil
}

func (p *Path) withSuffix(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var s string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &s); err != nil {
		return nil, err
	}
	if p.Name() == "" || (s != "" && (!strings.HasPrefix(s, ".") || s == "." || strings.Contains(s, "/"))) {
		return nil, fmt.Errorf("%s: invalid suffix %q for %s", b.Name(), s, p.P)
	}
	n := strings.TrimSuffix(p.Name(), p.suffix()) + s
	return p.parent().join(n), nil
}

func (p *Path) relativeTo(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	q, err := p.otherPath(b, args, kw)
	if err != nil {
		return nil, err
	}
	rel, ok := p.relative(q)
	if !ok {
		return nil, PyErrorf(ExcValueError, "%s is not in the subpath of %s OR one path is relative and the other is absolute.", pystr.Quote(p.P), pystr.Quote(q.P))
	}
	return p.r.NewPath(rel), nil
}

// relative is p relative to q, and whether p is inside q (or is q).
func (p *Path) relative(q *Path) (string, bool) {
	switch {
	case q.P == p.P:
		return ".", true
	case q.P == "." && !strings.HasPrefix(p.P, "/"):
		return p.P, true
	case q.P == "/" && strings.HasPrefix(p.P, "/"):
		return p.P[1:], true
	case strings.HasPrefix(p.P, q.P+"/"):
		return p.P[len(q.P)+1:], true
	}
	return "", false
}

// otherPath unpacks the one argument of relative_to, is_relative_to and
// samefile: another path, or a string naming one.
func (p *Path) otherPath(b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (*Path, error) {
	var other starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &other); err != nil {
		return nil, err
	}
	return p.r.PathOf(b.Name(), other)
}

func (p *Path) match(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pattern string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &pattern); err != nil {
		return nil, err
	}
	ok, err := matchPath(pattern, p.P)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", b.Name(), err)
	}
	return starlark.Bool(ok), nil
}

// stat returns struct(st_size, st_mtime, st_mode) following symlinks.
func (p *Path) Stat(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
		return nil, err
	}
	root, rel, v, err := p.r.Host.Locate("stat", p.P)
	if err != nil {
		return nil, err
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, p.r.Host.FsErr("stat", v, err)
	}
	mtime := float64(fi.ModTime().UnixNano()) / 1e9
	return starlarkstruct.FromStringDict(starlark.String("stat_result"), starlark.StringDict{
		"st_size":  starlark.MakeInt64(fi.Size()),
		"st_mtime": starlark.Float(mtime),
		"st_mode":  starlark.MakeInt(int(UnixMode(fi.Mode()))),
	}), nil
}

// unixMode converts a Go FileMode to st_mode bits.
func UnixMode(m fs.FileMode) uint32 {
	bits := uint32(m.Perm())
	switch {
	case m.IsDir():
		bits |= 0o040000
	case m&fs.ModeSymlink != 0:
		bits |= 0o120000
	case m.IsRegular():
		bits |= 0o100000
	}
	return bits
}
