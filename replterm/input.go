// The terminal's input, read by one goroutine and handed on: to the line
// editor a line at a time, to an approval's question, and, while a call
// runs, Ctrl+C to stopping it.

package replterm

import (
	"io"
	"os"
	"sync"
	"time"
)

// Where input goes.
const (
	toEditor = iota // to the line editor: at the prompt, and what waits for it
	toCall          // Ctrl+C stops the call; the rest waits for the editor
	toKeys          // an approval reads the keys typed from now on
)

const ctrlC = 3

// lineWait is how long a line handed to the editor waits for the prompt
// loop to take it before more input follows: the editor sometimes reads
// on after Enter (answering "Display all N possibilities?").
const lineWait = 250 * time.Millisecond

// input reads the terminal and hands its bytes on. The line editor reads
// the other end of a pipe in place of os.Stdin (it still sets the modes
// of the real terminal), and gets one line at a time: what follows an
// Enter waits until the loop has taken the line. So a Ctrl+C typed right
// after Enter, while the editor still had the terminal's signals off,
// stops the call the line starts instead of clearing the next prompt, and
// what is typed or pasted during a call is kept for the prompts after it.
type input struct {
	editor *os.File // the write end of the editor's pipe
	onStop func()   // Ctrl+C while a call runs

	mu     sync.Mutex
	wake   *sync.Cond
	queue  []byte    // read, not handed on yet
	dest   int       // where new input goes
	held   bool      // a line went to the editor and the loop has not taken it
	heldAt time.Time // when it went
	keys   chan byte // toKeys
	ended  bool      // the terminal gave its last byte
}

// newInput starts reading real; the returned file is what the line
// editor must read.
func newInput(real io.Reader, onStop func()) (*input, *os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	in := &input{editor: w, onStop: onStop}
	in.wake = sync.NewCond(&in.mu)
	go in.read(real)
	go in.feed()
	return in, r, nil
}

// read takes what the terminal gives until it ends.
func (in *input) read(real io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := real.Read(buf)
		stops := 0
		in.mu.Lock()
		for _, b := range buf[:n] {
			switch {
			case in.dest == toKeys:
				select {
				case in.keys <- b:
				default: // faster than the question reads them
				}
			case in.dest == toCall && b == ctrlC:
				stops++
			default:
				in.queue = append(in.queue, b)
			}
		}
		if err != nil {
			in.ended = true
		}
		in.wake.Broadcast()
		in.mu.Unlock()
		if stops > 0 {
			in.onStop()
		}
		if err != nil {
			return
		}
	}
}

// feed writes the queue to the editor's pipe while input goes to the
// editor, stopping after each line end until the loop takes the line (or
// lineWait passes); at the terminal's end it closes the pipe.
func (in *input) feed() {
	in.mu.Lock()
	defer in.mu.Unlock()
	for {
		for in.dest != toEditor || in.held && time.Since(in.heldAt) < lineWait || len(in.queue) == 0 {
			if in.ended && len(in.queue) == 0 {
				in.editor.Close()
				return
			}
			in.wake.Wait()
		}
		in.held = false
		n := len(in.queue)
		for i, b := range in.queue {
			if b == '\r' || b == '\n' {
				n, in.held, in.heldAt = i+1, true, time.Now()
				time.AfterFunc(lineWait, in.broadcast)
				break
			}
		}
		out := append([]byte(nil), in.queue[:n]...)
		in.queue = in.queue[n:]
		in.mu.Unlock()
		in.editor.Write(out)
		in.mu.Lock()
	}
}

func (in *input) broadcast() {
	in.mu.Lock()
	in.wake.Broadcast()
	in.mu.Unlock()
}

// prompting says the loop took the editor's line and is about to ask
// for the next one.
func (in *input) prompting() {
	in.mu.Lock()
	in.dest, in.held = toEditor, false
	in.wake.Broadcast()
	in.mu.Unlock()
}

// calling says a call starts: a Ctrl+C waiting before any other line
// (typed after the Enter that started the call) stops it, and one typed
// later does too.
func (in *input) calling() {
	in.mu.Lock()
	in.dest, in.held = toCall, false
	kept, stops := in.queue[:0], 0
	for i, b := range in.queue {
		if b == '\r' || b == '\n' {
			kept = append(kept, in.queue[i:]...)
			break
		}
		if b == ctrlC {
			stops++
		} else {
			kept = append(kept, b)
		}
	}
	in.queue = kept
	in.mu.Unlock()
	if stops > 0 {
		in.onStop()
	}
}

// called says the call ended: input waits for the next prompt.
func (in *input) called() {
	in.mu.Lock()
	in.dest = toEditor
	in.held = true
	in.heldAt = time.Now().Add(time.Hour) // until prompting
	in.mu.Unlock()
}

// takeKeys sends the keys typed from now on to the returned channel until
// release is called; input then goes where it went before.
func (in *input) takeKeys() (keys <-chan byte, release func()) {
	ch := make(chan byte, 16)
	in.mu.Lock()
	before := in.dest
	in.dest, in.keys = toKeys, ch
	in.mu.Unlock()
	return ch, func() {
		in.mu.Lock()
		in.dest, in.keys = before, nil
		in.wake.Broadcast()
		in.mu.Unlock()
	}
}
