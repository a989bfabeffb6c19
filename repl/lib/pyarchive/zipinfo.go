// zipfile.ZipInfo: a member's name, sizes, time and mode, with CPython's
// repr; stat.filemode for its mode bits.

package pyarchive

import (
	"fmt"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

type zipInfo struct {
	filename     string
	dateTime     [6]int
	compressType int
	fileSize     int64
	compressSize int64
	crc          uint32
	externalAttr uint32
	headerOffset int64
	comment      string
}

func newZipInfo(name string, t time.Time) *zipInfo {
	return &zipInfo{filename: name, dateTime: [6]int{t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second()}}
}

func (z *zipInfo) isDir() bool { return strings.HasSuffix(z.filename, "/") }

// dosTime is date_time as the archive stores it (seconds halved).
func (z *zipInfo) dosTime() (date, tm uint16) {
	d := z.dateTime
	return uint16((d[0]-1980)<<9 | d[1]<<5 | d[2]), uint16(d[3]<<11 | d[4]<<5 | d[5]/2)
}

func dosDateTime(date, tm uint16) [6]int {
	return [6]int{int(date>>9) + 1980, int(date >> 5 & 0xf), int(date & 0x1f), int(tm >> 11), int(tm >> 5 & 0x3f), int(tm&0x1f) * 2}
}

// statFilemode is Python's stat.filemode: "-rw-r--r--", "?" for no type.
func statFilemode(mode uint32) string {
	var sb strings.Builder
	switch mode & 0o170000 {
	case 0o040000:
		sb.WriteByte('d')
	case 0o100000:
		sb.WriteByte('-')
	case 0o120000:
		sb.WriteByte('l')
	default:
		sb.WriteByte('?')
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if mode&(1<<(8-i)) != 0 {
			sb.WriteByte(rwx[i])
		} else {
			sb.WriteByte('-')
		}
	}
	return sb.String()
}

var zipCompressNames = map[int]string{8: "deflate", 12: "bzip2", 14: "lzma"}

func (z *zipInfo) String() string { return z.ReprPy() }
func (z *zipInfo) ReprPy() string {
	var sb strings.Builder
	sb.WriteString("<ZipInfo filename=" + pystr.Quote(z.filename))
	if z.compressType != 0 {
		name, ok := zipCompressNames[z.compressType]
		if !ok {
			name = pyrt.Itoa(z.compressType)
		}
		sb.WriteString(" compress_type=" + name)
	}
	if hi := z.externalAttr >> 16; hi != 0 {
		sb.WriteString(" filemode=" + pystr.Quote(statFilemode(hi)))
	}
	if lo := z.externalAttr & 0xffff; lo != 0 {
		sb.WriteString(fmt.Sprintf(" external_attr=%#x", lo))
	}
	if !z.isDir() || z.fileSize != 0 {
		sb.WriteString(fmt.Sprintf(" file_size=%d", z.fileSize))
	}
	if (!z.isDir() || z.compressSize != 0) && (z.compressType != 0 || z.fileSize != z.compressSize) {
		sb.WriteString(fmt.Sprintf(" compress_size=%d", z.compressSize))
	}
	return sb.String() + ">"
}
func (z *zipInfo) Type() string          { return "ZipInfo" }
func (z *zipInfo) Freeze()               {}
func (z *zipInfo) Truth() starlark.Bool  { return true }
func (z *zipInfo) Hash() (uint32, error) { return starlark.String(z.filename).Hash() }
func (z *zipInfo) AttrNames() []string {
	return []string{"CRC", "comment", "compress_size", "compress_type", "date_time", "external_attr", "file_size",
		"filename", "header_offset", "is_dir", "orig_filename"}
}

func (z *zipInfo) Attr(name string) (starlark.Value, error) {
	switch name {
	case "filename", "orig_filename":
		return starlark.String(z.filename), nil
	case "file_size":
		return starlark.MakeInt64(z.fileSize), nil
	case "compress_size":
		return starlark.MakeInt64(z.compressSize), nil
	case "compress_type":
		return starlark.MakeInt(z.compressType), nil
	case "CRC":
		return starlark.MakeUint64(uint64(z.crc)), nil
	case "external_attr":
		return starlark.MakeUint64(uint64(z.externalAttr)), nil
	case "header_offset":
		return starlark.MakeInt64(z.headerOffset), nil
	case "comment":
		return starlark.Bytes(z.comment), nil
	case "date_time":
		t := make(starlark.Tuple, 6)
		for i, v := range z.dateTime {
			t[i] = starlark.MakeInt(v)
		}
		return t, nil
	case "is_dir":
		return pyrt.Builtin("is_dir", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(z.isDir()), nil
		}), nil
	}
	return nil, nil
}

// zipInfoCtor is ZipInfo(filename="NoName", date_time=(1980, 1, 1, 0, 0, 0)).
func zipInfoCtor(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	name := "NoName"
	var dt starlark.Value = starlark.Tuple{starlark.MakeInt(1980), starlark.MakeInt(1), starlark.MakeInt(1), starlark.MakeInt(0), starlark.MakeInt(0), starlark.MakeInt(0)}
	if err := pyrt.UnpackArgs("ZipInfo", args, kw, "filename?", &name, "date_time?", &dt); err != nil {
		return nil, err
	}
	z := &zipInfo{filename: name}
	t, ok := dt.(starlark.Tuple)
	if !ok || len(t) < 6 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "ZIP does not support timestamps before 1980")
	}
	for i := 0; i < 6; i++ {
		n, err := starlark.AsInt32(t[i])
		if err != nil {
			return nil, err
		}
		z.dateTime[i] = n
	}
	if z.dateTime[0] < 1980 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "ZIP does not support timestamps before 1980")
	}
	return z, nil
}
