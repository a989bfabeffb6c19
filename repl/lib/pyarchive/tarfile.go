// tarfile: tarfile.open and TarFile over a file of the mounts or a
// BytesIO, for "r" (compression detected: none, gzip, bzip2), "r:",
// "r:gz", "r:bz2", "w", "w:", "w:gz", "x", "x:gz" and "a" (stream modes
// "r|gz" and so on read and write the same way). An archive is read whole
// when opened and written whole (PAX format, as CPython's default) when
// closed; xz and writing bzip2 are refused with CompressionError.
// Extraction always keeps members inside the destination, as CPython's
// "data" filter does (tarfile_extract.go).

package pyarchive

import (
	"archive/tar"
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

var (
	excTarError       = &pyrt.ExcType{TypeName: "TarError", Module: "tarfile", Base: pyrt.ExcException}
	excTarRead        = &pyrt.ExcType{TypeName: "ReadError", Module: "tarfile", Base: excTarError}
	excTarCompression = &pyrt.ExcType{TypeName: "CompressionError", Module: "tarfile", Base: excTarError}
	excTarStream      = &pyrt.ExcType{TypeName: "StreamError", Module: "tarfile", Base: excTarError}
	excTarExtract     = &pyrt.ExcType{TypeName: "ExtractError", Module: "tarfile", Base: excTarError}
	excTarHeader      = &pyrt.ExcType{TypeName: "HeaderError", Module: "tarfile", Base: excTarError}
	excTarFilter      = &pyrt.ExcType{TypeName: "FilterError", Module: "tarfile", Base: excTarError}
	excTarAbsPath     = &pyrt.ExcType{TypeName: "AbsolutePathError", Module: "tarfile", Base: excTarFilter}
	excTarOutside     = &pyrt.ExcType{TypeName: "OutsideDestinationError", Module: "tarfile", Base: excTarFilter}
	excTarSpecial     = &pyrt.ExcType{TypeName: "SpecialFileError", Module: "tarfile", Base: excTarFilter}
	excTarAbsLink     = &pyrt.ExcType{TypeName: "AbsoluteLinkError", Module: "tarfile", Base: excTarFilter}
	excTarLinkOutside = &pyrt.ExcType{TypeName: "LinkOutsideDestinationError", Module: "tarfile", Base: excTarFilter}
)

type tarMember struct {
	info      *tarInfo
	data      []byte
	truncated bool // the archive ended inside its data
	orphan    bool // a header written without its data (addfile's data ran short)
}

// tarArchive is a tarfile.TarFile.
type tarArchive struct {
	r       *pyrt.Interp
	cls     *pyrt.PyType
	name    starlark.Value // the archive's absolute path, or None
	given   string         // the name as the program gave it (ExFileObject.name)
	target  *pyrt.Path
	fileobj *pyrt.PyFile
	mode    string // "r", "w", "a" or "x"
	comp    string // what is written at close: "tar" or "gz"
	level   int
	format  int
	members []*tarMember
	out     []*tarMember // what close writes: members and headers of failed addfiles
	next    int
	closed  bool
}

var (
	_ starlark.HasAttrs   = (*tarArchive)(nil)
	_ starlark.Iterable   = (*tarArchive)(nil)
	_ pyrt.ContextManager = (*tarArchive)(nil)
)

func tarfileModule(r *pyrt.Interp) starlark.Value {
	cls := &pyrt.PyType{TypeName: "TarFile", Module: "tarfile"}
	cls.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return tarOpen(r, cls, "TarFile", args, kw, true)
	}
	open := pyrt.Builtin("tarfile.open", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return tarOpen(r, cls, "open", args, kw, false)
	})
	cls.Attrs = starlark.StringDict{"open": open} // TarFile.open, the classmethod
	m := starlark.StringDict{
		"open":    open,
		"TarFile": cls, "TarInfo": tarInfoType, "is_tarfile": pyrt.Builtin("tarfile.is_tarfile", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return isTarfile(r, p0, p1, p2, p3)
		}),
		"TarError": excTarError, "ReadError": excTarRead, "CompressionError": excTarCompression, "StreamError": excTarStream,
		"ExtractError": excTarExtract, "HeaderError": excTarHeader, "FilterError": excTarFilter, "AbsolutePathError": excTarAbsPath,
		"OutsideDestinationError": excTarOutside, "SpecialFileError": excTarSpecial, "AbsoluteLinkError": excTarAbsLink,
		"LinkOutsideDestinationError": excTarLinkOutside,
		"USTAR_FORMAT":                starlark.MakeInt(0), "GNU_FORMAT": starlark.MakeInt(1), "PAX_FORMAT": starlark.MakeInt(2),
		"DEFAULT_FORMAT": starlark.MakeInt(2), "ENCODING": starlark.String("utf-8"), "BLOCKSIZE": starlark.MakeInt(512),
		"RECORDSIZE": starlark.MakeInt(10240),
	}
	for name, c := range map[string]byte{"REGTYPE": '0', "AREGTYPE": 0, "LNKTYPE": '1', "SYMTYPE": '2', "CHRTYPE": '3',
		"BLKTYPE": '4', "DIRTYPE": '5', "FIFOTYPE": '6', "CONTTYPE": '7'} {
		m[name] = starlark.Bytes([]byte{c})
	}
	for name, f := range tarFilters {
		m[name] = pyrt.Builtin("tarfile."+name, f)
	}
	return pyrt.NewModule("tarfile", m)
}

// tarMode splits an open() mode as CPython does: the file mode ("r",
// "w", "a", "x") and the compression ("tar", "gz", "bz2", "xz", or "*"
// to detect it).
func tarMode(mode string, ctor bool) (string, string, error) {
	if ctor {
		if mode != "r" && mode != "a" && mode != "w" && mode != "x" {
			return "", "", pyrt.PyErrorf(pyrt.ExcValueError, "mode must be 'r', 'a', 'w' or 'x'")
		}
		return mode, "tar", nil
	}
	sep := ""
	switch {
	case mode == "r" || mode == "r:*":
		return "r", "*", nil
	case strings.Contains(mode, ":"):
		sep = ":"
	case strings.Contains(mode, "|"):
		sep = "|"
	case mode == "a" || mode == "w" || mode == "x":
		return mode, "tar", nil
	default:
		return "", "", pyrt.PyErrorf(pyrt.ExcValueError, "undiscernible mode")
	}
	fmode, comp, _ := strings.Cut(mode, sep)
	if fmode == "" {
		fmode = "r"
	}
	if comp == "" {
		comp = "tar"
	}
	if comp != "tar" && comp != "gz" && comp != "bz2" && comp != "xz" && !(sep == "|" && comp == "*") {
		return "", "", pyrt.PyErrorf(excTarCompression, "unknown compression type %s", pystr.Quote(comp))
	}
	switch {
	case sep == "|" && fmode != "r" && fmode != "w":
		return "", "", pyrt.PyErrorf(pyrt.ExcValueError, "mode must be 'r' or 'w'")
	case comp == "tar" && fmode != "r" && fmode != "a" && fmode != "w" && fmode != "x":
		return "", "", pyrt.PyErrorf(pyrt.ExcValueError, "mode must be 'r', 'a', 'w' or 'x'")
	case comp != "tar" && fmode != "r" && fmode != "w" && fmode != "x":
		return "", "", pyrt.PyErrorf(pyrt.ExcValueError, "mode must be 'r', 'w' or 'x'")
	}
	return fmode, comp, nil
}

// tarOpen is tarfile.open(name=None, mode="r", fileobj=None, ...) and,
// with ctor, TarFile(name=None, mode="r", fileobj=None, ...).
func tarOpen(r *pyrt.Interp, cls *pyrt.PyType, fn string, args starlark.Tuple, kw []starlark.Tuple, ctor bool) (starlark.Value, error) {
	var nameV, fileobj, format, level starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None
	mode := "r"
	var ignored starlark.Value
	if err := pyrt.UnpackArgs(fn, args, kw, "name?", &nameV, "mode?", &mode, "fileobj?", &fileobj, "bufsize?", &ignored,
		"format?", &format, "compresslevel?", &level, "tarinfo?", &ignored, "dereference?", &ignored, "ignore_zeros?", &ignored,
		"encoding?", &ignored, "errors?", &ignored, "pax_headers?", &ignored, "debug?", &ignored, "errorlevel?", &ignored); err != nil {
		return nil, err
	}
	if nameV == starlark.None && fileobj == starlark.None {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "nothing to open")
	}
	fmode, comp, err := tarMode(mode, ctor)
	if err != nil {
		return nil, err
	}
	if fmode != "r" && (comp == "bz2" || comp == "xz") {
		return nil, pyrt.PyErrorf(excTarCompression, "the REPL's tarfile writes uncompressed or gzip archives only (mode %s): use 'w:gz'", pystr.Quote(mode))
	}
	a := &tarArchive{r: r, cls: cls, mode: fmode, comp: comp, level: 9, format: 2, name: starlark.None}
	if n, ok := level.(starlark.Int); ok {
		a.level, _ = starlark.AsInt32(n)
	}
	if n, ok := format.(starlark.Int); ok {
		a.format, _ = starlark.AsInt32(n)
	}
	if err := a.bind(nameV, fileobj); err != nil {
		return nil, err
	}
	return a, a.load()
}

// bind records where the archive is: a path of the mounts or a file object.
func (a *tarArchive) bind(nameV, fileobj starlark.Value) error {
	if f, ok := fileobj.(*pyrt.PyFile); ok {
		a.fileobj = f
		if f.P != nil {
			a.name, a.given = starlark.String(a.r.Host.Absolute(f.Name)), f.Name
		}
		return nil
	}
	if fileobj != starlark.None {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "the REPL's tarfile takes a file opened with open() or an io.BytesIO as fileobj, not %s", pyrt.PyTypeName(fileobj))
	}
	name, err := a.r.PathText("open", nameV)
	if err != nil {
		return err
	}
	a.given, a.target = name, a.r.NewPath(name)
	a.name = starlark.String(a.r.Host.Absolute(name))
	return nil
}

// load reads the archive for "r" and "a", and creates the file for "w"
// and "x" (and for "a" when it does not exist, which makes the mode "w").
func (a *tarArchive) load() error {
	if a.mode == "w" || a.mode == "x" {
		return a.create()
	}
	if a.mode == "a" && a.fileobj == nil {
		root, rel, _, err := a.r.Host.Locate("open", a.target.P)
		if err != nil {
			return err
		}
		if _, err := root.Lstat(rel); err != nil {
			a.mode = "w"
			return a.create()
		}
	}
	mid := a.fileobj != nil && a.fileobj.Pos > 0
	raw, err := a.source()
	if err != nil {
		return err
	}
	comp := a.comp
	if a.mode == "a" {
		comp = "tar"
	}
	members, err := tarDecode(raw, comp, mid)
	if err != nil {
		return err
	}
	a.members, a.out = members, append([]*tarMember(nil), members...)
	if comp != "*" {
		a.comp = comp
	}
	return nil
}

// source is the archive's bytes: the file, or the file object from its
// position on (CPython reads it from there).
func (a *tarArchive) source() ([]byte, error) {
	if f := a.fileobj; f != nil {
		if err := f.Check(true); err != nil {
			return nil, err
		}
		data := f.Data[min(f.Pos, len(f.Data)):]
		f.Pos = len(f.Data)
		return []byte(data), nil
	}
	return a.target.Read("open")
}

// create makes (or truncates) the archive's file now, as Python does.
func (a *tarArchive) create() error {
	if a.fileobj != nil {
		return nil
	}
	root, rel, v, err := a.r.Host.Locate("open", a.target.P)
	if err != nil {
		return err
	}
	if a.mode == "x" {
		if _, err := root.Lstat(rel); err == nil {
			return givenErr(a.r, a.given, a.r.Host.FsErr("open", v, &pyrt.FsError{Op: "open", Vpath: v, Kind: pyrt.FsExists, Reason: ""}))
		}
	}
	return givenErr(a.r, a.given, a.r.Host.FsErr("open", v, root.WriteFile(rel, nil, 0o644)))
}

func (a *tarArchive) Check(modes string) error {
	if a.closed {
		return pyrt.PyErrorf(pyrt.ExcOSError, "TarFile is closed")
	}
	if !strings.Contains(modes, a.mode) {
		return pyrt.PyErrorf(pyrt.ExcOSError, "bad operation for mode %s", pystr.Quote(a.mode))
	}
	return nil
}

// close writes the archive for "w", "a" and "x": the members, the two
// zero blocks, padding to a record of 10240 bytes, then gzip if asked.
func (a *tarArchive) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	if a.mode == "r" {
		return nil
	}
	out, err := a.encode()
	if err != nil {
		return err
	}
	if a.fileobj != nil {
		_, err := pyrt.FileWrite(a.fileobj, "write", starlark.Tuple{starlark.Bytes(out)}, nil)
		return err
	}
	return a.target.Write("close", out)
}

func (a *tarArchive) encode() ([]byte, error) {
	var buf bytes.Buffer
	for _, m := range a.out {
		tw := tar.NewWriter(&buf) // one per member: an orphan's header is written alone
		if err := tw.WriteHeader(m.info.header(a.format)); err != nil {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "%s: %s", m.info.name, strings.TrimPrefix(err.Error(), "archive/tar: "))
		}
		if m.orphan {
			continue
		}
		if m.info.isReg() {
			tw.Write(m.data)
		}
		tw.Flush()
	}
	buf.Write(make([]byte, 1024))
	if rem := buf.Len() % 10240; rem != 0 {
		buf.Write(make([]byte, 10240-rem))
	}
	if a.comp != "gz" {
		return buf.Bytes(), nil
	}
	name := ""
	if s, ok := a.name.(starlark.String); ok {
		name = strings.TrimSuffix(pathBase(string(s)), ".gz")
	}
	mtime, _ := gzipMtime(starlark.None)
	return gzipCompress(buf.Bytes(), a.level, mtime, name, 255)
}

func pathBase(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

func (a *tarArchive) Enter() (starlark.Value, error) { return a, nil }
func (a *tarArchive) Exit() error                    { return a.Close() }

func (a *tarArchive) String() string { return a.ReprPy() }
func (a *tarArchive) ReprPy() string {
	return fmt.Sprintf("<tarfile.TarFile object at %#x>", reflect.ValueOf(a).Pointer())
}
func (a *tarArchive) Type() string          { return "TarFile" }
func (a *tarArchive) Freeze()               {}
func (a *tarArchive) Truth() starlark.Bool  { return true }
func (a *tarArchive) Hash() (uint32, error) { return uint32(reflect.ValueOf(a).Pointer()), nil }
func (a *tarArchive) PyClass() *pyrt.PyType { return a.cls }

// Iterate is for m in tar: the members.
func (a *tarArchive) Iterate() starlark.Iterator {
	a.next = len(a.members)
	vals := make([]starlark.Value, len(a.members))
	for i, m := range a.members {
		vals[i] = m.info
	}
	return starlark.NewList(vals).Iterate()
}

func isTarfile(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("is_tarfile", args, kw, 1, &v); err != nil {
		return nil, err
	}
	a := &tarArchive{r: r, mode: "r", comp: "*", name: starlark.None}
	if err := a.bind(v, starlark.None); err != nil {
		if f, ok := v.(*pyrt.PyFile); ok {
			a.fileobj = f
		} else {
			return nil, err
		}
	}
	pos := 0
	if a.fileobj != nil {
		pos = a.fileobj.Pos
	}
	mid := pos > 0
	raw, err := a.source()
	if a.fileobj != nil {
		a.fileobj.Pos = pos
	}
	if err != nil {
		return nil, err // FileNotFoundError, as CPython's
	}
	_, err = tarDecode(raw, "*", mid)
	return starlark.Bool(err == nil), nil
}
