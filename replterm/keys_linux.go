// Reading one key from the terminal for an approval (Linux: termios).

package replterm

import (
	"context"
	"os"

	"golang.org/x/sys/unix"
)

// readKey reads one of the keys in want from in, a terminal, with echo,
// line buffering and signals off, so that Ctrl+C arrives as a key. Input
// typed before the call is discarded first. It gives up when ctx ends.
func readKey(ctx context.Context, in *os.File, want string) (byte, error) {
	fd := int(in.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return 0, err
	}
	raw := *old
	raw.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return 0, err
	}
	defer unix.IoctlSetTermios(fd, unix.TCSETS, old)
	unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) // type-ahead never answers
	buf := make([]byte, 1)
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 100)
		if err == unix.EINTR || n == 0 {
			continue
		}
		if err != nil {
			return 0, err
		}
		if fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0 && fds[0].Revents&unix.POLLIN == 0 {
			return 0, os.ErrClosed
		}
		if _, err := in.Read(buf); err != nil {
			return 0, err
		}
		for i := 0; i < len(want); i++ {
			if buf[0] == want[i] {
				return buf[0], nil
			}
		}
	}
}
