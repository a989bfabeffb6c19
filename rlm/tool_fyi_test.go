package rlm

import (
	"context"
	"strings"
	"testing"
)

// TestFYIShowsTheWindow: with the window known, the root's FYI tool prints
// it after the model and a subagent's REPL is given it (for its FYI());
// unknown, neither has a window.
func TestFYIShowsTheWindow(t *testing.T) {
	for _, window := range []int{12288, 0} {
		r := newRig(t, delegationScript()...)
		r.cfg.Endpoint.ContextWindow = window
		subWindow := -1
		newREPL := r.opts.NewREPL
		r.opts.NewREPL = func(env REPLEnv) (REPL, error) {
			if env.Depth == 1 && env.Window != nil {
				subWindow = env.Window()
			}
			return newREPL(env)
		}
		if _, err := r.turn(context.Background(), "Read it.", nil); err != nil {
			t.Fatal(err)
		}
		fyi := r.chat(0).Messages[3].Content
		line := "Context window: 12288 tokens\n"
		if got := strings.Contains(fyi, "Context window: "); got != (window > 0) || (window > 0 && !strings.Contains(fyi, line)) {
			t.Errorf("window %d: the root's FYI:\n%s", window, fyi)
		}
		if subWindow != window {
			t.Errorf("window %d: the subagent's REPL was given window %d", window, subWindow)
		}
	}
}
