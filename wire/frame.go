// Frames: the types, the header, and encoding and decoding of one frame.

package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
)

// Type is a frame's type byte.
type Type uint8

// The frame types; see the package documentation for each one's body.
const (
	Hello Type = 1 + iota
	Bind
	Ready
	Exec
	Output
	Call
	Reply
	Note
	Stopping
	Result
	Cancel
	Level
	Ping
	Pong
	maxType = Pong
)

var typeNames = [...]string{"", "Hello", "Bind", "Ready", "Exec", "Output", "Call", "Reply", "Note", "Stopping", "Result", "Cancel", "Level", "Ping", "Pong"}

func (t Type) String() string {
	if t >= 1 && t <= maxType {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// headerLen is the length field plus the type and id.
const headerLen = 4 + 1 + 8

// MaxFrame is the largest length field accepted (type, id and body). It is
// large because a run() command's output crosses in one Reply; the memory
// limits keep real frames far below it.
const MaxFrame = 1 << 30

// ErrFormat is wrapped by every error about a malformed frame.
var ErrFormat = errors.New("wire: malformed frame")

// Frame is one message.
type Frame struct {
	Type  Type
	ID    uint64
	Body  []byte
	Files []*os.File // only on Bind; the receiver owns them
}

// Append appends the encoding of f (without its files) to buf.
func Append(buf []byte, f Frame) ([]byte, error) {
	if f.Type < 1 || f.Type > maxType {
		return buf, fmt.Errorf("%w: unknown type %d", ErrFormat, f.Type)
	}
	n := 1 + 8 + len(f.Body)
	if n > MaxFrame {
		return buf, fmt.Errorf("%w: %s body of %d bytes is over the %d-byte limit", ErrFormat, f.Type, len(f.Body), MaxFrame-9)
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(n))
	buf = append(buf, byte(f.Type))
	buf = binary.BigEndian.AppendUint64(buf, f.ID)
	return append(buf, f.Body...), nil
}

// header checks the header at the start of buf (at least headerLen bytes)
// and returns the whole frame's length in bytes.
func header(buf []byte) (int, error) {
	n := binary.BigEndian.Uint32(buf)
	if n < 9 || n > MaxFrame {
		return 0, fmt.Errorf("%w: length %d is outside 9…%d", ErrFormat, n, MaxFrame)
	}
	if t := Type(buf[4]); t < 1 || t > maxType {
		return 0, fmt.Errorf("%w: unknown type %d", ErrFormat, buf[4])
	}
	return 4 + int(n), nil
}

// Decode decodes the frame at the start of buf. It returns the frame and
// the bytes it took, or n == 0 and no error when buf holds only part of a
// frame. The body aliases buf.
func Decode(buf []byte) (f Frame, n int, err error) {
	if len(buf) < headerLen {
		return Frame{}, 0, nil
	}
	size, err := header(buf)
	if err != nil {
		return Frame{}, 0, err
	}
	if len(buf) < size {
		return Frame{}, 0, nil
	}
	f = Frame{Type: Type(buf[4]), ID: binary.BigEndian.Uint64(buf[5:13]), Body: buf[headerLen:size:size]}
	return f, size, nil
}
