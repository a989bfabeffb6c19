package rlm

import (
	"context"
	"strings"
	"testing"
)

// TestTurnOnCancelledContext: a turn whose context is cancelled before it
// starts (an editor's prompt cancelled while it waited) sends nothing to
// the endpoint and saves the prompt as stopped, so a reload shows it.
func TestTurnOnCancelledContext(t *testing.T) {
	r := newRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := r.turn(ctx, "cancelled before it ran", nil)
	if res.Status != Stopped || !strings.HasSuffix(res.Text, StoppedMarker) {
		t.Errorf("status %v, text %q, err %v", res.Status, res.Text, err)
	}
	if n := len(r.srv.Chats()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	var texts []string
	for _, m := range r.file(0, "").Messages() {
		texts = append(texts, m.Role+": "+m.Content)
	}
	all := strings.Join(texts, "\n")
	if !strings.HasPrefix(all, "user: cancelled before it ran\n") {
		t.Errorf("saved:\n%s", all)
	}
}
