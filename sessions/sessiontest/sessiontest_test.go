package sessiontest

import (
	"strings"
	"testing"

	"harness/sessions"
)

func TestWriteBig(t *testing.T) {
	for _, tc := range []struct {
		turns, lines int
		wantErr      bool
	}{
		{turns: 3, lines: 50},
		{turns: 1, lines: MinLines},
		{turns: 0, lines: 50, wantErr: true},
		{turns: 2, lines: MinLines - 1, wantErr: true},
	} {
		home := t.TempDir()
		path, err := WriteBig(home, "/repo", "big", tc.turns, tc.lines)
		if tc.wantErr {
			if err == nil {
				t.Errorf("%d turns of %d lines: no error", tc.turns, tc.lines)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		f, err := sessions.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		msgs := f.Messages()
		if len(msgs) != 4*tc.turns || len(f.Local.TurnTokenCache) != tc.turns || f.Local.Repository != "/repo" {
			t.Fatalf("%d messages, %d cached turns, repository %q", len(msgs), len(f.Local.TurnTokenCache), f.Local.Repository)
		}
		if answer := msgs[3].Content; strings.Count(answer, "\n")+1 != tc.lines-tc.lines/4-tc.lines/2-6 {
			t.Errorf("answer of %d lines, want %d", strings.Count(answer, "\n")+1, tc.lines-tc.lines/4-tc.lines/2-6)
		}
		for _, c := range f.Local.TurnTokenCache {
			if c.Estimated {
				t.Fatal("a cached turn is marked estimated: opening the session would ask /tokenize")
			}
		}
	}
}
