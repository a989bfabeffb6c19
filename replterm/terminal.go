// The terminal: the prompt loop, the workbench commands, output as it is
// printed, and the history.

package replterm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/peterh/liner"

	"harness/atomicfile"
	"harness/repl"
)

// REPL is the interpreter the terminal drives (*repl.REPL).
type REPL interface {
	Run(ctx context.Context, code string) (out string, failed bool)
	Names(ctx context.Context) ([]string, error)
	Reload(ctx context.Context) (repl.HelperReport, error)
	Close()
}

// Options configure a Terminal.
type Options struct {
	// New builds a fresh REPL whose Output is Terminal.Output and whose
	// Approver is the Terminal: at the start and on :reset.
	New func() (REPL, error)
	// HistoryPath is the history file; "" keeps none.
	HistoryPath string
	// Banner is printed once before the first prompt.
	Banner string
	// Describe, when set, explains an operation awaiting approval
	// ([approval_description]).
	Describe func(ctx context.Context, op json.RawMessage) (string, error)
	// In and Out are the terminal (default os.Stdin and os.Stdout; the
	// line editor always uses those).
	In, Out *os.File
}

// Terminal is the person at the terminal for one harness repl.
type Terminal struct {
	opts  Options
	r     REPL
	input *input // the terminal's input while Run runs; nil otherwise

	mu       sync.Mutex
	lastByte byte               // the last byte written, 0 before any
	streamed strings.Builder    // what the running call printed
	cancel   context.CancelFunc // stops the running call; nil between calls
	pending  []string           // notices held until the next prompt

	asking sync.Mutex // one approval at a time
}

// New returns a Terminal; Run starts it.
func New(o Options) *Terminal {
	if o.In == nil {
		o.In = os.Stdin
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	return &Terminal{opts: o}
}

// Output shows text a call printed, as it is printed (repl.Options.Output).
func (t *Terminal) Output(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.streamed.WriteString(text)
	t.writeLocked(text)
}

// Notice shows a line that is not part of any result (an MCP server's
// progress or failure): at once while a call runs, else before the next
// prompt, so the line being edited is not broken.
func (t *Terminal) Notice(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancel == nil {
		t.pending = append(t.pending, line)
		return
	}
	t.freshLineLocked()
	t.writeLocked(strings.TrimRight(line, "\n") + "\n")
}

func (t *Terminal) write(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writeLocked(text)
}

func (t *Terminal) writeLocked(text string) {
	if text == "" {
		return
	}
	io.WriteString(t.opts.Out, text)
	t.lastByte = text[len(text)-1]
}

// freshLineLocked ends a line left open by printed output.
func (t *Terminal) freshLineLocked() {
	if t.lastByte != 0 && t.lastByte != '\n' {
		t.writeLocked("\n")
	}
}

// Run runs the prompt loop until Ctrl+D and returns the exit code: 0, or
// 1 when the REPL could not start or the terminal failed.
func (t *Terminal) Run() int {
	in, editor, err := newInput(t.opts.In, t.interrupt)
	if err != nil {
		t.write("harness repl: " + err.Error() + "\n")
		return 1
	}
	t.input = in
	stdin := os.Stdin
	os.Stdin = editor // what liner reads; it sets the modes of descriptor 0
	defer func() { os.Stdin = stdin }()
	ln := liner.NewLiner()
	defer ln.Close()
	ln.SetCtrlCAborts(true)
	ln.SetTabCompletionStyle(liner.TabPrints)
	ln.SetWordCompleter(t.complete)
	t.readHistory(ln)
	stop := t.catchInterrupts()
	defer stop()
	t.write(t.opts.Banner)
	if err := t.start(); err != nil {
		t.write("harness repl: " + err.Error() + "\n")
		return 1
	}
	defer func() { t.r.Close() }()
	var block []string
	for {
		t.flushNotices()
		prompt := ">>> "
		if len(block) > 0 {
			prompt = "... "
		}
		t.input.prompting()
		line, err := ln.Prompt(prompt)
		t.mu.Lock()
		t.lastByte = '\n'
		t.mu.Unlock()
		switch {
		case errors.Is(err, liner.ErrPromptAborted):
			block = nil
			continue
		case errors.Is(err, io.EOF):
			t.write("\n")
			return 0
		case err != nil:
			t.write("harness repl: the terminal: " + err.Error() + "\n")
			return 1
		}
		if strings.TrimSpace(line) != "" {
			ln.AppendHistory(line)
			t.writeHistory(ln)
		}
		if len(block) == 0 && strings.HasPrefix(strings.TrimSpace(line), ":") {
			if !t.command(strings.TrimSpace(line)) {
				return 1
			}
			continue
		}
		block = append(block, line)
		src := strings.Join(block, "\n")
		if repl.Incomplete(src) {
			continue
		}
		block = nil
		if strings.TrimSpace(src) != "" {
			t.exec(src)
		}
	}
}

// catchInterrupts turns SIGINT (Ctrl+C while a call runs: the line editor
// reads it as a key at the prompt) into stopping the call.
func (t *Terminal) catchInterrupts() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				t.interrupt()
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// Running says a call runs that cancel stops (Ctrl+C, at the terminal
// or at an approval), until the returned function is called. What the
// call prints from now on is compared with its result.
func (t *Terminal) Running(cancel context.CancelFunc) (ended func()) {
	t.mu.Lock()
	t.cancel = cancel
	t.streamed.Reset()
	t.mu.Unlock()
	if t.input != nil {
		t.input.calling()
	}
	return func() {
		if t.input != nil {
			t.input.called()
		}
		t.mu.Lock()
		t.cancel = nil
		t.mu.Unlock()
	}
}

// interrupt stops the running call, if any.
func (t *Terminal) interrupt() {
	t.mu.Lock()
	cancel := t.cancel
	t.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// start builds a REPL and shows what its first result would begin with:
// the helper files that failed to load, as the model is told.
func (t *Terminal) start() error {
	r, err := t.opts.New()
	if err != nil {
		return err
	}
	t.r = r
	t.exec("")
	return nil
}

// exec runs one chunk and shows what of its result the output did not.
func (t *Terminal) exec(code string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := t.Running(cancel)
	out, _ := t.r.Run(ctx, code)
	ended()
	t.mu.Lock()
	defer t.mu.Unlock()
	rest, fresh := Remainder(out, t.streamed.String())
	if fresh {
		t.freshLineLocked()
	}
	t.writeLocked(rest)
	t.freshLineLocked()
}

// flushNotices shows the notices held back while the prompt was open.
func (t *Terminal) flushNotices() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range t.pending {
		t.freshLineLocked()
		t.writeLocked(strings.TrimRight(n, "\n") + "\n")
	}
	t.pending = nil
}

// commandHelp is what :help shows.
const commandHelp = `:reload  load the helper files of $HARNESS_HOME/replib again; variables are kept
:reset   start a fresh REPL: every variable is gone, the helpers are loaded again
:help    this list
help()   the REPL's own manual, as a subagent reads it
Ctrl+C stops a running call (or clears the line), Ctrl+D exits, Tab completes names.
`

// command runs a workbench command typed at the ">>> " prompt; false
// when the REPL is gone (a fresh one could not start).
func (t *Terminal) command(cmd string) bool {
	switch cmd {
	case ":help":
		t.write(commandHelp)
	case ":reload":
		t.reload()
	case ":reset":
		t.r.Close()
		if err := t.start(); err != nil {
			t.r = closedREPL{}
			t.write("harness repl: " + err.Error() + "\n")
			return false
		}
		t.write("A fresh REPL: every variable is gone and the helpers were loaded again.\n")
	default:
		t.write(fmt.Sprintf("unknown command %s; :help lists the commands\n", cmd))
	}
	return true
}

// closedREPL stands for a REPL that could not be started again.
type closedREPL struct{}

func (closedREPL) Run(context.Context, string) (string, bool)        { return "", true }
func (closedREPL) Names(context.Context) ([]string, error)           { return nil, nil }
func (closedREPL) Reload(context.Context) (repl.HelperReport, error) { return repl.HelperReport{}, nil }
func (closedREPL) Close()                                            {}

// reload loads the helper files again and says how that went.
func (t *Terminal) reload() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ended := t.Running(cancel)
	rep, err := t.r.Reload(ctx)
	ended()
	if err != nil {
		t.write(strings.TrimRight(err.Error(), "\n") + "\n")
		return
	}
	t.write(ReloadSummary(rep))
}

// ReloadSummary is what :reload shows: the load report as the model
// would get it, when a file failed, then the files and functions loaded.
func ReloadSummary(rep repl.HelperReport) string {
	var sb strings.Builder
	if rep.Report != "" {
		sb.WriteString(strings.TrimRight(rep.Report, "\n") + "\n")
	}
	var loaded []string
	funcs := 0
	for _, f := range rep.Files {
		if f.Error != "" {
			continue
		}
		loaded = append(loaded, f.File)
		for _, fn := range f.Functions {
			if fn.Public {
				funcs++
			}
		}
	}
	files := "files"
	if len(loaded) == 1 {
		files = "file"
	}
	fmt.Fprintf(&sb, "Reloaded %d helper %s (%d public functions); variables are kept.", len(loaded), files, funcs)
	if len(loaded) > 0 {
		sb.WriteString(" " + strings.Join(loaded, ", "))
	}
	return sb.String() + "\n"
}

// complete is the line editor's completer.
func (t *Terminal) complete(line string, pos int) (string, []string, string) {
	runes := []rune(line)
	pos = min(max(pos, 0), len(runes))
	before, after := string(runes[:pos]), string(runes[pos:])
	names := func() []string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		n, err := t.r.Names(ctx)
		if err != nil {
			t.mu.Lock()
			t.pending = append(t.pending, strings.TrimRight(err.Error(), "\n"))
			t.mu.Unlock()
		}
		return n
	}
	head, list := Complete(before, names, repl.ModuleNames())
	return head, list, after
}

// readHistory loads the history file, if any.
func (t *Terminal) readHistory(ln *liner.State) {
	if t.opts.HistoryPath == "" {
		return
	}
	f, err := os.Open(t.opts.HistoryPath)
	if err != nil {
		return
	}
	defer f.Close()
	ln.ReadHistory(f)
}

// writeHistory replaces the history file with the history as it is now
// (at most liner.HistoryLimit lines), so a killed harness loses nothing.
func (t *Terminal) writeHistory(ln *liner.State) {
	if t.opts.HistoryPath == "" {
		return
	}
	err := atomicfile.Write(t.opts.HistoryPath, 0o600, func(w io.Writer) error {
		_, err := ln.WriteHistory(w)
		return err
	})
	if err != nil {
		t.mu.Lock()
		t.pending = append(t.pending, "harness repl: the history was not saved: "+err.Error())
		t.mu.Unlock()
	}
}
