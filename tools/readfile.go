// The read_file tool: numbered UTF-8 lines of one file.

package tools

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"
)

// ReadFileArgs are read_file's arguments (JSON: path, start_line, end_line).
// Line numbers are 1-based and inclusive; 0 means the default (line 1, the
// last line).
type ReadFileArgs struct {
	Path               string
	StartLine, EndLine int
}

func readFile(ctx context.Context, r fileSystem, a ReadFileArgs, limit int) (string, error) {
	rel := cleanArg(a.Path)
	if a.StartLine < 0 || a.EndLine < 0 {
		return "", fmt.Errorf("read_file %s: start_line and end_line count from 1 (0 or omitted means the default); got start_line=%d end_line=%d",
			quotePath(rel), a.StartLine, a.EndLine)
	}
	if a.EndLine > 0 && a.StartLine > a.EndLine {
		return "", fmt.Errorf("read_file %s: start_line %d is after end_line %d; give start_line <= end_line",
			quotePath(rel), a.StartLine, a.EndLine)
	}
	data, err := readAll(ctx, r, rel)
	if err != nil {
		return "", err
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return "", fmt.Errorf("read_file %s: binary file (NUL byte at offset %d); read_file shows text only, use the REPL's Path(...).read_bytes() for bytes",
			quotePath(rel), i)
	}
	if len(data) == 0 {
		return fmt.Sprintf("(%s: empty file, 0 lines)\n", quotePath(rel)), nil
	}
	lines := splitLines(data)
	first, last := a.StartLine, a.EndLine
	if first == 0 {
		first = 1
	}
	if last == 0 || last > len(lines) {
		last = len(lines)
	}
	if first > len(lines) {
		return "", fmt.Errorf("read_file %s: start_line %d is past the end of the file, which has %s",
			quotePath(rel), first, plural(len(lines), "line"))
	}
	view := lines[first-1 : last]
	for i, l := range view {
		if !utf8.ValidString(l) {
			return "", fmt.Errorf("read_file %s: line %d is not valid UTF-8 (byte offset %d in the line); read_file shows UTF-8 text only, use the REPL's Path(...).read_bytes() for other encodings",
				quotePath(rel), first+i, invalidOffset(l))
		}
	}
	out := Numbered(view, first)
	return truncate(out, limit, func(kept string) string {
		shown := strings.Count(kept, "\n")
		if shown == 0 {
			return fmt.Sprintf("Line %d alone is longer than the output limit; use the REPL to read part of it.", first)
		}
		return fmt.Sprintf("Showing lines %d-%d of %d-%d; request a smaller range, e.g. start_line=%d.",
			first, first+shown-1, first, last, first+shown)
	}), nil
}

// readAll reads one file through the jail. Relative symlinks inside the root
// are followed (by the jail); directories are refused with a pointer to list.
func readAll(ctx context.Context, r fileSystem, rel string) ([]byte, error) {
	// Check the type before opening: opening a named pipe would block.
	info, err := r.Stat(rel)
	if err != nil {
		return nil, pathError("read_file", r, err)
	}
	if err := regularFile(rel, info); err != nil {
		return nil, err
	}
	f, err := r.Open(rel)
	if err != nil {
		return nil, pathError("read_file", r, err)
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, ioError("read_file", rel, err)
	}
	if err := regularFile(rel, info); err != nil {
		return nil, err
	}
	data := make([]byte, 0, info.Size()+1)
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("read_file %s: cancelled", quotePath(rel))
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, ioError("read_file", rel, err)
		}
	}
}

func regularFile(rel string, info fs.FileInfo) error {
	switch m := info.Mode(); {
	case m.IsDir():
		return fmt.Errorf("read_file %s: is a directory; use list to see its entries", quotePath(rel))
	case !m.IsRegular():
		return fmt.Errorf("read_file %s: not a regular file (%s); read_file reads regular files only", quotePath(rel), kindName(m))
	}
	return nil
}

// splitLines splits text into lines without their terminators: "\n" or
// "\r\n" (a lone "\r" stays in the line). A final terminator does not start
// another line.
func splitLines(data []byte) []string {
	s := string(data)
	terminated := strings.HasSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if i < len(lines)-1 || terminated {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
	}
	return lines
}

func invalidOffset(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
