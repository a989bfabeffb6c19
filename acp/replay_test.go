// Tests of the replay of a saved session, and its benchmark.

package acp

import (
	"fmt"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llm"
	"harness/sessions"
)

// savedSession writes a session whose root delegates once per turn; the
// subagent of turn i makes calls read_file calls. Turn 0 is hidden; the
// subagent of the last turn has no file (it never started), and the one
// of turn 1 was killed before its last call's result.
func savedSession(t testing.TB, turns, calls int) (*sessions.Session, []sessions.Item) {
	st := sessions.Store{Dir: t.TempDir()}
	s := st.New(nil)
	if _, err := s.Create(); err != nil {
		t.Fatal(err)
	}
	root := &sessions.File{Local: sessions.Local{Repository: "/repo"}}
	for i := 0; i < turns; i++ {
		id := fmt.Sprintf("rlm%d", i)
		root.Append(
			llm.Message{Role: "user", Content: fmt.Sprintf("prompt %d", i)},
			llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: id, Name: "rlm", Arguments: fmt.Sprintf(`{"task":"task %d","name":"sub%d"}`, i, i)}}},
			llm.Message{Role: "tool", ToolCallID: id, Content: fmt.Sprintf("result %d", i)},
			llm.Message{Role: "assistant", Content: fmt.Sprintf("answer %d", i)},
		)
		if i == turns-1 {
			continue
		}
		sub := &sessions.File{Local: sessions.Local{Repository: "/repo", Depth: 1, Parent: sessions.RootParent}}
		sub.Append(llm.Message{Role: "user", Content: fmt.Sprintf("task %d", i)})
		for j := 0; j < calls; j++ {
			cid := fmt.Sprintf("c%d_%d", i, j)
			sub.Append(llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: cid, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d.go"}`, j)}}})
			if i != 1 || j != calls-1 {
				sub.Append(llm.Message{Role: "tool", ToolCallID: cid, Content: "     1\tpackage x\n"})
			}
		}
		if err := s.Save(1, id, sub); err != nil {
			t.Fatal(err)
		}
	}
	root.Items = sessions.SetHidden(root.Items, 0, true)
	if err := s.Save(0, "", root); err != nil {
		t.Fatal(err)
	}
	return s, root.Items
}

func TestReplay(t *testing.T) {
	s, items := savedSession(t, 3, 2)
	us := replay(s, items, roots{repository: "/repo"})
	var got []string
	for _, u := range us {
		line := ""
		switch {
		case u.UserMessageChunk != nil:
			line = "user " + u.UserMessageChunk.Content.Text.Text
		case u.AgentMessageChunk != nil:
			line = "message " + u.AgentMessageChunk.Content.Text.Text
		case u.AgentThoughtChunk != nil:
			line = "thought " + strings.TrimSpace(u.AgentThoughtChunk.Content.Text.Text)
		case u.ToolCall != nil:
			line = "call " + u.ToolCall.Title
		case u.ToolCallUpdate != nil && u.ToolCallUpdate.Status != nil:
			line = "status " + string(*u.ToolCallUpdate.Status)
		default:
			continue
		}
		if h, _ := metaOfUpdate(u)["hidden"].(bool); h {
			line = "(hidden) " + line
		}
		got = append(got, line)
	}
	want := []string{
		"(hidden) user prompt 0", "(hidden) thought " + strings.TrimSpace(hiddenNote),
		"(hidden) call rlm sub0: task 0", "(hidden) status in_progress",
		"(hidden) call sub0 · read_file f0.go", "(hidden) status in_progress", "(hidden) status completed",
		"(hidden) call sub0 · read_file f1.go", "(hidden) status in_progress", "(hidden) status completed",
		"(hidden) status completed", "(hidden) message answer 0",
		"user prompt 1", "call rlm sub1: task 1", "status in_progress",
		"call sub1 · read_file f0.go", "status in_progress", "status completed",
		"call sub1 · read_file f1.go", "status in_progress", "status failed",
		"status completed", "message answer 1",
		"user prompt 2", "call rlm sub2: task 2", "status in_progress", "status completed", "message answer 2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replay:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func metaOfUpdate(u sdk.SessionUpdate) map[string]any {
	var m map[string]any
	switch {
	case u.UserMessageChunk != nil:
		m = u.UserMessageChunk.Meta
	case u.AgentMessageChunk != nil:
		m = u.AgentMessageChunk.Meta
	case u.AgentThoughtChunk != nil:
		m = u.AgentThoughtChunk.Meta
	case u.ToolCall != nil:
		m = u.ToolCall.Meta
	case u.ToolCallUpdate != nil:
		m = u.ToolCallUpdate.Meta
	}
	h, _ := m["harness"].(map[string]any)
	return h
}

// BenchmarkReplay replays a session of 500 turns, each delegating to a
// subagent that made 20 calls (20,000 tool calls in all).
func BenchmarkReplay(b *testing.B) {
	s, items := savedSession(b, 500, 20)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		n = len(replay(s, items, roots{repository: "/repo"}))
	}
	b.ReportMetric(float64(n), "updates")
}
