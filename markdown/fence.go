// A streaming Doc's open code fence: highlighted from its last plain line.

package markdown

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/yuin/goldmark/ast"

	"harness/styled"
)

// relexLines bounds how many lines a frame lexes again when no line end
// of an open fence is plain (a long comment or string still open): past
// it, lexing starts again at the last line, and the lines in between keep
// the classes they were drawn with until the fence closes.
const relexLines = 200

// fence is the open code fence a streaming Doc ends with. Until a closing
// line arrives, every byte after its opening line is code, so text
// appended is not parsed again: lexing starts over from the last line
// whose start the lexer reached in its first state (ck), and the lines
// drawn for the code before it are kept. When the fence closes, the Doc
// parses its last block again and keeps those lines (closedFence).
type fence struct {
	on     bool
	lexer  chroma.Lexer
	code   int   // offset in src of the first line of code
	starts []int // per line of code: the index in Doc.lines of its first row
	ck     int   // the line of code lexing starts again from
	ckAt   int   // its offset in src
}

// openFence reports whether the fenced code block starting at line
// offset start of part (which begins at byte base of src) is one a
// streaming Doc can extend: at the top level and not indented, its
// opening line complete, no line after it that could close it (or that
// closers would count), and no carriage return.
func openFence(part []byte, start int) (code int, ok bool) {
	if start >= len(part) || part[start] != '`' && part[start] != '~' {
		return 0, false
	}
	nl := strings.IndexByte(string(part[start:]), '\n')
	if nl < 0 {
		return 0, false
	}
	code = start + nl + 1
	if !plainCode(string(part[code:])) {
		return 0, false
	}
	return code, true
}

// plainCode reports whether code holds no line that could close a fence
// or that closers counts as one, and no carriage return.
func plainCode(code string) bool {
	if strings.IndexByte(code, '\r') >= 0 {
		return false
	}
	for code != "" {
		line := code
		if i := strings.IndexByte(code, '\n'); i >= 0 {
			line, code = code[:i], code[i+1:]
		} else {
			code = ""
		}
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			return false
		}
	}
	return true
}

// startFence makes the open fence whose code starts at byte code of the
// Doc's src, in language lang, the one the Doc extends, and draws it.
func (d *Doc) startFence(lang string, code int) {
	d.fence = fence{on: true, lexer: lexerFor(lang), code: code, ck: 0, ckAt: code, starts: d.fence.starts[:0]}
	d.fenceLines()
}

// extendFence draws the Doc's open fence with text appended to the old
// src, and reports false when the text may close it (the Doc then parses
// its last block again).
func (d *Doc) extendFence(old string) bool {
	from := strings.LastIndexByte(old, '\n') + 1
	if from < d.fence.code {
		from = d.fence.code
	}
	if !plainCode(d.src[from:]) {
		return false
	}
	d.fenceLines()
	return true
}

// fenceLines draws the open fence's code from line ck on, after the lines
// kept before it, and moves ck to the last line lexing can start from.
func (d *Doc) fenceLines() {
	f := &d.fence
	code := strings.TrimSuffix(d.src[f.ckAt:], "\n")
	hl, plainEnd := highlightLines(f.lexer, strings.ReplaceAll(code, "\t", strings.Repeat(" ", styled.TabWidth)))
	keep := len(d.lines)
	if f.ck < len(f.starts) {
		keep = f.starts[f.ck]
	}
	clear(d.lines[keep:])
	d.lines, f.starts = d.lines[:keep], f.starts[:f.ck]
	d.kept = min(d.kept, keep)
	margin := []styled.Span{{Text: codeMargin, Style: plain}}
	for _, l := range hl {
		f.starts = append(f.starts, len(d.lines))
		d.lines = cutLine(l, margin, margin, len(codeMargin), len(codeMargin), d.width, d.lines)
	}
	// The new start: after the last plain line end, or the last line when
	// that leaves too many to lex again.
	next := 0
	for i := len(plainEnd) - 1; i >= 0; i-- {
		if plainEnd[i] {
			next = i + 1
			break
		}
	}
	if len(hl)-next > relexLines {
		next = len(hl) - 1
	}
	at := f.ckAt
	for range next {
		at += strings.IndexByte(d.src[at:], '\n') + 1
	}
	f.ck += next
	f.ckAt = at
}

// isClosing reports whether the fence whose opening line starts at byte
// at of src is the one the Doc extended before this call.
func (d *Doc) isClosing(at int) bool {
	f := &d.closing
	return f.on && at < f.code && strings.IndexByte(d.src[at:f.code], '\n') == f.code-at-1
}

// closedFence appends the lines of the fence that the Doc extended before
// this call and that text has now closed (or turned into one it cannot
// extend): the lines drawn before its restart line stay, and only its code
// from there is lexed. A late line that changed the meaning of earlier
// ones shows when the text is rendered afresh (as the reply's saved
// message is): a fence is not lexed whole when it closes. It reports false
// when the block's code is not the one drawn.
func (d *Doc) closedFence(n *ast.FencedCodeBlock, part []byte) bool {
	f := &d.closing
	f.on = false
	content := lines(n, part)
	from := f.ckAt - f.code
	if from > len(content) || content[:from] != d.src[f.code:f.ckAt] {
		return false
	}
	d.lines = append(d.lines, d.closingLines...)
	if rest := content[from:]; rest != "" {
		hl, _ := highlightLines(f.lexer, strings.ReplaceAll(strings.TrimSuffix(rest, "\n"), "\t", strings.Repeat(" ", styled.TabWidth)))
		margin := []styled.Span{{Text: codeMargin, Style: plain}}
		for _, l := range hl {
			d.lines = cutLine(l, margin, margin, len(codeMargin), len(codeMargin), d.width, d.lines)
		}
	}
	return true
}
