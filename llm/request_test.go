// Golden request bodies: what is sent for a saved conversation, byte for byte.

package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"harness/config"
	"harness/goldentest"
	"harness/llm"
	"harness/llmtest"
)

// Each testdata/requests/*.txtar holds a comment, conversation.json (the
// saved messages, as a JSON array) and request.json: the exact body the
// client sends for them (with the system message "be brief" and no tools),
// as recorded by the fake endpoint. The conversation itself must come back
// unchanged. Run with -update to rewrite request.json.
func TestRequestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/requests/*.txtar", func(t *testing.T, c *goldentest.Case) {
		conv, _ := c.Section("conversation.json")
		var msgs []llm.Message
		if err := json.Unmarshal([]byte(conv), &msgs); err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(msgs)
		srv := llmtest.New(t, llmtest.Text("ok"))
		sys := "be brief"
		if _, err := srv.Client("").Stream(context.Background(), llm.Request{System: &sys, Messages: msgs}, nil); err != nil {
			t.Fatal(err)
		}
		if after, _ := json.Marshal(msgs); !bytes.Equal(before, after) {
			t.Errorf("the conversation changed while sending:\n%s\n%s", before, after)
		}
		c.Check("request.json", string(srv.Chats()[0].Body)+"\n")
	})
}

// TestRolesAlternate checks the outgoing form on generated conversations:
// no two user messages in a row, no assistant message without content and
// tool calls, and every user text still there, in order.
func TestRolesAlternate(t *testing.T) {
	roles := []llm.Message{
		{Role: "user", Content: "u"},
		{Role: "assistant", Content: "a"},
		{Role: "assistant", Extra: []llm.Field{{Key: "reasoning_content", Value: json.RawMessage(`"r"`)}}},
		{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "c", Name: "FYI", Arguments: "{}"}}},
		{Role: "tool", ToolCallID: "c", Content: "t"},
	}
	// Every sequence of up to 5 messages over the 5 kinds.
	c := llm.New(config.Endpoint{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}, "")
	var walk func(prefix []llm.Message)
	walk = func(prefix []llm.Message) {
		if len(prefix) > 0 {
			checkAlternates(t, c, prefix)
		}
		if len(prefix) == 5 {
			return
		}
		for i, m := range roles {
			if m.Role == "user" {
				m.Content = strings.Repeat("u", len(prefix)+1) + string(rune('0'+i))
			}
			walk(append(append([]llm.Message(nil), prefix...), m))
		}
	}
	walk(nil)
}

func checkAlternates(t *testing.T, c *llm.Client, msgs []llm.Message) {
	t.Helper()
	body, err := c.Body(llm.Request{Messages: msgs}, true)
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Messages []llm.Message `json:"messages"`
	}
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatal(err)
	}
	var wantUser, gotUser []string
	for _, m := range msgs {
		if m.Role == "user" {
			wantUser = append(wantUser, m.Content)
		}
	}
	for i, m := range sent.Messages {
		if m.Role == "user" {
			gotUser = append(gotUser, m.Content)
			if i > 0 && sent.Messages[i-1].Role == "user" {
				t.Fatalf("two user messages in a row sent for %+v", msgs)
			}
		}
		if m.Role == "assistant" && m.Content == "" && len(m.ToolCalls) == 0 {
			t.Fatalf("an empty assistant message sent for %+v", msgs)
		}
	}
	if strings.Join(gotUser, "\n\n") != strings.Join(wantUser, "\n\n") {
		t.Fatalf("user texts %q, want %q", gotUser, wantUser)
	}
}
