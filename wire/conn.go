// Conn: frames over one end of a Unix socket pair, with open files.

package wire

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
)

// Conn sends and receives frames on one end of a socket pair. Send may be
// called from any goroutine; Read from one goroutine at a time.
type Conn struct {
	uc *net.UnixConn

	wmu  sync.Mutex
	wbuf []byte

	rbuf  []byte     // received bytes not yet returned as frames
	files []*os.File // received files not yet given to a Bind frame
	oob   []byte
}

// readChunk is the least room Read asks the socket to fill.
const readChunk = 64 << 10

// Pair returns a connected socket pair: the parent's Conn and the child's
// end as a file to pass to the child (exec.Cmd.ExtraFiles). Both ends are
// close-on-exec in this process.
func Pair() (*Conn, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("wire: socketpair: %w", err)
	}
	parent := os.NewFile(uintptr(fds[0]), "wire-parent")
	child := os.NewFile(uintptr(fds[1]), "wire-child")
	c, err := FromFile(parent)
	if err != nil {
		child.Close()
		return nil, nil, err
	}
	return c, child, nil
}

// FromFile makes a Conn of a file holding one end of a Unix socket. The
// file is closed; the Conn holds its own descriptor.
func FromFile(f *os.File) (*Conn, error) {
	defer f.Close()
	nc, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	uc, ok := nc.(*net.UnixConn)
	if !ok {
		nc.Close()
		return nil, fmt.Errorf("wire: %T is not a Unix socket", nc)
	}
	return &Conn{uc: uc, oob: make([]byte, syscall.CmsgSpace(4*8))}, nil
}

// Close closes the connection; a Read in progress returns an error.
func (c *Conn) Close() error { return c.uc.Close() }

// Send writes one frame, with its files when it has any. Only Bind frames
// may carry files.
func (c *Conn) Send(f Frame) error {
	if len(f.Files) > 0 && f.Type != Bind {
		return fmt.Errorf("wire: a %s frame cannot carry files", f.Type)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	b, err := Append(c.wbuf[:0], f)
	if err != nil {
		return err
	}
	if cap(b) <= readChunk {
		c.wbuf = b // keep small buffers for the next frame
	}
	if len(f.Files) == 0 {
		_, err = c.uc.Write(b)
		return err
	}
	fds := make([]int, len(f.Files))
	for i, file := range f.Files {
		fds[i] = int(file.Fd())
	}
	n, _, err := c.uc.WriteMsgUnix(b, syscall.UnixRights(fds...), nil)
	if err == nil && n < len(b) {
		_, err = c.uc.Write(b[n:])
	}
	return err
}

// Read returns the next frame. A Bind frame gets the files received since
// the previous Bind: a socket delivers a message's files no later than its
// first byte, and only Bind frames carry any. The body is the frame's own
// (not shared with later frames).
func (c *Conn) Read() (Frame, error) {
	for {
		f, n, err := Decode(c.rbuf)
		if err != nil {
			return Frame{}, err
		}
		if n > 0 {
			return c.take(f, n), nil
		}
		if err := c.fill(); err != nil {
			if errors.Is(err, io.EOF) && len(c.rbuf) > 0 {
				return Frame{}, fmt.Errorf("%w: the stream ended inside a frame (%d bytes)", ErrFormat, len(c.rbuf))
			}
			return Frame{}, err
		}
	}
}

// take removes the decoded frame of n bytes from the buffer.
func (c *Conn) take(f Frame, n int) Frame {
	if f.Type == Bind {
		f.Files, c.files = c.files, nil
	}
	if n >= readChunk {
		// A large frame keeps its bytes; the rest moves to a new buffer.
		rest := c.rbuf[n:]
		c.rbuf = append(make([]byte, 0, max(len(rest), readChunk)), rest...)
	} else {
		f.Body = append([]byte(nil), f.Body...)
		c.rbuf = c.rbuf[:copy(c.rbuf, c.rbuf[n:])]
	}
	return f
}

// fill reads more bytes (and any files) from the socket.
func (c *Conn) fill() error {
	need := readChunk
	if len(c.rbuf) >= headerLen {
		if size, err := header(c.rbuf); err == nil && size-len(c.rbuf) > need {
			need = size - len(c.rbuf)
		}
	}
	if cap(c.rbuf)-len(c.rbuf) < need {
		grown := make([]byte, len(c.rbuf), len(c.rbuf)+need)
		copy(grown, c.rbuf)
		c.rbuf = grown
	}
	free := c.rbuf[len(c.rbuf):cap(c.rbuf)]
	n, oobn, _, _, err := c.uc.ReadMsgUnix(free, c.oob)
	if oobn > 0 {
		c.receive(c.oob[:oobn])
	}
	if n > 0 {
		c.rbuf = c.rbuf[:len(c.rbuf)+n]
	}
	if n <= 0 && err == nil {
		return io.EOF
	}
	return err
}

// receive keeps the descriptors in control data for the next Bind.
func (c *Conn) receive(oob []byte) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return
	}
	for _, m := range msgs {
		fds, err := syscall.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			c.files = append(c.files, os.NewFile(uintptr(fd), fmt.Sprintf("fd%d", fd)))
		}
	}
}
