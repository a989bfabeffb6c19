// The transcript's content: blocks of text, each wrapped lazily and cached.

package ui

import "strings"

// kind says what a block shows, and so its colour.
type kind int

const (
	kSystem      kind = iota // the agent's system message
	kUser                    // a user message (for a subagent: its task)
	kReasoning               // the model's reasoning
	kAssistant               // answer text
	kCall                    // a tool call and its arguments
	kOutput                  // what a running tool printed
	kResult                  // a tool result
	kApproval                // a pending or answered approval
	kDescription             // an approval description (never saved)
	kNote                    // a failure note (never saved)
	kError                   // an error (never saved)
	kInfo                    // command output such as /tools (never saved)
)

// block is one piece of the transcript: a message part, a tool call, a
// result, a note. Its wrapped lines are cached for one width and rebuilt
// only when the width or the text changes, so a frame re-wraps at most the
// block being streamed into.
type block struct {
	kind kind
	id   string // the tool call ID, for calls, outputs, results and notes
	gap  bool   // a blank line above (the first block of a message)
	text strings.Builder

	name string          // a call's tool name
	args strings.Builder // a streamed call's arguments so far

	// callArgs, when lazy, are a saved call's arguments, formatted into
	// text when first needed: opening a huge session decodes only the
	// calls that are drawn.
	callArgs string
	lazy     bool

	// extra: the block shows no message (added with view.add); after is
	// the message it followed, to keep it there when the view is reset.
	extra bool
	after msgKey

	ver        int // bumped by every change of text
	cacheW     int
	cacheVer   int
	cacheLines []seg
}

func newBlock(k kind, id, text string, gap bool) *block {
	b := &block{kind: k, id: id, gap: gap}
	b.text.WriteString(text)
	return b
}

// newCallBlock returns the block of a saved tool call.
func newCallBlock(id, name, args string, gap bool) *block {
	return &block{kind: kCall, id: id, gap: gap, name: name, callArgs: args, lazy: true}
}

// ensure formats a lazy call block's text.
func (b *block) ensure() {
	if b.lazy {
		b.lazy = false
		b.text.WriteString(formatCall(b.name, b.callArgs))
		b.callArgs = ""
	}
}

func (b *block) String() string {
	b.ensure()
	return b.text.String()
}

// add appends streamed text.
func (b *block) add(s string) {
	b.ensure()
	b.text.WriteString(s)
	b.ver++
}

// set replaces the text.
func (b *block) set(s string) {
	b.lazy = false
	b.text.Reset()
	b.text.WriteString(s)
	b.ver++
}

// lines returns the block's lines at width w (the gap line first, as an
// empty segment at -1).
func (b *block) lines(w int) []seg {
	if b.cacheLines != nil && b.cacheW == w && b.cacheVer == b.ver {
		return b.cacheLines
	}
	var out []seg
	if b.gap {
		out = append(out, seg{-1, -1})
	}
	out = wrap(b.String(), w, out)
	b.cacheLines, b.cacheW, b.cacheVer = out, w, b.ver
	return out
}

// lineText returns line i of the block at width w.
func (b *block) lineText(w, i int) string {
	s := b.lines(w)[i]
	if s.start < 0 {
		return ""
	}
	return b.String()[s.start:s.end]
}

// doc is what the transcript widget shows: a view's blocks followed by
// tail blocks (a pending approval and its description), addressed as one
// list.
type doc struct {
	blocks []*block
	tail   []*block
}

func (d doc) n() int { return len(d.blocks) + len(d.tail) }

func (d doc) at(i int) *block {
	if i < len(d.blocks) {
		return d.blocks[i]
	}
	return d.tail[i-len(d.blocks)]
}

// pos is a line of the document: line l of block b.
type pos struct{ b, l int }

// less orders positions.
func (p pos) less(q pos) bool { return p.b < q.b || p.b == q.b && p.l < q.l }

// end returns the position after the document's last line.
func (d doc) end() pos { return pos{d.n(), 0} }

// back moves p up by n lines and returns the new position and how many
// lines it moved (fewer at the top).
func (d doc) back(p pos, n, w int) (pos, int) {
	moved := 0
	for moved < n {
		if p.l > 0 {
			step := min(p.l, n-moved)
			p.l -= step
			moved += step
			continue
		}
		if p.b == 0 {
			break
		}
		p.b--
		p.l = len(d.at(p.b).lines(w))
	}
	return p, moved
}

// fwd moves p down by n lines, stopping at the end.
func (d doc) fwd(p pos, n, w int) (pos, int) {
	moved := 0
	for moved < n && p.b < d.n() {
		k := len(d.at(p.b).lines(w))
		if p.l+n-moved < k {
			p.l += n - moved
			return p, n
		}
		moved += k - p.l
		p = pos{p.b + 1, 0}
	}
	return p, moved
}

// norm turns a position at the end of a block into the start of the next.
func (d doc) norm(p pos, w int) pos {
	for p.b < d.n() && p.l >= len(d.at(p.b).lines(w)) {
		p = pos{p.b + 1, 0}
	}
	return p
}
