// Reading one key from the terminal for an approval (Linux: termios).

package replterm

import (
	"context"
	"os"

	"golang.org/x/sys/unix"
)

// keys reads single keys from a terminal.
type keys struct {
	in  *os.File
	fd  int
	old *unix.Termios
}

// openKeys turns echo, line buffering and signals off on in, a terminal
// (so Ctrl+C arrives as a key), and discards what was typed before: keys
// typed ahead of a question never answer it. close puts the mode back.
func openKeys(in *os.File) (*keys, error) {
	fd := int(in.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return nil, err
	}
	raw := *old
	raw.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return nil, err
	}
	unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)
	return &keys{in: in, fd: fd, old: old}, nil
}

func (k *keys) close() { unix.IoctlSetTermios(k.fd, unix.TCSETS, k.old) }

// read returns the first key typed that is in want, or ctx's error once
// ctx ends.
func (k *keys) read(ctx context.Context, want string) (byte, error) {
	buf := make([]byte, 1)
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		fds := []unix.PollFd{{Fd: int32(k.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 100)
		if err == unix.EINTR || err == nil && n == 0 {
			continue
		}
		if err != nil {
			return 0, err
		}
		if fds[0].Revents&unix.POLLIN == 0 {
			return 0, os.ErrClosed // hung up
		}
		if _, err := k.in.Read(buf); err != nil {
			return 0, err
		}
		for i := 0; i < len(want); i++ {
			if buf[0] == want[i] {
				return buf[0], nil
			}
		}
	}
}
