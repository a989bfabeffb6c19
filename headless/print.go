// The plain and JSON printers.

package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"harness/rlm"
)

// SchemaVersion is the version of the --json line format.
const SchemaVersion = 1

// PlainPrinter prints the final answer on Out and errors on Err.
type PlainPrinter struct {
	Out, Err io.Writer
	session  string
}

// Print implements Printer.
func (p *PlainPrinter) Print(e rlm.Event) {
	switch e := e.(type) {
	case rlm.SessionReady:
		p.session = e.Name
	case rlm.Error:
		fmt.Fprintf(p.Err, "%s: %s\n", who(e.Agent), e.Message)
	case rlm.Retry:
		fmt.Fprintf(p.Err, "%s: %s\n", who(e.Agent), RetryText(e))
	case rlm.Notice:
		fmt.Fprintf(p.Err, "%s: %s\n", who(e.Agent), e.Message)
	case rlm.ContextCompacted:
		fmt.Fprintf(p.Err, "%s: %s\n", who(e.Agent), e.Message)
	case rlm.TurnDone:
		if e.Status != rlm.Failed && e.Text != "" {
			fmt.Fprintln(p.Out, strings.TrimRight(e.Text, "\n"))
		}
	}
}

// who names the agent a stderr line is about.
func who(a rlm.Agent) string {
	if a.Depth > 0 {
		return fmt.Sprintf("harness: subagent %q (depth %d)", a.Name, a.Depth)
	}
	return "harness"
}

// RetryText is the line for a retry: "429 Too Many Requests: retrying in
// 4 s (2 of 4)", or "retrying now" for a wait that rounds to nothing.
func RetryText(e rlm.Retry) string {
	if e.Delay < 50*time.Millisecond {
		return fmt.Sprintf("%s: retrying now (%d of %d)", e.Reason, e.Attempt, e.Max)
	}
	return fmt.Sprintf("%s: retrying in %s (%d of %d)", e.Reason, waitText(e.Delay), e.Attempt, e.Max)
}

// waitText prints a wait: "4 s", "0.5 s", "1 min 30 s".
func waitText(d time.Duration) string {
	if d < time.Minute {
		return strings.TrimSuffix(string(seconds(d.Round(100*time.Millisecond))), ".0") + " s"
	}
	d = d.Round(time.Second)
	m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
	if s == 0 {
		return fmt.Sprintf("%d min", m)
	}
	return fmt.Sprintf("%d min %d s", m, s)
}

// seconds is d in seconds as a JSON number with a decimal point and at
// most millisecond precision: 4.0, 0.25.
func seconds(d time.Duration) json.RawMessage {
	ms := d.Round(time.Millisecond).Milliseconds()
	frac := strings.TrimRight(fmt.Sprintf("%03d", ms%1000), "0")
	if frac == "" {
		frac = "0"
	}
	return json.RawMessage(fmt.Sprintf("%d.%s", ms/1000, frac))
}

// Finish names the session on Err.
func (p *PlainPrinter) Finish() {
	if p.session != "" {
		fmt.Fprintf(p.Err, "harness: session %s (continue with: harness --resume %s -p PROMPT)\n", p.session, p.session)
	}
}

// JSONPrinter prints one JSON object per event.
type JSONPrinter struct {
	w   io.Writer
	buf bytes.Buffer
}

// Finish implements Printer.
func (p *JSONPrinter) Finish() {}

// Print implements Printer.
func (p *JSONPrinter) Print(e rlm.Event) {
	var kv []any
	switch e := e.(type) {
	case rlm.SessionReady:
		p.line("session", nil, "name", e.Name, "dir", e.Dir)
		return
	case rlm.AgentStart:
		kv = []any{"agent_start", "task", e.Task}
	case rlm.AgentEnd:
		kv = []any{"agent_end", "status", e.Status.String(), "result", e.Result}
	case rlm.Queued:
		kv = []any{"queued", "waiting", e.Waiting}
	case rlm.ReasoningDelta:
		kv = []any{"reasoning_delta", "text", e.Text}
	case rlm.TextDelta:
		kv = []any{"text_delta", "text", e.Text}
	case rlm.ToolCall:
		kv = []any{"tool_call", "id", e.ID, "name", e.Name, "arguments", e.Arguments, "synthetic", e.Synthetic}
	case rlm.ToolOutput:
		kv = []any{"tool_output", "id", e.ID, "text", e.Text}
	case rlm.ToolResult:
		kv = []any{"tool_result", "id", e.ID, "name", e.Name, "content", e.Content}
	case rlm.ApprovalAnswered:
		decision := "denied"
		if e.Allowed {
			decision = "allowed"
		}
		kv = []any{"approval", "id", e.ID, "operation", rawOrNull(e.Operation), "decision", decision, "reason", e.Reason}
	case rlm.Usage:
		kv = []any{"usage", "usage", e.Usage}
	case rlm.Error:
		kv = []any{"error", "message", e.Message}
	case rlm.Retry:
		kv = []any{"retry", "attempt", e.Attempt, "max", e.Max, "delay_s", seconds(e.Delay), "reason", e.Reason}
	case rlm.Notice:
		kv = []any{"notice", "message", e.Message}
	case rlm.ContextCompacted:
		turns := []int{}
		for _, t := range e.Turns {
			turns = append(turns, t+1)
		}
		kv = []any{"context", "message", e.Message, "window", e.Window, "tokens_before", e.Before, "tokens_after", e.After,
			"turns_hidden", turns, "summarised", e.Summarised, "outputs_elided", e.Elided, "output_cut", e.Cut}
	case rlm.TurnDone:
		kv = []any{"turn_done", "status", e.Status.String(), "text", e.Text, "usage", e.Usage}
	default:
		return // events for interactive views only
	}
	a := e.Of()
	p.line(kv[0].(string), &a, kv[1:]...)
}

func rawOrNull(r json.RawMessage) json.RawMessage {
	if len(r) == 0 || !json.Valid(r) {
		return json.RawMessage("null")
	}
	return r
}

// line writes {"type":…,"schema_version":1[,"agent":…,"depth":…[,"agent_id":…]],kv…}.
func (p *JSONPrinter) line(typ string, a *rlm.Agent, kv ...any) {
	b := &p.buf
	b.Reset()
	b.WriteString(`{"type":`)
	writeJSON(b, typ)
	fmt.Fprintf(b, `,"schema_version":%d`, SchemaVersion)
	if a != nil {
		b.WriteString(`,"agent":`)
		writeJSON(b, a.Name)
		fmt.Fprintf(b, `,"depth":%d`, a.Depth)
		if a.ID != "" {
			b.WriteString(`,"agent_id":`)
			writeJSON(b, a.ID)
		}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteByte(',')
		writeJSON(b, kv[i])
		b.WriteByte(':')
		writeJSON(b, kv[i+1])
	}
	b.WriteString("}\n")
	p.w.Write(b.Bytes())
}

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	b.Truncate(b.Len() - 1) // Encode's newline
}
