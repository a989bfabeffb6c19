// Server-sent-events parsing of chat-completion streams.

package llm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// MaxLineBytes is the longest line of an event stream harness reads, far
// above any real chunk: a longer line ends the attempt with a
// *LineTooLongError, so that memory stays bounded whatever a server sends.
// It bounds a non-streamed JSON answer too.
const MaxLineBytes = 16 << 20

// LineTooLongError says the endpoint sent a line over MaxLineBytes. It is
// retried like a broken stream.
type LineTooLongError struct {
	Chunks int // the chunks read before it
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("%v: the endpoint sent a stream line over %s after %s; no real chunk is that long (the partial reply was kept; try again)",
		ErrTruncated, byteCount(MaxLineBytes), chunks(e.Chunks))
}

// Reason says what happened in a few words.
func (e *LineTooLongError) Reason() string {
	return "a stream line over " + byteCount(MaxLineBytes)
}

func (e *LineTooLongError) Unwrap() error { return ErrTruncated }

// errLineTooLong is lineReader's error for a line over its limit.
var errLineTooLong = errors.New("line too long")

// lineReader returns lines of up to max bytes (without the ending); a
// longer one is errLineTooLong. The returned slice is valid until the next
// call.
type lineReader struct {
	r    *bufio.Reader
	long []byte
	max  int
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: MaxLineBytes}
}

// next returns the next line without its LF or CRLF ending. The last line
// may lack an ending. At the end it returns io.EOF.
func (l *lineReader) next() ([]byte, error) {
	line, err := l.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = l.r.ReadSlice('\n')
			// Two bytes for a CRLF ending.
			if len(l.long)+len(line) > l.max+2 {
				l.long = nil // the memory goes back with the attempt
				return nil, errLineTooLong
			}
			l.long = append(l.long, line...)
		}
		line = l.long
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		return nil, err
	}
	line = bytes.TrimSuffix(line, []byte{'\n'})
	return bytes.TrimSuffix(line, []byte{'\r'}), nil
}

// parseStream reads SSE events from r into acc until [DONE], the end of the
// body, an error, or the cancellation of ctx.
//
// Each data line is handled as soon as it is read (deltas are never held
// back waiting for the blank line that ends an event). A data line that is
// not valid JSON on its own is kept and joined with the following data
// lines of the same event, as SSE allows; if the event ends still invalid,
// the chunk is malformed. Lines starting with "{" outside any field are
// taken as data (servers that send bare JSON lines).
func parseStream(ctx context.Context, r io.Reader, acc *accumulator) error {
	lr := newLineReader(r)
	p := &sseParser{acc: acc}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := lr.next()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err == errLineTooLong {
				return &LineTooLongError{Chunks: acc.chunks}
			}
			return p.end(err)
		}
		if done, err := p.line(line); done || err != nil {
			return err
		}
	}
}

// sseParser is the state of parseStream between lines.
type sseParser struct {
	acc     *accumulator
	pending []byte // data lines of an event not yet valid JSON
	partial bool   // pending holds a data line
	event   string // the current event's type
	junk    string // the first line that is not SSE, quoted if nothing else came
}

// end decides what the end of the body (err io.EOF) or a read error means.
func (p *sseParser) end(err error) error {
	switch {
	case p.partial:
		return malformed(p.pending, p.acc)
	case err == io.EOF || p.acc.finish != "":
		// A cut after the finish_reason loses nothing (at most the usage):
		// the reply is complete.
		return endOfStream(p.acc, p.junk)
	}
	return fmt.Errorf("%w: %v after %s (the partial reply was kept; try again)", ErrTruncated, err, chunks(p.acc.chunks))
}

// line handles one line; done is true at [DONE].
func (p *sseParser) line(line []byte) (done bool, err error) {
	if len(line) == 0 {
		if p.partial {
			return false, malformed(p.pending, p.acc)
		}
		p.event = ""
		return false, nil
	}
	if line[0] == ':' {
		return false, nil // comment or keep-alive
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	if line[0] == '{' {
		name, value = []byte("data"), line
	}
	switch string(name) {
	case "data":
		return p.data(value)
	case "event":
		p.event = string(value)
	case "error":
		// llama.cpp reports a failure mid-stream as an "error:" line.
		return false, p.acc.providerError(value)
	default:
		if p.partial {
			return false, malformed(p.pending, p.acc)
		}
		if p.junk == "" && !knownField(name) {
			p.junk = truncate(string(p.acc.scrub(line)))
		}
		// id, retry, unknown fields: ignored
	}
	return false, nil
}

// data handles the value of a data line.
func (p *sseParser) data(value []byte) (done bool, err error) {
	if !p.partial {
		trimmed := bytes.TrimSpace(value)
		if len(trimmed) == 0 {
			return false, nil // an empty data line (a heartbeat)
		}
		if string(trimmed) == "[DONE]" {
			return true, nil
		}
	} else {
		p.pending = append(append(p.pending, '\n'), value...)
		value = p.pending
	}
	if !wellFormed(value) {
		if !p.partial {
			p.pending = append(p.pending[:0], value...)
		}
		p.partial = true
		return false, nil
	}
	p.partial, p.pending = false, p.pending[:0]
	err = p.acc.chunk(value)
	if err == nil && p.event != "error" {
		return false, nil
	}
	var pe *ProviderError
	switch {
	case errors.As(err, &pe):
		return false, pe
	case p.event == "error":
		return false, p.acc.providerError(value)
	}
	return false, malformed(value, p.acc)
}

func malformed(data []byte, acc *accumulator) error {
	return fmt.Errorf("%w after %s: %s (the partial reply was kept; try again)", ErrMalformed, chunks(acc.chunks), truncate(string(acc.scrub(data))))
}

// endOfStream decides whether a body that ended without [DONE] was complete:
// it was if a finish_reason arrived.
func endOfStream(acc *accumulator, junk string) error {
	switch {
	case acc.finish != "":
		return nil
	case acc.chunks > 0 && acc.replies == 0:
		return &notStreamError{fmt.Sprintf("%v: the endpoint answered with %s of JSON but no chat completion chunk (no \"choices\")", ErrTruncated, chunks(acc.chunks))}
	case acc.chunks == 0 && junk != "":
		return &notStreamError{fmt.Sprintf("%v: the endpoint did not answer with an event stream; it sent: %s", ErrTruncated, junk)}
	case acc.chunks == 0:
		return fmt.Errorf("%w: the endpoint closed the stream without sending anything", ErrTruncated)
	}
	return fmt.Errorf("%w: the connection closed after %s without a finish_reason (the partial reply was kept; try again)", ErrTruncated, chunks(acc.chunks))
}

func knownField(name []byte) bool {
	switch string(name) {
	case "id", "retry", "event", "data":
		return true
	}
	return false
}

// whole applies a complete (non-streamed) JSON answer.
func (a *accumulator) whole(data []byte) error {
	if !wellFormed(data) {
		return malformed(data, a)
	}
	if err := a.chunk(data); err != nil {
		return err
	}
	if a.replies == 0 {
		return &notStreamError{fmt.Sprintf("%v: the endpoint answered with JSON that is neither an event stream nor a chat completion: %s", ErrTruncated, truncate(string(a.scrub(data))))}
	}
	if a.finish == "" && a.chunks > 0 {
		a.finish = "stop"
	}
	return nil
}

func chunks(n int) string {
	if n == 1 {
		return "1 chunk"
	}
	return fmt.Sprintf("%d chunks", n)
}
