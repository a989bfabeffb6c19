//go:build linux

// A terminal screen rebuilt from what harness wrote to its pseudo-terminal,
// so that tests find text that was drawn in pieces (the UI writes only the
// cells a frame changed, and text that moved up a row shares some cells
// with what was there).

package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// vtScreen is the text of a terminal of w×h cells after the output out:
// cursor positioning, erasing and printing, with styles, modes and other
// controls read and ignored.
func vtScreen(out []byte, w, h int) []string {
	grid := make([][]rune, h)
	for i := range grid {
		grid[i] = []rune(strings.Repeat(" ", w))
	}
	x, y := 0, 0
	clamp := func() {
		x, y = min(max(x, 0), w-1), min(max(y, 0), h-1)
	}
	erase := func(row, from, to int) {
		for i := from; i < to && i < w; i++ {
			grid[row][i] = ' '
		}
	}
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == 0x1b && i+1 < len(out) && out[i+1] == '[':
			j := i + 2
			for j < len(out) && (out[j] < 0x40 || out[j] > 0x7e) {
				j++
			}
			if j >= len(out) {
				return rows(grid)
			}
			var n []int
			for _, p := range strings.Split(strings.TrimLeft(string(out[i+2:j]), "?>="), ";") {
				v, _ := strconv.Atoi(p)
				n = append(n, v)
			}
			arg := func(k, def int) int {
				if k < len(n) && n[k] > 0 {
					return n[k]
				}
				return def
			}
			switch out[j] {
			case 'H', 'f':
				y, x = arg(0, 1)-1, arg(1, 1)-1
			case 'A':
				y -= arg(0, 1)
			case 'B':
				y += arg(0, 1)
			case 'C':
				x += arg(0, 1)
			case 'D':
				x -= arg(0, 1)
			case 'G':
				x = arg(0, 1) - 1
			case 'd':
				y = arg(0, 1) - 1
			case 'J':
				if len(n) > 0 && n[0] == 2 {
					for r := range grid {
						erase(r, 0, w)
					}
				} else {
					erase(y, x, w)
					for r := y + 1; r < h; r++ {
						erase(r, 0, w)
					}
				}
			case 'K':
				erase(y, x, w)
			}
			clamp()
			i = j + 1
		case c == 0x1b && i+1 < len(out) && out[i+1] == ']': // OSC, to BEL or ESC \
			j := i + 2
			for j < len(out) && out[j] != 7 && !(out[j] == 0x1b && j+1 < len(out) && out[j+1] == '\\') {
				j++
			}
			i = j + 1
			if j < len(out) && out[j] == 0x1b {
				i++
			}
		case c == 0x1b && i+1 < len(out) && (out[i+1] == '(' || out[i+1] == ')'):
			i += 3
		case c == 0x1b:
			i += 2
		case c == '\r':
			x = 0
			i++
		case c == '\n':
			y++
			clamp()
			i++
		case c == '\b':
			x--
			clamp()
			i++
		case c < 0x20 || c == 0x7f:
			i++
		default:
			r, size := utf8.DecodeRune(out[i:])
			if x < w && y < h {
				grid[y][x] = r
			}
			x++
			if x >= w {
				x = w - 1
			}
			i += size
		}
	}
	return rows(grid)
}

func rows(grid [][]rune) []string {
	out := make([]string, len(grid))
	for i, r := range grid {
		out[i] = strings.TrimRight(string(r), " ")
	}
	return out
}
