// Tests of a session's prompts: one at a time, and never run once
// cancelled.

package acp

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"harness/config"
	"harness/rlm"
	"harness/sessions"
)

// countingRunner counts its turns, which emit nothing, and those run on a
// live context.
type countingRunner struct {
	turns, live atomic.Int32
	ran         chan struct{}
}

func (r *countingRunner) Turn(ctx context.Context, _ string) (rlm.Result, error) {
	r.turns.Add(1)
	if ctx.Err() == nil {
		r.live.Add(1)
	}
	r.ran <- struct{}{}
	return rlm.Result{Status: rlm.Stopped}, nil
}

func (r *countingRunner) Conversation() []sessions.Item { return nil }

// TestPromptCancelledBeforeItRuns: a prompt whose context is cancelled by
// the time the turn is free (the editor cancelled it while another ran)
// answers cancelled and never runs on a live context, even when the free
// turn and the cancellation are ready at once; each is still handed to
// the runner on its cancelled context, which saves it as stopped.
func TestPromptCancelledBeforeItRuns(t *testing.T) {
	st := sessions.Store{Dir: t.TempDir()}
	sess := st.New(nil)
	s := newSession(nil, func(string, ...any) {}, &config.Config{}, sess, roots{repository: t.TempDir()})
	r := &countingRunner{ran: make(chan struct{}, 64)}
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
	for i := 0; i < 50; i++ {
		select {
		case <-r.ran:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of 50 cancelled prompts were saved", i)
		}
	}
	if n := r.live.Load(); n != 0 {
		t.Errorf("%d cancelled prompts ran on a live context", n)
	}
}
