// Tests of a session's prompts: one at a time, and never run once
// cancelled.

package acp

import (
	"context"
	"sync/atomic"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"harness/config"
	"harness/rlm"
	"harness/sessions"
)

// countingRunner counts its turns, which emit nothing.
type countingRunner struct{ turns atomic.Int32 }

func (r *countingRunner) Turn(context.Context, string) (rlm.Result, error) {
	r.turns.Add(1)
	return rlm.Result{Status: rlm.Done}, nil
}

func (r *countingRunner) Conversation() []sessions.Item { return nil }

// TestPromptCancelledBeforeItRuns: a prompt whose context is cancelled by
// the time the turn is free (the editor cancelled it while another ran)
// answers cancelled without running, even when the free turn and the
// cancellation are ready at once.
func TestPromptCancelledBeforeItRuns(t *testing.T) {
	st := sessions.Store{Dir: t.TempDir()}
	sess := st.New(nil)
	s := newSession(nil, func(string, ...any) {}, &config.Config{}, sess, roots{repository: t.TempDir()})
	r := &countingRunner{}
	s.agent = Agent{Runner: r}
	go s.pump()
	defer s.stream.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := 0; i < 50; i++ {
		resp, err := s.prompt(ctx, "hi")
		if err != nil || resp.StopReason != sdk.StopReasonCancelled {
			t.Fatalf("prompt %d: %+v, %v", i, resp, err)
		}
	}
	if n := r.turns.Load(); n != 0 {
		t.Errorf("%d cancelled prompts ran", n)
	}
}
