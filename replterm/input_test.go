package replterm

import (
	"bufio"
	"io"
	"sync/atomic"
	"testing"
	"time"
)

// newTestInput is an input over a pipe the test writes as the terminal.
func newTestInput(t *testing.T) (in *input, term *io.PipeWriter, editor *bufio.Reader, stops *atomic.Int32) {
	t.Helper()
	r, w := io.Pipe()
	stops = new(atomic.Int32)
	in, ed, err := newInput(r, func() { stops.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); ed.Close() })
	return in, w, bufio.NewReader(ed), stops
}

// readLine reads one line from the editor's side within a second.
func readLine(t *testing.T, ed *bufio.Reader) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		s, _ := ed.ReadString('\r')
		got <- s
	}()
	select {
	case s := <-got:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("the editor got no line")
		return ""
	}
}

func TestInputLines(t *testing.T) {
	in, term, ed, stops := newTestInput(t)
	term.Write([]byte("a = 1\rwhile 1: pass\r\r\x03b\r"))
	if got := readLine(t, ed); got != "a = 1\r" {
		t.Fatalf("first line %q", got)
	}
	in.calling() // a = 1 runs: the Ctrl+C after the next lines is not for it
	if stops.Load() != 0 {
		t.Fatal("a Ctrl+C typed after later lines stopped the call")
	}
	in.called()
	in.prompting()
	if got := readLine(t, ed); got != "while 1: pass\r" {
		t.Fatalf("second line %q", got)
	}
	in.prompting()
	if got := readLine(t, ed); got != "\r" {
		t.Fatalf("third line %q", got)
	}
	in.calling()
	if stops.Load() != 1 {
		t.Fatalf("the Ctrl+C typed after the Enter that started the call: %d stops", stops.Load())
	}
	term.Write([]byte("\x03"))
	waitFor(t, func() bool { return stops.Load() == 2 })
	term.Write([]byte("typed during the call\r"))
	in.called()
	in.prompting()
	if got := readLine(t, ed); got != "b\r" {
		t.Fatalf("after the call %q", got)
	}
	in.prompting()
	if got := readLine(t, ed); got != "typed during the call\r" {
		t.Fatalf("type-ahead %q", got)
	}
}

// TestInputHeldLine: a line the loop does not take (the editor read on
// after Enter) is followed by more input after lineWait.
func TestInputHeldLine(t *testing.T) {
	_, term, ed, _ := newTestInput(t)
	term.Write([]byte("x\ry\r"))
	readLine(t, ed)
	if got := readLine(t, ed); got != "y\r" {
		t.Fatalf("%q", got)
	}
}

func TestInputKeys(t *testing.T) {
	in, term, ed, _ := newTestInput(t)
	in.calling()
	term.Write([]byte("ahead\r"))
	waitFor(t, func() bool { // the reader has it before the question
		in.mu.Lock()
		defer in.mu.Unlock()
		return string(in.queue) == "ahead\r"
	})
	keys, release := in.takeKeys()
	term.Write([]byte("y"))
	select {
	case k := <-keys:
		if k != 'y' {
			t.Fatalf("key %q", k)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no key")
	}
	release()
	in.called()
	in.prompting()
	if got := readLine(t, ed); got != "ahead\r" {
		t.Fatalf("type-ahead %q: it must wait for the prompt, not answer", got)
	}
}

// TestInputEnd: the terminal's end reaches the editor after what it had.
func TestInputEnd(t *testing.T) {
	r, w := io.Pipe()
	_, ed, err := newInput(r, func() {})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("last"))
	w.Close()
	done := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(ed); done <- b }()
	select {
	case b := <-done:
		if string(b) != "last" {
			t.Fatalf("%q", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the editor's pipe was not closed")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}
