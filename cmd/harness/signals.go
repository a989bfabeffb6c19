// Signals: SIGINT, SIGHUP and SIGTERM stop every agent like Esc, then
// harness saves and exits with 128 + the signal's number.

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// stopSignals stop a run: SIGINT (Ctrl+C headless; in the UI Ctrl+C is a
// key, so only kill -INT sends it), SIGHUP (the terminal was closed) and
// SIGTERM.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGHUP, syscall.SIGTERM}

// signalCode is the exit code of a run stopped by sig: 128 + its number
// (SIGHUP 129, SIGINT 130, SIGTERM 143), as a shell reports a process the
// signal killed.
func signalCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitInterrupted
}

// caught remembers the first stop signal of a run.
type caught struct {
	mu   sync.Mutex
	sig  os.Signal
	once sync.Once
	got  chan struct{} // closed at the first signal
}

func newCaught() *caught { return &caught{got: make(chan struct{})} }

func (c *caught) set(sig os.Signal) {
	c.mu.Lock()
	if c.sig == nil {
		c.sig = sig
	}
	c.mu.Unlock()
	c.once.Do(func() { close(c.got) })
}

// within reports whether a stop signal arrives within d (or came already).
func (c *caught) within(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.got:
		return true
	case <-t.C:
		return false
	}
}

// code returns the run's exit code: 129 or 143 after SIGHUP or SIGTERM
// (the run stopped because of it), else code (after SIGINT the turn
// reports 130 itself when it was stopped).
func (c *caught) code(code int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sig == nil || c.sig == os.Interrupt {
		return code
	}
	return signalCode(c.sig)
}

// exit is the exit code of a UI run: 128 + the signal's number after a
// stop signal, else exitOK.
func (c *caught) exit() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sig == nil {
		return exitOK
	}
	return signalCode(c.sig)
}

func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGHUP:
		return "SIGHUP (the terminal was closed)"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return "SIGINT"
}

// interruptible cancels ctx on the first stop signal, which stops the turn
// like Esc; a second one exits at once.
func interruptible(ctx context.Context, stderr io.Writer) (context.Context, *caught, func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, stopSignals...)
	ctx, c, stop := onSignals(ctx, ch, stderr, os.Exit)
	return ctx, c, func() { signal.Stop(ch); stop() }
}

// onSignals cancels the returned context at the first value on ch and
// calls exit with the second one's code, until stop is called.
func onSignals(ctx context.Context, ch <-chan os.Signal, stderr io.Writer, exit func(int)) (context.Context, *caught, func()) {
	ctx, cancel := context.WithCancel(ctx)
	c := newCaught()
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			c.set(sig)
			fmt.Fprintf(stderr, "harness: %s: stopping every agent and saving the session (a second signal exits at once)\n", signalName(sig))
			cancel()
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			fmt.Fprintln(stderr, "harness: interrupted twice; exiting without waiting")
			exit(signalCode(sig))
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, c, func() { once.Do(func() { close(done); cancel() }) }
}

// quitOnSignal returns a channel closed on the first stop signal, so the
// UI stops its turn, saves and restores the terminal instead of dying in
// raw mode, and the signal caught.
func quitOnSignal() (<-chan struct{}, *caught, func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	c := newCaught()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, stopSignals...)
	go func() {
		select {
		case s := <-sig:
			c.set(s)
			close(quit)
		case <-done:
		}
	}()
	return quit, c, func() { signal.Stop(sig); close(done) }
}
