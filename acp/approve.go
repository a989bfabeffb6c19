// Approvals: a REPL operation put to the editor as session/request_permission.

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"harness/rlm"
)

// The permission options harness offers.
const (
	optAllowOnce   = "allow_once"
	optAllowAlways = "allow_always"
	optRejectOnce  = "reject_once"
)

// operation is what an approval is about (repl's run operations and
// mcpclient's calls).
type operation struct {
	Operation  string          `json:"operation"`
	Executable string          `json:"executable"`
	Arguments  json.RawMessage `json:"arguments"` // run: the argv after the name; mcp: the call's object
	Dir        string          `json:"working_directory"`
	ResolvesTo string          `json:"working_directory_resolves_to"`
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`

	argv []string // run's Arguments
	raw  json.RawMessage
	bad  bool // not an operation harness knows
}

func parseOperation(raw json.RawMessage) operation {
	var op operation
	op.bad = json.Unmarshal(raw, &op) != nil
	if op.Operation != "mcp" && op.Arguments != nil && json.Unmarshal(op.Arguments, &op.argv) != nil {
		op.bad = true
	}
	op.raw = raw
	return op
}

// alwaysKey is what allow_always allows for the rest of the session: a
// command (by its executable) run inside the repository, or an MCP tool;
// "" for operations it is not offered for (a working directory outside
// the repository is asked about each time).
func (op operation) alwaysKey() string {
	switch {
	case op.bad:
		return ""
	case op.Operation == "run" && op.ResolvesTo == "" && op.Executable != "":
		return "run\x00" + op.Executable
	case op.Operation == "mcp" && op.Server != "" && op.Tool != "":
		return "mcp\x00" + op.Server + "\x00" + op.Tool
	}
	return ""
}

// what names the operation's subject for the allow_always option.
func (op operation) what() string {
	if op.Operation == "mcp" {
		return op.Server + "/" + op.Tool
	}
	return filepath.Base(op.Executable)
}

// describe says in words what the operation does, then gives its JSON.
func (op operation) describe() string {
	var b strings.Builder
	switch op.Operation {
	case "run", "working_directory":
		fmt.Fprintf(&b, "Run %s", strings.Join(append([]string{op.Executable}, op.argv...), " "))
		if op.Dir != "" {
			fmt.Fprintf(&b, " in %s", op.Dir)
		}
		if op.ResolvesTo != "" {
			fmt.Fprintf(&b, " (outside the repository: %s)", op.ResolvesTo)
		}
	case "mcp":
		fmt.Fprintf(&b, "Call the MCP tool %s/%s", op.Server, op.Tool)
	default:
		b.WriteString("Approve this operation")
	}
	b.WriteString("\n\n")
	var pretty bytes.Buffer
	if json.Indent(&pretty, op.raw, "", "  ") == nil {
		b.WriteString(pretty.String())
	} else {
		b.Write(op.raw)
	}
	return b.String()
}

// permissionAsk is an approval waiting for the editor. The approver emits
// it on the session's stream, right after the ApprovalRequested rlm
// emitted for the same operation, so the pump knows which tool call asks
// and has shown that call before the request goes out.
type permissionAsk struct {
	ctx   context.Context
	agent rlm.Agent
	op    json.RawMessage
	reply chan approval
}

func (p *permissionAsk) Of() rlm.Agent { return p.agent }

type approval struct {
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
	op := parseOperation(raw)
	if key := op.alwaysKey(); key != "" && s.allowedAlways(key) {
		return true, nil
	}
	ask := &permissionAsk{ctx: ctx, op: raw, reply: make(chan approval, 1)}
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

func (s *session) allowedAlways(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.always[key]
}

// ask sends the request for ask, about call id, and gives the answer. It
// runs on a goroutine of its own, so the pump goes on meanwhile.
func (s *session) ask(ask *permissionAsk, id string) {
	op := parseOperation(ask.op)
	options := []sdk.PermissionOption{
		{Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: optAllowOnce},
	}
	if op.alwaysKey() != "" {
		options = append(options, sdk.PermissionOption{Kind: sdk.PermissionOptionKindAllowAlways,
			Name: "Always allow " + op.what() + " in this session", OptionId: optAllowAlways})
	}
	options = append(options, sdk.PermissionOption{Kind: sdk.PermissionOptionKindRejectOnce, Name: "Deny", OptionId: optRejectOnce})
	content := []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(op.describe()))}
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
func (s *session) decide(op operation, resp sdk.RequestPermissionResponse, err error) approval {
	switch out := resp.Outcome; {
	case err != nil:
		return approval{err: fmt.Errorf("the editor did not answer the permission request: %v", err)}
	case out.Selected != nil:
		switch out.Selected.OptionId {
		case optAllowOnce:
			return approval{ok: true}
		case optAllowAlways:
			if key := op.alwaysKey(); key != "" {
				s.mu.Lock()
				s.always[key] = true
				s.mu.Unlock()
			}
			return approval{ok: true}
		case optRejectOnce:
			return approval{}
		}
		return approval{err: fmt.Errorf("the editor chose the unknown option %q", out.Selected.OptionId)}
	}
	return approval{err: errEditorCancelled}
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
