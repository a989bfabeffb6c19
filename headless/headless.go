// Package headless runs one root turn without a terminal UI (harness -p)
// and prints it: the final answer as plain text, or every event as a line
// of JSON (--json).
//
// It holds no agent logic: it calls Turn and prints the rlm events of the
// turn. Approvals are always refused (Deny), with a message the model can
// act on; allow-listed commands and MCP tools still run because they never
// ask.
//
// # Plain output
//
// stdout gets the root's final answer followed by a newline. When the turn
// is stopped (SIGINT), stdout gets the deepest partial response followed by
// "[stopped by user]". stderr gets one line per error (endpoint failures,
// failed subagents, failed saves), per retry ("429 Too Many Requests:
// retrying in 4 s (2 of 4)") and per notice (a reply cut at the token
// limit) and, at the end, the session's name.
//
// # JSON output
//
// One object per line on stdout. Every object has "type" and
// "schema_version" (SchemaVersion); objects about an agent also have
// "agent" (the session name for the root, the rlm name for a subagent),
// "depth" and, for subagents, "agent_id" (the ID of the rlm call that
// started it, which also names its conversation file). Types and their other
// members:
//
//	session          name, dir
//	agent_start      task
//	agent_end        status (done, stopped, failed), result
//	reasoning_delta  text
//	text_delta       text
//	tool_call        id, name, arguments (the JSON text the model sent), synthetic
//	tool_output      id, text (what the REPL printed while running)
//	tool_result      id, name, content (exactly what the model is given)
//	approval         id, operation (JSON), decision (allowed, denied), reason
//	usage            usage {prompt_tokens, completion_tokens, total_tokens}
//	error            message
//	retry            attempt, max, delay_s (a number of seconds), reason: the
//	                 agent's request failed and is sent again after delay_s;
//	                 its text_delta, reasoning_delta and tool_call deltas since
//	                 its last tool_result (or agent_start) were the failed
//	                 attempt's and are void
//	notice           message (a warning: a reply cut at the token limit)
//	turn_done        status, text (the root's final answer), usage (summed
//	                 over the turn's requests, subagents included)
//
// Every tool_result follows the tool_call with its id, including calls
// that never ran because the turn stopped or the reply failed (their
// content is "[not run: turn stopped]"). Delta texts may be split or joined
// differently from run to run; their concatenation is exact. New types and members may be added; existing
// ones change only with a new schema_version.
//
// # Exit codes
//
// Run returns ExitOK when the root answered, ExitError when the turn failed,
// and ExitInterrupted when it was stopped. ExitUsage (bad usage or bad
// configuration, a session in use) is for the caller's own checks, and so
// are 129 and 143, with which cmd/harness replaces the code of a turn that
// SIGHUP or SIGTERM stopped.
package headless

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"harness/rlm"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitError       = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// Turner runs one root turn (*rlm.Runner).
type Turner interface {
	Turn(ctx context.Context, prompt string) (rlm.Result, error)
}

// Run runs one turn of t, printing the events of s with p until the turn
// ends, and returns the exit code. Cancelling ctx stops the turn like Esc.
func Run(ctx context.Context, t Turner, s *rlm.Stream, prompt string, p Printer) int {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			e, ok := s.Next(context.Background())
			if !ok {
				return
			}
			p.Print(e)
		}
	}()
	res, err := t.Turn(ctx, prompt)
	s.Close()
	<-done
	p.Finish()
	switch {
	case err != nil || res.Status == rlm.Failed:
		return ExitError
	case res.Status == rlm.Stopped:
		return ExitInterrupted
	}
	return ExitOK
}

// Printer prints a turn's events.
type Printer interface {
	Print(e rlm.Event)
	Finish() // after the last event
}

// Deny refuses every approval: no one is there to answer.
type Deny struct{}

// ErrHeadless is the refusal the model sees.
var ErrHeadless = errors.New("denied: harness runs headless (-p), so no one can approve this operation. " +
	"Commands listed in [commands.allow], and MCP tools on their server's allow list, run without approval; " +
	"otherwise do the work without it (REPL file functions, read_file, apply_patch, grep, list) " +
	"or explain in your answer what the user should run or allow")

// Approve implements rlm.Approver.
func (Deny) Approve(context.Context, json.RawMessage) (bool, error) { return false, ErrHeadless }

// NewPrinter returns the JSON printer when asJSON is set, else the plain one.
func NewPrinter(asJSON bool, stdout, stderr io.Writer) Printer {
	if asJSON {
		return &JSONPrinter{w: stdout}
	}
	return &PlainPrinter{Out: stdout, Err: stderr}
}
