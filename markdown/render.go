// Rendering of one markdown block (a goldmark node) into styled lines.

package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"

	"harness/styled"
)

// renderer renders the blocks of one parsed source at one width.
type renderer struct {
	src   []byte
	width int
}

// prefix is what starts the lines of a block inside its containers (list
// items, block quotes): first before its first line, rest before the
// others. Containers hand their children a prefix; each block takes the
// first line's once (prefix.take).
type prefix struct {
	first, rest []styled.Span
	decor       int // cells of first that are decoration
	used        bool
	base        styled.Style // the style of text (a quote's)
}

// take returns the indent for the block about to be drawn, and marks the
// first line as used.
func (p *prefix) take() styled.Indent {
	in := styled.Indent{First: p.first, Rest: p.rest, FirstDecor: p.decor}
	if p.used {
		in.First, in.FirstDecor = p.rest, styled.Width(spansText(p.rest))
	}
	p.used = true
	return in
}

// blank returns an empty line under p (a quote keeps its bar).
func (p *prefix) blank() styled.Line {
	sp := trimRight(p.rest)
	return styled.Line{Spans: sp, Decoration: styled.Width(spansText(sp))}
}

// nest returns the prefix of a container's children: p's, then own on the
// first line and ownRest on the others.
func (p *prefix) nest(own, ownRest []styled.Span, ownDecor bool) *prefix {
	in := p.take()
	c := &prefix{
		first: concat(in.First, own),
		rest:  concat(p.rest, ownRest),
		decor: in.FirstDecor,
		base:  p.base,
	}
	if ownDecor {
		c.decor += styled.Width(spansText(own))
	}
	return c
}

var (
	plain  = styled.Style{}
	marker = styled.Style{Class: styled.Marker}
)

// block appends the lines of block node n.
func (r *renderer) block(n ast.Node, p *prefix, out []styled.Line) []styled.Line {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return append(out, styled.Wrap(r.inlines(n, p.base), r.width, p.take())...)
	case *ast.Heading:
		st := styled.Style{Class: styled.Heading, Attr: styled.Bold}
		if n.Level == 1 {
			st.Attr |= styled.Underline
		}
		return append(out, styled.Wrap(r.inlines(n, st), r.width, p.take())...)
	case *ast.ThematicBreak:
		in := p.take()
		w := max(r.width-styled.Width(spansText(in.First)), 1)
		return append(out, styled.Line{Spans: concat(in.First, []styled.Span{{Text: strings.Repeat("─", w), Style: marker}}),
			Decoration: in.FirstDecor})
	case *ast.FencedCodeBlock:
		return r.code(string(n.Language(r.src)), lines(n, r.src), p, out)
	case *ast.CodeBlock:
		return r.code("", lines(n, r.src), p, out)
	case *ast.HTMLBlock:
		text := lines(n, r.src)
		if n.HasClosure() {
			text += string(n.ClosureLine.Value(r.src))
		}
		return append(out, styled.Wrap([]styled.Span{{Text: strings.TrimRight(text, "\n"), Style: plain}}, r.width, p.take())...)
	case *ast.Blockquote:
		bar := []styled.Span{{Text: "│ ", Style: marker}}
		c := p.nest(bar, bar, true)
		c.base = styled.Style{Class: styled.Quote, Attr: styled.Italic}
		return r.children(n, c, true, out)
	case *ast.List:
		return r.list(n, p, out)
	case *east.Table:
		return r.table(n, p, out)
	}
	// Anything else: its text, as a paragraph.
	if n.HasChildren() {
		return r.children(n, p, true, out)
	}
	return out
}

// children appends the lines of n's child blocks, with a blank line
// between two when loose.
func (r *renderer) children(n ast.Node, p *prefix, loose bool, out []styled.Line) []styled.Line {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c != n.FirstChild() && loose {
			out = append(out, p.blank())
		}
		if !p.used && c.FirstChild() == nil && !isLeafWithLines(c) {
			continue
		}
		out = r.block(c, p, out)
	}
	if !p.used { // an empty container still takes its line
		in := p.take()
		out = append(out, styled.Line{Spans: in.First, Decoration: in.FirstDecor})
	}
	return out
}

func isLeafWithLines(n ast.Node) bool {
	switch n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.ThematicBreak, *ast.HTMLBlock:
		return true
	}
	return false
}

// bullets are the unordered list markers by nesting depth.
var bullets = []string{"• ", "◦ ", "▪ "}

// list appends a list: each item's first line after its marker, the
// following lines under the item's text.
func (r *renderer) list(l *ast.List, p *prefix, out []styled.Line) []styled.Line {
	depth := 0
	for a := l.Parent(); a != nil; a = a.Parent() {
		if _, ok := a.(*ast.List); ok {
			depth++
		}
	}
	num, last := l.Start, l.Start+l.ChildCount()-1
	numWidth := len(strconv.Itoa(last))
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		if item != l.FirstChild() && !l.IsTight {
			out = append(out, p.blank())
		}
		var mark string
		if l.IsOrdered() {
			n := strconv.Itoa(num)
			mark = strings.Repeat(" ", numWidth-len(n)) + n + string(l.Marker) + " "
			num++
		} else {
			mark = bullets[depth%len(bullets)]
		}
		own := []styled.Span{{Text: mark, Style: marker}}
		if box := taskBox(item); box != "" {
			own = append(own, styled.Span{Text: box, Style: marker})
		}
		indent := []styled.Span{{Text: strings.Repeat(" ", styled.Width(spansText(own))), Style: plain}}
		out = r.children(item, p.nest(own, indent, false), !l.IsTight, out)
	}
	return out
}

// taskBox returns the check box a task list item starts with, or "".
func taskBox(item ast.Node) string {
	first := item.FirstChild()
	if first == nil {
		return ""
	}
	if box, ok := first.FirstChild().(*east.TaskCheckBox); ok {
		if box.IsChecked {
			return "[x] "
		}
		return "[ ] "
	}
	return ""
}

// lines returns the text of a leaf block's lines.
func lines(n ast.Node, src []byte) string {
	var sb strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		sb.Write(seg.Value(src))
	}
	return sb.String()
}

// inlines returns the spans of n's inline children in style st.
func (r *renderer) inlines(n ast.Node, st styled.Style) []styled.Span {
	var out []styled.Span
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = r.inline(c, st, out)
	}
	return out
}

func (r *renderer) inline(n ast.Node, st styled.Style, out []styled.Span) []styled.Span {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(r.src)
		if !n.IsRaw() {
			v = unescape(v)
		}
		out = append(out, styled.Span{Text: string(v), Style: st})
		switch {
		case n.HardLineBreak():
			out = append(out, styled.Span{Text: "\n", Style: st})
		case n.SoftLineBreak():
			out = append(out, styled.Span{Text: " ", Style: st})
		}
		return out
	case *ast.String:
		return append(out, styled.Span{Text: string(n.Value), Style: st})
	case *ast.CodeSpan:
		var sb strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				sb.Write(t.Segment.Value(r.src))
			} else if s, ok := c.(*ast.String); ok {
				sb.Write(s.Value)
			}
		}
		code := st
		code.Class = styled.Code
		return append(out, styled.Span{Text: strings.ReplaceAll(sb.String(), "\n", " "), Style: code})
	case *ast.Emphasis:
		a := styled.Italic
		if n.Level >= 2 {
			a = styled.Bold
		}
		return r.inlineChildren(n, st.With(a), out)
	case *east.Strikethrough:
		return r.inlineChildren(n, st.With(styled.Strike), out)
	case *ast.Link:
		return r.link(r.inlineChildren(n, linkStyle(st), nil), string(n.Destination), st, out)
	case *ast.Image:
		alt := r.inlineChildren(n, st, nil)
		text := []styled.Span{{Text: "[image: ", Style: st}}
		text = append(append(text, alt...), styled.Span{Text: "]", Style: st})
		return r.link(text, string(n.Destination), st, out)
	case *ast.AutoLink:
		url, label := string(n.URL(r.src)), string(n.Label(r.src))
		return r.link([]styled.Span{{Text: label, Style: linkStyle(st)}}, url, st, out)
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			out = append(out, styled.Span{Text: string(seg.Value(r.src)), Style: st})
		}
		return out
	case *east.TaskCheckBox:
		return out // drawn with the list item's marker
	}
	return r.inlineChildren(n, st, out)
}

func (r *renderer) inlineChildren(n ast.Node, st styled.Style, out []styled.Span) []styled.Span {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = r.inline(c, st, out)
	}
	return out
}

func linkStyle(st styled.Style) styled.Style {
	st.Class = styled.Link
	return st.With(styled.Underline)
}

// link appends a link's text, then its URL in parentheses unless the text
// already says it.
func (r *renderer) link(text []styled.Span, url string, st styled.Style, out []styled.Span) []styled.Span {
	out = append(out, text...)
	shown := strings.TrimPrefix(strings.TrimPrefix(spansText(text), "mailto:"), "[image: ")
	if url == "" || shown == url || "mailto:"+shown == url || "http://"+shown == url || "https://"+shown == url {
		return out
	}
	u := styled.Style{Class: styled.URL}
	return append(out, styled.Span{Text: " (", Style: u}, styled.Span{Text: url, Style: u}, styled.Span{Text: ")", Style: u})
}

// unescape resolves backslash escapes and character references.
func unescape(v []byte) []byte {
	if !strings.ContainsAny(string(v), "\\&") {
		return v
	}
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
}

func spansText(sp []styled.Span) string {
	var sb strings.Builder
	for _, s := range sp {
		sb.WriteString(s.Text)
	}
	return sb.String()
}

// concat returns a new slice holding a then b.
func concat(a, b []styled.Span) []styled.Span {
	out := make([]styled.Span, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// trimRight returns sp without trailing spaces (a blank line's prefix).
func trimRight(sp []styled.Span) []styled.Span {
	out := append([]styled.Span(nil), sp...)
	for len(out) > 0 {
		t := strings.TrimRight(out[len(out)-1].Text, " ")
		if t != "" {
			out[len(out)-1].Text = t
			break
		}
		out = out[:len(out)-1]
	}
	return out
}
