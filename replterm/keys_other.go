//go:build !linux

// Reading an approval's answer where termios is not at hand: a line.

package replterm

import (
	"bufio"
	"context"
	"os"
	"strings"
)

// readKey reads lines from in until one starts with a key in want (type
// y or n, then Enter). Ctrl+C is the terminal's SIGINT here.
func readKey(ctx context.Context, in *os.File, want string) (byte, error) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if line := strings.TrimSpace(sc.Text()); line != "" && strings.IndexByte(want, line[0]) >= 0 {
			return line[0], nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, os.ErrClosed
}
