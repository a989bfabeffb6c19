// gzip: compress, decompress (every member, CPython's BadGzipFile and
// EOFError), and gzip.open / GzipFile over the mounts or a BytesIO. A
// file is read and decompressed whole when opened; what is written is
// compressed and written when it is closed (close it, or use with).

package pyarchive

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"hash/crc32"
	"io"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

var excBadGzip = &pyrt.ExcType{TypeName: "BadGzipFile", Module: "gzip", Base: pyrt.ExcOSError}

const gzipTruncated = "Compressed file ended before the end-of-stream marker was reached"

// gzipCompress writes one gzip member; name goes in the header when set.
func gzipCompress(data []byte, level int, mtime int64, name string, os byte) ([]byte, error) {
	if level < -1 || level > 9 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Invalid initialization option")
	}
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, level)
	w.OS, w.Name = os, name
	if mtime > 0 {
		w.ModTime = time.Unix(mtime, 0)
	}
	w.Write(data)
	w.Close()
	return buf.Bytes(), nil
}

// gzipDecompress is CPython's gzip.decompress: members one after another,
// zero bytes between them skipped.
func gzipDecompress(data []byte) ([]byte, error) {
	var out []byte
	for len(data) > 0 {
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			return nil, pyrt.PyErrorf(excBadGzip, "Not a gzipped file (%s)", pyrt.PyRepr(starlark.Bytes(data[:min(2, len(data))])))
		}
		if len(data) < 10 {
			return nil, pyrt.PyErrorf(pyrt.ExcEOF, gzipTruncated)
		}
		if data[2] != 8 {
			return nil, pyrt.PyErrorf(excBadGzip, "Unknown compression method")
		}
		src := bytes.NewReader(data)
		if _, err := gzipSkipHeader(src); err != nil {
			return nil, err
		}
		member, err := io.ReadAll(flate.NewReader(src))
		if err != nil {
			if err == io.ErrUnexpectedEOF {
				return nil, pyrt.PyErrorf(pyrt.ExcEOF, gzipTruncated)
			}
			return nil, pyrt.PyErrorf(excZlib, "Error -3 while decompressing data: invalid block type")
		}
		var trailer [8]byte
		if _, err := io.ReadFull(src, trailer[:]); err != nil {
			return nil, pyrt.PyErrorf(pyrt.ExcEOF, gzipTruncated)
		}
		if binary.LittleEndian.Uint32(trailer[:4]) != crc32.ChecksumIEEE(member) {
			return nil, pyrt.PyErrorf(excBadGzip, "CRC check failed")
		}
		if binary.LittleEndian.Uint32(trailer[4:]) != uint32(len(member)) {
			return nil, pyrt.PyErrorf(excBadGzip, "Incorrect length of data produced")
		}
		out = append(out, member...)
		rest, _ := io.ReadAll(src)
		data = bytes.TrimLeft(rest, "\x00")
	}
	return out, nil
}

// gzipSkipHeader reads a member's header (the magic already checked).
func gzipSkipHeader(src *bytes.Reader) (byte, error) {
	var h [10]byte
	if _, err := io.ReadFull(src, h[:]); err != nil {
		return 0, pyrt.PyErrorf(pyrt.ExcEOF, gzipTruncated)
	}
	flags := h[3]
	skipZero := func() error {
		for {
			c, err := src.ReadByte()
			if err != nil {
				return pyrt.PyErrorf(pyrt.ExcEOF, gzipTruncated)
			}
			if c == 0 {
				return nil
			}
		}
	}
	if flags&4 != 0 {
		var n [2]byte
		if _, err := io.ReadFull(src, n[:]); err != nil {
			return 0, pyrt.PyErrorf(pyrt.ExcEOF, gzipTruncated)
		}
		if _, err := src.Seek(int64(binary.LittleEndian.Uint16(n[:])), io.SeekCurrent); err != nil {
			return 0, pyrt.PyErrorf(pyrt.ExcEOF, gzipTruncated)
		}
	}
	for _, bit := range []byte{8, 16} {
		if flags&bit != 0 {
			if err := skipZero(); err != nil {
				return 0, err
			}
		}
	}
	if flags&2 != 0 {
		if _, err := src.Seek(2, io.SeekCurrent); err != nil {
			return 0, pyrt.PyErrorf(pyrt.ExcEOF, gzipTruncated)
		}
	}
	return flags, nil
}

func gzipModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("gzip", starlark.StringDict{
		"BadGzipFile": excBadGzip,
		"compress": pyrt.Builtin("gzip.compress", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var dataV, mtimeV starlark.Value = nil, starlark.None
			level := 9
			if err := pyrt.UnpackArgs("compress", args, kw, "data", &dataV, "compresslevel?", &level, "mtime?", &mtimeV); err != nil {
				return nil, err
			}
			data, err := binasciiData(dataV)
			if err != nil {
				return nil, err
			}
			mtime, err := gzipMtime(mtimeV)
			if err != nil {
				return nil, err
			}
			out, err := gzipCompress([]byte(data), level, mtime, "", 3)
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(out), nil
		}),
		"decompress": pyrt.Builtin("gzip.decompress", pyrt.Unary(func(v starlark.Value) (starlark.Value, error) {
			data, err := binasciiData(v)
			if err != nil {
				return nil, err
			}
			out, err := gzipDecompress([]byte(data))
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(out), nil
		})),
		"open": pyrt.Builtin("gzip.open", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return gzipOpen(r, p0, p1, p2, p3)
		}),
		"GzipFile": pyrt.Builtin("gzip.GzipFile", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return gzipFileCtor(r, p0, p1, p2, p3)
		}),
	})
}

func gzipMtime(v starlark.Value) (int64, error) {
	switch v := v.(type) {
	case starlark.NoneType:
		return time.Now().Unix(), nil
	case starlark.Int:
		n, _ := v.Int64()
		return n, nil
	case starlark.Float:
		return int64(v), nil
	}
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "mtime must be a number, not %s", pyrt.PyTypeName(v))
}

func gzipOpen(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fileV starlark.Value
	mode, level := "rb", 9
	var encoding, errs, newline starlark.Value = starlark.None, starlark.None, starlark.None
	if err := pyrt.UnpackArgs("open", args, kw, "filename", &fileV, "mode?", &mode, "compresslevel?", &level,
		"encoding?", &encoding, "errors?", &errs, "newline?", &newline); err != nil {
		return nil, err
	}
	text := strings.Contains(mode, "t")
	if text && strings.Contains(mode, "b") {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Invalid mode: %s", pystr.Quote(mode))
	}
	if !text && (encoding != starlark.None || errs != starlark.None || newline != starlark.None) {
		what := map[bool]string{true: "encoding", false: "errors"}[encoding != starlark.None]
		if encoding == starlark.None && errs == starlark.None {
			what = "newline"
		}
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Argument '%s' not supported in binary mode", what)
	}
	g, err := newGzipFile(r, fileV, strings.ReplaceAll(mode, "t", ""), level, starlark.None, text)
	if err != nil {
		return nil, err
	}
	if text {
		g.inner.Binary = false
		g.inner.Mode = mode
		if s, ok := encoding.(starlark.String); ok {
			g.inner.Encoding = string(s)
		}
		if s, ok := errs.(starlark.String); ok {
			g.inner.Errors = string(s)
		}
		g.inner.Newline = newline
		if g.inner.Readable {
			s, err := g.inner.Decode(g.inner.Data)
			if err != nil {
				return nil, err
			}
			g.inner.Data = s
		}
	}
	return g, nil
}

func gzipFileCtor(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fileV, modeV, fileobj, mtime starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None
	level := 9
	if err := pyrt.UnpackArgs("GzipFile", args, kw, "filename?", &fileV, "mode?", &modeV, "compresslevel?", &level,
		"fileobj?", &fileobj, "mtime?", &mtime); err != nil {
		return nil, err
	}
	mode := "rb"
	if s, ok := modeV.(starlark.String); ok {
		mode = string(s)
	} else if f, ok := fileobj.(*pyrt.PyFile); ok && f.Writable && !f.Readable {
		mode = "wb"
	}
	if strings.Contains(mode, "t") {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Invalid mode: %s", pystr.Quote(mode))
	}
	if fileobj != starlark.None {
		return newGzipFile(r, fileobj, mode, level, mtime, false)
	}
	if fileV == starlark.None {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "GzipFile needs a filename or a fileobj")
	}
	return newGzipFile(r, fileV, mode, level, mtime, false)
}
