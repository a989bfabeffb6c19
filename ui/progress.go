// Progress: a spinner with the seconds waited in the status line, and a
// long run() command's line under its call.

package ui

import (
	"fmt"
	"time"

	"harness/approval"
	"harness/llm"
	"harness/rlm"
)

// spinner is the status line's spinner, one frame per spinStep.
var spinner = []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

const (
	spinStep = 125 * time.Millisecond
	// cmdShown is how long a run() command runs before its line shows.
	cmdShown = time.Second
)

// phase is what the turn is doing now.
type phase int

const (
	phaseIdle      phase = iota
	phaseWaiting         // a request was sent: waiting for its first token
	phaseStreaming       // the reply is arriving
	phaseTool            // a tool runs
)

// progress is the App's progress state: the phase of the turn since when,
// the run() commands running, and whether a tick is scheduled.
type progress struct {
	phase phase
	since time.Time
	tool  string
	cmds  []*runningCmd
	timer llm.Timer
}

// runningCmd is a run() command of call id, shown under it once it has
// run for cmdShown.
type runningCmd struct {
	agent rlm.Agent
	id    string
	argv  []string
	since time.Time
	b     *block // its line, once shown
}

// setPhase moves the turn to p (a new request restarts the count).
func (a *App) setPhase(p phase, tool string) {
	g := &a.prog
	if g.phase != p || p == phaseWaiting {
		g.since = a.retryClock().Now()
	}
	g.phase, g.tool = p, tool
	a.scheduleTick()
}

// track follows the events that change the phase: while subagents run at
// once (the strip is shown), only those of the subagent followed.
func (a *App) track(ev rlm.Event) {
	if a.stripShown() {
		switch ev.(type) {
		case rlm.CommandStarted, rlm.CommandEnded, rlm.TurnDone:
		default:
			if v := a.followed(); v != nil && ev.Of() != v.agent {
				return
			}
		}
	}
	switch e := ev.(type) {
	case rlm.AgentStart, rlm.ToolResult:
		a.setPhase(phaseWaiting, "")
	case rlm.MessageAdded:
		if e.Message.Role != "assistant" || len(e.Message.ToolCalls) == 0 {
			a.setPhase(phaseWaiting, "")
		}
	case rlm.ReasoningDelta, rlm.TextDelta, rlm.ToolArgsDelta, rlm.ToolCallStarted:
		if a.prog.phase != phaseStreaming {
			a.setPhase(phaseStreaming, "")
		}
	case rlm.ToolCall:
		if e.Name != rlm.RLMTool {
			a.setPhase(phaseTool, e.Name)
		}
	case rlm.Retry, rlm.TurnDone:
		a.setPhase(phaseIdle, "")
	case rlm.CommandStarted:
		a.reg.argvs[e.ID] = append(a.reg.argvs[e.ID], e.Argv)
		a.prog.cmds = append(a.prog.cmds, &runningCmd{agent: e.Agent, id: e.ID, argv: e.Argv, since: a.retryClock().Now()})
		a.scheduleTick()
	case rlm.CommandEnded:
		a.endCommand(e.Agent, e.ID)
	}
}

// endCommand removes the line of call id's command.
func (a *App) endCommand(ag rlm.Agent, id string) {
	cs := a.prog.cmds
	for i, c := range cs {
		if c.id != id || c.agent != ag {
			continue
		}
		if c.b != nil {
			if v := a.viewOf(ag); v != nil {
				v.remove(c.b)
			}
		}
		a.prog.cmds = append(cs[:i], cs[i+1:]...)
		return
	}
}

// ticking reports whether something on screen counts seconds.
func (a *App) ticking() bool {
	p := a.prog.phase
	return a.running && (p == phaseWaiting || p == phaseTool) || len(a.prog.cmds) > 0 || a.stripShown()
}

// scheduleTick asks for the next frame of the spinner while one shows.
func (a *App) scheduleTick() {
	if a.prog.timer != nil || !a.ticking() {
		return
	}
	a.prog.timer = a.retryClock().AfterFunc(spinStep, func() {
		a.post(func() {
			a.prog.timer = nil
			a.showCommands()
			a.scheduleTick()
		})
	})
}

// showCommands adds or updates the line of each command running long.
func (a *App) showCommands() {
	now := a.retryClock().Now()
	for _, c := range a.prog.cmds {
		d := now.Sub(c.since)
		if d < cmdShown {
			continue
		}
		text := fmt.Sprintf("$ %s · %s", commandLine(c.argv), duration(d.Truncate(time.Second)))
		if c.b != nil {
			if c.b.String() != text {
				c.b.set(text)
			}
			continue
		}
		v := a.viewOf(c.agent)
		if v == nil {
			continue
		}
		v.add(kProgress, c.id, text)
		c.b = v.blocks[len(v.blocks)-1]
	}
}

// commandLine shows argv as a shell would take it, quoting what needs it.
func commandLine(argv []string) string { return approval.ShellLine(argv) }

// progressText is the status line's part about the turn: a spinner and
// the seconds waited while waiting for the first token or a tool.
func (a *App) progressText() string {
	p := a.prog.phase
	if p != phaseWaiting && p != phaseTool {
		return "working"
	}
	d := a.retryClock().Now().Sub(a.prog.since)
	frame := spinner[int(d/spinStep)%len(spinner)]
	return fmt.Sprintf("%c working %d s", frame, int(d.Seconds()))
}
