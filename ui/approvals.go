// Pending approvals: the prompt (its line in words, the keys, the JSON one
// key away, the note of a refusal), its description, and the answers.

package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"harness/approval"
	"harness/config"
	"harness/rlm"
)

// Texts of the description line.
const (
	describing      = "Generating description…"
	descUnavailable = "Description unavailable: "
)

// typingGuard is how long after a character typed into a message being
// written y, a, n, t and j still go into the message rather than
// answering an approval: a prompt that appears while the person types
// never takes a letter of their sentence as its answer.
const typingGuard = 500 * time.Millisecond

// Approvals is the UI's rlm.Approver: Approve shows the operation and
// blocks until the person answers, or ctx ends. An operation the person
// allowed for the session (a) is allowed at once. Build it before the
// Runner and give the same value to Run.
type Approvals struct {
	mu    sync.Mutex
	queue func(func(*App)) // runs a function on the UI's goroutine; nil when no UI runs
	// Session is what the person allowed for the rest of this run (a):
	// the same command with the same arguments, or the same MCP call.
	Session approval.Session
}

// NewApprovals returns an Approvals that refuses until Run attaches it.
func NewApprovals() *Approvals { return &Approvals{} }

func (p *Approvals) attach(q func(func(*App))) {
	p.mu.Lock()
	p.queue = q
	p.mu.Unlock()
}

// approvalReq is one pending approval.
type approvalReq struct {
	agent      rlm.Agent // who asks (zero when Approve was called without it)
	raw        json.RawMessage
	op         approval.Op
	answer     chan approvalAnswer
	desc       *block // the description line, nil without one
	cancelDesc context.CancelFunc
}

// approvalAnswer is what Approve returns.
type approvalAnswer struct {
	ok  bool
	err error
}

// Approve implements rlm.Approver. A refusal is (false, nil), or a
// *approval.Refusal carrying the person's note for the model.
func (p *Approvals) Approve(ctx context.Context, raw json.RawMessage) (bool, error) {
	return p.ApproveFor(ctx, rlm.Agent{}, "", raw)
}

// ApproveFor implements rlm.AgentApprover: the request is queued behind
// the others pending, in arrival order, and names the agent that asks
// when several run at once; the transcript follows the agent whose
// request is answered now.
func (p *Approvals) ApproveFor(ctx context.Context, who rlm.Agent, _ string, raw json.RawMessage) (bool, error) {
	op := approval.Parse(raw)
	if p.Session.Allowed(op) {
		return true, nil
	}
	p.mu.Lock()
	q := p.queue
	p.mu.Unlock()
	if q == nil {
		return false, errors.New("no one is at the terminal to approve it")
	}
	req := &approvalReq{agent: who, raw: raw, op: op, answer: make(chan approvalAnswer, 1)}
	q(func(a *App) { a.addApproval(req) })
	select {
	case ans := <-req.answer:
		return ans.ok, ans.err
	case <-ctx.Done():
		q(func(a *App) { a.dropApproval(req) })
		return false, ctx.Err()
	}
}

// approvalPrompt is the oldest pending approval's prompt: whether its JSON is
// shown, and the note of a refusal being typed (t). It is reset when
// another approval comes first.
type approvalPrompt struct {
	req    *approvalReq
	json   bool
	noting bool
	note   input
	b      *block // the prompt's block, reused between frames
}

// head returns the oldest pending approval, resetting the prompt when it
// changed; nil when none waits.
func (a *App) head() *approvalReq {
	if len(a.pending) == 0 {
		a.prompt = approvalPrompt{b: a.prompt.b}
		return nil
	}
	if r := a.pending[0]; a.prompt.req != r {
		a.prompt = approvalPrompt{req: r, b: a.prompt.b, note: input{label: noteLabel}}
	}
	return a.pending[0]
}

// noteLabel is the input's label while a refusal's note is typed.
const noteLabel = "note for the model> "

// answerable says whether y, a, n, t and j answer the oldest pending
// approval now: one is pending, no note is being typed, and the person is
// not in the middle of writing a message (the input is empty, or nothing
// was typed for typingGuard).
func (a *App) answerable() bool {
	if a.head() == nil || a.prompt.noting {
		return false
	}
	return a.in.text == "" || a.clock.Now().Sub(a.lastTyped) >= typingGuard
}

// addApproval queues a request from Approvals.Approve.
func (a *App) addApproval(req *approvalReq) {
	if a.opts.Approvals.Session.Allowed(req.op) { // allowed meanwhile
		req.answer <- approvalAnswer{ok: true}
		return
	}
	a.pending = append(a.pending, req)
	if len(a.pending) == 1 {
		a.describe(req)
		a.ovDirty = true // the transcript follows the agent asking
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
func (a *App) answer(ans approvalAnswer) {
	req := a.head()
	if req == nil {
		return
	}
	a.pending = a.pending[1:]
	a.finish(req)
	req.answer <- ans
	a.settle()
}

// settle answers the pending approvals that no longer need the person
// (allowed for the session, or writes the level now permits) and
// describes the next one.
func (a *App) settle() {
	keep := a.pending[:0]
	for _, r := range a.pending {
		switch {
		case a.opts.Approvals.Session.Allowed(r.op),
			r.op.Kind == approval.Write && a.opts.Level.Get().CanWrite():
			a.finish(r)
			r.answer <- approvalAnswer{ok: true}
		default:
			keep = append(keep, r)
		}
	}
	clear(a.pending[len(keep):])
	a.pending = keep
	if len(a.pending) > 0 {
		a.describe(a.pending[0])
	}
}

// answerKey acts on an answer key.
func (a *App) answerKey(c Cmd) {
	req := a.head()
	if req == nil {
		return
	}
	switch c {
	case CmdAllow:
		a.answer(approvalAnswer{ok: true})
	case CmdDeny:
		a.answer(approvalAnswer{})
	case CmdAllowSession:
		if req.op.Kind == approval.Write {
			a.setPermission(config.PermReadWrite)
			a.answer(approvalAnswer{ok: true})
			return
		}
		if a.opts.Approvals.Session.Allow(req.op) {
			a.answer(approvalAnswer{ok: true})
		}
	case CmdDenyNote:
		a.prompt.noting = true
	case CmdShowJSON:
		a.prompt.json = !a.prompt.json
	}
}

// noteKey handles a key while a refusal's note is typed: the keys edit
// it, Enter refuses with it, Esc and Ctrl+C go back to the prompt. It
// reports false for keys it leaves to the rest of the UI (scrolling).
func (a *App) noteKey(act Action) bool {
	n := &a.prompt.note
	switch act.Cmd {
	case CmdInsert:
		n.insert(string(act.Rune))
	case CmdNewline:
		n.insert("\n")
	case CmdBackspace:
		n.backspace()
	case CmdDelete:
		n.del()
	case CmdKillEnd:
		n.killEnd()
	case CmdKillStart:
		n.killStart()
	case CmdLeft:
		n.left()
	case CmdRight:
		n.right()
	case CmdHome:
		n.home()
	case CmdEnd:
		n.end()
	case CmdEscape, CmdInterrupt:
		a.prompt.noting = false
	case CmdSend:
		note := strings.TrimSpace(n.text)
		if note == "" {
			a.answer(approvalAnswer{})
		} else {
			a.answer(approvalAnswer{err: &approval.Refusal{Note: note}})
		}
	default:
		return false
	}
	return true
}

// noting reports whether a refusal's note is being typed.
func (a *App) noting() bool { return a.head() != nil && a.prompt.noting }

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
		text, err := describe(ctx, req.raw)
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

// answerHints are the answer keys a prompt offers, as the prompt and the
// status line name them.
func answerHints(op approval.Op, short bool) []string {
	if op.Kind == approval.Write {
		if short {
			return []string{"y this write", "a read-write", "n refuse", "t note"}
		}
		return []string{"y allow this write once", "a switch to read-write (saved, as Shift+Tab)", "n refuse", "t refuse with a note"}
	}
	var out []string
	if short {
		out = []string{"y once"}
		if op.Key() != "" {
			out = append(out, "a session")
		}
		return append(out, "n refuse", "t note")
	}
	out = []string{"y allow once"}
	if op.Key() != "" {
		out = append(out, "a allow "+op.Subject()+" for this session")
	}
	return append(out, "n refuse", "t refuse with a note")
}

// promptText is the text of the oldest pending approval's prompt.
func (a *App) promptText(req *approvalReq) string {
	var sb strings.Builder
	if a.namesAgents() && req.agent.Depth > 0 {
		sb.WriteString(req.agent.Name + " asks: ")
	}
	sb.WriteString(req.op.Line())
	if n := len(a.pending) - 1; n > 0 {
		fmt.Fprintf(&sb, "  (%d more waiting)", n)
	}
	if req.op.Kind == approval.Write {
		what := "read the repository, not change it"
		if req.op.Permission == config.PermNone.String() {
			what = "neither read nor change the repository"
		}
		sb.WriteString("\nThe permission " + req.op.Permission + " lets agents " + what + ": this change waits for your answer.")
	}
	sb.WriteString("\n" + strings.Join(answerHints(req.op, false), " · "))
	if a.prompt.json {
		sb.WriteString(" · j hide the JSON\n" + req.op.Pretty())
	} else {
		sb.WriteString(" · j show the JSON")
	}
	if a.prompt.noting {
		sb.WriteString("\nType the note for the model below; Enter refuses with it, Esc goes back.")
	}
	return sb.String()
}

// namesAgents reports whether prompts name the agent asking: while
// subagents run at once, or requests of several agents wait.
func (a *App) namesAgents() bool {
	if a.stripShown() {
		return true
	}
	for _, r := range a.pending {
		if r.agent != a.pending[0].agent {
			return true
		}
	}
	return false
}

// tail is what the transcript shows under the on-screen agent's blocks:
// the oldest pending approval's prompt and its description.
func (a *App) tail() []*block {
	req := a.head()
	if req == nil {
		return nil
	}
	text := a.promptText(req)
	if a.prompt.b == nil {
		a.prompt.b = newBlock(kApproval, "", text, true)
	} else if a.prompt.b.String() != text {
		a.prompt.b.set(text)
	}
	out := []*block{a.prompt.b}
	if req.desc != nil {
		out = append(out, req.desc)
	}
	return out
}

// answeredText is the line an answered approval leaves in the agent's
// transcript.
func (a *App) answeredText(raw json.RawMessage, allowed bool, reason string) string {
	op := approval.Parse(raw)
	switch {
	case allowed && a.opts.Approvals.Session.Allowed(op):
		return "Allowed for this session: " + op.Line()
	case allowed:
		return "Allowed: " + op.Line()
	}
	s := "Refused: " + op.Line()
	if reason != "" {
		s += " (" + reason + ")"
	}
	return s
}

// allowedText is what /tools adds about the operations allowed for the
// session.
func (a *App) allowedText() string {
	lines := a.opts.Approvals.Session.Lines()
	if len(lines) == 0 {
		return "Allowed for this session (a): nothing yet. Commands outside [commands.allow] ask each time until you answer a."
	}
	return "Allowed for this session (a), never written to config.toml:\n  " + strings.Join(lines, "\n  ")
}
