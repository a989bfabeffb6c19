// zipfile: ZipFile over a file in the mounts or a BytesIO ("r", "w", "x",
// "a"), read whole when opened and written whole when closed, with
// CPython's errors (BadZipFile, KeyError "There is no item named ...").
// Deflated members are Go's deflate: valid, but compress_size is not
// CPython's.

package pyarchive

import (
	"archive/zip"
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

var (
	excBadZip    = &pyrt.ExcType{TypeName: "BadZipFile", Module: "zipfile", Base: pyrt.ExcException}
	excLargeZip  = &pyrt.ExcType{TypeName: "LargeZipFile", Module: "zipfile", Base: pyrt.ExcException}
	errZipClosed = func() error {
		return pyrt.PyErrorf(pyrt.ExcValueError, "Attempt to use ZIP archive that was already closed")
	}
	zipMethodsByCode = map[int]uint16{0: zip.Store, 8: zip.Deflate}
)

type zipMember struct {
	info *zipInfo
	file *zip.File // for members read from the archive
	data []byte    // for members written in this session
}

type zipArchive struct {
	r           *pyrt.Interp
	filename    starlark.Value // str, or None for a file object
	target      *pyrt.Path
	fileobj     *pyrt.PyFile
	mode        string
	compression int
	level       int
	members     []*zipMember
	old         []*zip.File // kept members of an archive opened with "a"
	closed      bool
}

var (
	_ starlark.HasAttrs   = (*zipArchive)(nil)
	_ pyrt.ContextManager = (*zipArchive)(nil)
)

func zipfileModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("zipfile", starlark.StringDict{
		"ZipFile": pyrt.Builtin("zipfile.ZipFile", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return zipFileCtor(r, p0, p1, p2, p3)
		}), "ZipInfo": pyrt.Builtin("zipfile.ZipInfo", zipInfoCtor),
		"BadZipFile": excBadZip, "BadZipfile": excBadZip, "LargeZipFile": excLargeZip,
		"is_zipfile": pyrt.Builtin("zipfile.is_zipfile", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return isZipfile(r, p0, p1, p2, p3)
		}),
		"ZIP_STORED": starlark.MakeInt(0), "ZIP_DEFLATED": starlark.MakeInt(8),
		"ZIP_BZIP2": starlark.MakeInt(12), "ZIP_LZMA": starlark.MakeInt(14),
	})
}

// zipSource reads an archive given as a path or a file object.
func zipSource(r *pyrt.Interp, v starlark.Value) ([]byte, *pyrt.Path, *pyrt.PyFile, error) {
	if f, ok := v.(*pyrt.PyFile); ok {
		if err := f.Check(true); err != nil {
			return nil, nil, nil, err
		}
		return []byte(f.Data), nil, f, nil
	}
	name, err := r.PathText("open", v)
	if err != nil {
		return nil, nil, nil, err
	}
	p := r.NewPath(name)
	data, err := p.Read("open")
	return data, p, nil, err
}

func isZipfile(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("is_zipfile", args, kw, 1, &v); err != nil {
		return nil, err
	}
	data, _, _, err := zipSource(r, v)
	if err != nil {
		return starlark.False, nil
	}
	_, err = zip.NewReader(bytes.NewReader(data), int64(len(data)))
	return starlark.Bool(err == nil), nil
}

func zipFileCtor(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var file, levelV starlark.Value = nil, starlark.None
	mode, compression, allowZip64 := "r", 0, true
	if err := pyrt.UnpackArgs("ZipFile", args, kw, "file", &file, "mode?", &mode, "compression?", &compression,
		"allowZip64?", &allowZip64, "compresslevel?", &levelV, "strict_timestamps?", new(bool)); err != nil {
		return nil, err
	}
	if mode != "r" && mode != "w" && mode != "x" && mode != "a" {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "ZipFile requires mode 'r', 'w', 'x', or 'a'")
	}
	if _, ok := zipMethodsByCode[compression]; !ok {
		if compression == 12 || compression == 14 {
			return nil, pyrt.PyErrorf(pyrt.ExcRuntime, "the REPL's zipfile writes ZIP_STORED and ZIP_DEFLATED members only")
		}
		return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "That compression method is not supported")
	}
	z := &zipArchive{r: r, mode: mode, compression: compression, level: -1, filename: starlark.None}
	if n, ok := levelV.(starlark.Int); ok {
		z.level, _ = starlark.AsInt32(n)
	}
	if f, ok := file.(*pyrt.PyFile); ok {
		z.fileobj = f
		if f.P != nil {
			z.filename = starlark.String(f.Name)
		}
	} else {
		name, err := r.PathText("open", file)
		if err != nil {
			return nil, err
		}
		z.filename, z.target = starlark.String(name), r.NewPath(name)
	}
	return z, z.load()
}

// load reads the archive for "r" and "a", and creates the file for "w".
func (z *zipArchive) load() error {
	var data []byte
	switch {
	case z.mode == "r", z.mode == "a" && z.fileobj != nil:
		var err error
		if data, _, _, err = zipSource(z.r, z.source()); err != nil {
			return err
		}
	case z.mode == "a":
		root, rel, _, err := z.r.Host.Locate("open", z.target.P)
		if err != nil {
			return err
		}
		if _, err := root.Lstat(rel); err != nil {
			return z.create()
		}
		if data, err = z.target.Read("open"); err != nil {
			return err
		}
	default:
		return z.create()
	}
	if z.mode == "a" && len(data) == 0 {
		return nil
	}
	rd, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return pyrt.PyErrorf(excBadZip, "File is not a zip file")
	}
	for _, f := range rd.File {
		info := &zipInfo{filename: f.Name, compressType: int(f.Method), fileSize: int64(f.UncompressedSize64),
			compressSize: int64(f.CompressedSize64), crc: f.CRC32, externalAttr: f.ExternalAttrs, comment: f.Comment,
			dateTime: dosDateTime(f.ModifiedDate, f.ModifiedTime)}
		if off, err := f.DataOffset(); err == nil {
			info.headerOffset = off - 30 - int64(len(f.Name)) - int64(len(f.Extra))
		}
		z.members = append(z.members, &zipMember{info: info, file: f})
		if z.mode == "a" {
			z.old = append(z.old, f)
		}
	}
	return nil
}

func (z *zipArchive) source() starlark.Value {
	if z.fileobj != nil {
		return z.fileobj
	}
	return z.filename
}

// create makes (or truncates) the archive's file now, as Python does.
func (z *zipArchive) create() error {
	if z.fileobj != nil {
		return nil
	}
	root, rel, v, err := z.r.Host.Locate("open", z.target.P)
	if err != nil {
		return err
	}
	if z.mode == "x" {
		if _, err := root.Lstat(rel); err == nil {
			return z.r.Host.FsErr("open", v, &pyrt.FsError{Op: "open", Vpath: v, Kind: pyrt.FsExists, Reason: ""})
		}
	}
	return z.r.Host.FsErr("open", v, root.WriteFile(rel, nil, 0o644))
}

func (z *zipArchive) member(v starlark.Value) (*zipMember, error) {
	if z.closed {
		return nil, errZipClosed()
	}
	name := ""
	switch v := v.(type) {
	case starlark.String:
		name = string(v)
	case *zipInfo:
		name = v.filename
	default:
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "expected str or ZipInfo, not %s", pyrt.PyTypeName(v))
	}
	for i := len(z.members) - 1; i >= 0; i-- {
		if z.members[i].info.filename == name {
			return z.members[i], nil
		}
	}
	return nil, &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcKeyError, Args: starlark.Tuple{starlark.String("There is no item named " + pystr.Quote(name) + " in the archive")}}}
}

func (m *zipMember) Read() ([]byte, error) {
	if m.file == nil {
		return m.data, nil
	}
	rc, err := m.file.Open()
	if err != nil {
		return nil, pyrt.PyErrorf(pyrt.ExcNotImplemented, "That compression method is not supported")
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err == zip.ErrChecksum {
		return nil, pyrt.PyErrorf(excBadZip, "Bad CRC-32 for file %s", pystr.Quote(m.info.filename))
	}
	if err != nil {
		return nil, pyrt.PyErrorf(excBadZip, "Bad magic number for file header")
	}
	return data, nil
}

func (z *zipArchive) checkWrite() error {
	if z.closed {
		return pyrt.PyErrorf(pyrt.ExcValueError, "Attempt to write to ZIP archive that was already closed")
	}
	if z.mode == "r" {
		return pyrt.PyErrorf(pyrt.ExcValueError, "write() requires mode 'w', 'x', or 'a'")
	}
	return nil
}

// add records a member to be written at close; its sizes as CPython
// reports them after writing.
func (z *zipArchive) add(info *zipInfo, data []byte) {
	info.fileSize, info.crc = int64(len(data)), crc32.ChecksumIEEE(data)
	info.compressSize = info.fileSize
	if info.compressType == 8 {
		var buf bytes.Buffer
		w, _ := newFlateWriter(&buf, z.level)
		w.Write(data)
		w.Close()
		info.compressSize = int64(buf.Len())
	}
	z.members = append(z.members, &zipMember{info: info, data: data})
}

func (z *zipArchive) Close() error {
	if z.closed {
		return nil
	}
	z.closed = true
	if z.mode == "r" {
		return nil
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	w.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) { return newFlateWriter(out, z.level) })
	for _, f := range z.old {
		if err := w.Copy(f); err != nil {
			return pyrt.PyErrorf(excBadZip, "Bad magic number for file header")
		}
	}
	for _, m := range z.members {
		if m.file != nil {
			continue
		}
		date, tm := m.info.dosTime()
		fh := &zip.FileHeader{Name: m.info.filename, Method: zipMethodsByCode[m.info.compressType], ExternalAttrs: m.info.externalAttr,
			//lint:ignore SA1019 the DOS fields hold date_time as Python writes it; Modified would add an extended timestamp
			CreatorVersion: 3<<8 | 20, ModifiedDate: date, ModifiedTime: tm, Comment: m.info.comment}
		fw, err := w.CreateHeader(fh)
		if err != nil {
			return pyrt.PyErrorf(pyrt.ExcValueError, "%s", err.Error())
		}
		fw.Write(m.data)
	}
	w.Close()
	if z.fileobj != nil {
		z.fileobj.Data, z.fileobj.Pos = buf.String(), buf.Len()
		return nil
	}
	return z.target.Write("close", buf.Bytes())
}

func (z *zipArchive) Enter() (starlark.Value, error) { return z, nil }
func (z *zipArchive) Exit() error                    { return z.Close() }

func (z *zipArchive) String() string { return z.ReprPy() }
func (z *zipArchive) ReprPy() string {
	if z.closed {
		return "<zipfile.ZipFile [closed]>"
	}
	if s, ok := z.filename.(starlark.String); ok {
		return fmt.Sprintf("<zipfile.ZipFile filename=%s mode=%s>", pystr.Quote(string(s)), pystr.Quote(z.mode))
	}
	return fmt.Sprintf("<zipfile.ZipFile file=%s mode=%s>", z.fileobj.ReprPy(), pystr.Quote(z.mode))
}
func (z *zipArchive) Type() string         { return "ZipFile" }
func (z *zipArchive) Freeze()              {}
func (z *zipArchive) Truth() starlark.Bool { return true }
func (z *zipArchive) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'ZipFile'")
}

// now is the local time CPython stamps writestr's members with.
func (z *zipArchive) now() time.Time { return time.Now() }
