package rlm

import (
	"context"
	"strings"
	"testing"

	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
)

// call is an rlm call with a name.
func rlmCall(id, name string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: RLMTool, Arguments: `{"task":"do it","name":"` + name + `"}`}
}

// subFile is a subagent's conversation: its task, the startup call and
// its result, then msgs.
func subFile(depth int, parent string, msgs ...llm.Message) *sessions.File {
	f := &sessions.File{Local: sessions.Local{Repository: "/r", Depth: depth, Parent: parent}}
	f.Append(llm.Message{Role: "user", Content: "do it"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "S" + parent, Name: REPLTool, Arguments: `{"code":"FYI()"}`}}},
		toolMessage("S"+parent, "ran"))
	f.Append(msgs...)
	return f
}

func assistantCalls(content string, calls ...llm.ToolCall) llm.Message {
	return llm.Message{Role: "assistant", Content: content, ToolCalls: calls}
}

// TestCrashRecords: a root conversation a killed process left with rlm
// calls in every state gets, for each, the result its subagent's file
// supports, and the next request sends exactly that.
func TestCrashRecords(t *testing.T) {
	r := newRig(t, llmtest.Text("resumed"))
	s := r.opts.Session
	save := func(depth int, id string, f *sessions.File) {
		if err := s.Save(depth, id, f); err != nil {
			t.Fatal(err)
		}
	}
	// A: mid-run, its repl call unanswered; B: never started; C: killed
	// during the startup call; D: answered, the result not saved; E: waiting
	// on its own subagent F.
	save(1, "A", subFile(1, sessions.RootParent,
		assistantCalls("Patching first.", llm.ToolCall{ID: "a1", Name: "apply_patch", Arguments: "{}"}), toolMessage("a1", "patched"),
		assistantCalls("Now the tests.", llm.ToolCall{ID: "a2", Name: REPLTool, Arguments: "{}"})))
	c := &sessions.File{Local: sessions.Local{Repository: "/r", Depth: 1, Parent: sessions.RootParent}}
	c.Append(llm.Message{Role: "user", Content: "do it"}, assistantCalls("", llm.ToolCall{ID: "c0", Name: REPLTool, Arguments: "{}"}))
	save(1, "C", c)
	save(1, "D", subFile(1, sessions.RootParent, llm.Message{Role: "assistant", Content: "All three written."}))
	save(1, "E", subFile(1, sessions.RootParent, assistantCalls("", rlmCall("F", "deeper"))))
	save(2, "F", subFile(2, "E"))
	root := &sessions.File{Local: sessions.Local{Repository: "/r"}}
	root.Append(llm.Message{Role: "user", Content: "go"},
		assistantCalls("", rlmCall("A", "writer"), rlmCall("B", "second")),
		llm.Message{Role: "user", Content: "more"},
		assistantCalls("", rlmCall("C", "starter"), rlmCall("D", "finisher"), rlmCall("E", "planner"), llm.ToolCall{ID: "Y", Name: FYITool, Arguments: "{}"}))
	save(0, "", root)

	if _, err := r.turn(context.Background(), "continue", root); err != nil {
		t.Fatal(err)
	}
	sent := map[string]string{}
	for _, m := range r.chat(0).Messages {
		if m.Role == "tool" {
			sent[m.ToolCallID] = m.Content
		}
	}
	tests := []struct {
		id   string
		want []string
		not  []string
	}{
		{"A", []string{"Now the tests.\n[interrupted: ", `subagent "writer"`, "before it answered", "2 tool calls (apply_patch 1, repl 1), and its repl call was still running",
			"files in the repository or the store may have changed", "library/A.json"}, []string{NotRun}},
		{"B", []string{NotRun}, nil},
		{"C", []string{`subagent "starter"`, "had not made any tool call yet, so it changed no files", "library/C.json"}, []string{"may have changed"}},
		{"D", []string{"All three written.\n[recovered: ", `subagent "finisher"`, "library/D.json"}, []string{"interrupted"}},
		{"E", []string{`subagent "planner"`, "1 tool call (rlm 1), and its rlm call was still running", "library/E.json", `waiting for its own subagent "deeper" (deep/F.json), interrupted too`}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			got, ok := sent[tc.id]
			if !ok {
				t.Fatalf("no result sent for %s", tc.id)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("result lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("result has %q:\n%s", w, got)
				}
			}
		})
	}
	// The FYI call was removed with its result by the new turn's FYI.
	if _, ok := sent["Y"]; ok {
		t.Error("the old FYI call was sent")
	}
	if got := llmtest.Roles(r.chat(0).Messages); got != "system user assistant:rlm:rlm tool tool user assistant:rlm:rlm:rlm tool tool tool user assistant:FYI tool" {
		t.Errorf("sent %s", got)
	}
	// What was sent is what was saved.
	saved := r.file(0, "").Messages()
	if saved[2].Content != sent["A"] {
		t.Errorf("saved %q", saved[2].Content)
	}
}

// TestCrashRecordWaitingOnSiblings: a subagent killed while waiting on
// two subagents of its own running at once ([rlm] parallel) names both.
func TestCrashRecordWaitingOnSiblings(t *testing.T) {
	r := newRig(t, llmtest.Text("resumed"))
	s := r.opts.Session
	for _, f := range []struct {
		depth int
		id    string
		file  *sessions.File
	}{
		{1, "G", subFile(1, sessions.RootParent, assistantCalls("", rlmCall("H", "left"), rlmCall("I", "right")))},
		{2, "H", subFile(2, "G")},
		{2, "I", subFile(2, "G")},
	} {
		if err := s.Save(f.depth, f.id, f.file); err != nil {
			t.Fatal(err)
		}
	}
	root := &sessions.File{Local: sessions.Local{Repository: "/r"}}
	root.Append(llm.Message{Role: "user", Content: "go"}, assistantCalls("", rlmCall("G", "planner")))
	if _, err := r.turn(context.Background(), "continue", root); err != nil {
		t.Fatal(err)
	}
	var got string
	for _, m := range r.chat(0).Messages {
		if m.Role == "tool" && m.ToolCallID == "G" {
			got = m.Content
		}
	}
	if want := `waiting for its own subagents "left" (deep/H.json), "right" (deep/I.json), running at once`; !strings.Contains(got, want) {
		t.Errorf("result %q lacks %q", got, want)
	}
}
