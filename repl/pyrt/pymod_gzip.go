// gzip: compress, decompress (every member, CPython's BadGzipFile and
// EOFError), and gzip.open / GzipFile over the mounts or a BytesIO. A
// file is read and decompressed whole when opened; what is written is
// compressed and written when it is closed (close it, or use with).

package pyrt

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

	"harness/repl/pystr"
)

var excBadGzip = &excType{name: "BadGzipFile", module: "gzip", base: excOSError}

const gzipTruncated = "Compressed file ended before the end-of-stream marker was reached"

// gzipCompress writes one gzip member; name goes in the header when set.
func gzipCompress(data []byte, level int, mtime int64, name string, os byte) ([]byte, error) {
	if level < -1 || level > 9 {
		return nil, pyErrorf(excValueError, "Invalid initialization option")
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
			return nil, pyErrorf(excBadGzip, "Not a gzipped file (%s)", PyRepr(starlark.Bytes(data[:min(2, len(data))])))
		}
		if len(data) < 10 {
			return nil, pyErrorf(excEOF, gzipTruncated)
		}
		if data[2] != 8 {
			return nil, pyErrorf(excBadGzip, "Unknown compression method")
		}
		src := bytes.NewReader(data)
		if _, err := gzipSkipHeader(src); err != nil {
			return nil, err
		}
		member, err := io.ReadAll(flate.NewReader(src))
		if err != nil {
			if err == io.ErrUnexpectedEOF {
				return nil, pyErrorf(excEOF, gzipTruncated)
			}
			return nil, pyErrorf(excZlib, "Error -3 while decompressing data: invalid block type")
		}
		var trailer [8]byte
		if _, err := io.ReadFull(src, trailer[:]); err != nil {
			return nil, pyErrorf(excEOF, gzipTruncated)
		}
		if binary.LittleEndian.Uint32(trailer[:4]) != crc32.ChecksumIEEE(member) {
			return nil, pyErrorf(excBadGzip, "CRC check failed")
		}
		if binary.LittleEndian.Uint32(trailer[4:]) != uint32(len(member)) {
			return nil, pyErrorf(excBadGzip, "Incorrect length of data produced")
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
		return 0, pyErrorf(excEOF, gzipTruncated)
	}
	flags := h[3]
	skipZero := func() error {
		for {
			c, err := src.ReadByte()
			if err != nil {
				return pyErrorf(excEOF, gzipTruncated)
			}
			if c == 0 {
				return nil
			}
		}
	}
	if flags&4 != 0 {
		var n [2]byte
		if _, err := io.ReadFull(src, n[:]); err != nil {
			return 0, pyErrorf(excEOF, gzipTruncated)
		}
		if _, err := src.Seek(int64(binary.LittleEndian.Uint16(n[:])), io.SeekCurrent); err != nil {
			return 0, pyErrorf(excEOF, gzipTruncated)
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
			return 0, pyErrorf(excEOF, gzipTruncated)
		}
	}
	return flags, nil
}

func (r *Interp) gzipModule() starlark.Value {
	return newModule("gzip", starlark.StringDict{
		"BadGzipFile": excBadGzip,
		"compress": builtin("gzip.compress", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var dataV, mtimeV starlark.Value = nil, starlark.None
			level := 9
			if err := starlark.UnpackArgs("compress", args, kw, "data", &dataV, "compresslevel?", &level, "mtime?", &mtimeV); err != nil {
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
		"decompress": builtin("gzip.decompress", unary(func(v starlark.Value) (starlark.Value, error) {
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
		"open":     builtin("gzip.open", r.gzipOpen),
		"GzipFile": builtin("gzip.GzipFile", r.gzipFileCtor),
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
	return 0, pyErrorf(excTypeError, "mtime must be a number, not %s", pyTypeName(v))
}

func (r *Interp) gzipOpen(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fileV starlark.Value
	mode, level := "rb", 9
	var encoding, errs, newline starlark.Value = starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs("open", args, kw, "filename", &fileV, "mode?", &mode, "compresslevel?", &level,
		"encoding?", &encoding, "errors?", &errs, "newline?", &newline); err != nil {
		return nil, err
	}
	text := strings.Contains(mode, "t")
	if text && strings.Contains(mode, "b") {
		return nil, pyErrorf(excValueError, "Invalid mode: %s", pystr.Quote(mode))
	}
	if !text && (encoding != starlark.None || errs != starlark.None || newline != starlark.None) {
		what := map[bool]string{true: "encoding", false: "errors"}[encoding != starlark.None]
		if encoding == starlark.None && errs == starlark.None {
			what = "newline"
		}
		return nil, pyErrorf(excValueError, "Argument '%s' not supported in binary mode", what)
	}
	g, err := r.newGzipFile(fileV, strings.ReplaceAll(mode, "t", ""), level, starlark.None, text)
	if err != nil {
		return nil, err
	}
	if text {
		g.inner.binary = false
		g.inner.mode = mode
		if s, ok := encoding.(starlark.String); ok {
			g.inner.encoding = string(s)
		}
		if s, ok := errs.(starlark.String); ok {
			g.inner.errors = string(s)
		}
		g.inner.newline = newline
		if g.inner.readable {
			s, err := g.inner.decode(g.inner.data)
			if err != nil {
				return nil, err
			}
			g.inner.data = s
		}
	}
	return g, nil
}

func (r *Interp) gzipFileCtor(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fileV, modeV, fileobj, mtime starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None
	level := 9
	if err := starlark.UnpackArgs("GzipFile", args, kw, "filename?", &fileV, "mode?", &modeV, "compresslevel?", &level,
		"fileobj?", &fileobj, "mtime?", &mtime); err != nil {
		return nil, err
	}
	mode := "rb"
	if s, ok := modeV.(starlark.String); ok {
		mode = string(s)
	} else if f, ok := fileobj.(*PyFile); ok && f.writable && !f.readable {
		mode = "wb"
	}
	if strings.Contains(mode, "t") {
		return nil, pyErrorf(excValueError, "Invalid mode: %s", pystr.Quote(mode))
	}
	if fileobj != starlark.None {
		return r.newGzipFile(fileobj, mode, level, mtime, false)
	}
	if fileV == starlark.None {
		return nil, pyErrorf(excTypeError, "GzipFile needs a filename or a fileobj")
	}
	return r.newGzipFile(fileV, mode, level, mtime, false)
}
