// Searching one file: chunked reads into a reused buffer, binary detection, and context lines.

package tools

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
)

// chunkSize is the read buffer size (a variable so tests can exercise chunk boundaries).
var chunkSize = 256 << 10

// errBinary marks a file skipped because it contains a NUL byte.
var errBinary = errors.New("binary file")

// fileSearch is one worker's state: the matcher and a reused read buffer.
type fileSearch struct {
	m       *matcher
	context int
	buf     []byte
}

// search returns the output lines for the file rel: "path:line:text\n" for
// matching and context lines, "--\n" between non-adjacent groups. The file is
// read in chunks; only whole lines are matched, a line longer than the
// buffer grows it, and the last `context` lines of a chunk are carried into
// the next one so that context before a match can be printed. size is the
// file's size as listed: once that many bytes are read the file is taken as
// complete, saving the read that would report the end (a file that grew
// since it was listed is searched as it was then; size <= 0 reads to EOF).
func (fs *fileSearch) search(ctx context.Context, r fileSystem, j grepJob, size int64) ([]byte, error) {
	rel := j.rel
	f, err := openJob(r, j)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer fs.release()
	if fs.buf == nil {
		fs.buf = make([]byte, chunkSize)
	}
	p := printer{rel: rel, context: fs.context}
	n, scanFrom := 0, 0 // bytes in buf; where the lines not yet matched start
	line := 1           // line number at scanFrom
	eof := false
	var read int64 // bytes read from the file
	for !eof {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if n == len(fs.buf) {
			fs.buf = append(fs.buf, make([]byte, len(fs.buf))...)
		}
		want := fs.buf[n:]
		if size > 0 && int64(len(want)) > size-read {
			want = want[:size-read]
		}
		m, err := readFull(f, want)
		if bytes.IndexByte(fs.buf[n:n+m], 0) >= 0 {
			return nil, errBinary
		}
		n += m
		read += int64(m)
		if err == nil && size > 0 && read == size {
			err = io.EOF
		}
		if err == io.EOF {
			eof = true
		} else if err != nil {
			return nil, ioError("read", rel, err)
		}
		end := n
		if !eof {
			end = bytes.LastIndexByte(fs.buf[scanFrom:n], '\n') + scanFrom + 1
			if end == scanFrom { // no complete line yet: read more
				continue
			}
		}
		p.chunk(fs.m, fs.buf[:end], scanFrom, line)
		if eof {
			break
		}
		line += bytes.Count(fs.buf[scanFrom:end], []byte{'\n'})
		// Carry the last `context` lines and the partial line.
		carry := end
		for i := 0; i < fs.context && carry > 0; i++ {
			carry = bytes.LastIndexByte(fs.buf[:carry-1], '\n') + 1
		}
		copy(fs.buf, fs.buf[carry:n])
		p.shift(carry)
		scanFrom, n = end-carry, n-carry
	}
	return p.out, nil
}

// release drops a buffer that grew for a very long line, so that one such
// file does not keep its memory for the rest of the search.
func (fs *fileSearch) release() {
	if len(fs.buf) > 4*chunkSize {
		fs.buf = nil
	}
}

// readFull reads until buf is full or the file ends (io.EOF).
func readFull(f io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 {
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

// printer formats matching and context lines of one file.
type printer struct {
	out     []byte
	rel     string
	prefix  string // quotePath(rel) + ":", made at the first line printed
	context int
	last    int // number of the last printed line, 0 for none
	after   int // context lines still due after the last match
	afterAt int // offset in the buffer where the next due line starts
}

// chunk handles the whole lines buf[from:] (line number line at from);
// buf[:from] holds carried lines already handled, available as context.
func (p *printer) chunk(m *matcher, buf []byte, from, line int) {
	cur, curLine := from, line
	m.lines(buf[from:], func(s, e int) {
		s, e = s+from, e+from
		curLine += bytes.Count(buf[cur:s], []byte{'\n'})
		cur = s
		p.match(buf, s, e, curLine)
	})
	p.flushAfter(buf, len(buf), -1)
}

// match prints the match buf[s:e] (line n) with its context.
func (p *printer) match(buf []byte, s, e, n int) {
	p.flushAfter(buf, s, n)
	if p.context > 0 {
		// Walk back over the context lines not printed yet.
		first, at := n, s
		for first > p.last+1 && first > n-p.context && at > 0 {
			at = bytes.LastIndexByte(buf[:at-1], '\n') + 1
			first--
		}
		if p.last > 0 && first > p.last+1 {
			p.out = append(p.out, "--\n"...)
		}
		for l := first; l < n; l++ {
			end := at + bytes.IndexByte(buf[at:], '\n')
			p.line(l, buf[at:end])
			at = end + 1
		}
	}
	p.line(n, buf[s:e])
	p.after, p.afterAt = p.context, e+1
}

// flushAfter prints due context lines starting before offset limit and
// numbered below stop (stop < 0: no bound).
func (p *printer) flushAfter(buf []byte, limit, stop int) {
	for p.after > 0 && p.afterAt < limit && (stop < 0 || p.last+1 < stop) {
		end := bytes.IndexByte(buf[p.afterAt:limit], '\n')
		if end < 0 {
			end = limit - p.afterAt
		}
		p.line(p.last+1, buf[p.afterAt:p.afterAt+end])
		p.afterAt += end + 1
		p.after--
	}
}

func (p *printer) line(n int, text []byte) {
	if p.prefix == "" {
		p.prefix = quotePath(p.rel) + ":"
	}
	p.out = append(p.out, p.prefix...)
	p.out = strconv.AppendInt(p.out, int64(n), 10)
	p.out = append(p.out, ':')
	p.out = append(p.out, text...)
	p.out = append(p.out, '\n')
	p.last = n
}

// shift moves buffer offsets after the buffer's first carry bytes were dropped.
func (p *printer) shift(carry int) { p.afterAt -= carry }
