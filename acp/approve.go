// Approvals: a REPL operation put to the editor as session/request_permission.

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"harness/approval"
	"harness/rlm"
)

// The permission options harness offers.
const (
	optAllowOnce   = "allow_once"
	optAllowAlways = "allow_always"
	optRejectOnce  = "reject_once"
)

// describe says in words what the operation does, then gives its JSON.
func describe(op approval.Op) string {
	var b strings.Builder
	switch op.Kind {
	case approval.Run, approval.WorkDir:
		fmt.Fprintf(&b, "Run %s", strings.Join(append([]string{op.Executable}, op.Argv...), " "))
		if op.Dir != "" {
			fmt.Fprintf(&b, " in %s", op.Dir)
		}
		if op.ResolvesTo != "" {
			fmt.Fprintf(&b, " (outside the repository: %s)", op.ResolvesTo)
		}
	case approval.MCP:
		fmt.Fprintf(&b, "Call the MCP tool %s/%s", op.Server, op.Tool)
	default:
		b.WriteString("Approve this operation")
	}
	b.WriteString("\n\n" + op.Pretty())
	return b.String()
}

// permissionAsk is an approval waiting for the editor. The approver emits
// it on the session's stream, right after the ApprovalRequested rlm
// emitted for the same operation, so the pump knows which tool call asks
// and has shown that call before the request goes out.
type permissionAsk struct {
	ctx   context.Context
	agent rlm.Agent
	call  string // the asking tool call, when rlm said (ApproveFor)
	op    json.RawMessage
	reply chan answer
}

func (p *permissionAsk) Of() rlm.Agent { return p.agent }

type answer struct {
	ok  bool
	err error
}

// errEditorCancelled is the refusal when the editor answers "cancelled".
var errEditorCancelled = errors.New("the editor cancelled the permission request")

// errClosed refuses approvals of a session that is closing.
var errClosed = errors.New("the editor closed the session")

// Approve implements rlm.Approver: an allowed-always operation runs,
// anything else is asked through session/request_permission.
func (s *session) Approve(ctx context.Context, raw json.RawMessage) (bool, error) {
	return s.ApproveFor(ctx, rlm.Agent{}, "", raw)
}

// ApproveFor implements rlm.AgentApprover: the request names the tool call
// that asks, so requests of subagents running at once ([rlm] parallel)
// each go out about their own call, in the order they came.
func (s *session) ApproveFor(ctx context.Context, who rlm.Agent, call string, raw json.RawMessage) (bool, error) {
	if s.always.Allowed(approval.Parse(raw)) {
		return true, nil
	}
	ask := &permissionAsk{ctx: ctx, agent: who, call: call, op: raw, reply: make(chan answer, 1)}
	s.stream.Emit(ask)
	select {
	case a := <-ask.reply:
		return a.ok, a.err
	case <-ctx.Done():
		return false, ctx.Err()
	case <-s.closing:
		return false, errClosed
	}
}

// ask sends the request for ask, about call id, and gives the answer. It
// runs on a goroutine of its own, so the pump goes on meanwhile.
func (s *session) ask(ask *permissionAsk, id string) {
	op := approval.Parse(ask.op)
	options := []sdk.PermissionOption{
		{Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: optAllowOnce},
	}
	if op.Key() != "" {
		options = append(options, sdk.PermissionOption{Kind: sdk.PermissionOptionKindAllowAlways,
			Name: "Always allow " + op.Subject() + " in this session", OptionId: optAllowAlways})
	}
	options = append(options, sdk.PermissionOption{Kind: sdk.PermissionOptionKindRejectOnce, Name: "Deny", OptionId: optRejectOnce})
	content := []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(describe(op)))}
	ctx, stop := context.WithCancel(ask.ctx)
	defer stop()
	if s.agent.Describe != nil {
		go s.describe(ctx, id, ask.op, content)
	}
	resp, err := s.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(s.id),
		ToolCall:  sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(id), Content: content, RawInput: ask.op},
		Options:   options,
	})
	ask.reply <- s.decide(op, resp, err)
}

// decide turns the editor's answer into an approval.
func (s *session) decide(op approval.Op, resp sdk.RequestPermissionResponse, err error) answer {
	switch out := resp.Outcome; {
	case err != nil:
		return answer{err: fmt.Errorf("the editor did not answer the permission request: %v", err)}
	case out.Selected != nil:
		switch out.Selected.OptionId {
		case optAllowOnce:
			return answer{ok: true}
		case optAllowAlways:
			s.always.Allow(op) // the same command with the same arguments, as the UI's a
			return answer{ok: true}
		case optRejectOnce:
			return answer{}
		}
		return answer{err: fmt.Errorf("the editor chose the unknown option %q", out.Selected.OptionId)}
	}
	return answer{err: errEditorCancelled}
}

// describe adds the [approval_description] explanation to the pending
// request's call once the description endpoint answers.
func (s *session) describe(ctx context.Context, id string, op json.RawMessage, content []sdk.ToolCallContent) {
	text, err := s.agent.Describe(ctx, op)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		text = "Description unavailable: " + err.Error()
	}
	content = append([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(strings.TrimSpace(text)))}, content...)
	s.send(sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateContent(content)))
}
