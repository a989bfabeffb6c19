// The input filter: lines that are not JSON-RPC messages get an error
// response instead of reaching the SDK, which would drop them silently.

package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// maxLine is the longest message accepted, in bytes (the SDK's reader
// stops the connection past 10 MiB; a longer line is refused instead).
const maxLine = 8 << 20

// headSize is how much of a refused long line is kept to find its id, so
// that the request gets its error (an editor waits for it otherwise).
const headSize = 64 << 10

// lockedWriter serializes writes to stdout: the SDK writes each message
// with one Write, and so does the filter.
type lockedWriter struct {
	mu    sync.Mutex
	w     io.Writer
	after []afterWrite
}

// afterWrite runs fn once a message holding every one of match was
// written (see lockedWriter.After).
type afterWrite struct {
	match []string
	fn    func()
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	kept := l.after[:0]
	for _, a := range l.after {
		if containsAll(p, a.match) {
			go a.fn() // it writes too: after this write, on its own
		} else {
			kept = append(kept, a)
		}
	}
	l.after = kept
	return n, err
}

// After runs fn, once, after the next message holding every string of
// match was written: the SDK writes each message in one Write call.
func (l *lockedWriter) After(fn func(), match ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.after = append(l.after, afterWrite{match, fn})
}

func containsAll(p []byte, match []string) bool {
	for _, m := range match {
		if !bytes.Contains(p, []byte(m)) {
			return false
		}
	}
	return true
}

// filter copies in to sdk line by line. A line that is not a JSON-RPC
// message is answered on out with a JSON-RPC error, as the spec asks: not
// JSON, -32700 (parse error) with id null; a batch (a JSON array, which
// ACP does not use), another non-object value, an object that is neither a
// request, a notification nor a response, or a line longer than maxLine,
// -32600 (invalid request) with the request's id when it has a usable one.
// Each is logged. sdk is closed when in ends.
func filter(in io.Reader, sdk *io.PipeWriter, out io.Writer, log func(string, ...any)) {
	r := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || errors.Is(err, errTooLong) {
			if msg, bad := check(line, err); bad != nil {
				log("input line %d: %s", n, msg)
				out.Write(bad)
			} else if _, werr := sdk.Write(append(line, '\n')); werr != nil {
				return
			}
		}
		if err != nil && !errors.Is(err, errTooLong) {
			sdk.Close()
			return
		}
	}
}

var errTooLong = errors.New("line too long")

// readLine reads one line without its newline; past maxLine it discards
// the rest of the line and returns its first headSize bytes with
// errTooLong.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > maxLine {
			head := append(line, frag[:min(len(frag), max(0, headSize-len(line)))]...)
			head = head[:min(len(head), headSize)]
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err == nil || errors.Is(err, io.EOF) {
				return head, errTooLong
			}
			return nil, err
		}
		line = append(line, frag...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

// check returns nil for a line to pass on, else what is wrong and the
// error response to send.
func check(line []byte, readErr error) (string, []byte) {
	if errors.Is(readErr, errTooLong) {
		return fmt.Sprintf("a message longer than %d bytes", maxLine),
			errorResponse(headID(line), -32600, "Invalid request",
				fmt.Sprintf("the message is longer than %d bytes (8 MiB): send less, for example mention a large file by its path instead of embedding it", maxLine))
	}
	trimmed := bytes.TrimSpace(line)
	if !json.Valid(trimmed) {
		var v any
		err := json.Unmarshal(trimmed, &v)
		return "not JSON: " + err.Error(), errorResponse(nil, -32700, "Parse error", "the line is not JSON: "+err.Error())
	}
	switch trimmed[0] {
	case '{':
	case '[':
		return "a JSON array", errorResponse(nil, -32600, "Invalid request", "batches are not supported: send one JSON-RPC message per line")
	default:
		return "not a JSON object", errorResponse(nil, -32600, "Invalid request", "a JSON-RPC message is a JSON object")
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	json.Unmarshal(trimmed, &m)
	id := usableID(m.ID)
	var method string
	switch {
	case m.Method != nil && json.Unmarshal(m.Method, &method) != nil:
		return "a method that is not a string", errorResponse(id, -32600, "Invalid request", "method must be a string")
	case m.Method != nil && m.ID != nil && id == nil:
		return "a request whose id is not a string or a number", errorResponse(nil, -32600, "Invalid request", "id must be a string or a number")
	case m.Method != nil && len(m.Params) > 0 && m.Params[0] != '{' && m.Params[0] != '[' && string(m.Params) != "null":
		return "params that are not an object", errorResponse(id, -32602, "Invalid params", "params must be an object")
	case m.Method == nil && m.ID == nil:
		return "neither a request nor a response", errorResponse(nil, -32600, "Invalid request", "a JSON-RPC message needs a method (a request or notification) or an id (a response)")
	case m.Method == nil && m.Result == nil && m.Error == nil:
		return "a response without result or error", errorResponse(nil, -32600, "Invalid request", "a response needs a result or an error")
	}
	return "", nil
}

// headID is the id of the message whose beginning head is, when it has a
// usable one before head ends (the SDKs write it before the params), else
// nil.
func headID(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var val json.RawMessage
		if dec.Decode(&val) != nil {
			return nil
		}
		if key == "id" {
			return usableID(val)
		}
	}
	return nil
}

// usableID is a string or number id, or nil.
func usableID(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return raw
	}
	return nil
}

func errorResponse(id json.RawMessage, code int, message, detail string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": message + ": " + detail, "data": map[string]any{"error": detail}},
	})
	return append(b, '\n')
}
