//go:build !linux

// Reading an approval's answer where termios is not at hand: a line.

package replterm

import (
	"bufio"
	"context"
	"os"
	"strings"
)

// keys reads answers as lines (type y or n, then Enter); Ctrl+C is the
// terminal's SIGINT here.
type keys struct{ sc *bufio.Scanner }

func openKeys(in *os.File) (*keys, error) { return &keys{sc: bufio.NewScanner(in)}, nil }

func (k *keys) close() {}

// read returns the first letter of the first line that starts with a key
// in want.
func (k *keys) read(ctx context.Context, want string) (byte, error) {
	for k.sc.Scan() {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if line := strings.TrimSpace(k.sc.Text()); line != "" && strings.IndexByte(want, line[0]) >= 0 {
			return line[0], nil
		}
	}
	if err := k.sc.Err(); err != nil {
		return 0, err
	}
	return 0, os.ErrClosed
}
