// Doc: a growing text rendered incrementally by top-level block.

package markdown

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"harness/styled"
)

// md is the parser: CommonMark and the GitHub extensions.
var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough,
	extension.TaskList, extension.Linkify))

// Render returns the lines of src at width.
func Render(src string, width int) []styled.Line {
	var d Doc
	return d.Lines(src, width)
}

// Doc renders a text that grows (see the package doc). Its zero value is
// ready to use. It is not safe for concurrent use.
type Doc struct {
	// Streaming draws the text as a reply still arriving: inline code or
	// strong emphasis left open in its last paragraph is drawn closed, as
	// it will be (an open code fence is a code block in any case).
	Streaming bool

	src   string
	width int
	lines []styled.Line

	// The last top-level block: it starts at byte open of src and its
	// lines (with the blank line before it) at openLine of lines.
	open, openLine int
	rendered       bool

	fence fence // the open code fence the text ends with, while streaming
	para  para  // the open paragraph the text ends with
	kept  int   // lines the last call kept from the one before

	closing      fence         // the open fence the text ended in before this call
	closingLines []styled.Line // its lines before its restart line
}

// Kept returns how many lines at the start of what the last call of Lines
// returned are the ones the call before returned there, unchanged: a
// caller that derives lines from them need derive only the others.
func (d *Doc) Kept() int { return d.kept }

// Lines returns the lines of src at width. When src is the text of the
// previous call with more appended and the width is the same, only the
// last top-level block of the previous text and what follows it are
// parsed and drawn again. The slice is the Doc's: valid until the next
// call, not to be changed.
func (d *Doc) Lines(src string, width int) []styled.Line {
	width = max(width, 1)
	if d.rendered && width == d.width && src == d.src {
		d.kept = len(d.lines)
		return d.lines
	}
	if !d.rendered || width != d.width || !strings.HasPrefix(src, d.src) {
		d.open, d.openLine, d.lines = 0, 0, d.lines[:0]
		d.fence.on, d.para.on = false, false
	}
	if d.fence.on {
		old := d.src
		d.src, d.kept = src, len(d.lines)
		if d.extendFence(old) {
			return d.lines
		}
		// Closing, most likely: the lines lexed stay (closedFence).
		d.closing = d.fence
		f := &d.fence
		d.closingLines = append(d.closingLines[:0], d.lines[f.starts[0]:f.starts[f.ck]]...)
		d.fence = fence{starts: make([]int, 0, len(f.starts))}
	}
	if d.para.on {
		d.src = src
		if d.extendPara() {
			return d.lines
		}
		d.para.on = false
	}
	clear(d.lines[d.openLine:])
	d.lines = d.lines[:d.openLine]
	d.kept = d.openLine
	d.src, d.width, d.rendered = src, width, true
	d.renderFrom()
	return d.lines
}

// renderFrom parses src from open and draws its blocks after openLine.
func (d *Doc) renderFrom() {
	part := []byte(d.src[d.open:])
	closed := false
	if d.Streaming {
		c := closers(part)
		part, closed = append(part, c...), c != ""
	}
	root := md.Parser().Parse(text.NewReader(part))
	r := &renderer{src: part, width: d.width}
	newOpen, newOpenLine := d.open, d.openLine
	prev := -1 // the start of the block before n
	var prevNode ast.Node
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if len(d.lines) > 0 {
			d.lines = append(d.lines, styled.Line{})
		}
		// A block made from another one's lines (a table from a
		// paragraph's) has that block's position: it is no place to
		// start again.
		start, ok := blockStart(n, part)
		ok = ok && start > prev
		if ok {
			prev = start
		}
		// A list goes on past blank lines: an item or an indented line
		// after it joins it. A fence followed by a block was closed:
		// nothing can join that block to it.
		_, afterList := prevNode.(*ast.List)
		_, afterFence := prevNode.(*ast.FencedCodeBlock)
		prevNode = n
		if ok && (afterBlank(part, start) || afterFence) && !afterList {
			newOpen, newOpenLine = d.open+start, len(d.lines)
			if newOpenLine > 0 {
				newOpenLine-- // the blank line before it is redrawn with it
			}
		}
		if fb, isFence := n.(*ast.FencedCodeBlock); isFence && ok && d.Streaming && !closed && n.NextSibling() == nil {
			if code, open := openFence(part, start); open {
				d.startFence(string(fb.Language(part)), d.open+code)
				break
			}
		}
		if fb, isFence := n.(*ast.FencedCodeBlock); isFence && ok && d.isClosing(d.open+start) && d.closedFence(fb, part) {
			continue
		}
		if _, isPara := n.(*ast.Paragraph); isPara && ok && n.NextSibling() == nil && newOpen == d.open+start {
			d.startPara(newOpen, len(d.lines))
		}
		d.lines = r.block(n, &prefix{}, d.lines)
	}
	if len(d.lines) == 0 {
		d.lines = append(d.lines, styled.Line{})
	}
	d.closing.on = false
	d.open, d.openLine = newOpen, newOpenLine
}

// closers returns what closes the inline code and strong emphasis left
// open at the end of a text that is still arriving: in its last paragraph
// (after its last blank line and its last fence line), an odd number of
// backticks gets one more, then an odd number of "**" or "__" outside code
// one more. Inside an open code fence it returns nothing.
func closers(src []byte) string {
	// The fence lines; where the last paragraph starts: after the last
	// blank line or fence line.
	fences, from := 0, 0
	for i, l := 0, []byte(nil); i < len(src); i += len(l) + 1 {
		l, _, _ = bytes.Cut(src[i:], []byte("\n"))
		if t := bytes.TrimLeft(l, " "); len(l)-len(t) < 4 && (bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))) {
			fences++
			from = i + len(l)
		} else if len(bytes.Trim(l, " \t")) == 0 && i+len(l) < len(src) {
			from = i + len(l) + 1
		}
	}
	if fences%2 == 1 {
		return ""
	}
	tail := string(src[from:])
	var out string
	if strings.Count(tail, "`")%2 == 1 {
		out += "`"
	}
	// Strong emphasis outside code spans: the even pieces between backticks.
	var outside strings.Builder
	for i, p := range strings.Split(tail+out, "`") {
		if i%2 == 0 {
			outside.WriteString(p)
		}
	}
	for _, m := range []string{"**", "__"} {
		if o := outside.String(); strings.Count(o, m)%2 == 1 && !strings.HasSuffix(o, m) {
			out += m
		}
	}
	return out
}

// afterBlank reports whether the line at offset start of src follows a
// blank line (or starts the text). Only there is a top-level block safe
// from text appended after it: a block right under another line can still
// be joined to it (a paragraph's lines that a delimiter row turns into a
// table, a setext heading's underline).
func afterBlank(src []byte, start int) bool {
	if start == 0 {
		return true
	}
	i := start - 1 // the newline ending the line above
	for i > 0 && src[i-1] != '\n' {
		i--
		if c := src[i]; c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// blockStart returns the offset of the start of the line top-level block
// n begins on, when the parser recorded it.
func blockStart(n ast.Node, src []byte) (int, bool) {
	p := n.Pos()
	if p < 0 || p > len(src) {
		return 0, false
	}
	for p > 0 && src[p-1] != '\n' {
		p--
	}
	return p, true
}
