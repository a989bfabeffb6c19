// session/load: a saved conversation replayed as session updates.

package acp

import (
	"errors"
	"io/fs"

	sdk "github.com/coder/acp-go-sdk"

	"harness/rlm"
	"harness/sessions"
)

// hiddenNote opens each hidden turn of a replay, after its user message.
const hiddenNote = "This turn is hidden: the model no longer sees it (the UI's context overlay restores it).\n"

// replay returns the updates that show a saved root conversation as it
// was seen live: the root's user messages as user_message_chunk, then
// what the agents did, each subagent's work (read from its own file)
// between its rlm call and that call's result. It feeds the saved messages
// to a mapper as the events a live turn would have emitted, so both look
// the same. Every update of a hidden turn carries _meta
// {"harness":{"hidden":true}}.
func replay(s *sessions.Session, items []sessions.Item, r roots) []sdk.SessionUpdate {
	rp := &replayer{sess: s, m: newMapper(r)}
	root := rlm.Agent{Name: s.Name()}
	for _, t := range sessions.Turns(items) {
		rp.hidden = t.Hidden
		rp.agent(root, items[t.Start:t.End])
	}
	return rp.out
}

type replayer struct {
	sess   *sessions.Session
	m      *mapper
	hidden bool
	out    []sdk.SessionUpdate
}

func (rp *replayer) emit(us ...sdk.SessionUpdate) {
	for _, u := range us {
		if rp.hidden {
			u = withMeta(u, "hidden", true)
		}
		rp.out = append(rp.out, u)
	}
}

func (rp *replayer) event(e rlm.Event) { rp.emit(rp.m.event(e)...) }

// agent replays one agent's messages: a subagent's task (its first user
// message) is already its rlm call's title, so only the root's user
// messages are shown.
func (rp *replayer) agent(a rlm.Agent, items []sessions.Item) {
	results := map[string]string{}
	for _, it := range items {
		if m := it.Message; m.Role == "tool" {
			results[m.ToolCallID] = m.Content
		}
	}
	startup := a.Depth > 0 // a subagent's first call is its synthetic startup repl call
	for _, it := range items {
		if it.Hidden {
			continue
		}
		m := it.Message
		switch m.Role {
		case "user":
			if a.Depth == 0 {
				rp.m.run = nil
				rp.emit(userMessage(m.Content, nil))
				if rp.hidden {
					rp.emit(thought(hiddenNote, nil))
				}
			}
		case "assistant":
			rp.event(rlm.ReasoningDelta{Agent: a, Text: m.Reasoning()})
			if m.Content != "" {
				rp.event(rlm.TextDelta{Agent: a, Text: m.Content})
			}
			if text := refusalText(m); text != "" && a.Depth == 0 {
				rp.event(rlm.TextDelta{Agent: a, Text: text})
			}
			for _, c := range m.ToolCalls {
				synthetic := a.Depth == 0 && c.Name == rlm.FYITool || startup
				startup = false
				rp.event(rlm.ToolCall{Agent: a, ID: c.ID, Name: c.Name, Arguments: c.Arguments, Synthetic: synthetic})
				if c.Name == rlm.RLMTool {
					rp.subagent(a, c.ID, newCall(a, c.Name, c.Arguments).str("name"))
				}
				res, ok := results[c.ID]
				if !ok {
					res = noResult
				}
				// A saved result does not say whether the call failed: it is
				// read from the result's text.
				rp.event(rlm.ToolResult{Agent: a, ID: c.ID, Name: c.Name, Content: res, Failed: failed(c.Name, res)})
			}
		}
	}
}

// noResult stands for the result of a call a killed process left without
// one in a subagent's file (the root's are repaired when it loads).
const noResult = "[no result was saved: the turn was interrupted]"

// subagent replays the file of the subagent rlm call id started; a file
// that is missing (the call never started it) is skipped, one that cannot
// be read is said so.
func (rp *replayer) subagent(parent rlm.Agent, id, name string) {
	a := rlm.Agent{Name: name, Depth: parent.Depth + 1, ID: id}
	f, err := sessions.Load(rp.sess.Path(a.Depth, id))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case err != nil:
		rp.event(rlm.Error{Agent: a, Message: "its conversation cannot be shown: " + err.Error()})
		return
	}
	rp.agent(a, f.Items)
}

// withMeta sets _meta.harness.key on the update, whatever its kind.
func withMeta(u sdk.SessionUpdate, key string, val any) sdk.SessionUpdate {
	var meta *map[string]any
	switch {
	case u.UserMessageChunk != nil:
		meta = &u.UserMessageChunk.Meta
	case u.AgentMessageChunk != nil:
		meta = &u.AgentMessageChunk.Meta
	case u.AgentThoughtChunk != nil:
		meta = &u.AgentThoughtChunk.Meta
	case u.ToolCall != nil:
		meta = &u.ToolCall.Meta
	case u.ToolCallUpdate != nil:
		meta = &u.ToolCallUpdate.Meta
	default:
		return u
	}
	if *meta == nil {
		*meta = map[string]any{}
	}
	h, _ := (*meta)["harness"].(map[string]any)
	if h == nil {
		h = map[string]any{}
		(*meta)["harness"] = h
	}
	h[key] = val
	return u
}
