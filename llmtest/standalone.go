// Serving scripted replies from a program of its own, and a long reply to
// stream.

package llmtest

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Serve runs a server outside a test, for the scripts under scripts/ that
// drive the built binary: respond answers every chat request (see
// Respond), the base URL and a newline are written to urlFile, and it
// serves until SIGTERM, SIGINT or SIGHUP, then closes the server. What a
// test would fail on is printed on stderr.
func Serve(urlFile string, respond func(Request) Reply) error {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(stop)
	return serveUntil(urlFile, respond, stop)
}

func serveUntil(urlFile string, respond func(Request) Reply, stop <-chan os.Signal) error {
	p := &program{}
	defer p.close()
	srv := New(p)
	srv.Respond(respond)
	if err := os.WriteFile(urlFile, []byte(srv.URL+"\n"), 0o644); err != nil {
		return err
	}
	<-stop
	return nil
}

// program is the TB of a server running outside a test.
type program struct{ cleanups []func() }

func (p *program) Cleanup(f func())                  { p.cleanups = append(p.cleanups, f) }
func (p *program) Errorf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

func (p *program) close() {
	for i := len(p.cleanups) - 1; i >= 0; i-- {
		p.cleanups[i]()
	}
}

// Prose is a long answer of n four-byte tokens ("the ", "and ", …): a
// sentence ends every 120 tokens and a blank line starts the next
// paragraph. The UI's benchmarks and scripts/uicost stream it.
func Prose(n int) []string {
	words := []string{"the ", "and ", "for ", "you ", "not ", "are ", "but ", "can ", "all ", "any ", "one ", "out "}
	out := make([]string, n)
	for i := range out {
		switch {
		case i%120 == 119:
			out[i] = "ok.\n"
		case i%120 == 0 && i > 0:
			out[i] = "\nSo "
		default:
			out[i] = words[i%len(words)]
		}
	}
	return out
}
