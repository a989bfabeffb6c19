// The mapping of rlm events onto session/update notifications.

package acp

import (
	"fmt"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llm"
	"harness/rlm"
)

// mapper turns one session's rlm events into session updates, in order. It
// belongs to the session's pump goroutine.
type mapper struct {
	roots roots
	calls map[string]*liveCall // running calls, by ID
	// run is the agent whose thought chunks were the latest update, so a
	// subagent's run of thoughts is introduced by its name once.
	run *rlm.Agent
	// streamed holds the agents that streamed text or reasoning since
	// their latest message was added: a retry voids that text.
	streamed map[rlm.Agent]bool
	// rootStop is the finish_reason of the root's latest reply when a
	// Notice reported it ("length", "content_filter"), else "".
	rootStop string
}

// liveCall is a call between its ToolCall and its ToolResult.
type liveCall struct {
	call
	output string // what it printed so far (the tail, up to maxOutput)
}

// maxOutput bounds the printed text a running call shows, in bytes.
const maxOutput = 32 << 10

func newMapper(r roots) *mapper {
	return &mapper{roots: r, calls: map[string]*liveCall{}, streamed: map[rlm.Agent]bool{}}
}

// event returns the updates for e (none for events the editor has no use
// for).
func (m *mapper) event(e rlm.Event) []sdk.SessionUpdate {
	switch e := e.(type) {
	case rlm.ReasoningDelta:
		m.streamed[e.Agent] = m.streamed[e.Agent] || e.Text != ""
		return m.thought(e.Agent, e.Text)
	case rlm.TextDelta:
		m.streamed[e.Agent] = m.streamed[e.Agent] || e.Text != ""
		if e.Agent.Depth == 0 {
			return m.other(message(e.Text, nil))
		}
		return m.thought(e.Agent, e.Text)
	case rlm.ToolCall:
		return m.other(m.toolCall(e)...)
	case rlm.ToolOutput:
		return m.other(m.toolOutput(e)...)
	case rlm.ToolResult:
		return m.other(m.toolResult(e)...)
	case rlm.MessageAdded:
		delete(m.streamed, e.Agent)
		if e.Agent.Depth == 0 && e.Message.Role == "assistant" {
			m.rootStop = ""
		}
	case rlm.Notice:
		if e.Agent.Depth == 0 && e.FinishReason != "" {
			m.rootStop = e.FinishReason
		}
		return m.note(e.Agent, e.Message)
	case rlm.ContextCompacted:
		return m.note(e.Agent, e.Message)
	case rlm.Retry:
		void := m.streamed[e.Agent]
		delete(m.streamed, e.Agent)
		return m.note(e.Agent, retryText(e, void))
	case rlm.Error:
		return m.note(e.Agent, "Error: "+e.Message)
	}
	return nil
}

// thought is a thought chunk; a subagent's run of them starts with its
// name.
func (m *mapper) thought(a rlm.Agent, text string) []sdk.SessionUpdate {
	if text == "" {
		return nil
	}
	if a.Depth > 0 && (m.run == nil || *m.run != a) {
		text = a.Name + ": " + text
	}
	m.run = &a
	return []sdk.SessionUpdate{thought(text, agentMeta(a))}
}

// note is a line for the person (a notice, a retry, an error) as a thought
// of its own.
func (m *mapper) note(a rlm.Agent, text string) []sdk.SessionUpdate {
	if a.Depth > 0 {
		text = a.Name + ": " + text
	}
	return m.other(thought(text+"\n", agentMeta(a)))
}

// other passes updates that end a run of thoughts.
func (m *mapper) other(us ...sdk.SessionUpdate) []sdk.SessionUpdate {
	if len(us) > 0 {
		m.run = nil
	}
	return us
}

func (m *mapper) toolCall(e rlm.ToolCall) []sdk.SessionUpdate {
	c := newCall(e.Agent, e.Name, e.Arguments)
	m.calls[e.ID] = &liveCall{call: c}
	meta := callMeta(e.Agent, e.Synthetic)
	start := startCall(e.ID, c, m.roots, meta)
	running := sdk.UpdateToolCall(sdk.ToolCallId(e.ID), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress))
	running.ToolCallUpdate.Meta = meta
	return []sdk.SessionUpdate{start, running}
}

// startCall is the tool_call announcing c, pending.
func startCall(id string, c call, r roots, meta map[string]any) sdk.SessionUpdate {
	u := sdk.StartToolCall(sdk.ToolCallId(id), c.title(),
		sdk.WithStartKind(c.kind()), sdk.WithStartStatus(sdk.ToolCallStatusPending),
		sdk.WithStartRawInput(c.rawInput()))
	u.ToolCall.Locations = c.locations(r)
	u.ToolCall.Meta = meta
	return u
}

func (m *mapper) toolOutput(e rlm.ToolOutput) []sdk.SessionUpdate {
	lc := m.calls[e.ID]
	if lc == nil || e.Text == "" {
		return nil
	}
	lc.output = tail(lc.output+e.Text, maxOutput)
	u := sdk.UpdateToolCall(sdk.ToolCallId(e.ID),
		sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(lc.output))}))
	u.ToolCallUpdate.Meta = agentMeta(e.Agent)
	return []sdk.SessionUpdate{u}
}

func (m *mapper) toolResult(e rlm.ToolResult) []sdk.SessionUpdate {
	c := newCall(e.Agent, e.Name, "")
	if lc := m.calls[e.ID]; lc != nil {
		c = lc.call
		delete(m.calls, e.ID)
	}
	return []sdk.SessionUpdate{finishCall(e.ID, c, e.Content, e.Failed, m.roots, agentMeta(e.Agent))}
}

// finishCall is the tool_call_update ending a call with its result.
func finishCall(id string, c call, result string, bad bool, r roots, meta map[string]any) sdk.SessionUpdate {
	status := sdk.ToolCallStatusCompleted
	if bad {
		status = sdk.ToolCallStatusFailed
	}
	u := sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateStatus(status),
		sdk.WithUpdateContent(c.resultContent(result, bad, r)),
		sdk.WithUpdateRawOutput(map[string]any{"content": result}))
	u.ToolCallUpdate.Meta = meta
	return u
}

// tail is the end of s, at most n bytes, starting on a line when it can.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
		return "…\n" + s[i+1:]
	}
	return "…" + strings.ToValidUTF8(s, "")
}

// retryText is "429 Too Many Requests: retrying in 4s (2 of 4)", and,
// when the failed attempt had streamed some text (void), says that text
// does not count.
func retryText(e rlm.Retry, void bool) string {
	text := fmt.Sprintf("%s: retrying in %s (%d of %d)", e.Reason, e.Delay.Round(100*time.Millisecond), e.Attempt, e.Max)
	if void {
		text += "; the text of the failed attempt above is void"
	}
	return text
}

// Updates with their _meta: harness marks what is about a subagent
// ("agent", "depth", "agentId"), synthetic calls and, in a replay, hidden
// turns, under the key "harness".

func agentMeta(a rlm.Agent) map[string]any {
	if a.Depth == 0 {
		return nil
	}
	return map[string]any{"harness": map[string]any{"agent": a.Name, "depth": a.Depth, "agentId": a.ID}}
}

func callMeta(a rlm.Agent, synthetic bool) map[string]any {
	m := agentMeta(a)
	if !synthetic {
		return m
	}
	if m == nil {
		return map[string]any{"harness": map[string]any{"synthetic": true}}
	}
	m["harness"].(map[string]any)["synthetic"] = true
	return m
}

func message(text string, meta map[string]any) sdk.SessionUpdate {
	u := sdk.UpdateAgentMessageText(text)
	u.AgentMessageChunk.Meta = meta
	return u
}

func thought(text string, meta map[string]any) sdk.SessionUpdate {
	u := sdk.UpdateAgentThoughtText(text)
	u.AgentThoughtChunk.Meta = meta
	return u
}

func userMessage(text string, meta map[string]any) sdk.SessionUpdate {
	u := sdk.UpdateUserMessageText(text)
	u.UserMessageChunk.Meta = meta
	return u
}

// usage is an endpoint usage in ACP's terms.
func usage(u llm.Usage) *sdk.Usage {
	if u == (llm.Usage{}) {
		return nil
	}
	return &sdk.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
}
