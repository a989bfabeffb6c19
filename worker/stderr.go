// A worker's stderr: forwarded to the log line by line, its tail kept.

package worker

import (
	"bytes"
	"io"
	"strings"
	"sync"

	"harness/sensitive"
)

// tailKeep and headKeep are how much of the end and of the start of a
// worker's stderr are kept for its exit report.
const (
	tailKeep = 16 << 10
	headKeep = 4 << 10
)

// tailWriter copies complete lines to log with a prefix, keeps the last
// tailKeep bytes, and keeps the first line that reports a Go panic or
// fatal error (a crash's goroutine dump can be longer than the tail).
type tailWriter struct {
	mu      sync.Mutex
	log     io.Writer
	prefix  string
	partial []byte
	last    []byte
	head    []byte // the first headKeep bytes
	crash   string // the first panic, fatal error or fault line
	frame   string // the first stack frame after it
	inStack bool   // a goroutine header followed the crash line
}

func newTailWriter(log io.Writer) *tailWriter { return &tailWriter{log: log} }

func (w *tailWriter) setPrefix(s string) {
	w.mu.Lock()
	w.prefix = s
	w.mu.Unlock()
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := headKeep - len(w.head); room > 0 {
		w.head = append(w.head, p[:min(room, len(p))]...)
	}
	w.last = append(w.last, p...)
	if len(w.last) > 2*tailKeep {
		w.last = append(w.last[:0], w.last[len(w.last)-tailKeep:]...)
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.line(w.partial[:i+1])
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > tailKeep { // a very long line: take it as it is
		w.line(append(w.partial, '\n'))
		w.partial = nil
	}
	return len(p), nil
}

// line handles one complete line, ending in a newline.
func (w *tailWriter) line(l []byte) {
	text := string(bytes.TrimRight(l, "\n"))
	switch {
	case w.crash == "":
		for _, p := range crashPrefixes {
			if strings.HasPrefix(text, p) {
				w.crash = text
			}
		}
	case w.frame == "" && strings.HasPrefix(text, "goroutine "):
		w.inStack = true
	case w.frame == "" && w.inStack && text != "":
		w.frame = text
	}
	if w.log != nil {
		w.log.Write(append([]byte(w.prefix), sensitive.Scrub(string(l))...))
	}
}

// crashPrefixes start the line a dying Go program writes first.
var crashPrefixes = []string{"panic: ", "fatal error: ", "SIGSEGV: ", "SIGBUS: ", "SIGABRT: ", "unexpected signal",
	"runtime/cgo: pthread_create failed", "runtime: out of memory"}

// crashLine returns the first crash line and the first stack frame after
// it, or "".
func (w *tailWriter) crashLine() (string, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.crash, w.frame
}

// tail returns the last bytes written, flushing a final partial line.
func (w *tailWriter) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 {
		w.line(append(w.partial, '\n'))
		w.partial = nil
	}
	s := w.last
	if len(s) > tailKeep {
		s = s[len(s)-tailKeep:]
	}
	return string(s)
}

// LockedWriter serializes writes to w, for a log shared by workers.
type LockedWriter struct {
	mu sync.Mutex
	W  io.Writer
}

func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.W.Write(p)
}

// start returns the first bytes written.
func (w *tailWriter) start() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.head)
}
