// What a stdio server writes on stdout, before the SDK reads it: lines
// that are not JSON-RPC are skipped, and a message over the frame cap
// fails only the call it answers.

package mcpclient

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/sensitive"
)

// MaxFrameBytes is the longest message a stdio server may send on one
// line (the SDK's own cap). A longer response fails the call it answers
// with "result too large (N MB, limit 16 MB)"; the connection stays.
const MaxFrameBytes = mcp.DefaultMaxLineLength

// codeTooLarge is the JSON-RPC error code of the answer that stands in for
// a response over MaxFrameBytes.
const codeTooLarge = -32099

// frameFilter copies a stdio server's stdout to the SDK line by line. A
// line that is empty is dropped; one that is not a JSON-RPC message (not
// JSON, or JSON without "jsonrpc") is dropped and noted in the server's
// log; one over MaxFrameBytes is read to its end without being kept, and a
// response among them is replaced by an error response with the same id.
// The SDK would otherwise end the connection at the first of these.
type frameFilter struct {
	src   io.ReadCloser
	log   io.Writer // the server's log; nil discards the notes
	limit int
}

// filterFrames returns the filtered stream of src; closing it closes src.
// log (which may be nil) is closed when src ends.
func filterFrames(src io.ReadCloser, log io.WriteCloser) io.ReadCloser {
	pr, pw := io.Pipe()
	f := &frameFilter{src: src, limit: MaxFrameBytes}
	if log != nil {
		f.log = log
	}
	go func() {
		pw.CloseWithError(f.copy(pw))
		src.Close()
		if log != nil {
			log.Close()
		}
	}()
	return &filtered{pr, src}
}

type filtered struct {
	*io.PipeReader
	src io.Closer
}

func (f *filtered) Close() error {
	f.PipeReader.Close()
	return f.src.Close()
}

// copy filters until src ends (nil) or fails, or w is closed.
func (f *frameFilter) copy(w io.Writer) error {
	br := bufio.NewReaderSize(f.src, 64<<10)
	for {
		line, head, tail, size, err := readLine(br, f.limit)
		switch {
		case size == 0:
		case line == nil:
			f.tooLarge(w, head, tail, size)
		case len(bytes.TrimSpace(line)) == 0:
		case !isMessage(line):
			f.note("skipped a line on stdout that is not a JSON-RPC message: %q", clip(line, 200))
		default:
			if _, werr := w.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (f *frameFilter) note(format string, a ...any) {
	if f.log != nil {
		fmt.Fprint(f.log, sensitive.Scrub(fmt.Sprintf("harness: "+format+"\n", a...)))
	}
}

// tooLarge answers the request of an oversized response with an error
// response, when the id can be found at its start or end.
func (f *frameFilter) tooLarge(w io.Writer, head, tail []byte, size int) {
	id := messageID(head, tail)
	f.note("a message of %d bytes on stdout passed the %d-byte limit and was dropped (id %s)", size, f.limit, orNone(id))
	if id == nil {
		return
	}
	resp, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{
		"code": codeTooLarge, "message": fmt.Sprintf("result too large (%s, limit %s)", megabytes(size), megabytes(f.limit))}})
	w.Write(append(resp, '\n'))
}

func orNone(id json.RawMessage) string {
	if id == nil {
		return "unknown"
	}
	return string(id)
}

// megabytes prints n bytes in MB (of 2^20 bytes), rounded.
func megabytes(n int) string { return fmt.Sprintf("%d MB", (n+(1<<19))>>20) }

// clip returns at most n bytes of b.
func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// isMessage reports whether line is a JSON-RPC message or batch.
func isMessage(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') || !json.Valid(t) {
		return false
	}
	if t[0] == '[' {
		return true
	}
	var m struct {
		JSONRPC *string `json:"jsonrpc"`
	}
	return json.Unmarshal(t, &m) == nil && m.JSONRPC != nil
}

// edge is how much of an oversized line's start and end is kept to find
// its id.
const edge = 4 << 10

// readLine returns the next line without its newline, or, for a line over
// limit, line nil with its first and last bytes (head, tail); size is the
// line's length (0 at the end). err is io.EOF after the last line.
func readLine(br *bufio.Reader, limit int) (line, head, tail []byte, size int, err error) {
	var buf []byte
	over := false
	for {
		chunk, rerr := br.ReadSlice('\n')
		size += len(chunk)
		switch {
		case over:
			tail = append(tail, chunk...)
			if len(tail) > edge {
				tail = append(tail[:0], tail[len(tail)-edge:]...)
			}
		case len(buf)+len(chunk) > limit+1:
			over = true
			head = append([]byte(nil), buf[:min(len(buf), edge)]...)
			if len(head) < edge {
				head = append(head, chunk[:min(len(chunk), edge-len(head))]...)
			}
			tail = append([]byte(nil), chunk[max(0, len(chunk)-edge):]...)
			buf = nil
		default:
			buf = append(buf, chunk...)
		}
		if rerr == bufio.ErrBufferFull {
			continue
		}
		if over {
			return nil, head, bytes.TrimRight(tail, "\r\n"), size, rerr
		}
		return bytes.TrimRight(buf, "\r\n"), nil, nil, size, rerr
	}
}

// tailID finds the id member that ends an object.
var tailID = regexp.MustCompile(`"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")\s*}\s*$`)

// messageID finds the top-level id of a message cut after its head: the
// SDK writes it before the result, other servers after it (tail).
func messageID(head, tail []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	depth, key := 0, true
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
			key = depth == 1
			continue
		case string:
			if depth == 1 && key && v == "id" {
				var id json.RawMessage
				if dec.Decode(&id) == nil {
					return id
				}
				return nil
			}
		}
		if depth == 1 {
			key = !key
		}
	}
	if m := tailID.FindSubmatch(tail); m != nil {
		return json.RawMessage(m[1])
	}
	return nil
}
