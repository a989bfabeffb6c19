// Tests of prompts, editor MCP servers and the event mapper.

package acp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llm"
	"harness/rlm"
)

func TestPromptText(t *testing.T) {
	repo := t.TempDir()
	text := func(s string) sdk.ContentBlock { return sdk.TextBlock(s) }
	embedded := func(uri, body string) sdk.ContentBlock {
		return sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: uri, Text: body}})
	}
	for _, tc := range []struct {
		name   string
		blocks []sdk.ContentBlock
		want   string
		err    string
	}{
		{"text", []sdk.ContentBlock{text("Fix "), text("it.")}, "Fix it.", ""},
		{"a mentioned file inside", []sdk.ContentBlock{text("Read "), sdk.ResourceLinkBlock("m", "file://"+repo+"/src/main.go"), text(" now")}, "Read @src/main.go now", ""},
		{"a mentioned file outside", []sdk.ContentBlock{sdk.ResourceLinkBlock("p", "file:///etc/passwd")}, "@/etc/passwd", ""},
		{"another scheme", []sdk.ContentBlock{sdk.ResourceLinkBlock("w", "https://example.com/x")}, "@https://example.com/x", ""},
		// Zed's selections and symbols name their lines in the fragment.
		{"a selection", []sdk.ContentBlock{text("Fix "), embedded("file://"+repo+"/src/main.go#L10:12", "a\nb\nc\n")},
			"Fix @src/main.go:10-12\n\n@src/main.go:10-12:\n```\na\nb\nc\n```", ""},
		{"a symbol", []sdk.ContentBlock{sdk.ResourceLinkBlock("run", "file://"+repo+"/src/main.go?symbol=run#L3:3")}, "@src/main.go:3", ""},
		{"other line forms", []sdk.ContentBlock{sdk.ResourceLinkBlock("a", "file://"+repo+"/a#L2-L4"), text(" "),
			sdk.ResourceLinkBlock("b", "file://"+repo+"/b#L7"), text(" "), sdk.ResourceLinkBlock("c", "file://"+repo+"/c#heading"), text(" "),
			sdk.ResourceLinkBlock("d", "file://"+repo+"/d#L5:2")}, "@a:2-4 @b:7 @c @d", ""},
		{"an embedded file", []sdk.ContentBlock{text("See "), embedded("file://"+repo+"/a.md", "# A\n```go\nx\n```\n")},
			"See @a.md\n\n@a.md:\n````\n# A\n```go\nx\n```\n````", ""},
		{"embedded text without a final newline", []sdk.ContentBlock{embedded("file://"+repo+"/b", "b")}, "@b\n\n@b:\n```\nb\n```", ""},
		{"an image", []sdk.ContentBlock{text("Look"), sdk.ImageBlock("AAAA", "image/png")}, "", "an image cannot be sent"},
		{"audio", []sdk.ContentBlock{sdk.AudioBlock("AAAA", "audio/wav")}, "", "audio cannot be sent"},
		{"empty", []sdk.ContentBlock{text("  \n")}, "", "the prompt is empty"},
	} {
		got, err := promptText(tc.blocks, repo)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q, %v; want error %q", tc.name, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v\nwant %q", tc.name, got, err, tc.want)
		}
	}
}

func TestMCPSpecs(t *testing.T) {
	specs, secrets, err := mcpSpecs([]sdk.McpServer{
		{Stdio: &sdk.McpServerStdio{Name: "git hub", Command: "npx", Args: []string{"-y", "srv"},
			Env: []sdk.EnvVariable{{Name: "GITHUB_TOKEN", Value: "ghp_0123456789"}, {Name: "PATH", Value: "/usr/local/bin:/usr/bin"}, {Name: "API_KEY", Value: "short"}}}},
		{Http: &sdk.McpServerHttpInline{Type: "http", Name: "git hub", Url: "https://mcp.example/x",
			Headers: []sdk.HttpHeader{{Name: "Authorization", Value: "Bearer tok-0123456789"}}}},
		{Http: &sdk.McpServerHttpInline{Type: "http", Name: "", Url: "https://mcp.example/y", Headers: []sdk.HttpHeader{}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range specs {
		got = append(got, s.Name+" "+s.Command+s.URL)
	}
	if strings.Join(got, "|") != "git_hub npx|git_hub-2 https://mcp.example/x|editor https://mcp.example/y" {
		t.Errorf("specs %q", got)
	}
	if specs[0].Env["PATH"] != "/usr/local/bin:/usr/bin" || specs[1].Headers["Authorization"] != "Bearer tok-0123456789" {
		t.Errorf("env %v headers %v", specs[0].Env, specs[1].Headers)
	}
	if strings.Join(secrets, "|") != "ghp_0123456789|Bearer tok-0123456789|tok-0123456789" {
		t.Errorf("secrets %q", secrets)
	}
	for _, tc := range []struct {
		s    sdk.McpServer
		want string
	}{
		{sdk.McpServer{Sse: &sdk.McpServerSseInline{Type: "sse", Name: "old", Url: "https://x"}}, "SSE servers are not supported"},
		{sdk.McpServer{Acp: &sdk.McpServerAcpInline{Type: "acp", Name: "a"}}, "MCP over ACP is not supported"},
		{sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "x"}}, "command is empty"},
		{sdk.McpServer{}, "neither a stdio nor an HTTP server"},
	} {
		if _, _, err := mcpSpecs([]sdk.McpServer{tc.s}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.s, err, tc.want)
		}
	}
}

func TestMapperThoughtsAndNotes(t *testing.T) {
	m := newMapper(roots{repository: "/repo"})
	root := rlm.Agent{Name: "s"}
	sub := rlm.Agent{Name: "lister", Depth: 1, ID: "c1"}
	var texts []string
	for _, e := range []rlm.Event{
		rlm.ReasoningDelta{Agent: root, Text: "Plan."},
		rlm.TextDelta{Agent: root, Text: "Delegating."},
		rlm.ToolCall{Agent: root, ID: "c1", Name: "rlm", Arguments: `{"task":"t","name":"lister"}`},
		rlm.ReasoningDelta{Agent: sub, Text: "Look"},
		rlm.ReasoningDelta{Agent: sub, Text: "ing."},
		rlm.TextDelta{Agent: sub, Text: " Found it."},
		rlm.Retry{Agent: sub, Attempt: 1, Max: 4, Delay: 1500 * time.Millisecond, Reason: "429 Too Many Requests"},
		rlm.ReasoningDelta{Agent: sub, Text: "Again."},
		rlm.Error{Agent: sub, Message: "boom"},
		rlm.ToolResult{Agent: root, ID: "c1", Name: "rlm", Content: "found"},
		rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "assistant", Content: "cut"}},
		rlm.Notice{Agent: root, Message: "The reply was cut.", FinishReason: "length"},
		// Nothing streamed since the root's reply: no text to void.
		rlm.Retry{Agent: root, Attempt: 1, Max: 4, Delay: time.Second, Reason: "429 Too Many Requests"},
		rlm.ReasoningDelta{Agent: root, Text: "Half"},
		rlm.Retry{Agent: root, Attempt: 2, Max: 4, Delay: time.Second, Reason: "500 Internal Server Error"},
		rlm.Retry{Agent: root, Attempt: 3, Max: 4, Delay: time.Second, Reason: "500 Internal Server Error"},
	} {
		for _, u := range m.event(e) {
			switch {
			case u.AgentThoughtChunk != nil:
				texts = append(texts, "thought:"+u.AgentThoughtChunk.Content.Text.Text)
			case u.AgentMessageChunk != nil:
				texts = append(texts, "message:"+u.AgentMessageChunk.Content.Text.Text)
			default:
				b, _ := json.Marshal(u)
				var k struct {
					Kind string `json:"sessionUpdate"`
				}
				json.Unmarshal(b, &k)
				texts = append(texts, k.Kind)
			}
		}
	}
	want := []string{"thought:Plan.", "message:Delegating.", "tool_call", "tool_call_update",
		"thought:lister: Look", "thought:ing.", "thought: Found it.",
		"thought:lister: 429 Too Many Requests: retrying in 1.5s (1 of 4); the text of the failed attempt above is void\n",
		"thought:lister: Again.", "thought:lister: Error: boom\n", "tool_call_update", "thought:The reply was cut.\n",
		"thought:429 Too Many Requests: retrying in 1s (1 of 4)\n", "thought:Half",
		"thought:500 Internal Server Error: retrying in 1s (2 of 4); the text of the failed attempt above is void\n",
		"thought:500 Internal Server Error: retrying in 1s (3 of 4)\n"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("updates:\n%s\nwant:\n%s", strings.Join(texts, "\n"), strings.Join(want, "\n"))
	}
	if m.rootStop != "length" {
		t.Errorf("a root notice after its reply marks it %q, not cut", m.rootStop)
	}
	m.event(rlm.MessageAdded{Agent: root, Message: llm.Message{Role: "assistant"}})
	if m.rootStop != "" {
		t.Errorf("a later reply is still marked %q", m.rootStop)
	}
	m.event(rlm.Notice{Agent: sub, Message: "Filtered.", FinishReason: "content_filter"})
	if m.rootStop != "" {
		t.Errorf("a subagent's notice marks the root's reply %q", m.rootStop)
	}
}

// TestMapperContext: a compaction is a thought the editor shows, naming
// the subagent it is about.
func TestMapperContext(t *testing.T) {
	m := newMapper(roots{repository: "/repo"})
	sub := rlm.Agent{Name: "reader", Depth: 1, ID: "c1"}
	var texts []string
	for _, e := range []rlm.Event{
		rlm.ContextCompacted{Agent: rlm.Agent{Name: "s"}, Message: "context: turns 1–3 summarised to fit the 12k window"},
		rlm.ContextCompacted{Agent: sub, Message: "context: 2 oldest tool outputs left out"},
	} {
		for _, u := range m.event(e) {
			if u.AgentThoughtChunk != nil {
				texts = append(texts, u.AgentThoughtChunk.Content.Text.Text)
			}
		}
	}
	want := "context: turns 1–3 summarised to fit the 12k window\n|reader: context: 2 oldest tool outputs left out\n"
	if strings.Join(texts, "|") != want {
		t.Errorf("thoughts %q, want %q", strings.Join(texts, "|"), want)
	}
}

func TestMapperOutput(t *testing.T) {
	m := newMapper(roots{})
	a := rlm.Agent{Name: "x", Depth: 1, ID: "r"}
	m.event(rlm.ToolCall{Agent: a, ID: "c", Name: "repl", Arguments: `{"code":"..."}`})
	var last string
	for i := 0; i < 3000; i++ {
		us := m.event(rlm.ToolOutput{Agent: a, ID: "c", Text: strings.Repeat("z", 30) + "\n"})
		last = us[0].ToolCallUpdate.Content[0].Content.Content.Text.Text
	}
	if len(last) > maxOutput+4 || !strings.HasPrefix(last, "…\nzzz") {
		t.Errorf("output shown: %d bytes starting %q", len(last), last[:10])
	}
	if us := m.event(rlm.ToolOutput{Agent: a, ID: "unknown", Text: "x"}); us != nil {
		t.Errorf("output of an unknown call: %+v", us)
	}
}
