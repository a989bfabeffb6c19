// The methods of zipfile.ZipFile.

package pyarchive

import (
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func newFlateWriter(w io.Writer, level int) (io.WriteCloser, error) { return flate.NewWriter(w, level) }

func (z *zipArchive) AttrNames() []string {
	return []string{"close", "comment", "extract", "extractall", "filename", "getinfo", "infolist", "mode", "namelist",
		"open", "printdir", "read", "testzip", "write", "writestr"}
}

type zipMethod func(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

var zipMethods = map[string]zipMethod{
	"close": func(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, z.Close()
	},
	"namelist": func(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		out := make([]starlark.Value, len(z.members))
		for i, m := range z.members {
			out[i] = starlark.String(m.info.filename)
		}
		return starlark.NewList(out), nil
	},
	"infolist": func(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		out := make([]starlark.Value, len(z.members))
		for i, m := range z.members {
			out[i] = m.info
		}
		return starlark.NewList(out), nil
	},
	"getinfo": func(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var name starlark.Value
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &name); err != nil {
			return nil, err
		}
		m, err := z.member(name)
		if err != nil {
			return nil, err
		}
		return m.info, nil
	},
	"read": func(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var name, pwd starlark.Value
		if err := pyrt.UnpackArgs(fn, args, kw, "name", &name, "pwd?", &pwd); err != nil {
			return nil, err
		}
		m, err := z.member(name)
		if err != nil {
			return nil, err
		}
		data, err := m.Read()
		if err != nil {
			return nil, err
		}
		return starlark.Bytes(data), nil
	},
	"open":       zipOpen,
	"writestr":   zipWritestr,
	"write":      zipWrite,
	"extract":    zipExtract,
	"extractall": zipExtractAll,
	"testzip": func(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if z.closed {
			return nil, errZipClosed()
		}
		for _, m := range z.members {
			if _, err := m.Read(); err != nil {
				return starlark.String(m.info.filename), nil
			}
		}
		return starlark.None, nil
	},
	"printdir": func(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%-46s %19s %12s\n", "File Name", "Modified    ", "Size")
		for _, m := range z.members {
			d := m.info.dateTime
			fmt.Fprintf(&sb, "%-46s %d-%02d-%02d %02d:%02d:%02d %12d\n", m.info.filename, d[0], d[1], d[2], d[3], d[4], d[5], m.info.fileSize)
		}
		z.r.Host.CallOf().Write(sb.String())
		return starlark.None, nil
	},
}

func (z *zipArchive) Attr(name string) (starlark.Value, error) {
	switch name {
	case "filename":
		return z.filename, nil
	case "mode":
		return starlark.String(z.mode), nil
	case "comment":
		return starlark.Bytes(""), nil
	}
	m, ok := zipMethods[name]
	if !ok {
		return nil, nil
	}
	return pyrt.Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return m(z, name, args, kw)
	}), nil
}

// zipOpen is open(name, "r"): a binary file object over the member.
func zipOpen(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name, pwd starlark.Value
	mode := "r"
	if err := pyrt.UnpackArgs(fn, args, kw, "name", &name, "mode?", &mode, "pwd?", &pwd, "force_zip64?", new(bool)); err != nil {
		return nil, err
	}
	if mode != "r" {
		if mode == "w" {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "open(name, 'w') is not supported in this REPL: use writestr(name, data)")
		}
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, `open() requires mode "r" or "w"`)
	}
	m, err := z.member(name)
	if err != nil {
		return nil, err
	}
	data, err := m.Read()
	if err != nil {
		return nil, err
	}
	return &pyrt.PyFile{R: z.r, Name: m.info.filename, Mode: "r", Binary: true, Readable: true, Data: string(data), Newline: starlark.None}, nil
}

func zipWritestr(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var target, data, ctype, level starlark.Value = nil, nil, starlark.None, starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "zinfo_or_arcname", &target, "data", &data, "compress_type?", &ctype, "compresslevel?", &level); err != nil {
		return nil, err
	}
	if err := z.checkWrite(); err != nil {
		return nil, err
	}
	var info *zipInfo
	switch t := target.(type) {
	case *zipInfo:
		c := *t
		info = &c
	case starlark.String:
		info = newZipInfo(string(t), z.now())
		info.compressType = z.compression
		if strings.HasSuffix(info.filename, "/") {
			info.externalAttr = 0o40775<<16 | 0x10
		}
	default:
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "writestr() argument 1 must be str or ZipInfo, not %s", pyrt.PyTypeName(target))
	}
	if info.externalAttr == 0 {
		info.externalAttr = 0o600 << 16
	}
	if n, ok := ctype.(starlark.Int); ok {
		c, _ := starlark.AsInt32(n)
		if _, ok := zipMethodsByCode[c]; !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "That compression method is not supported")
		}
		info.compressType = c
	}
	bytesData, ok := pyrt.TextOf(data)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "object of type '%s' has no len()", pyrt.PyTypeName(data))
	}
	z.add(info, []byte(bytesData))
	return starlark.None, nil
}

// zipWrite is write(filename, arcname=None): a file or directory of the
// mounts as a member, with its mode and modification time.
func zipWrite(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fileV, arcV, ctype, level starlark.Value = nil, starlark.None, starlark.None, starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "filename", &fileV, "arcname?", &arcV, "compress_type?", &ctype, "compresslevel?", &level); err != nil {
		return nil, err
	}
	if err := z.checkWrite(); err != nil {
		return nil, err
	}
	name, err := z.r.PathText("write", fileV)
	if err != nil {
		return nil, err
	}
	root, rel, v, err := z.r.Host.Locate("write", name)
	if err != nil {
		return nil, err
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, givenErr(z.r, name, z.r.Host.FsErr("write", v, err))
	}
	arc := name
	if s, ok := arcV.(starlark.String); ok {
		arc = string(s)
	}
	arc = strings.TrimLeft(path.Clean(arc), "/")
	info := newZipInfo(arc, fi.ModTime())
	info.externalAttr = pyrt.UnixMode(fi.Mode()) << 16
	var data []byte
	if fi.IsDir() {
		info.filename += "/"
		info.externalAttr |= 0x10
	} else {
		info.compressType = z.compression
		if n, ok := ctype.(starlark.Int); ok {
			info.compressType, _ = starlark.AsInt32(n)
		}
		if data, err = z.r.NewPath(name).Read("write"); err != nil {
			return nil, err
		}
	}
	z.add(info, data)
	return starlark.None, nil
}

// givenErr names the path of a file error as the program gave it, as
// Python's messages do.
func givenErr(r *pyrt.Interp, name string, err error) error {
	var fe *pyrt.FsError
	if errors.As(err, &fe) && fe.Vpath == r.Host.Absolute(name) {
		return &pyrt.GivenPathError{FsError: fe, Given: name}
	}
	return err
}

// extractTarget is where member lands under dir, as CPython's
// _extract_member computes it: no drive, no empty, "." or ".." parts.
func extractTarget(dir, member string) string {
	var parts []string
	for _, p := range strings.Split(member, "/") {
		if p != "" && p != "." && p != ".." {
			parts = append(parts, p)
		}
	}
	return path.Join(dir, strings.Join(parts, "/"))
}

func (z *zipArchive) extractMember(m *zipMember, dir string) (string, error) {
	target := extractTarget(dir, m.info.filename)
	root, rel, v, err := z.r.Host.Locate("extract", target)
	if err != nil {
		return "", err
	}
	if parent := path.Dir(rel); parent != "." && parent != "" {
		if err := root.MkdirAll(parent, 0o755); err != nil {
			return "", z.r.Host.FsErr("extract", path.Dir(v), err)
		}
	}
	if m.info.isDir() {
		if fi, err := root.Stat(rel); err != nil || !fi.IsDir() {
			if err := root.Mkdir(rel, 0o755); err != nil {
				return "", z.r.Host.FsErr("extract", v, err)
			}
		}
		return target, nil
	}
	data, err := m.Read()
	if err != nil {
		return "", err
	}
	z.r.SyncFiles(v)
	return target, z.r.Host.FsErr("extract", v, root.WriteFile(rel, data, 0o644))
}

func extractDir(z *zipArchive, v starlark.Value) (string, error) {
	if v == starlark.None {
		return z.r.Host.Absolute("."), nil
	}
	return z.r.PathText("extract", v)
}

func zipExtract(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name, dirV, pwd starlark.Value = nil, starlark.None, starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "member", &name, "path?", &dirV, "pwd?", &pwd); err != nil {
		return nil, err
	}
	m, err := z.member(name)
	if err != nil {
		return nil, err
	}
	dir, err := extractDir(z, dirV)
	if err != nil {
		return nil, err
	}
	target, err := z.extractMember(m, dir)
	if err != nil {
		return nil, err
	}
	return starlark.String(target), nil
}

func zipExtractAll(z *zipArchive, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var dirV, members, pwd starlark.Value = starlark.None, starlark.None, starlark.None
	if err := pyrt.UnpackArgs(fn, args, kw, "path?", &dirV, "members?", &members, "pwd?", &pwd); err != nil {
		return nil, err
	}
	if z.closed {
		return nil, errZipClosed()
	}
	dir, err := extractDir(z, dirV)
	if err != nil {
		return nil, err
	}
	chosen := z.members
	if members != starlark.None {
		chosen = nil
		err := pyrt.Iterate(members, func(v starlark.Value) (bool, error) {
			m, err := z.member(v)
			if err == nil {
				chosen = append(chosen, m)
			}
			return err == nil, err
		})
		if err != nil {
			return nil, err
		}
	}
	for _, m := range chosen {
		if _, err := z.extractMember(m, dir); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}
