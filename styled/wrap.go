// Word wrapping of styled spans into lines.

package styled

import (
	"strings"
	"unicode/utf8"
)

// Indent is what starts each line a run of spans wraps into: First before
// the first line, Rest before the others. The first FirstDecor cells of
// First are decoration, and all of Rest is (see Line.Decoration).
type Indent struct {
	First, Rest []Span
	FirstDecor  int
}

// Wrap lays out spans in lines of at most width cells. Lines break after
// the last space that fits (the spaces there are dropped), a word longer
// than a line is cut, and a "\n" in a span starts a new line. An empty run
// is one line holding only the first indent. The indents are never cut:
// a width narrower than an indent leaves one cell for text.
func Wrap(spans []Span, width int, in Indent) []Line {
	out, _ := WrapFrom(spans, Resume{First: true}, width, in)
	return out
}

// Resume is where a line of a wrap starts: at byte Offset of span Span,
// after a break of kind Break, or the run's first line (First).
type Resume struct {
	Span, Offset int
	Break        Break
	First        bool
}

// WrapFrom wraps spans as Wrap does, from the line that starts at r (the
// first line for Resume{First: true}), and returns the lines from there
// on and where the last of them starts. Lines break only where the text
// before them decides, so a run of spans that grows at its end keeps the
// lines before its last: wrapping it again from the last one's Resume
// gives what wrapping it all gives.
func WrapFrom(spans []Span, r Resume, width int, in Indent) ([]Line, Resume) {
	w := wrapper{width: width, in: in}
	if r.First {
		w.start(Hard, in.First, in.FirstDecor)
	} else {
		w.start(r.Break, in.Rest, -1)
	}
	w.at = r
	for si := r.Span; si < len(spans); si++ {
		sp := spans[si]
		off := 0
		if si == r.Span {
			off = r.Offset
		}
		text := sp.Text[off:]
		for text != "" {
			i := strings.IndexAny(text, " \n")
			if i < 0 {
				w.piece(text, sp.Style, si, off)
				break
			}
			if i > 0 {
				w.piece(text[:i], sp.Style, si, off)
			}
			w.endWord()
			if text[i] == '\n' {
				w.flush()
				w.start(Hard, in.Rest, -1)
				w.at = Resume{Span: si, Offset: off + i + 1, Break: Hard}
			} else {
				w.space(sp.Style)
			}
			text = text[i+1:]
			off += i + 1
		}
	}
	w.endWord()
	w.flush()
	return w.out, w.at
}

// piece adds text to the word being read: pieces of several spans with no
// space between them are one word, never broken between them.
func (w *wrapper) piece(text string, st Style, span, off int) {
	w.pieces = append(w.pieces, Span{text, st})
	w.pieceAt = append(w.pieceAt, Resume{Span: span, Offset: off})
}

// endWord places the word read so far.
func (w *wrapper) endWord() {
	if len(w.pieces) == 0 {
		return
	}
	w.word(w.pieces)
	w.pieces, w.pieceAt = w.pieces[:0], w.pieceAt[:0]
}

// wrapper is Wrap's state: the line being built, with the spaces seen
// after its last word (written only when a word follows on the line).
type wrapper struct {
	width int
	in    Indent
	out   []Line

	line    Line
	col     int // cells on line, indent included
	minCol  int // cells of the indent
	spaces  int // pending spaces
	spStyle Style
	words   bool   // the line holds a word
	pieces  []Span // the word being read
	pieceAt []Resume
	at      Resume // where the line being built starts

	buf       strings.Builder // the text of the span being written
	openStyle Style
	open      bool
}

// start begins a line after br with the prefix pre, of which decor cells
// are decoration (-1: all of them).
func (w *wrapper) start(br Break, pre []Span, decor int) {
	w.line = Line{Break: br, Spans: append([]Span(nil), pre...)}
	n := 0
	for _, s := range pre {
		n += Width(s.Text)
	}
	if decor < 0 || decor > n {
		decor = n
	}
	w.line.Decoration = decor
	w.col, w.minCol, w.spaces, w.words = n, n, 0, false
}

func (w *wrapper) flush() {
	w.closeSpan()
	w.out = append(w.out, w.line)
	w.line = Line{}
}

// room is the cells a line has for text (at least one).
func (w *wrapper) room() int { return max(w.width, w.minCol+1) }

func (w *wrapper) space(st Style) {
	if w.spaces == 0 {
		w.spStyle = st
	}
	w.spaces++
}

// word places a word (pieces holding no space or newline): after the
// pending spaces when it fits, else on a new line, cut when longer than a
// line.
func (w *wrapper) word(pieces []Span) {
	wd := 0
	for _, p := range pieces {
		wd += Width(p.Text)
	}
	pending := w.spaces
	if w.words && w.col+pending+wd > w.room() {
		// Break at the spaces before this word.
		w.flush()
		w.start(Space, w.in.Rest, -1)
		w.at = Resume{Span: w.pieceAt[0].Span, Offset: w.pieceAt[0].Offset, Break: Space}
		pending = 0
	}
	if !w.words && w.col+pending >= w.room() {
		pending = 0 // leading spaces that leave no room for the word
	}
	if pending > 0 {
		w.emit(strings.Repeat(" ", pending), w.spStyle)
		w.col += pending
	}
	w.spaces = 0
	for k, p := range pieces {
		w.cutPiece(p.Text, p.Style, w.pieceAt[k])
	}
}

// cutPiece writes one piece of a word (at where it is in the spans),
// cutting it where the line ends.
func (w *wrapper) cutPiece(text string, st Style, at Resume) {
	wd := Width(text)
	whole := len(text)
	cutAt := func(rest string) {
		w.flush()
		w.start(Cut, w.in.Rest, -1)
		w.at = Resume{Span: at.Span, Offset: at.Offset + whole - len(rest), Break: Cut}
	}
	for text != "" {
		if w.col+wd <= w.room() {
			w.emit(text, st)
			w.col += wd
			w.words = true
			return
		}
		head, rest := cutCells(text, w.room()-w.col)
		if head == "" && w.col > w.minCol {
			cutAt(text)
			continue
		}
		if head == "" { // a character wider than the room: place it anyway
			_, n := utf8.DecodeRuneInString(text)
			head, rest = text[:n], text[n:]
		}
		w.emit(head, st)
		w.col += Width(head)
		w.words = true
		if rest == "" {
			return
		}
		cutAt(rest)
		text, wd = rest, Width(rest)
	}
}

// emit appends text to the line, merging it into the last span when the
// style is the same.
func (w *wrapper) emit(text string, st Style) {
	if w.open && w.openStyle == st {
		w.buf.WriteString(text)
		return
	}
	w.closeSpan()
	w.open, w.openStyle = true, st
	w.buf.WriteString(text)
}

// closeSpan ends the span being written (text of one style is gathered in
// buf, not concatenated a word at a time).
func (w *wrapper) closeSpan() {
	if w.open {
		w.line.Spans = append(w.line.Spans, Span{w.buf.String(), w.openStyle})
		w.buf.Reset()
		w.open = false
	}
}

// cutCells splits s after as many characters as fit in n cells.
func cutCells(s string, n int) (string, string) {
	col := 0
	for i, r := range s {
		cw := RuneWidth(r)
		if col+cw > n {
			return s[:i], s[i:]
		}
		col += cw
	}
	return s, ""
}

// Pad returns l padded with spaces in style st to width cells.
func Pad(l Line, width int, st Style) Line {
	if n := width - l.Width(); n > 0 {
		l.Spans = append(l.Spans[:len(l.Spans):len(l.Spans)], Span{strings.Repeat(" ", n), st})
	}
	return l
}
