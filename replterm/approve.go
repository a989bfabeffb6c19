// Approvals asked at the terminal: the operation as the UI shows it, its
// description when [approval_description] is on, and one key.

package replterm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Texts of the approval prompt; the first is the UI's sentence.
const (
	approvalQuestion = "Approve this operation? Press y to allow, n to deny."
	describing       = "Generating description…"
	descUnavailable  = "Description unavailable: "
	clearLine        = "\r\x1b[K"
)

// Approve asks the person about a host operation (repl.Approver): y
// allows, n denies, Ctrl+C denies and stops the running call. A refusal
// is (false, nil), as in the UI.
func (t *Terminal) Approve(ctx context.Context, op json.RawMessage) (bool, error) {
	t.asking.Lock()
	defer t.asking.Unlock()
	read, done, err := t.answers() // before the question: what was typed ahead never answers it
	if err != nil {
		return false, fmt.Errorf("denied: the terminal cannot be read for an answer: %v", err)
	}
	defer done()
	t.mu.Lock()
	t.freshLineLocked()
	t.writeLocked(approvalQuestion + "\n" + compactJSON(op) + "\n")
	t.mu.Unlock()
	stopDesc := t.describe(ctx, op)
	key, err := read(ctx, "yYnN\x03")
	stopDesc()
	switch {
	case err != nil && ctx.Err() != nil:
		t.write("Denied: the call was stopped.\n")
		return false, err
	case err != nil:
		t.write("Denied: " + err.Error() + "\n")
		return false, err
	case key == 'y' || key == 'Y':
		t.write("Allowed.\n")
		return true, nil
	case key == 3:
		t.write("Denied; stopping the call (Ctrl+C).\n")
		t.interrupt()
		return false, nil
	}
	t.write("Denied.\n")
	return false, nil
}

// answers returns where an approval's answer is read: from Run's input,
// or from the terminal In itself (a run without the prompt loop).
func (t *Terminal) answers() (read func(ctx context.Context, want string) (byte, error), done func(), err error) {
	if t.input == nil {
		k, err := openKeys(t.opts.In)
		if err != nil {
			return nil, nil, err
		}
		return k.read, k.close, nil
	}
	keys, release := t.input.takeKeys()
	return func(ctx context.Context, want string) (byte, error) {
		for {
			select {
			case b := <-keys:
				if strings.IndexByte(want, b) >= 0 {
					return b, nil
				}
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		}
	}, release, nil
}

// describe shows "Generating description…" and, in its place, the
// description once it comes, until the returned function is called
// (the question was answered), which removes an unfinished line.
func (t *Terminal) describe(ctx context.Context, op json.RawMessage) (stop func()) {
	if t.opts.Describe == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var mu = &t.mu
	open := true // the "Generating" line is on the screen; guarded by mu
	mu.Lock()
	t.writeLocked(describing)
	mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		text, err := t.opts.Describe(ctx, op)
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil || !open {
			return
		}
		if err != nil {
			text = descUnavailable + err.Error()
		}
		t.writeLocked(clearLine + strings.TrimSpace(text) + "\n")
		open = false
	}()
	return func() {
		cancel()
		mu.Lock()
		if open {
			t.writeLocked(clearLine)
			t.lastByte = '\n'
			open = false
		}
		mu.Unlock()
		<-done
	}
}

func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
