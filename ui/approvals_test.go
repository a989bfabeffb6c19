package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/rlm"
)

// approvalScript asks for one approval and shows the answer.
func approvalScript(got chan<- bool) func(context.Context, *fakeBackend, string) {
	return func(ctx context.Context, f *fakeBackend, prompt string) {
		root := rlm.Agent{Name: f.SessionName()}
		op := json.RawMessage(`{"operation":"run","executable":"/usr/bin/ls","arguments":["-l"],"working_directory":"/repository","sandbox":"none"}`)
		f.events.Emit(rlm.ApprovalRequested{Agent: root, ID: "c1", Operation: op})
		ok, err := f.ap.Approve(ctx, op)
		f.events.Emit(rlm.ApprovalAnswered{Agent: root, ID: "c1", Operation: op, Allowed: ok && err == nil})
		got <- ok
	}
}

func TestApprovalYesNo(t *testing.T) {
	for _, c := range []struct {
		key  rune
		want bool
		text string
	}{{'y', true, "Allowed: run  ls -l"}, {'n', false, "Refused: run  ls -l"}} {
		t.Run(string(c.key), func(t *testing.T) {
			got := make(chan bool, 1)
			u := startUI(t, 100, 12, &fakeBackend{script: approvalScript(got)}, nil)
			u.typeText("list")
			u.key(tcell.KeyEnter, 0, 0)
			u.waitText("run  ls -l  in /repository  (not sandboxed)")
			u.waitText("y once · a session · n refuse · t note")
			wantColour(t, u, "run  ls -l", testTheme.Approval)
			u.key(tcell.KeyRune, c.key, 0)
			select {
			case ok := <-got:
				if ok != c.want {
					t.Errorf("Approve = %v, want %v", ok, c.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no answer")
			}
			s := u.waitText(c.text)
			if strings.Contains(s, "y allow once") {
				t.Errorf("the prompt stayed after the answer:\n%s", s)
			}
			if strings.Contains(s, "> "+string(c.key)) {
				t.Errorf("the answer was typed into the input:\n%s", s)
			}
		})
	}
}

func TestApprovalDescription(t *testing.T) {
	cases := []struct {
		name   string
		result func(ctx context.Context) (string, error)
		want   string
	}{
		{"text", func(context.Context) (string, error) { return "Lists the files.", nil }, "Lists the files."},
		{"error", func(context.Context) (string, error) { return "", errors.New("connection refused") }, "Description unavailable: connection refused"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := make(chan bool, 1)
			release := make(chan struct{})
			cancelled := make(chan struct{}, 1)
			u := startUI(t, 100, 12, &fakeBackend{script: approvalScript(got)}, func(o *Options) {
				o.Describe = func(ctx context.Context, op json.RawMessage) (string, error) {
					select {
					case <-release:
						return c.result(ctx)
					case <-ctx.Done():
						cancelled <- struct{}{}
						return "", ctx.Err()
					}
				}
			})
			u.typeText("list")
			u.key(tcell.KeyEnter, 0, 0)
			u.waitText("Generating description…")
			close(release)
			u.waitText(c.want)
			u.key(tcell.KeyRune, 'y', 0)
			<-got
			s := u.waitText("Allowed:")
			if strings.Contains(s, c.want) {
				t.Errorf("the description stayed after the answer:\n%s", s)
			}
		})
	}
	t.Run("answer cancels", func(t *testing.T) {
		got := make(chan bool, 1)
		cancelled := make(chan struct{})
		u := startUI(t, 100, 12, &fakeBackend{script: approvalScript(got)}, func(o *Options) {
			o.Describe = func(ctx context.Context, op json.RawMessage) (string, error) {
				<-ctx.Done()
				close(cancelled)
				return "", ctx.Err()
			}
		})
		u.typeText("list")
		u.key(tcell.KeyEnter, 0, 0)
		u.waitText("Generating description…")
		u.key(tcell.KeyRune, 'n', 0)
		if <-got {
			t.Error("n allowed the operation")
		}
		select {
		case <-cancelled:
		case <-time.After(5 * time.Second):
			t.Fatal("answering did not cancel the description")
		}
		s := u.waitText("Refused:")
		if strings.Contains(s, "Generating") {
			t.Errorf("the description stayed:\n%s", s)
		}
	})
}

func TestEscWithPendingApproval(t *testing.T) {
	got := make(chan bool, 1)
	u := startUI(t, 100, 12, &fakeBackend{script: approvalScript(got)}, nil)
	u.typeText("list")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("y allow once")
	u.key(tcell.KeyEscape, 0, 0)
	if <-got {
		t.Error("Esc allowed the operation")
	}
	u.waitFor("the prompt to go", func(s string) bool { return !strings.Contains(s, "y allow once") })
}

// TestApprovalWhileTyping: an approval that appears while the person is
// writing a message never takes a letter of it as the answer; an empty
// input (or a pause in typing) makes y and n answer again.
func TestApprovalWhileTyping(t *testing.T) {
	got := make(chan bool, 1)
	u := startUI(t, 100, 12, &fakeBackend{script: approvalScript(got)}, nil)
	u.typeText("list")
	u.key(tcell.KeyEnter, 0, 0)
	u.waitText("y allow once · a allow ls -l for this session · n refuse · t refuse with a note · j show the JSON")
	u.typeText("list again") // not starting with an answer key: then it would answer
	s := u.waitText("> list again")
	if !strings.Contains(s, "y allow once") {
		t.Fatalf("the approval was answered by typing:\n%s", s)
	}
	select {
	case ok := <-got:
		t.Fatalf("typing answered the approval: %v", ok)
	default:
	}
	u.key(tcell.KeyCtrlU, 0, 0)
	u.key(tcell.KeyRune, 'y', 0)
	select {
	case ok := <-got:
		if !ok {
			t.Error("y after emptying the input denied")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("y on an empty input did not answer")
	}
	u.waitText("Allowed:")
}

// TestAnswerableAfterAPause: y and n answer again once typing has paused
// for typingGuard, even with text in the input.
func TestAnswerableAfterAPause(t *testing.T) {
	clk := newFakeClock()
	a := &App{clock: clk}
	if a.answerable() {
		t.Fatal("answerable with nothing pending")
	}
	a.pending = []*approvalReq{newApprovalReq(json.RawMessage(`{"operation":"run"}`))}
	if !a.answerable() {
		t.Fatal("not answerable with an empty input")
	}
	a.in.set("any")
	a.lastTyped = clk.Now()
	if a.answerable() {
		t.Fatal("answerable while typing")
	}
	clk.Advance(typingGuard - time.Millisecond)
	if a.answerable() {
		t.Fatal("answerable before the pause was long enough")
	}
	clk.Advance(time.Millisecond)
	if !a.answerable() {
		t.Fatal("not answerable after a pause")
	}
}
