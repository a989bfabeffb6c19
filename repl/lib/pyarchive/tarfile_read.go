// Reading and writing tar members: decompression (none, gzip, bzip2),
// the headers as archive/tar reads them turned into TarInfo, CPython's
// ReadError messages, and TarInfo back into a header.

package pyarchive

import (
	"archive/tar"
	"bytes"
	"compress/bzip2"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

var tarMagic = map[string]string{"gz": "\x1f\x8b", "bz2": "BZh", "xz": "\xfd7zXZ\x00"}

// tarDecode reads an archive compressed with comp ("*": any, tried in
// CPython's order gz, bz2, xz, tar, with its combined message).
//
// mid says the data starts inside a file object: CPython raises no error
// for a first tar header there (its offset is not 0), it ends the members.
func tarDecode(raw []byte, comp string, mid bool) ([]*tarMember, error) {
	if comp != "*" {
		members, msg, err := tarDecodeWith(raw, comp, mid)
		if err != nil || msg == "" {
			return members, err
		}
		return nil, pyrt.PyErrorf(excTarRead, "%s", msg)
	}
	var sb strings.Builder
	sb.WriteString("file could not be opened successfully:")
	for _, c := range []string{"gz", "bz2", "xz", "tar"} {
		members, msg, err := tarDecodeWith(raw, c, mid)
		if err != nil || msg == "" {
			return members, err
		}
		sb.WriteString("\n- method " + c + ": ReadError(" + pystr.Quote(msg) + ")")
	}
	return nil, pyrt.PyErrorf(excTarRead, "%s", sb.String())
}

// tarDecodeWith returns the members, or the ReadError's message, or
// another error (xz, which the REPL cannot read).
func tarDecodeWith(raw []byte, comp string, mid bool) ([]*tarMember, string, error) {
	data := raw
	switch comp {
	case "gz":
		if len(raw) == 0 {
			return nil, "empty file", nil
		}
		if !bytes.HasPrefix(raw, []byte(tarMagic["gz"])) {
			return nil, "not a gzip file", nil
		}
		out, err := gzipDecompress(raw)
		if err != nil {
			return nil, "not a gzip file", nil
		}
		data = out
	case "bz2":
		if !bytes.HasPrefix(raw, []byte(tarMagic["bz2"])) {
			return nil, "not a bzip2 file", nil
		}
		out, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(raw)))
		if err != nil {
			return nil, "not a bzip2 file", nil
		}
		data = out
	case "xz":
		if !bytes.HasPrefix(raw, []byte(tarMagic["xz"])) {
			return nil, "not an lzma file", nil
		}
		return nil, "", pyrt.PyErrorf(excTarCompression, "the REPL's tarfile cannot read xz archives: it reads uncompressed, gzip and bzip2 ones")
	}
	members, msg := tarParse(data)
	if mid && comp == "tar" {
		msg = ""
	}
	return members, msg, nil
}

// countReader counts what archive/tar reads, for the members' offsets.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// tarParse reads the members of an uncompressed archive, or returns
// CPython's message for a first header that is not one.
func tarParse(data []byte) ([]*tarMember, string) {
	if len(data) == 0 {
		return nil, "empty file"
	}
	cr := &countReader{r: bytes.NewReader(data)}
	tr := tar.NewReader(cr)
	var members []*tarMember
	next := int64(0)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return members, ""
		}
		if err != nil {
			if len(members) > 0 {
				return members, "" // CPython stops at a bad header after the first
			}
			if errors.Is(err, io.ErrUnexpectedEOF) || len(data) < 512 {
				return nil, "truncated header"
			}
			return nil, tarHeaderMessage(data[:512])
		}
		info := tarInfoOf(hdr)
		info.offset, info.data = next, cr.n
		m := &tarMember{info: info}
		if info.isReg() {
			content, err := io.ReadAll(tr)
			m.data, m.truncated = content, err != nil
		}
		members = append(members, m)
		if m.truncated {
			return members, ""
		}
		next = cr.n + (512-cr.n%512)%512
	}
}

// tarHeaderMessage is why CPython refuses a first block: "invalid
// header" when its checksum field is no octal number, else "bad checksum".
func tarHeaderMessage(block []byte) string {
	field := block[148:156]
	if field[0] == 0o200 || field[0] == 0o377 {
		return "bad checksum" // base-256, always a number
	}
	if i := bytes.IndexByte(field, 0); i >= 0 {
		field = field[:i]
	}
	if !pyOctalText(field) {
		return "invalid header"
	}
	return "bad checksum"
}

// pyOctalText reports whether int(b.decode("ascii").strip() or "0", 8)
// succeeds in Python: ASCII, Python's whitespace around, an optional sign,
// octal digits with single underscores between them.
func pyOctalText(b []byte) bool {
	isSpace := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' || c >= 0x1c && c <= 0x1f }
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return true
	}
	if b[0] == '+' || b[0] == '-' {
		b = b[1:]
	}
	prevDigit := false
	if len(b) >= 2 && b[0] == '0' && (b[1] == 'o' || b[1] == 'O') {
		b, prevDigit = b[2:], true // 0o7, 0o_7
		if len(b) == 0 {
			return false
		}
	}
	for _, c := range b {
		switch {
		case c >= '0' && c <= '7':
			prevDigit = true
		case c == '_' && prevDigit:
			prevDigit = false
		default:
			return false
		}
	}
	return prevDigit
}

func tarInfoOf(hdr *tar.Header) *tarInfo {
	t := &tarInfo{name: hdr.Name, linkname: hdr.Linkname, size: hdr.Size, mode: hdr.Mode, typ: hdr.Typeflag,
		uid: int64(hdr.Uid), gid: int64(hdr.Gid), uname: hdr.Uname, gname: hdr.Gname, mtime: starlark.MakeInt64(hdr.ModTime.Unix()),
		pax: map[string]string{}}
	if t.typ == 0 && strings.HasSuffix(t.name, "/") {
		t.typ = '5'
	}
	if t.isDir() {
		t.name = strings.TrimRight(t.name, "/")
	}
	if !t.isReg() {
		t.size = 0
	}
	for k, v := range hdr.PAXRecords {
		t.pax[k] = v
	}
	if s, ok := hdr.PAXRecords["mtime"]; ok {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			t.mtime = starlark.Float(f)
		}
	}
	return t
}

// header is the member's header as CPython writes it: a directory's name
// ends with "/", mode keeps its permission bits; a float mtime keeps its
// fraction in a PAX record (format PAX, CPython's default).
func (t *tarInfo) header(format int) *tar.Header {
	name := t.name
	if t.isDir() && !strings.HasSuffix(name, "/") {
		name += "/"
	}
	sec, nsec := t.mtimeSeconds()
	hdr := &tar.Header{Typeflag: t.typ, Name: name, Linkname: t.linkname, Mode: t.mode & 0o7777, Uid: int(t.uid), Gid: int(t.gid),
		Uname: t.uname, Gname: t.gname, ModTime: time.Unix(sec, nsec)}
	if t.typ == 0 {
		hdr.Typeflag = tar.TypeReg
	}
	for name, bit := range tarOwnerBits {
		if t.noOwner&bit != 0 { // None: written as 0 and ""
			switch name {
			case "uid":
				hdr.Uid = 0
			case "gid":
				hdr.Gid = 0
			case "uname":
				hdr.Uname = ""
			default:
				hdr.Gname = ""
			}
		}
	}
	if t.isReg() {
		hdr.Size = t.size
	}
	switch format {
	case 0:
		hdr.Format = tar.FormatUSTAR
		hdr.ModTime = time.Unix(sec, 0)
	case 1:
		hdr.Format = tar.FormatGNU
		hdr.ModTime = time.Unix(sec, 0)
	default:
		if _, ok := t.mtime.(starlark.Float); ok && nsec != 0 {
			hdr.Format = tar.FormatPAX
		}
	}
	return hdr
}
