package rlm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"harness/approval"
	"harness/config"
	"harness/jail"
	"harness/llm"
	"harness/llmtest"
	"harness/patch"
	"harness/sessions"
)

// recordingApprover answers every operation with its answer and keeps them.
type recordingApprover struct {
	mu     sync.Mutex
	ops    []approval.Op
	answer func(op approval.Op) (bool, error)
}

func (a *recordingApprover) Approve(_ context.Context, raw json.RawMessage) (bool, error) {
	op := approval.Parse(raw)
	a.mu.Lock()
	a.ops = append(a.ops, op)
	a.mu.Unlock()
	return a.answer(op)
}

// TestPatchAskedAtReadOnly: with AskWrites, a patch to the repository that
// read-only refuses is put to the Approver as a write of its paths; yes
// applies it that once (the level stays read-only), no and a note refuse
// it with what the model reads; without AskWrites (headless, editors) it
// is refused without asking, as before.
func TestPatchAskedAtReadOnly(t *testing.T) {
	text := "*** Begin Patch\n*** Update File: median.go\n@@\n-return 2\n+return 2.5\n*** Add File: notes.md\n+ok\n*** End Patch\n"
	for _, c := range []struct {
		name    string
		ask     bool
		answer  func(approval.Op) (bool, error)
		asked   int
		applied bool
		result  string
	}{
		{"yes", true, func(approval.Op) (bool, error) { return true, nil }, 1, true, "M median.go"},
		{"no", true, func(approval.Op) (bool, error) { return false, nil }, 1, false,
			"apply_patch cannot write here: the person refused the change at permission read-only; do not try it again another way"},
		{"note", true, func(approval.Op) (bool, error) { return false, &approval.Refusal{Note: "only the tests"} }, 1, false,
			"the person refused the change at permission read-only and wrote: only the tests"},
		{"headless", false, func(approval.Op) (bool, error) { return true, nil }, 0, false,
			"apply_patch cannot write here: the repository is not writable at permission read-only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t,
				llmtest.Call("rlm", `{"task":"fix it","name":"fixer"}`),
				llmtest.Call("apply_patch", mustJSON(map[string]string{"patch": text})),
				llmtest.Text("done"), llmtest.Text("done"))
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "median.go"), []byte("return 2\n"), 0o644)
			repo, err := jail.Open(jail.Repository, dir, func() config.Permission { return config.PermReadOnly })
			if err != nil {
				t.Fatal(err)
			}
			ap := &recordingApprover{answer: c.answer}
			r.opts.Repository, r.opts.Approver, r.opts.AskWrites = repo, ap, c.ask
			r.opts.Files.ApplyPatch = patch.Apply
			if _, err := r.turn(context.Background(), "fix the bug", nil); err != nil {
				t.Fatal(err)
			}
			if len(ap.ops) != c.asked {
				t.Fatalf("asked %d times, want %d: %+v", len(ap.ops), c.asked, ap.ops)
			}
			if c.asked > 0 {
				op := ap.ops[0]
				if op.Kind != approval.Write || op.Tool != "apply_patch" || strings.Join(op.Paths, " ") != "median.go notes.md" || op.Permission != "read-only" {
					t.Errorf("asked about %+v", op)
				}
			}
			got, _ := os.ReadFile(filepath.Join(dir, "median.go"))
			if applied := string(got) == "return 2.5\n"; applied != c.applied {
				t.Errorf("median.go = %q", got)
			}
			if repo.Level() != config.PermReadOnly {
				t.Error("the level changed")
			}
			res := lastMessage(r.chat(2).Messages).Content
			if !strings.Contains(res, c.result) {
				t.Errorf("the model read %q, want %q in it", res, c.result)
			}
			if ans := eventsOf[ApprovalAnswered](r); len(ans) != c.asked {
				t.Errorf("%d ApprovalAnswered events", len(ans))
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func lastMessage(ms []llm.Message) llm.Message { return ms[len(ms)-1] }

// TestFYICountsTheVisibleTurns: FYI's count is the visible conversation's
// (the one the UI shows), not the endpoint's last reported usage, so a
// hidden turn leaves it at once.
func TestFYICountsTheVisibleTurns(t *testing.T) {
	big := strings.Repeat("many words here ", 200)
	r := newRig(t, llmtest.Reply{Content: big, Usage: &llm.Usage{PromptTokens: 90000, TotalTokens: 95000}}, llmtest.Text("two"))
	if _, err := r.turn(context.Background(), "first", nil); err != nil {
		t.Fatal(err)
	}
	conv := r.file(0, "")
	conv.Items = sessions.SetHidden(conv.Items, 0, true)
	if _, err := r.turn(context.Background(), "second", conv); err != nil {
		t.Fatal(err)
	}
	fyi := r.chat(1).Messages
	text := lastMessage(fyi).Content
	visible := sessions.Visible(r.file(0, "").Items)
	want := llm.EstimateTurn(visible[:2]).Tokens // as FYI ran: the user message and its call
	if strings.Contains(text, "90000") || !strings.Contains(text, "Prompt tokens: ~"+strconv.Itoa(want)+"\n") {
		t.Errorf("FYI said %q, want ~%d (the second turn only)", text, want)
	}
}
