// The methods of tarfile.TarFile but extraction: add, addfile,
// getmember(s), getnames, extractfile, next, list and close.

package pyarchive

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

type tarMethod func(a *tarArchive, thread *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

var tarMethods map[string]tarMethod

func init() {
	tarMethods = map[string]tarMethod{
		"close": func(a *tarArchive, _ *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, a.Close()
		},
		"getmembers": func(a *tarArchive, _ *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := a.loadAll(); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(a.members))
			for i, m := range a.members {
				out[i] = m.info
			}
			return starlark.NewList(out), nil
		},
		"getnames": func(a *tarArchive, _ *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := a.loadAll(); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(a.members))
			for i, m := range a.members {
				out[i] = starlark.String(m.info.name)
			}
			return starlark.NewList(out), nil
		},
		"getmember": func(a *tarArchive, _ *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var name string
			if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &name); err != nil {
				return nil, err
			}
			m, err := a.member(name)
			if err != nil {
				return nil, err
			}
			return m.info, nil
		},
		"next": func(a *tarArchive, _ *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := a.Check("ra"); err != nil {
				return nil, err
			}
			if a.next >= len(a.members) {
				return starlark.None, nil
			}
			a.next++
			return a.members[a.next-1].info, nil
		},
		"add":         tarAdd,
		"gettarinfo":  tarGettarinfo,
		"addfile":     tarAddfile,
		"extractfile": tarExtractfile,
		"extract":     tarExtract,
		"extractall":  tarExtractAll,
		"list":        tarList,
	}
}

func (a *tarArchive) AttrNames() []string {
	names := []string{"name", "mode", "closed"}
	for k := range tarMethods {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func (a *tarArchive) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return a.name, nil
	case "mode":
		return starlark.String(a.mode), nil
	case "closed":
		return starlark.Bool(a.closed), nil
	}
	m, ok := tarMethods[name]
	if !ok {
		return nil, nil
	}
	return pyrt.Builtin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return m(a, thread, name, args, kw)
	}), nil
}

// loadAll is CPython's _load: every member read, so next() is at the end.
func (a *tarArchive) loadAll() error {
	if err := a.checkOpen(); err != nil {
		return err
	}
	a.next = len(a.members)
	return nil
}

func (a *tarArchive) checkOpen() error {
	if a.closed {
		return pyrt.PyErrorf(pyrt.ExcOSError, "TarFile is closed")
	}
	return nil
}

// member is getmember(name): the last member of that name, trailing
// slashes ignored.
func (a *tarArchive) member(name string) (*tarMember, error) {
	if err := a.loadAll(); err != nil {
		return nil, err
	}
	name = strings.TrimRight(name, "/")
	for i := len(a.members) - 1; i >= 0; i-- {
		if a.members[i].info.name == name {
			return a.members[i], nil
		}
	}
	return nil, &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcKeyError, Args: starlark.Tuple{starlark.String("filename " + pystr.Quote(name) + " not found")}}}
}

// memberOf is the member a str or a TarInfo names.
func (a *tarArchive) memberOf(v starlark.Value, what string) (*tarMember, error) {
	switch v := v.(type) {
	case starlark.String:
		return a.member(string(v))
	case *tarInfo:
		if err := a.loadAll(); err != nil {
			return nil, err
		}
		for _, m := range a.members {
			if m.info == v {
				return m, nil
			}
		}
		return a.member(v.name)
	}
	return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute '%s'", pyrt.PyTypeName(v), what)
}

// linkTarget is the member a hard or symbolic link points to, as
// CPython's _find_link_target finds it.
func (a *tarArchive) linkTarget(m *tarMember) (*tarMember, error) {
	link := m.info.linkname
	if m.info.isSym() {
		dir := m.info.name[:max(strings.LastIndexByte(m.info.name, '/'), 0)]
		link = normJoin(dir, link)
	}
	for i := len(a.members) - 1; i >= 0; i-- {
		if a.members[i].info.name == link && a.members[i] != m {
			return a.members[i], nil
		}
	}
	return nil, &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcKeyError, Args: starlark.Tuple{starlark.String("linkname " + pystr.Quote(link) + " not found")}}}
}

// normJoin is os.path.normpath(dir + "/" + name) without a leading "./".
func normJoin(dir, name string) string {
	var parts []string
	for _, p := range strings.Split(dir+"/"+name, "/") {
		switch {
		case p == "" || p == ".":
		case p == ".." && len(parts) > 0 && parts[len(parts)-1] != "..":
			parts = parts[:len(parts)-1]
		default:
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "/")
}

// tarAdd is add(name, arcname=None, recursive=True, *, filter=None).
func tarAdd(a *tarArchive, thread *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var nameV, arcV, filter starlark.Value = nil, starlark.None, starlark.None
	recursive := true
	if err := pyrt.UnpackArgs(fn, args, kw, "name", &nameV, "arcname?", &arcV, "recursive?", &recursive, "filter?", &filter); err != nil {
		return nil, err
	}
	if err := a.Check("awx"); err != nil {
		return nil, err
	}
	name, err := a.r.PathText("add", nameV)
	if err != nil {
		return nil, err
	}
	arc := name
	if arcV != starlark.None {
		if arc, err = a.r.PathText("add", arcV); err != nil {
			return nil, err
		}
	}
	return starlark.None, a.addPath(thread, name, arc, recursive, filter)
}

// tarGettarinfo is gettarinfo(name=None, arcname=None, fileobj=None): the
// TarInfo add would make for a file of the mounts (fileobj's name when
// only it is given).
func tarGettarinfo(a *tarArchive, _ *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var nameV, arcV, fileobj starlark.Value = starlark.None, starlark.None, starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "name?", &nameV, "arcname?", &arcV, "fileobj?", &fileobj); err != nil {
		return nil, err
	}
	if err := a.Check("awx"); err != nil {
		return nil, err
	}
	if nameV == starlark.None {
		f, ok := fileobj.(*pyrt.PyFile)
		if !ok || f.P == nil {
			return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'name'", pyrt.PyTypeName(fileobj))
		}
		nameV = starlark.String(f.Name)
	}
	name, err := a.r.PathText("gettarinfo", nameV)
	if err != nil {
		return nil, err
	}
	arc := name
	if arcV != starlark.None {
		if arc, err = a.r.PathText("gettarinfo", arcV); err != nil {
			return nil, err
		}
	}
	root, rel, v, err := a.r.Host.Locate("gettarinfo", name)
	if err != nil {
		return nil, err
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, givenErr(a.r, name, a.r.Host.FsErr("gettarinfo", v, err))
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return starlark.None, nil
	}
	return a.statInfo(arc, fi), nil
}

func joinName(dir, name string) string {
	if dir == "" || strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// addPath adds a file or directory of the mounts (gettarinfo, then the
// filter, then its data or, for a directory, its entries sorted).
func (a *tarArchive) addPath(thread *starlark.Thread, name, arc string, recursive bool, filter starlark.Value) error {
	if s, ok := a.name.(starlark.String); ok && a.r.Host.Absolute(name) == string(s) {
		return nil // the archive itself, skipped as CPython skips it
	}
	root, rel, v, err := a.r.Host.Locate("add", name)
	if err != nil {
		return err
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return givenErr(a.r, name, a.r.Host.FsErr("add", v, err))
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return nil // sockets and devices, which CPython skips too
	}
	info := a.statInfo(arc, fi)
	if filter != starlark.None {
		res, err := starlark.Call(thread, filter, starlark.Tuple{info}, nil)
		if err != nil {
			return err
		}
		if res == starlark.None {
			return nil
		}
		ti, ok := res.(*tarInfo)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'isreg'", pyrt.PyTypeName(res))
		}
		info = ti
	}
	if fi.IsDir() {
		a.record(&tarMember{info: info.clone()})
		if !recursive {
			return nil
		}
		entries, err := root.ReadDir(rel)
		if err != nil {
			return givenErr(a.r, name, a.r.Host.FsErr("add", v, err))
		}
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		sort.Strings(names)
		for _, n := range names {
			if err := a.addPath(thread, joinName(name, n), joinName(arc, n), recursive, filter); err != nil {
				return err
			}
		}
		return nil
	}
	data, err := a.r.NewPath(name).Read("add")
	if err != nil {
		return err
	}
	return a.addData(info, data)
}

// statInfo is gettarinfo: the arcname without leading slashes, st_mode,
// the float st_mtime; the REPL has no owners to name (uid 0, no uname).
func (a *tarArchive) statInfo(arc string, fi fs.FileInfo) *tarInfo {
	info := newTarInfo(strings.TrimLeft(arc, "/"))
	info.mode = int64(pyrt.UnixMode(fi.Mode()))
	t := fi.ModTime()
	info.mtime = starlark.Float(float64(t.Unix()) + float64(t.Nanosecond())/1e9)
	if fi.IsDir() {
		info.typ = '5'
	} else {
		info.size = fi.Size()
	}
	return info
}

// addData records a regular member with size bytes of data.
func (a *tarArchive) addData(info *tarInfo, data []byte) error {
	info = info.clone()
	if int64(len(data)) < info.size {
		// CPython has written the header already: the archive keeps it,
		// the TarFile does not list it.
		a.out = append(a.out, &tarMember{info: info, orphan: true})
		return pyrt.PyErrorf(pyrt.ExcOSError, "unexpected end of data")
	}
	a.record(&tarMember{info: info, data: data[:info.size]})
	return nil
}

// record adds a member to the archive and to its list.
func (a *tarArchive) record(m *tarMember) {
	a.members = append(a.members, m)
	a.out = append(a.out, m)
}

// tarAddfile is addfile(tarinfo, fileobj=None): size bytes of fileobj.
func tarAddfile(a *tarArchive, thread *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var infoV, fileobj starlark.Value = nil, starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "tarinfo", &infoV, "fileobj?", &fileobj); err != nil {
		return nil, err
	}
	if err := a.Check("awx"); err != nil {
		return nil, err
	}
	info, ok := infoV.(*tarInfo)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'tobuf'", pyrt.PyTypeName(infoV))
	}
	if fileobj == starlark.None {
		if info.isReg() && info.size != 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "fileobj not provided for non zero-size regular file")
		}
		a.record(&tarMember{info: info.clone()})
		return starlark.None, nil
	}
	data, err := readFileobj(thread, fileobj, info.size)
	if err != nil {
		return nil, err
	}
	return starlark.None, a.addData(info, data)
}

// readFileobj reads up to n bytes of a binary file object.
func readFileobj(thread *starlark.Thread, v starlark.Value, n int64) ([]byte, error) {
	if f, ok := v.(*pyrt.PyFile); ok {
		if err := f.Check(true); err != nil {
			return nil, err
		}
		if !f.Binary {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "a bytes-like object is required, not 'str'")
		}
		start := min(f.Pos, len(f.Data))
		end := min(start+int(n), len(f.Data))
		f.Pos = end
		return []byte(f.Data[start:end]), nil
	}
	res, err := pyrt.CallMethod(thread, v, "read", starlark.Tuple{starlark.MakeInt64(n)}, nil)
	if err != nil {
		return nil, err
	}
	b, ok := res.(starlark.Bytes)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "a bytes-like object is required, not '%s'", pyrt.PyTypeName(res))
	}
	return []byte(b), nil
}

// tarExtractfile is extractfile(member): a binary file over a regular
// member (or a link's target), None for other members.
func tarExtractfile(a *tarArchive, _ *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &v); err != nil {
		return nil, err
	}
	if err := a.Check("r"); err != nil {
		return nil, err
	}
	m, err := a.memberOf(v, "isreg")
	if err != nil {
		return nil, err
	}
	for hops := 0; m.info.isLnk() || m.info.isSym(); hops++ {
		if m, err = a.linkTarget(m); err != nil || hops > 40 {
			return nil, err
		}
	}
	if !m.info.isReg() {
		return starlark.None, nil
	}
	if m.truncated {
		return nil, pyrt.PyErrorf(excTarRead, "unexpected end of data")
	}
	return &pyrt.PyFile{R: a.r, Name: a.given, Mode: "rb", Binary: true, Readable: true, Data: string(m.data), Newline: starlark.None}, nil
}

// tarList is list(verbose=True, *, members=None), printed as CPython
// prints it (each field followed by a space).
func tarList(a *tarArchive, _ *starlark.Thread, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	verbose := true
	var members starlark.Value = starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "verbose?", &verbose, "members?", &members); err != nil {
		return nil, err
	}
	if err := a.loadAll(); err != nil {
		return nil, err
	}
	chosen, err := a.chosen(members)
	if err != nil {
		return nil, err
	}
	var sb strings.Builder
	for _, m := range chosen {
		t := m.info
		if verbose {
			owner := func(name string, id int64) string {
				if name != "" {
					return name
				}
				return fmt.Sprint(id)
			}
			sec, _ := t.mtimeSeconds()
			lt := time.Unix(sec, 0).In(time.Local)
			fmt.Fprintf(&sb, "%s %s/%s %10d %d-%02d-%02d %02d:%02d:%02d ", statFilemode(uint32(t.mode)), owner(t.uname, t.uid), owner(t.gname, t.gid),
				t.size, lt.Year(), lt.Month(), lt.Day(), lt.Hour(), lt.Minute(), lt.Second())
		}
		sb.WriteString(t.name)
		if t.isDir() {
			sb.WriteString("/")
		}
		sb.WriteString(" ")
		if verbose && t.isSym() {
			sb.WriteString("-> " + t.linkname + " ")
		}
		if verbose && t.isLnk() {
			sb.WriteString("link to " + t.linkname + " ")
		}
		sb.WriteString("\n")
	}
	a.r.Host.CallOf().Write(sb.String())
	return starlark.None, nil
}

// chosen is the members a members= argument names (all for None).
func (a *tarArchive) chosen(v starlark.Value) ([]*tarMember, error) {
	if v == starlark.None {
		return a.members, nil
	}
	var out []*tarMember
	err := pyrt.Iterate(v, func(x starlark.Value) (bool, error) {
		m, err := a.memberOf(x, "name")
		if err == nil {
			out = append(out, m)
		}
		return err == nil, err
	})
	return out, err
}
