// A Doc's last paragraph: parsed and wrapped from its last settled word.

package markdown

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"harness/styled"
)

// para is the top-level paragraph a Doc ends with, when it is the open
// block. Its text before cut is settled: no construct open there can be
// closed by text still to come, so its spans stay; only the text from cut
// on is parsed again, after "x " (which keeps its first line from reading
// as a block's start, and gives its first word the space before it), and
// the spans are wrapped again from the start of the settled spans' last
// line. So a frame costs the text since the last settled word and a line.
type para struct {
	on    bool
	at    int           // offset in src of the paragraph
	cut   int           // offset in src of the text not yet settled
	line  int           // offset in src of the line holding cut
	spans []styled.Span // the settled spans from the start of their last line
	res   styled.Resume // where that line starts in spans
	keep  int           // the Doc's lines before that line
	buf   []styled.Span // scratch: spans joined for a wrap
	inner []styled.Span // scratch: the spans of the unsettled text
}

// lead is what the unsettled text is parsed after, once some is settled.
const lead = "x "

// startPara makes the top-level paragraph starting at byte at of src,
// drawn from line keep of the Doc's lines, the one the Doc extends.
func (d *Doc) startPara(at, keep int) {
	d.para = para{on: true, at: at, cut: at, line: at, res: styled.Resume{First: true}, keep: keep,
		buf: d.para.buf[:0], inner: d.para.inner[:0]}
}

// extendPara draws the Doc's last paragraph again from its settled text,
// and reports false when the text is no longer one paragraph (the Doc
// then parses its last block again).
func (d *Doc) extendPara() bool {
	p := &d.para
	pre := ""
	if p.cut > p.at {
		pre = lead
	}
	tail := d.src[p.cut:]
	if pre != "" && nearDelimiter(d.src, p.at, p.line, p.cut) {
		return false
	}
	part := []byte(pre + tail)
	if d.Streaming {
		part = append(part, closers(part)...)
	}
	root := md.Parser().Parse(text.NewReader(part))
	n := root.FirstChild()
	if n == nil || n.NextSibling() != nil || n.Kind() != ast.KindParagraph {
		return false
	}
	r := &renderer{src: part, width: d.width}
	spans := p.inner[:0]
	type cand struct {
		at, spans, text int // where, the spans before its Text node, the node's start
		raw             bool
	}
	var cands []cand
	safe := true
	// A line after the first may still turn into a block's start ("1."
	// interrupts the paragraph once text follows it) unless it starts
	// with a letter: only then is text on it settled.
	scanned, lineOK := len(pre), true
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		before := len(spans)
		spans = r.inline(c, plain, spans)
		if !safe {
			continue
		}
		t, ok := c.(*ast.Text)
		if !ok {
			// A closed construct, unless the last (closers may close it)
			// or one holding what may open (an unmatched "**" in "*a **b*"
			// that a later "**" takes, a backtick in a link's text).
			safe = c.NextSibling() != nil && !nestedOpen(c, part, len(pre)+len(tail))
			continue
		}
		seg := t.Segment
		for i := seg.Start; i < seg.Stop; i++ {
			if mayOpen(part, i, len(pre)+len(tail)) {
				safe = false
				break
			}
			if i > len(pre) && i < len(pre)+len(tail) && part[i-1] == ' ' && part[i] != ' ' {
				for ; scanned < i; scanned++ {
					if part[scanned] == '\n' {
						lineOK = letterStart(part[scanned+1:])
					}
				}
				if lineOK {
					cands = append(cands, cand{i, before, seg.Start, t.IsRaw()})
				}
			}
		}
	}
	p.inner = spans
	// The last place to settle at. While streaming, the text settled
	// must leave closers' counts even: closers then sees in the text
	// parsed again what it would see in the whole paragraph.
	settle, settleSpans, settleText := -1, 0, ""
	for k := len(cands) - 1; k >= 0 && k >= len(cands)-4; k-- {
		c := cands[k]
		if d.Streaming && !evenClosers(string(part[len(pre):c.at])) {
			continue
		}
		settle, settleSpans = c.at, c.spans
		settleText = string(part[max(c.text, len(pre)):c.at])
		if !c.raw {
			settleText = string(unescape([]byte(settleText)))
		}
		break
	}
	if len(pre) > 0 && !dropLead(spans) {
		return false
	}
	p.buf = append(append(p.buf[:0], p.spans...), spans...)
	lines, _ := styled.WrapFrom(p.buf, p.res, d.width, styled.Indent{})
	clear(d.lines[min(p.keep, len(d.lines)):])
	d.lines = append(d.lines[:p.keep], lines...)
	d.kept = p.keep
	if settle > 0 {
		p.buf = append(append(p.buf[:len(p.spans)], spans[:settleSpans]...), styled.Span{Text: settleText, Style: plain})
		settled, res := styled.WrapFrom(p.buf, p.res, d.width, styled.Indent{})
		p.keep += len(settled) - 1
		p.spans = append(p.spans[:0], p.buf[res.Span:]...)
		res.Span = 0
		p.res = res
		newCut := p.cut + settle - len(pre)
		if i := strings.LastIndexByte(d.src[p.cut:newCut], '\n'); i >= 0 {
			p.line = p.cut + i + 1
		}
		p.cut = newCut
	}
	return true
}

// nearDelimiter reports whether the line of src holding cut (starting at
// byte line, unless it is the paragraph's first) or the line after it
// could be a table's delimiter row: its header would be a line not all
// parsed again.
func nearDelimiter(src string, at, line, cut int) bool {
	end := len(src)
	if i := strings.IndexByte(src[cut:], '\n'); i >= 0 {
		end = cut + i
	}
	if line > at && delimiterRow(src[line:end]) {
		return true
	}
	if end == len(src) {
		return false
	}
	next, _, _ := strings.Cut(src[end+1:], "\n")
	return delimiterRow(next)
}

func delimiterRow(line string) bool {
	return strings.Trim(line, "|-: \t") == "" && strings.Contains(line, "-")
}

// nestedOpen reports whether text inside the inline node n (not in code)
// holds a byte that may open a construct (mayOpen).
func nestedOpen(n ast.Node, src []byte, end int) bool {
	open := false
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			for i := c.Segment.Start; i < c.Segment.Stop; i++ {
				if mayOpen(src, i, end) {
					open = true
					return ast.WalkStop, nil
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return open
}

// letterStart reports whether line starts, after spaces, with a letter.
func letterStart(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' {
			r, _ := utf8.DecodeRune(line[bytes.IndexByte(line, c):])
			return unicode.IsLetter(r)
		}
	}
	return false
}

// evenClosers reports whether closers counts an even number of backticks
// in s and of "**" and "__" outside its code.
func evenClosers(s string) bool {
	if strings.Count(s, "`")%2 == 1 {
		return false
	}
	for i, p := range strings.Split(s, "`") {
		if i%2 == 0 && (strings.Count(p, "**")%2 == 1 || strings.Count(p, "__")%2 == 1) {
			return false
		}
	}
	return true
}

// dropLead removes the lead from the start of spans, and reports whether
// they started with it.
func dropLead(spans []styled.Span) bool {
	n := 0
	for i := range spans {
		t := spans[i].Text
		k := min(len(lead)-n, len(t))
		if t[:k] != lead[n:n+k] {
			return false
		}
		spans[i].Text = t[k:]
		if n += k; n == len(lead) {
			return true
		}
	}
	return n == len(lead)-1 // only "x": the text after the lead is empty
}

// mayOpen reports whether the byte at i of a paragraph's text may open a
// construct that text after it could close, so that nothing after it is
// settled: a backtick or a bracket left as text, "<" before a tag's or a
// link's first character, "*" or "~" before a non-space, "_" before a
// non-space and not inside a word. The byte after the last (end) has not
// arrived: it may be anything.
func mayOpen(src []byte, i, end int) bool {
	next := byte('x') // not arrived yet: it may be anything
	if i+1 < end {
		next = src[i+1]
	}
	spaceNext := next == ' ' || next == '\n' || next == '\t'
	switch src[i] {
	case '`', '[', ']':
		return true
	case '<':
		return next == '/' || next == '!' || next == '?' || next < 0x80 && unicode.IsLetter(rune(next))
	case '*', '~':
		return !spaceNext
	case '_':
		inWord := i > 0 && src[i-1] < 0x80 && (unicode.IsLetter(rune(src[i-1])) || unicode.IsDigit(rune(src[i-1])))
		return !spaceNext && !inWord
	}
	return false
}
