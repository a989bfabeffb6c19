package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"harness/llmtest"
	"harness/rlm"
)

// TestStatusLineFits: on a narrow screen the status line gives up the
// model, then the permission level, then the token count before it cuts
// what the keys do now; a wide one shows everything.
func TestStatusLineFits(t *testing.T) {
	for _, tc := range []struct {
		name    string
		w       int
		setup   func(*screenApp)
		want    string
		without []string
	}{
		{"wide, working", 120, running, " 20261201-164135 │ a-rather-long-model-name │ 0 tokens │ read-only │ ⠼ working 3 s · Esc stops", nil},
		{"80 columns, working", 80, running, " 20261201-164135 │ 0 tokens │ read-only │ ⠼ working 3 s · Esc stops", []string{"model"}},
		{"60 columns, working", 60, running, " 20261201-164135 │ 0 tokens │ ⠼ working 3 s · Esc stops", []string{"model", "read-only"}},
		{"50 columns, working", 50, running, " 20261201-164135 │ ⠼ working 3 s · Esc stops", []string{"model", "read-only", "tokens"}},
		{"80 columns, an approval", 80, approving, " 20261201-164135 │ 0 tokens │ read-only │ y once · a session · n refuse · t note", []string{"model"}},
		{"30 columns: the end is cut", 30, running, " 20261201-164135 │ ⠼ working 3", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			be := &fakeBackend{events: rlm.NewStream(), name: "20261201-164135"}
			s := newScreenApp(t, tc.w, 8, be, func(o *Options) { o.Model = "a-rather-long-model-name" })
			s.handle(rlm.SessionReady{Name: "20261201-164135"}, rlm.AgentStart{Agent: rlm.Agent{Name: "20261201-164135"}})
			tc.setup(s)
			rows := strings.Split(s.draw(), "\n")
			got := rows[len(rows)-2]
			if got != tc.want {
				t.Errorf("status line at %d columns:\n got %q\nwant %q", tc.w, got, tc.want)
			}
			for _, w := range tc.without {
				if strings.Contains(got, w) {
					t.Errorf("%q should have given way: %q", w, got)
				}
			}
		})
	}
}

func running(s *screenApp) {
	clock := llmtest.NewClock()
	s.a.retry.clock = clock
	s.a.running = true
	s.handle(rlm.AgentStart{Agent: rlm.Agent{Name: "20261201-164135"}})
	clock.Advance(3 * time.Second)
}

func approving(s *screenApp) {
	s.a.addApproval(newApprovalReq(json.RawMessage(`{"operation":"run","executable":"/usr/bin/ls"}`)))
}
