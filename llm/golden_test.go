// Replays of recorded and hand-written streams against golden summaries.

package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"harness/goldentest"
	"harness/llm"
	"harness/llmtest"
)

// Each testdata/streams/*.txtar holds a comment saying what the stream
// shows, the body in stream.sse (replayed verbatim), and want: a summary of
// the Response, the deltas and the error. Run with -update to rewrite want.
func TestStreamGolden(t *testing.T) {
	goldentest.Run(t, "testdata/streams/*.txtar", func(t *testing.T, c *goldentest.Case) {
		sse, _ := c.Section("stream.sse")
		c.Check("want", string(replay(t, sse)))
	})
}

var callID = regexp.MustCompile(`^[A-Za-z0-9_-]{32}$`)

// replay streams sse through a Client, checks the invariants that hold for
// every stream, and returns the summary.
func replay(t *testing.T, sse string) []byte {
	t.Helper()
	srv := llmtest.New(t, llmtest.Raw(sse))
	var deltas []llm.Delta
	resp, err := srv.Client("").Stream(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: "user", Content: "hi"}},
	}, func(d llm.Delta) { deltas = append(deltas, d) })
	m := resp.Message

	// Invariants: deltas add up to the message; IDs are new and consistent.
	var shown, content strings.Builder
	args := map[int]string{}
	ids := map[int]string{}
	for _, d := range deltas {
		switch d.Kind {
		case llm.DeltaReasoning:
			shown.WriteString(d.Text)
		case llm.DeltaContent:
			content.WriteString(d.Text)
		case llm.DeltaToolCall:
			ids[d.Index] = d.ID
		case llm.DeltaToolArgs:
			args[d.Index] += d.Text
		}
	}
	if shown.String() != m.Reasoning() {
		t.Errorf("shown reasoning %q != Message.Reasoning() %q", shown.String(), m.Reasoning())
	}
	if content.String() != m.Content {
		t.Errorf("content deltas %q != Content %q", content.String(), m.Content)
	}
	names := map[string]string{}
	for _, c := range m.ToolCalls {
		if !callID.MatchString(c.ID) {
			t.Errorf("call ID %q is not 32 base64url characters", c.ID)
		}
		found := false
		for i, id := range ids {
			if id == c.ID {
				found = true
				if args[i] != c.Arguments {
					t.Errorf("argument deltas %q != Arguments %q", args[i], c.Arguments)
				}
			}
		}
		if !found {
			t.Errorf("call %s was never announced by a DeltaToolCall", c.ID)
		}
		names[c.ID] = fmt.Sprintf("<id%d>", len(names))
	}

	// The message goes back byte-for-byte in the next request.
	raw, merr := m.MarshalJSON()
	if merr != nil {
		t.Fatal(merr)
	}
	// The system message goes first and is not part of the conversation.
	srv.Push(llmtest.Text("next"))
	sys := "be brief"
	conv := []llm.Message{{Role: "user", Content: "hi"}, m}
	if _, err := srv.Client("").Stream(context.Background(), llm.Request{System: &sys, Messages: conv}, nil); err != nil {
		t.Fatalf("second request: %v", err)
	}
	sent := srv.Chats()[1].MustChat(t).RawMessages()
	if m.Content == "" && len(m.ToolCalls) == 0 {
		// An assistant message with neither content nor tool calls is
		// never sent (strict chat templates refuse it).
		if len(sent) != 2 || string(sent[0]) != `{"role":"system","content":"be brief"}` {
			t.Fatalf("messages sent back: %s; want the system and the user message only", sent)
		}
	} else if len(sent) != 3 || string(sent[0]) != `{"role":"system","content":"be brief"}` || !bytes.Equal(sent[2], raw) {
		t.Fatalf("messages sent back differ:\n got %s\nwant the system message, the user message and\n     %s", sent, raw)
	}
	if len(conv) != 2 {
		t.Errorf("the system message was stored in the conversation")
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "error: %v\n", err)
	fmt.Fprintf(&b, "finish: %q\n", resp.FinishReason)
	if resp.Usage != nil {
		fmt.Fprintf(&b, "usage: %d prompt, %d completion, %d total\n", resp.Usage.PromptTokens, resp.Usage.CompletionTokens, resp.Usage.TotalTokens)
	} else {
		fmt.Fprintf(&b, "usage: none\n")
	}
	fmt.Fprintf(&b, "reasoning shown: %q\n", shown.String())
	b.WriteString("deltas:\n")
	for _, d := range deltas {
		switch d.Kind {
		case llm.DeltaToolCall:
			fmt.Fprintf(&b, "  %v %d %s %q\n", d.Kind, d.Index, names[d.ID], d.Name)
		case llm.DeltaToolArgs:
			fmt.Fprintf(&b, "  %v %d %q\n", d.Kind, d.Index, d.Text)
		default:
			fmt.Fprintf(&b, "  %v %q\n", d.Kind, d.Text)
		}
	}
	b.WriteString("message:\n")
	var pretty bytes.Buffer
	json.Indent(&pretty, raw, "", "  ")
	out := pretty.String()
	for id, name := range names {
		out = strings.ReplaceAll(out, id, name)
	}
	b.WriteString(out + "\n")
	return b.Bytes()
}
