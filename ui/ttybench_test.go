package ui

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// discardTty is a terminal of 200×50 that keeps nothing of what is written
// to it but its length, and never has input: tcell's own screen drawing on
// it does all a real terminal's screen does (the diff against what it
// showed, the escape sequences of every changed cell), but the terminal's
// work.
type discardTty struct {
	written atomic.Int64
	once    sync.Once
	closed  chan struct{}
}

func newDiscardTty() *discardTty { return &discardTty{closed: make(chan struct{})} }

func (t *discardTty) Start() error { return nil }
func (t *discardTty) Stop() error  { return nil }
func (t *discardTty) Drain() error { return t.Close() } // wakes Read

func (t *discardTty) NotifyResize(func()) {}

func (t *discardTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 200, Height: 50}, nil
}

func (t *discardTty) Read([]byte) (int, error) {
	<-t.closed
	return 0, nil
}

func (t *discardTty) Write(p []byte) (int, error) {
	t.written.Add(int64(len(p)))
	return len(p), nil
}

func (t *discardTty) Close() error {
	t.once.Do(func() { close(t.closed) })
	return nil
}

// ttyScreen is tcell's terminal screen for tmux-256color on a discardTty.
func ttyScreen(b testing.TB) (tcell.Screen, *discardTty) {
	ti, err := terminfo.LookupTerminfo("tmux-256color")
	if err != nil {
		b.Skipf("no terminfo for tmux-256color: %v", err)
	}
	tty := newDiscardTty()
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		b.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(scr.Fini)
	return scr, tty
}

// BenchmarkStreamShapesTTY is BenchmarkStreamShapes with every frame
// shown on tcell's terminal screen (its diff and escape sequences, written
// to a terminal that discards them), as the App draws under tmux; it also
// reports the bytes written a frame.
func BenchmarkStreamShapesTTY(b *testing.B) {
	benchShapes(b, func(b *testing.B, sh streamShape) ([]time.Duration, int64) {
		a, _ := shapeApp(b)
		scr, tty := ttyScreen(b)
		cpu := playShapeOn(a, newFrameScreen(scr), sh)
		return cpu, tty.written.Load()
	})
}
