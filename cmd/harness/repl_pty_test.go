//go:build linux

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// termSession is harness repl on a pseudo-terminal.
type termSession struct {
	*uiProc
	t    *testing.T
	seen int // bytes of the screen already matched by expect
}

func (e *testEnv) startREPL(args ...string) *termSession {
	e.t.Helper()
	u := e.startUICommand(e.command(append([]string{"repl"}, args...)...))
	s := &termSession{uiProc: u, t: e.t}
	s.expect(">>> ")
	return s
}

// text is what harness wrote, escape sequences and carriage returns
// removed.
var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\r`)

func (s *termSession) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return escapes.ReplaceAllString(s.screen.String(), "")
}

// expect waits until want appears after what earlier calls matched.
func (s *termSession) expect(want string) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		text := s.text()
		if i := strings.Index(text[min(s.seen, len(text)):], want); i >= 0 {
			s.seen += i + len(want)
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%q never appeared; the terminal after the last match:\n%q", want, text[min(s.seen, len(text)):])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// typeLine types line and Enter.
func (s *termSession) typeLine(line string) { s.master.Write([]byte(line + "\r")) }

// until sends keys every 200 ms until want appears (a key sent before the
// program listens for it is lost).
func (s *termSession) until(keys, want string) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.master.Write([]byte(keys))
		for end := time.Now().Add(200 * time.Millisecond); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			text := s.text()
			if i := strings.Index(text[min(s.seen, len(text)):], want); i >= 0 {
				s.seen += i + len(want)
				return
			}
		}
		if time.Now().After(deadline) {
			text := s.text()
			s.t.Fatalf("%q never appeared after %q; the terminal after the last match:\n%q", want, keys, text[min(s.seen, len(text)):])
		}
	}
}

// TestREPLTerminal drives harness repl as a person does: blocks over
// several lines, a trailing expression, printed output, errors as the
// model reads them, Tab, Ctrl+C on an endless loop (the state stays),
// approvals answered y and n, :reload after a helper file changed, and
// Ctrl+D; the history is written.
func TestREPLTerminal(t *testing.T) {
	e := replEnv(t)
	e.helper("mine.star", "def hello():\n    \"\"\"Greet.\"\"\"\n    return 'v1'\n")
	s := e.startREPL()

	s.typeLine("x = 5")
	s.expect(">>> ")
	s.typeLine("def f(n):")
	s.expect("... ")
	s.typeLine("    for i in range(n):")
	s.expect("... ")
	s.typeLine("        print('line', i)")
	s.expect("... ")
	s.typeLine("    return n * x")
	s.expect("... ")
	s.typeLine("")
	s.expect(">>> ")
	s.typeLine("f(2)")
	s.expect("line 0\nline 1\n10\n>>> ")
	s.typeLine("[1,")
	s.expect("... ")
	s.typeLine(" 2]")
	s.expect("[1, 2]\n>>> ")
	s.typeLine("1/0")
	s.expect("Traceback (most recent call last):\n  repl:1:2: in <expr>\nZeroDivisionError: division by zero\n>>> ")
	s.typeLine("x = 6")
	s.expect(">>> ")

	s.master.Write([]byte("hell\t"))
	s.expect("hello")
	s.typeLine("()")
	s.expect("'v1'\n>>> ")

	s.typeLine("while True: pass")
	s.expect("... ")
	s.typeLine("")
	s.until("\x03", "cancelled: the call was stopped by the user (Esc)\n>>> ")
	s.typeLine("x")
	s.expect("6\n>>> ")

	s.typeLine(`run(["ls"])["exit_code"]`)
	s.expect(`Approve this operation? Press y to allow, n to deny.`)
	s.expect(`"operation":"run"`)
	s.master.Write([]byte("y"))
	s.expect("Allowed.\n0\n>>> ")
	s.typeLine(`run(["ls", "-a"])`)
	s.expect(`"arguments":["-a"]`)
	s.master.Write([]byte("n"))
	s.expect("Denied.\n")
	s.expect("PermissionError: the user refused to run ls")
	s.expect(">>> ")

	s.typeLine("state = 'kept'")
	s.expect(">>> ")
	e.helper("mine.star", "def hello():\n    \"\"\"Greet.\"\"\"\n    return 'v2'\n\ndef added():\n    return 'new'\n")
	s.typeLine(":reload")
	s.expect("Reloaded 4 helper files (5 public functions); variables are kept.")
	s.typeLine("hello(), added(), state")
	s.expect("('v2', 'new', 'kept')\n>>> ")

	s.typeLine(":help")
	s.expect(":reset")
	s.master.Write([]byte("\x04"))
	if code := s.exitCode(t); code != 0 {
		t.Errorf("exit %d after Ctrl+D", code)
	}
	hist, err := os.ReadFile(filepath.Join(e.home, "repl_history"))
	if err != nil || !strings.Contains(string(hist), "def f(n):\n    for i in range(n):\n") || !strings.Contains(string(hist), ":reload\n") {
		t.Errorf("history %q (%v)", hist, err)
	}

	// The history comes back: Up recalls the last line.
	s = e.startREPL()
	s.master.Write([]byte("\x1b[A"))
	s.expect(":help")
	s.master.Write([]byte("\x15x = 3\r")) // Ctrl+U clears the recalled line
	s.expect(">>> ")
	s.master.Write([]byte("\x04"))
	s.exitCode(t)
}

// TestREPLTerminalReset: :reset starts a fresh REPL, and Ctrl+C at the
// prompt drops the block being typed.
func TestREPLTerminalReset(t *testing.T) {
	e := replEnv(t)
	s := e.startREPL()
	s.typeLine("q = 1")
	s.expect(">>> ")
	s.typeLine("if q:")
	s.expect("... ")
	s.master.Write([]byte("\x03"))
	s.expect(">>> ")
	s.typeLine(":reset")
	s.expect("A fresh REPL")
	s.typeLine("q")
	s.expect("undefined: q")
	s.master.Write([]byte("\x04"))
	s.exitCode(t)
}

// TestREPLTerminalLoadReport: a helper file that fails to load is
// reported at the start, as the model's first result would begin.
func TestREPLTerminalLoadReport(t *testing.T) {
	e := replEnv(t)
	e.helper("bad.star", "def f():\n    return 1\nx = = 2\n")
	s := e.startUICommand(e.command("repl"))
	ts := &termSession{uiProc: s, t: t}
	ts.expect("Helper files that failed to load (left out of help(); fix them in $HARNESS_HOME/replib):\n  replib/bad.star: bad.star:3:5: got '=', want primary expression\n>>> ")
	s.master.Write([]byte("\x04"))
	s.exitCode(t)
}

// TestREPLTerminalTypeAhead: what is typed before the REPL reads it
// keeps its meaning: a pasted block runs line by line as typed, a Ctrl+C
// sent together with the Enter that starts a call stops that call, and
// keys typed during a call wait for the next prompt.
func TestREPLTerminalTypeAhead(t *testing.T) {
	e := replEnv(t)
	s := e.startREPL()
	s.master.Write([]byte("def g():\r    return 7\r\rg() * 6\r"))
	s.expect("42\n>>> ")
	s.master.Write([]byte("y = 1\rwhile True: pass\r\r\x03"))
	s.expect("cancelled: the call was stopped by the user (Esc)\n>>> ")
	s.typeLine("import time")
	s.expect(">>> ")
	s.master.Write([]byte("time.sleep(1)\ry + 1\r"))
	s.expect("2\n>>> ")
	s.master.Write([]byte("\x04"))
	s.exitCode(t)
}
