// The transcript's content: blocks of text, each wrapped lazily and cached.

package ui

import (
	"strings"
	"unicode/utf8"

	"harness/diffview"
)

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
	kProgress                // a long run() command's line while it runs (never saved)
	kWelcome                 // the welcome of an empty session (never saved)
	kHelp                    // /help and ? (never saved)
	kContext                 // a request made to fit the context window (never saved)
)

// block is one piece of the transcript: a message part, a tool call, a
// result, a note. Its wrapped lines are cached for one width. A block is
// rendered on its own, from its text alone, so a change re-renders only
// that block: a new width or replaced text wraps it again whole, and text
// appended by a stream re-wraps only from the start of its last line (the
// only line break that appended text can move), so a frame costs what was
// streamed since the last one, however long the reply.
type block struct {
	kind kind
	id   string // the tool call ID, for calls, outputs, results and notes
	gap  bool   // a blank line above (the first block of a message)
	// text is the block's text: a saved message's own string (shared with
	// the conversation, not copied), or what buf holds for a block that is
	// streamed into.
	text string

	name string // a call's tool name
	// lv is what a streamed block holds while it streams (nil for the
	// blocks of saved messages, most of a resumed session's).
	lv *streamState

	// callArgs, when lazy, are a saved call's arguments, formatted into
	// text when first needed: opening a huge session decodes only the
	// calls that are drawn.
	callArgs string
	lazy     bool

	// extra: the block shows no message (added with view.add); after is
	// the message it followed, to keep it there when the view is reset.
	extra bool
	after msgKey

	// argsStale: args grew since text was formatted from them (a
	// streamed call is formatted once per frame, when drawn).
	argsStale bool
	// streamed is the size of the text or arguments streamed in, as JSON
	// string content: what the saved message will add to the turn.
	streamed int

	r rendering // how a styled block is drawn (render.go)

	// A failure note: the failure's first line and its occurrences.
	failure string
	count   int

	ver        int // bumped by every change of text
	replaced   int // ver at the last change that was not an append
	cacheW     int
	cacheVer   int
	cacheLines []seg
	cacheWhole bool // the text cached ends with a whole character (endsWhole)
}

// streamState is a streamed block's text and arguments as they arrive,
// and how the arguments are decoded and drawn meanwhile.
type streamState struct {
	buf  strings.Builder // the streamed text so far
	args strings.Builder // a streamed call's arguments so far
	dec  argStream       // args, decoded as they arrive
	diff diffview.Stream // a streamed apply_patch call's diff
}

// live returns b's streamState, made on first use.
func (b *block) live() *streamState {
	if b.lv == nil {
		b.lv = &streamState{}
	}
	return b.lv
}

// argsText returns a streamed call's arguments so far.
func (b *block) argsText() string {
	if b.lv == nil {
		return ""
	}
	return b.lv.args.String()
}

func newBlock(k kind, id, text string, gap bool) *block {
	return &block{kind: k, id: id, gap: gap, text: text}
}

// newCallBlock returns the block of a saved tool call.
func newCallBlock(id, name, args string, gap bool) *block {
	return &block{kind: kCall, id: id, gap: gap, name: name, callArgs: args, lazy: true}
}

// ensure formats a lazy call block's text, or a streamed call's new
// arguments.
func (b *block) ensure() {
	switch {
	case b.lazy:
		b.lazy = false
		b.text = formatCall(b.name, b.callArgs) // callArgs stay: styled calls draw from them
	case b.argsStale:
		b.argsStale = false
		name := b.name
		if name == "" {
			name = "…"
		}
		args := b.argsText()
		fields, ok := b.live().dec.decode(args)
		text := formatFields(name, args, fields, ok)
		if !strings.HasPrefix(text, b.text) || b.text == "" {
			b.replaced = b.ver // not only text appended: wrapped whole again
		}
		b.text = text
	}
}

func (b *block) String() string {
	b.ensure()
	return b.text
}

// add appends streamed text.
func (b *block) add(s string) {
	b.ensure()
	lv := b.live()
	if lv.buf.Len() == 0 {
		lv.buf.WriteString(b.text)
	}
	lv.buf.WriteString(s)
	b.text = lv.buf.String()
	b.streamed += contextJSONStringLen(s) - len(`""`)
	b.ver++
}

// set replaces the text.
func (b *block) set(s string) {
	b.lazy, b.argsStale = false, false
	if b.lv != nil {
		b.lv.buf.Reset()
	}
	b.text = s
	b.ver++
	b.replaced = b.ver
}

// lines returns the block's lines at width w (the gap line first, as an
// empty segment at -1).
func (b *block) lines(w int) []seg {
	b.ensure()
	if b.cacheLines != nil && b.cacheW == w {
		if b.cacheVer == b.ver {
			return b.cacheLines
		}
		if b.replaced <= b.cacheVer && b.cacheWhole {
			// Only appended since: the lines before the last stay.
			n := len(b.cacheLines)
			from := b.cacheLines[n-1].start // wrap ends with a text line, never the gap
			b.cacheLines = wrapFrom(b.text, from, w, b.cacheLines[:n-1])
			b.cacheVer, b.cacheWhole = b.ver, endsWhole(b.text)
			return b.cacheLines
		}
	}
	var out []seg
	if b.gap {
		out = append(out, seg{-1, -1})
	}
	out = wrap(b.String(), w, out)
	b.cacheLines, b.cacheW, b.cacheVer, b.cacheWhole = out, w, b.ver, endsWhole(b.text)
	return out
}

// endsWhole reports whether s does not end in the middle of a UTF-8
// sequence: text appended to one that does could complete its last
// character and change the width of a line before the last, so such a
// block is wrapped whole once more.
func endsWhole(s string) bool {
	i := len(s) - 1
	for i > 0 && i > len(s)-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return i < 0 || utf8.FullRuneInString(s[i:])
}

// lineText returns line i of the block at width w.
func (b *block) lineText(w, i int) string {
	s := b.lines(w)[i]
	if s.start < 0 {
		return ""
	}
	return b.String()[s.start:s.end]
}

// doc is what the transcript widget shows: the welcome of an empty
// session (head, nil when none), a view's blocks, then tail blocks (a
// pending approval and its description), addressed as one list.
type doc struct {
	head   *block
	blocks []*block
	tail   []*block
}

func (d doc) n() int {
	n := len(d.blocks) + len(d.tail)
	if d.head != nil {
		n++
	}
	return n
}

func (d doc) at(i int) *block {
	if d.head != nil {
		if i == 0 {
			return d.head
		}
		i--
	}
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
		p.l = d.at(p.b).nrows(w)
	}
	return p, moved
}

// fwd moves p down by n lines, stopping at the end.
func (d doc) fwd(p pos, n, w int) (pos, int) {
	moved := 0
	for moved < n && p.b < d.n() {
		k := d.at(p.b).nrows(w)
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
	for p.b < d.n() && p.l >= d.at(p.b).nrows(w) {
		p = pos{p.b + 1, 0}
	}
	return p
}
