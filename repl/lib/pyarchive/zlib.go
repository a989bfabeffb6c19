// zlib: compress and decompress (zlib, raw deflate and gzip framing by
// wbits), crc32 and adler32, with zlib.error's messages. The compressed
// bytes are Go's deflate, a valid stream that every zlib decodes, but not
// byte for byte what CPython's zlib writes; decompress reads CPython's.

package pyarchive

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"hash/crc32"
	"io"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var excZlib = &pyrt.ExcType{TypeName: "error", Module: "zlib", Base: pyrt.ExcException}

// deflateBytes compresses data at level with the framing wbits names:
// 9..15 zlib, -9..-15 raw deflate, 25..31 gzip (mtime 0, as zlib writes).
func deflateBytes(data []byte, level, wbits int) ([]byte, error) {
	if level < -1 || level > 9 {
		return nil, pyrt.PyErrorf(excZlib, "Bad compression level")
	}
	var buf bytes.Buffer
	var w io.WriteCloser
	switch {
	case wbits >= 9 && wbits <= 15:
		w, _ = zlib.NewWriterLevel(&buf, level)
	case wbits >= -15 && wbits <= -9:
		w, _ = flate.NewWriter(&buf, level)
	case wbits >= 25 && wbits <= 31:
		gz, _ := gzip.NewWriterLevel(&buf, level)
		gz.OS = 3
		w = gz
	default:
		return nil, pyrt.PyErrorf(excZlib, "Bad compression level")
	}
	w.Write(data)
	w.Close()
	out := buf.Bytes()
	if wbits >= 9 && wbits < 15 { // the header names the smaller window
		out[0] = byte(wbits-8)<<4 | 8
		out[1] &^= 0x1f
		out[1] += byte(31 - (int(out[0])*256+int(out[1]))%31)
	}
	return out, nil
}

// inflateBytes decompresses one stream framed as wbits says (40..47
// detects zlib or gzip), ignoring what follows it.
func inflateBytes(data []byte, wbits int) ([]byte, error) {
	src := bytes.NewReader(data)
	var rd io.Reader
	var err error
	if wbits >= 40 && wbits <= 47 {
		wbits -= 32
		if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
			wbits += 16
		}
	}
	switch {
	case wbits == 0 || wbits >= 8 && wbits <= 15:
		rd, err = zlib.NewReader(src)
	case wbits >= -15 && wbits <= -8:
		rd = flate.NewReader(src)
	case wbits >= 24 && wbits <= 31:
		var gz *gzip.Reader
		if gz, err = gzip.NewReader(src); err == nil {
			gz.Multistream(false)
			rd = gz
		}
	default:
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Invalid initialization option")
	}
	var out []byte
	if err == nil {
		out, err = io.ReadAll(rd)
	}
	if err != nil {
		return nil, zlibError(err, data, wbits)
	}
	return out, nil
}

func zlibError(err error, data []byte, wbits int) error {
	msg := "Error -3 while decompressing data: "
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return pyrt.PyErrorf(excZlib, "Error -5 while decompressing data: incomplete or truncated stream")
	case errors.Is(err, zlib.ErrHeader), errors.Is(err, gzip.ErrHeader):
		msg += "incorrect header check"
	case errors.Is(err, zlib.ErrChecksum), errors.Is(err, gzip.ErrChecksum):
		msg += "incorrect data check"
	case errors.As(err, &corrupt):
		msg += deflateProblem(data, wbits)
	default:
		msg += "invalid data"
	}
	return pyrt.PyErrorf(excZlib, "%s", msg)
}

// deflateProblem names what zlib finds wrong with a corrupt stream, from
// its first block's type when that is where the problem is.
func deflateProblem(data []byte, wbits int) string {
	if wbits >= -15 && wbits <= -8 && len(data) > 0 {
		switch data[0] >> 1 & 3 {
		case 0:
			return "invalid stored block lengths"
		case 3:
			return "invalid block type"
		}
	}
	return "invalid distance too far back"
}

func zlibModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("zlib", starlark.StringDict{
		"error": excZlib,
		"compress": pyrt.Builtin("zlib.compress", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var dataV starlark.Value
			level, wbits := -1, 15
			if err := pyrt.UnpackArgs("compress", args, kw, "data", &dataV, "level?", &level, "wbits?", &wbits); err != nil {
				return nil, err
			}
			data, err := binasciiData(dataV)
			if err != nil {
				return nil, err
			}
			out, err := deflateBytes([]byte(data), level, wbits)
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(out), nil
		}),
		"decompress": pyrt.Builtin("zlib.decompress", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var dataV starlark.Value
			wbits, bufsize := 15, 0
			if err := pyrt.UnpackArgs("decompress", args, kw, "data", &dataV, "wbits?", &wbits, "bufsize?", &bufsize); err != nil {
				return nil, err
			}
			data, err := binasciiData(dataV)
			if err != nil {
				return nil, err
			}
			out, err := inflateBytes([]byte(data), wbits)
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(out), nil
		}),
		"crc32": checksum("zlib", "crc32", func(s uint32, d []byte) uint32 { return crc32.Update(s, crc32.IEEETable, d) }, 0),
		"adler32": checksum("zlib", "adler32", func(s uint32, d []byte) uint32 {
			a, b := s&0xffff, s>>16
			for _, c := range d {
				a = (a + uint32(c)) % 65521
				b = (b + a) % 65521
			}
			return b<<16 | a
		}, 1),
		"MAX_WBITS": starlark.MakeInt(15), "DEFLATED": starlark.MakeInt(8), "DEF_MEM_LEVEL": starlark.MakeInt(8),
		"DEF_BUF_SIZE": starlark.MakeInt(16384), "Z_NO_COMPRESSION": starlark.MakeInt(0),
		"Z_BEST_SPEED": starlark.MakeInt(1), "Z_BEST_COMPRESSION": starlark.MakeInt(9), "Z_DEFAULT_COMPRESSION": starlark.MakeInt(-1),
		"ZLIB_VERSION": starlark.String("1.2.13"), "ZLIB_RUNTIME_VERSION": starlark.String("1.2.13"),
	})
}

// checksum is module.name(data, value=initial): f over data from value,
// as zlib's and binascii's crc32 and adler32 take it.
func checksum(module, name string, f func(start uint32, data []byte) uint32, initial int) *starlark.Builtin {
	return pyrt.Builtin(module+"."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var dataV starlark.Value
		var value starlark.Value = starlark.MakeInt(initial)
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &dataV, &value); err != nil {
			return nil, err
		}
		data, err := binasciiData(dataV)
		if err != nil {
			return nil, err
		}
		start, err := uint32Arg(value)
		if err != nil {
			return nil, err
		}
		return starlark.MakeUint64(uint64(f(start, []byte(data)))), nil
	})
}
