// Agent views: each agent's transcript, built from its messages and events.

package ui

import (
	"fmt"
	"slices"
	"strings"

	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

// view is the transcript of one agent: the root, or a running subagent.
type view struct {
	agent  rlm.Agent
	system *string
	blocks []*block
	live   []*block // blocks of the reply being streamed, replaced by its message
	tools  []llm.Tool
	scroll scroll

	reg       *registry // what the blocks of every view share
	reviewing bool      // a finished subagent's saved conversation, read-only

	// calls are the saved calls shown, by ID, for their results to find;
	// folds those folded with their output and result into one line (a
	// subagent's start-up call, the root's FYI calls).
	calls, folds map[string]*block
	// open: the agent's turn runs, so its reasoning is shown whole until
	// the turn ends (App.foldReasoning).
	open bool

	// liveTokens estimates the reply being streamed (its blocks'
	// liveRowTokens), updated with each delta.
	liveTokens int
	liveVer    int // bumped when the live blocks change

	items    []sessions.Item // the conversation, for the context overlay
	builder  OverlayBuilder
	total    int  // the overlay's aggregate of the visible turns
	totalEst bool // the aggregate holds a heuristic count
	built    bool // builder has built once: later builds are incremental
	building bool // the first build runs on a goroutine (tokens.go)

	run runState // a running subagent's, for the strip (strip.go)
}

func newView(a rlm.Agent, system *string) *view {
	v := &view{agent: a, system: system, scroll: scroll{follow: true}}
	v.reset(nil)
	return v
}

// reset replaces the view's blocks with the system message and items.
// Blocks that show no message (notes, errors, command output, answered
// approvals) are kept under the message they followed, or under the last
// one before it still there (see anchors): a turn starts with the whole
// conversation again, and what was shown about earlier turns should not
// vanish with it.
func (v *view) reset(items []sessions.Item) {
	extras := make(map[msgKey][]*block)
	anchor := v.anchors(items)
	for _, b := range v.blocks {
		if b.extra {
			b.after = anchor(b.after)
			extras[b.after] = append(extras[b.after], b)
		}
	}
	old := v.blocks
	v.blocks, v.live, v.items = make([]*block, 0, len(items)+len(extras)+1), nil, items
	v.calls, v.folds = map[string]*block{}, map[string]*block{}
	open := v.open
	v.open = false // what the conversation already held is from before
	defer func() { v.open = open }()
	v.countLive()
	clear(old)
	if v.system != nil && *v.system != "" {
		v.blocks = append(v.blocks, newBlock(kSystem, "", *v.system, false))
	}
	v.blocks = append(v.blocks, extras[msgKey{}]...)
	for _, it := range items {
		if c := it.Compaction; c != nil {
			v.blocks = append(v.blocks, newBlock(kContext, "", compactionText(c), false))
		}
		if it.Hidden {
			continue
		}
		v.addBlocks(it.Message)
		if len(extras) > 0 {
			k := keyOfMessage(&it.Message)
			v.blocks = append(v.blocks, extras[k]...)
			delete(extras, k)
		}
	}
	v.scroll = scroll{follow: true}
}

// anchors returns where a kept block goes in items: under the message it
// followed, or, when items no longer hold that message (a failed or
// stopped turn ends on its FYI call, which the next turn removes), under
// the last message before it that is still there.
func (v *view) anchors(items []sessions.Item) func(msgKey) msgKey {
	var present map[msgKey]bool
	var old map[msgKey]int
	return func(k msgKey) msgKey {
		if k == (msgKey{}) {
			return k
		}
		if present == nil {
			present = make(map[msgKey]bool, len(items))
			for i := range items {
				present[keyOfMessage(&items[i].Message)] = true
			}
		}
		if present[k] {
			return k
		}
		if old == nil {
			old = make(map[msgKey]int, len(v.items))
			for i := range v.items {
				old[keyOfMessage(&v.items[i].Message)] = i
			}
		}
		i, ok := old[k]
		if !ok {
			return k // unknown: dropped, as before
		}
		for i--; i >= 0; i-- {
			if p := keyOfMessage(&v.items[i].Message); present[p] {
				return p
			}
		}
		return msgKey{}
	}
}

// msgKey identifies a saved message well enough to find it again in the
// conversation a turn starts with (call IDs are unique; strings shared
// with the earlier conversation compare in constant time).
type msgKey struct {
	role, content, callID, firstCall string
}

func keyOfMessage(m *llm.Message) msgKey {
	k := msgKey{role: m.Role, content: m.Content, callID: m.ToolCallID}
	if len(m.ToolCalls) > 0 {
		k.firstCall = m.ToolCalls[0].ID
	}
	return k
}

// lastKey is the key of the view's last saved message ({} when none).
func (v *view) lastKey() msgKey {
	for i := len(v.items) - 1; i >= 0; i-- {
		if !v.items[i].Hidden {
			return keyOfMessage(&v.items[i].Message)
		}
	}
	return msgKey{}
}

// addMessage appends a saved message. A streamed reply's message takes
// the place of its live blocks, so notes and command output shown while
// it streamed stay below it.
func (v *view) addMessage(m llm.Message) {
	v.items = append(v.items, sessions.Item{Message: m})
	at := -1
	if len(v.live) > 0 {
		at = v.lastIndex(v.live[0])
	}
	v.dropLive()
	if m.Role == "tool" {
		v.addResult(m)
		return
	}
	if at < 0 || at >= len(v.blocks) {
		v.addBlocks(m)
		return
	}
	tail := slices.Clone(v.blocks[at:])
	v.blocks = v.blocks[:at]
	v.addBlocks(m)
	v.blocks = append(v.blocks, tail...)
}

// addResult appends a tool result. A failure note shown while the call
// ran whose failure the result states moves below it, cut to how often
// the failure occurred: the error is shown once, in the result the model
// got, not twice.
func (v *view) addResult(m llm.Message) {
	var moved []*block
	for i := len(v.blocks) - 1; i >= 0 && i >= len(v.blocks)-8; i-- {
		b := v.blocks[i]
		if b.kind != kNote || b.failure == "" {
			if b.extra {
				continue
			}
			break
		}
		if strings.Contains(m.Content, b.failure) {
			v.blocks = append(v.blocks[:i], v.blocks[i+1:]...)
			moved = append(moved, b)
		}
	}
	v.addBlocks(m)
	for i := len(moved) - 1; i >= 0; i-- {
		b := moved[i]
		if b.count == 0 {
			continue // nothing to add to what the result says
		}
		b.set("⚠ this failure: " + occurrences(b.count))
		b.after = keyOfMessage(&m)
		v.blocks = append(v.blocks, b)
	}
}

// occurrences says how often a failure has occurred across sessions.
func occurrences(n int) string {
	if n == 1 {
		return "first occurrence"
	}
	return fmt.Sprintf("seen %d times", n)
}

// endsStopped reports whether the transcript already ends with the stop
// marker: a stopped rlm call's result ends with it, and the turn's own
// note would repeat it.
func (v *view) endsStopped() bool {
	if n := len(v.blocks); n > 0 {
		b := v.blocks[n-1]
		return b.kind == kResult && strings.HasSuffix(strings.TrimSpace(b.String()), rlm.StoppedMarker)
	}
	return false
}

// addBlocks appends the blocks showing m.
func (v *view) addBlocks(m llm.Message) {
	switch m.Role {
	case "user":
		v.blocks = append(v.blocks, newBlock(kUser, "", m.Content, true))
	case "assistant":
		gap := true
		if r := m.Reasoning(); r != "" {
			b := newBlock(kReasoning, "", r, gap)
			b.r.expanded = v.open
			v.blocks = append(v.blocks, b)
			gap = false
		}
		if m.Content != "" { // a blank line under the reasoning too
			v.blocks = append(v.blocks, newBlock(kAssistant, "", m.Content, true))
			gap = false
		}
		for _, c := range m.ToolCalls {
			b := newCallBlock(c.ID, c.Name, c.Arguments, gap)
			if v.calls == nil {
				v.calls = map[string]*block{}
			}
			v.calls[c.ID] = b
			v.link(b)
			v.blocks = append(v.blocks, b)
			gap = false
		}
	case "tool":
		// A final newline (FYI's, a command's output) would draw a blank
		// line on top of the one above the next message.
		b := newBlock(kResult, m.ToolCallID, strings.TrimRight(m.Content, "\n"), false)
		v.linkResult(b)
		v.blocks = append(v.blocks, b)
	default:
		v.blocks = append(v.blocks, newBlock(kAssistant, "", m.Content, true))
	}
}

// link connects a call block to what it draws from: an rlm call to its
// subagent's figures, an apply_patch call to the old texts of its Replace
// Files, a subagent's first repl call (the start-up call) and the root's
// FYI calls to their folding.
func (v *view) link(b *block) {
	if v.folds == nil {
		v.folds = map[string]*block{}
	}
	switch {
	case b.name == rlm.FYITool && v.agent.Depth == 0:
		b.r.startup, b.r.fyi = true, true
		v.folds[b.id] = b
	case b.name == rlm.REPLTool && v.agent.Depth > 0 && len(v.folds) == 0 && isStartupCode(b.callArgs):
		b.r.startup = true
		v.folds[b.id] = b
	}
	if v.reg == nil {
		return
	}
	switch b.name {
	case rlm.RLMTool:
		b.r.sub = v.reg.sub(b.id, v.agent.Depth+1)
	case rlm.ApplyPatchTool:
		b.r.bases = v.reg.bases[b.id]
	}
}

// linkResult connects a result to its call: a folded call's result folds
// into the call's line, a subagent's answer is drawn as markdown, a REPL
// result pairs its run() values with their commands, and a patch that did
// not apply says so on its call.
func (v *view) linkResult(b *block) {
	if c := v.folds[b.id]; c != nil {
		b.r.startup, b.r.call = true, c
		c.r.res = b
		c.ver++
		return
	}
	c := v.calls[b.id]
	if c == nil {
		return
	}
	switch c.name {
	case rlm.RLMTool:
		b.r.answer, b.gap = true, true // set apart from the task above it
	case rlm.REPLTool:
		b.r.repl = true
		if v.reg != nil && len(v.reg.argvs[b.id]) > 0 {
			b.r.argvs = v.reg.argvs[b.id]
		} else if f, ok := objectFields(c.callArgs); ok && len(f) == 1 {
			b.r.argvs = codeCommands(f[0].val)
		}
	case rlm.ApplyPatchTool:
		c.r.failure = patchFailure(b.text)
		c.ver++
	}
}

// foldReasoning ends the agent's turn on screen: its reasoning folds,
// except where the person unfolded or folded it themselves.
func (v *view) foldReasoning() {
	v.open = false
	for _, b := range v.blocks {
		if b.kind != kReasoning {
			continue
		}
		if b.r.streaming { // a stopped reply's, no longer streamed into
			b.r.streaming, b.r.md = false, nil
			b.ver++
		}
		if !b.r.touched && b.r.expanded {
			b.r.expanded = false
			b.ver++
		}
	}
}

// liveCall returns the streamed call block id, creating it; name is ""
// when unknown.
func (v *view) liveCall(id, name string) *block {
	b := v.liveBlock(kCall, id, "")
	if name != "" {
		b.name = name
		if name == rlm.RLMTool && v.reg != nil {
			b.r.sub = v.reg.sub(id, v.agent.Depth+1)
		}
	}
	return b
}

// addArgs appends streamed arguments to a call block; they are formatted
// when the block is next drawn.
func (b *block) addArgs(s string) {
	b.live().args.WriteString(s)
	b.argsStale = true
	b.streamed += contextJSONStringLen(s) - len(`""`)
	b.ver++
}

// liveRowTokens estimates what a streamed block will add to its turn: the
// JSON member its message will hold it in, as llm.EstimateTurn counts.
func (b *block) liveRowTokens() int {
	n := b.streamed
	switch b.kind {
	case kReasoning:
		n += len(`"reasoning_content":"",`)
	case kCall:
		n += len(`{"id":"","type":"function","function":{"name":"","arguments":""}},`) + len(b.id) + len(b.name)
	default:
		n += len(`{"role":"assistant","content":""},`)
	}
	return llm.EstimateBytes(n)
}

// liveRow is a streamed block's row in the context overlay.
func (b *block) liveRow() OverlayRow {
	r := OverlayRow{Role: contextRoleAssistant, Tokens: b.liveRowTokens(), Estimated: true}
	switch b.kind {
	case kReasoning:
		r.Role, r.Preview = contextRoleReasoning, contextPreview(b.text)
	case kCall:
		// The preview's runes come from the arguments' start: a streamed
		// patch is not copied whole every frame for them.
		args := b.argsText()
		r.Role, r.Preview = contextRoleTool, contextPreview(b.name+" "+args[:min(len(args), 64*contextPreviewRunes)])
	default:
		r.Preview = contextPreview(b.text)
	}
	return r
}

// countLive sums the streamed blocks' estimates into liveTokens and marks
// the live rows changed.
func (v *view) countLive() {
	v.liveTokens = 0
	for _, b := range v.live {
		v.liveTokens += b.liveRowTokens()
	}
	v.liveVer++
}

// liveBlock returns the streamed block of kind k (and call id), creating it.
func (v *view) liveBlock(k kind, id, header string) *block {
	for _, b := range v.live {
		if b.kind == k && b.id == id {
			return b
		}
	}
	b := newBlock(k, id, header, len(v.live) == 0 || k == kAssistant)
	b.r.streaming = true
	v.live = append(v.live, b)
	v.blocks = append(v.blocks, b)
	return b
}

// lastIndex is the index of b in the blocks, searched from the end (the
// blocks looked for are the recent ones), or -1.
func (v *view) lastIndex(b *block) int {
	for i := len(v.blocks) - 1; i >= 0; i-- {
		if v.blocks[i] == b {
			return i
		}
	}
	return -1
}

// remove removes block b (searched from the end).
func (v *view) remove(b *block) {
	if i := v.lastIndex(b); i >= 0 {
		v.blocks = append(v.blocks[:i], v.blocks[i+1:]...)
	}
}

// dropLive removes the streamed blocks, which a message replaces. They
// are at the end, after at most a few notes: only the blocks from the
// first of them on are looked at, not the whole transcript.
func (v *view) dropLive() {
	if len(v.live) == 0 {
		return
	}
	if from := v.lastIndex(v.live[0]); from >= 0 {
		drop := make(map[*block]bool, len(v.live))
		for _, b := range v.live {
			drop[b] = true
		}
		out := v.blocks[:from]
		for _, b := range v.blocks[from:] {
			if !drop[b] {
				out = append(out, b)
			}
		}
		clear(v.blocks[len(out):])
		v.blocks = out
	}
	v.live = nil
	v.countLive()
}

// output appends printed text to call id's output block.
func (v *view) output(id, text string) {
	for i := len(v.blocks) - 1; i >= 0 && i >= len(v.blocks)-8; i-- {
		if b := v.blocks[i]; b.kind == kOutput && b.id == id {
			b.add(text)
			return
		}
	}
	b := newBlock(kOutput, id, text, false)
	if c := v.folds[id]; c != nil {
		b.r.startup, b.r.call = true, c
	}
	v.blocks = append(v.blocks, b)
}

// endOutput removes call id's output block: its result follows.
func (v *view) endOutput(id string) {
	for i := len(v.blocks) - 1; i >= 0 && i >= len(v.blocks)-8; i-- {
		if b := v.blocks[i]; b.kind == kOutput && b.id == id {
			v.blocks = append(v.blocks[:i], v.blocks[i+1:]...)
			return
		}
	}
}

// add appends a block that is not part of any message.
func (v *view) add(k kind, id, text string) {
	b := newBlock(k, id, text, false)
	b.extra, b.after = true, v.lastKey()
	v.blocks = append(v.blocks, b)
}

// setApart puts a blank line above the last block, a notice standing
// for a reply (a retry's, the turn's error), unless it follows another
// notice: a run of them reads as one.
func (v *view) setApart() {
	k := len(v.blocks)
	if k < 2 || v.blocks[k-2].kind != kNote && v.blocks[k-2].kind != kError {
		v.blocks[k-1].gap = true
	}
}

// toolsText is what /tools shows: every tool's name and full description.
func toolsText(tools []llm.Tool) string {
	if len(tools) == 0 {
		return "No tools."
	}
	var sb strings.Builder
	for i, t := range tools {
		if i > 0 {
			sb.WriteString("\n\n")
		}
		fmt.Fprintf(&sb, "%s\n%s", t.Name, strings.TrimRight(t.Description, "\n"))
	}
	return sb.String()
}

// compactionText is the transcript's line for a compaction entry.
func compactionText(c *sessions.Compaction) string {
	s := "context: summary of " + sessions.TurnRange(c.Turns) + ", sent in their place"
	if c.Off {
		s = "context: summary of " + sessions.TurnRange(c.Turns) + " (hidden in the overlay, not sent)"
	}
	return s + "\n" + c.Summary
}
