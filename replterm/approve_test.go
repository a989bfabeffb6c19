package replterm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/peterh/liner"
)

// testTerminal is a Terminal whose input is the returned pipe (as Run
// sets it up) and whose output goes to a file read by the returned func.
func testTerminal(t *testing.T, o Options) (*Terminal, *io.PipeWriter, func() string) {
	t.Helper()
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	o.Out = out
	term := New(o)
	r, w := io.Pipe()
	in, ed, err := newInput(r, term.interrupt)
	if err != nil {
		t.Fatal(err)
	}
	term.input = in
	t.Cleanup(func() { w.Close(); ed.Close(); out.Close() })
	return term, w, func() string { b, _ := os.ReadFile(out.Name()); return string(b) }
}

// approve runs Approve while key is typed once the question is out.
func approve(t *testing.T, term *Terminal, keys *io.PipeWriter, read func() string, ctx context.Context, key string) (bool, error) {
	t.Helper()
	type answer struct {
		ok  bool
		err error
	}
	got := make(chan answer, 1)
	op := json.RawMessage(`{"operation": "run", "executable": "/usr/bin/make", "arguments": ["test"]}`)
	go func() { ok, err := term.Approve(ctx, op); got <- answer{ok, err} }()
	waitFor(t, func() bool {
		return strings.Contains(read(), `{"operation":"run","executable":"/usr/bin/make","arguments":["test"]}`)
	})
	if key != "" {
		keys.Write([]byte(key))
	}
	select {
	case a := <-got:
		return a.ok, a.err
	case <-time.After(10 * time.Second):
		t.Fatal("Approve did not return")
		return false, nil
	}
}

func TestApprove(t *testing.T) {
	for _, tt := range []struct {
		keys string
		ok   bool
		says string
	}{
		{"xy", true, "Allowed.\n"},
		{"n", false, "Denied.\n"},
		{"N", false, "Denied.\n"},
	} {
		term, keys, read := testTerminal(t, Options{})
		ok, err := approve(t, term, keys, read, context.Background(), tt.keys)
		if ok != tt.ok || err != nil || !strings.HasPrefix(read(), approvalQuestion+"\n") || !strings.HasSuffix(read(), tt.says) {
			t.Errorf("keys %q: %v, %v\n%s", tt.keys, ok, err, read())
		}
	}
}

// TestApproveStop: Ctrl+C at the question (the call's context ends)
// denies it.
func TestApproveStop(t *testing.T) {
	term, keys, read := testTerminal(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		waitFor(t, func() bool { return strings.Contains(read(), approvalQuestion) })
		cancel()
	}()
	ok, err := approve(t, term, keys, read, ctx, "")
	if ok || !errors.Is(err, context.Canceled) || !strings.HasSuffix(read(), "Denied: the call was stopped.\n") {
		t.Errorf("%v, %v\n%s", ok, err, read())
	}
}

// TestApproveDescription: with [approval_description] the description
// appears under the question, in place of "Generating description…".
func TestApproveDescription(t *testing.T) {
	described := make(chan struct{})
	term, keys, read := testTerminal(t, Options{Describe: func(context.Context, json.RawMessage) (string, error) {
		defer close(described)
		return "  Runs the tests.  ", nil
	}})
	go func() {
		<-described
		waitFor(t, func() bool { return strings.Contains(read(), "Runs the tests.\n") })
		keys.Write([]byte("y"))
	}()
	ok, _ := approve(t, term, keys, read, context.Background(), "")
	if want := describing + clearLine + "Runs the tests.\nAllowed.\n"; !ok || !strings.HasSuffix(read(), want) {
		t.Errorf("%v\n%q", ok, read())
	}
	term, keys, read = testTerminal(t, Options{Describe: func(ctx context.Context, _ json.RawMessage) (string, error) {
		<-ctx.Done() // answered first: the description is given up
		return "", ctx.Err()
	}})
	ok, _ = approve(t, term, keys, read, context.Background(), "n")
	if want := describing + clearLine + "Denied.\n"; ok || !strings.HasSuffix(read(), want) {
		t.Errorf("%v\n%q", ok, read())
	}
}

// TestHistoryCapped: the history file keeps the last liner.HistoryLimit
// lines.
func TestHistoryCapped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "repl_history")
	term := New(Options{HistoryPath: p})
	ln := liner.NewLiner()
	defer ln.Close()
	for i := 0; i < liner.HistoryLimit+50; i++ {
		ln.AppendHistory("line " + strconv.Itoa(i))
	}
	term.writeHistory(ln)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != liner.HistoryLimit || !strings.HasSuffix(lines[len(lines)-1], " "+strconv.Itoa(liner.HistoryLimit+49)) {
		t.Errorf("%d lines, the last %q", len(lines), lines[len(lines)-1])
	}
}
