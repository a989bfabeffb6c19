// Applying the agents' events to the views.

package ui

import (
	"fmt"
	"slices"
	"strings"

	"harness/rlm"
	"harness/sessions"
)

// FailureNote is a failure recorded during a tool call (repl's
// OnFailure): the wiring emits it on the same Stream as the agents'
// events, so it lands under the call that caused it. It is shown, never
// saved.
type FailureNote struct {
	Agent   rlm.Agent // may be zero: the note goes to the agent on screen
	Message string
	Count   int // occurrences across sessions; 0 when unknown
}

// Of implements rlm.Event.
func (e FailureNote) Of() rlm.Agent { return e.Agent }

// handle applies one event.
func (a *App) handle(ev rlm.Event) {
	a.track(ev)
	a.trackRun(ev)
	switch ev.(type) {
	case rlm.SessionReady, rlm.AgentStart, rlm.AgentEnd, rlm.Conversation, rlm.MessageAdded:
		a.ovDirty = true
	}
	switch e := ev.(type) {
	case rlm.SessionReady:
		a.session = e.Name
	case rlm.AgentStart:
		if e.Agent.Depth == 0 {
			a.root.agent = e.Agent
			a.root.tools = e.Tools
			return
		}
		a.reg.started(e.Agent)
		v := a.newView(e.Agent, a.opts.SubagentSystem)
		if a.opts.SubagentSystem == nil {
			v = a.newView(e.Agent, a.opts.System)
		}
		v.tools = e.Tools
		v.open = true
		a.startRun(v)
		a.stack = append(a.stack, v)
	case rlm.ToolsChanged:
		if v := a.viewOf(e.Agent); v != nil {
			v.tools = e.Tools
		}
	case rlm.AgentEnd:
		if e.Agent.Depth == 0 {
			return
		}
		var conv []sessions.Item
		if v := a.viewOf(e.Agent); v != nil {
			conv = v.items
		}
		a.reg.ended(e.Agent, conv)
		for i := len(a.stack) - 1; i >= 0; i-- {
			if v := a.stack[i]; v.agent.ID == e.Agent.ID {
				keepNotes(v, a.callerOf(v))
				a.stack = slices.Delete(a.stack, i, i+1) // its siblings run on
				if a.chosen == v {
					a.chosen = nil
				}
				break
			}
		}
	case rlm.Conversation:
		a.root.reset(e.Items)
		a.recount() // the earlier turns lost their FYI calls
	case rlm.MessageAdded:
		if v := a.viewOf(e.Agent); v != nil {
			if e.Message.Role == "tool" {
				v.endOutput(e.Message.ToolCallID)
			}
			v.addMessage(e.Message)
		}
	case rlm.ReasoningDelta:
		if v := a.viewOf(e.Agent); v != nil {
			v.liveBlock(kReasoning, "", "").add(e.Text)
			v.countLive()
		}
	case rlm.TextDelta:
		if v := a.viewOf(e.Agent); v != nil {
			v.liveBlock(kAssistant, "", "").add(e.Text)
			v.countLive()
		}
	case rlm.ToolCallStarted:
		if v := a.viewOf(e.Agent); v != nil {
			v.liveCall(e.ID, e.Name).addArgs("")
			v.countLive()
		}
	case rlm.ToolArgsDelta:
		if v := a.viewOf(e.Agent); v != nil {
			v.liveCall(e.ID, "").addArgs(e.Text)
			v.countLive()
		}
	case rlm.ToolOutput:
		if v := a.viewOf(e.Agent); v != nil {
			v.output(e.ID, e.Text)
		}
	case rlm.ToolCall:
		a.reg.called(e.Agent, e.Synthetic)
	case rlm.ToolResult:
		if v := a.viewOf(e.Agent); v != nil {
			v.endOutput(e.ID)
			if e.Name == rlm.ApplyPatchTool {
				a.takeBases(v, e.ID)
			}
		}
	case rlm.ApprovalAnswered:
		if v := a.viewOf(e.Agent); v != nil {
			v.add(kApproval, e.ID, a.answeredText(e.Operation, e.Allowed, e.Reason))
		}
	case rlm.Error:
		v := a.viewOf(e.Agent)
		if v == nil {
			v = a.top()
		}
		v.add(kError, "", "Error: "+e.Message)
		v.setApart() // where the reply would have been
	case rlm.Usage:
		a.reg.used(e.Agent, e.Usage)
	case rlm.Retry:
		a.showRetry(e)
	case rlm.Notice:
		a.showNotice(e.Agent, e.Message)
	case rlm.ContextCompacted:
		v := a.viewOf(e.Agent)
		if v == nil {
			v = a.top()
		}
		msg := e.Message
		if len(e.Turns) > 0 {
			msg += " · overlay to restore"
		}
		v.add(kContext, "", msg)
	case Warning:
		a.top().add(kNote, "", "⚠ "+e.Message)
	case rlm.TurnDone:
		a.endRetries(e.Status)
		if e.Status == rlm.Stopped && !a.root.endsStopped() {
			a.root.add(kNote, "", rlm.StoppedMarker)
		}
	case FailureNote:
		v := a.top()
		if e.Agent.Name != "" || e.Agent.Depth > 0 {
			if w := a.viewOf(e.Agent); w != nil {
				v = w
			}
		}
		v.add(kNote, "", noteText(e))
		nb := v.blocks[len(v.blocks)-1]
		nb.failure, _, _ = strings.Cut(strings.TrimSpace(e.Message), "\n")
		nb.count = e.Count
	}
}

// keepNotes copies the notes and errors shown in a subagent's view, which
// goes when it ends, under its rlm call in the caller's view, named after
// the subagent.
func keepNotes(sub, caller *view) {
	for _, b := range sub.blocks {
		if !b.extra || b.kind != kNote && b.kind != kError || b.String() == "" {
			continue
		}
		text := b.String()
		if b.failure != "" {
			// Under its result a failure note says only how often: the
			// caller, without the result, needs the failure itself.
			text = noteText(FailureNote{Message: b.failure, Count: b.count})
		}
		caller.add(b.kind, sub.agent.ID, sub.agent.Name+": "+text)
	}
}

// takeBases gives apply_patch call id the old texts its Replace Files
// replaced, which the wiring recorded just before the patch ran.
func (a *App) takeBases(v *view, id string) {
	if a.opts.Bases == nil {
		return
	}
	for i := len(v.blocks) - 1; i >= 0 && i >= len(v.blocks)-16; i-- {
		b := v.blocks[i]
		if b.kind != kCall || b.id != id {
			continue
		}
		args := b.callArgs
		if args == "" {
			args = b.argsText()
		}
		root, text := "repository", ""
		if fs, ok := objectFields(args); ok {
			for _, f := range fs {
				switch f.key {
				case "root":
					root = f.val
				case "patch":
					text = f.val
				}
			}
		}
		if olds, ok := a.opts.Bases.Take(root, text); ok {
			a.reg.bases[id] = olds
			b.r.bases = olds
			b.ver++
		}
		return
	}
}

// noteText is a failure note's line: the failure's first line and how
// often it has occurred.
func noteText(e FailureNote) string {
	first, _, _ := strings.Cut(strings.TrimSpace(e.Message), "\n")
	switch {
	case e.Count == 1:
		return fmt.Sprintf("⚠ %s (first occurrence)", first)
	case e.Count > 1:
		return fmt.Sprintf("⚠ %s (seen %d times)", first, e.Count)
	}
	return "⚠ " + first
}
