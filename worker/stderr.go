// A worker's stderr: forwarded to the log line by line, its tail kept.

package worker

import (
	"bytes"
	"io"
	"sync"
)

// tailKeep is how much of a worker's stderr is kept for its exit report.
const tailKeep = 16 << 10

// tailWriter copies complete lines to log with a prefix and keeps the
// last tailKeep bytes.
type tailWriter struct {
	mu      sync.Mutex
	log     io.Writer
	prefix  string
	partial []byte
	last    []byte
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
	w.last = append(w.last, p...)
	if len(w.last) > 2*tailKeep {
		w.last = append(w.last[:0], w.last[len(w.last)-tailKeep:]...)
	}
	if w.log == nil {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.log.Write(append([]byte(w.prefix), w.partial[:i+1]...))
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > tailKeep { // a very long line: flush it as it is
		w.log.Write(append(append([]byte(w.prefix), w.partial...), '\n'))
		w.partial = nil
	}
	return len(p), nil
}

// tail returns the last bytes written, flushing a final partial line.
func (w *tailWriter) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 && w.log != nil {
		w.log.Write(append(append([]byte(w.prefix), w.partial...), '\n'))
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
