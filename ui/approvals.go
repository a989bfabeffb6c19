// Pending approvals: the y/n prompt, its description, and the answers.

package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Texts of the description line.
const (
	describing      = "Generating description…"
	descUnavailable = "Description unavailable: "
)

// typingGuard is how long after a character typed into a message being
// written y and n still go into the message rather than answering an
// approval: a prompt that appears while the person types never takes a
// letter of their sentence as its answer.
const typingGuard = 500 * time.Millisecond

// answerable says whether y and n answer the oldest pending approval now:
// one is pending, and the person is not in the middle of typing a
// message (the input is empty, or nothing was typed for typingGuard).
func (a *App) answerable() bool {
	if len(a.pending) == 0 {
		return false
	}
	return a.in.text == "" || a.clock.Now().Sub(a.lastTyped) >= typingGuard
}

// addApproval queues a request from Approvals.Approve.
func (a *App) addApproval(req *approvalReq) {
	a.pending = append(a.pending, req)
	if len(a.pending) == 1 {
		a.describe(req)
	}
	a.top().scroll = scroll{follow: true}
}

// dropApproval removes a request whose context ended.
func (a *App) dropApproval(req *approvalReq) {
	for i, r := range a.pending {
		if r == req {
			a.finish(r)
			a.pending = append(a.pending[:i], a.pending[i+1:]...)
			if i == 0 && len(a.pending) > 0 {
				a.describe(a.pending[0])
			}
			return
		}
	}
}

// answer answers the oldest pending approval.
func (a *App) answer(ok bool) {
	if len(a.pending) == 0 {
		return
	}
	req := a.pending[0]
	a.pending = a.pending[1:]
	a.finish(req)
	req.answer <- ok
	if len(a.pending) > 0 {
		a.describe(a.pending[0])
	}
}

// finish stops a request's description and removes it.
func (a *App) finish(req *approvalReq) {
	if req.cancelDesc != nil {
		req.cancelDesc()
	}
	req.desc = nil
}

// describe starts generating req's description when descriptions are on.
func (a *App) describe(req *approvalReq) {
	if a.opts.Describe == nil || req.desc != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	req.cancelDesc = cancel
	req.desc = newBlock(kDescription, "", describing, false)
	d := req.desc
	describe := a.opts.Describe
	go func() {
		text, err := describe(ctx, req.op)
		if ctx.Err() != nil {
			return
		}
		a.post(func() {
			if req.desc != d {
				return // answered meanwhile
			}
			if err != nil {
				d.set(descUnavailable + err.Error())
			} else {
				d.set(strings.TrimSpace(text))
			}
		})
	}()
}

// tail is what the transcript shows under the on-screen agent's blocks:
// the oldest pending approval and its description.
func (a *App) tail() []*block {
	if len(a.pending) == 0 {
		return nil
	}
	req := a.pending[0]
	text := "Approve this operation? Press y to allow, n to deny."
	if n := len(a.pending) - 1; n > 0 {
		text += fmt.Sprintf(" (%d more waiting)", n)
	}
	text += "\n" + compactJSON(req.op)
	out := []*block{a.main.approvalBlock(text)}
	if req.desc != nil {
		out = append(out, req.desc)
	}
	return out
}

// answered records an answered approval in the agent's transcript.
func answeredText(op json.RawMessage, allowed bool, reason string) string {
	if allowed {
		return "Allowed: " + compactJSON(op)
	}
	s := "Denied: " + compactJSON(op)
	if reason != "" {
		s += " (" + reason + ")"
	}
	return s
}

func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
