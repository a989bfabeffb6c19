// Fenced code blocks: highlighted with chroma, cut to the width.

package markdown

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"harness/styled"
)

// codeMargin is the indent of a code block's lines (decoration).
const codeMargin = "  "

// code appends a code block: each line after the margin, highlighted by
// the fence's language when chroma knows it, and cut (never word-wrapped:
// spaces in code matter) where it passes the width.
func (r *renderer) code(lang, text string, p *prefix, out []styled.Line) []styled.Line {
	text = strings.TrimSuffix(text, "\n")
	src := highlight(lang, strings.ReplaceAll(text, "\t", strings.Repeat(" ", styled.TabWidth)))
	in := p.take()
	margin := []styled.Span{{Text: codeMargin, Style: plain}}
	first := concat(in.First, margin)
	rest := concat(p.rest, margin)
	firstDecor := in.FirstDecor + len(codeMargin)
	restDecor := styled.Width(spansText(p.rest)) + len(codeMargin)
	for i, l := range src {
		pre, decor := rest, restDecor
		if i == 0 {
			pre, decor = first, firstDecor
		}
		out = cutLine(l, pre, rest, decor, restDecor, r.width, out)
	}
	return out
}

// cutLine appends spans as lines of at most width cells, after pre on the
// first and rest on the others, which continue it (styled.Cut).
func cutLine(spans []styled.Span, pre, rest []styled.Span, decor, restDecor, width int, out []styled.Line) []styled.Line {
	line := styled.Line{Spans: append([]styled.Span(nil), pre...), Decoration: decor}
	col := styled.Width(spansText(pre))
	room := func() int { return max(width, decor+1) }
	for _, sp := range spans {
		text := sp.Text
		for text != "" {
			head, tail := cut(text, room()-col)
			if head == "" && col > line.Decoration {
				out = append(out, line)
				line = styled.Line{Spans: append([]styled.Span(nil), rest...), Break: styled.Cut, Decoration: restDecor}
				col = restDecor
				decor = restDecor
				continue
			}
			if head == "" {
				head, tail = firstRune(text)
			}
			line.Spans = append(line.Spans, styled.Span{Text: head, Style: sp.Style})
			col += styled.Width(head)
			text = tail
		}
	}
	return append(out, line)
}

func cut(s string, n int) (string, string) {
	col := 0
	for i, r := range s {
		w := styled.RuneWidth(r)
		if col+w > n {
			return s[:i], s[i:]
		}
		col += w
	}
	return s, ""
}

func firstRune(s string) (string, string) {
	for i := range s {
		if i > 0 {
			return s[:i], s[i:]
		}
	}
	return s, ""
}

// highlight splits code into lines of spans classed by chroma's lexer for
// lang ("" or unknown: all CodeText).
func highlight(lang, code string) [][]styled.Span {
	out, _ := highlightLines(lexerFor(lang), code)
	return out
}

// lexerFor returns chroma's lexer for a fence's language, or nil.
func lexerFor(lang string) chroma.Lexer {
	if lang == "" {
		return nil
	}
	return lexers.Get(lang)
}

// highlightLines splits code into lines of spans classed by lexer (nil:
// all CodeText), and reports for each line but the last whether the
// lexer's state is plain after it: its newline was read as whitespace
// (chroma's Text), not inside a string or a comment, so lexing may start
// again on the next line from the lexer's first state.
func highlightLines(lexer chroma.Lexer, code string) ([][]styled.Span, []bool) {
	var out [][]styled.Span
	var plainEnd []bool
	line := []styled.Span{}
	add := func(text string, c styled.Class, plainNL bool) {
		for {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				break
			}
			if i > 0 {
				line = append(line, styled.Span{Text: text[:i], Style: styled.Style{Class: c}})
			}
			out = append(out, line)
			plainEnd = append(plainEnd, plainNL)
			line = []styled.Span{}
			text = text[i+1:]
		}
		if text != "" {
			if n := len(line); n > 0 && line[n-1].Style.Class == c {
				line[n-1].Text += text
			} else {
				line = append(line, styled.Span{Text: text, Style: styled.Style{Class: c}})
			}
		}
	}
	plain := func() ([][]styled.Span, []bool) {
		add(code, styled.CodeText, true)
		return append(out, line), plainEnd
	}
	if lexer == nil {
		return plain()
	}
	it, err := chroma.Coalesce(lexer).Tokenise(&chroma.TokeniseOptions{State: "root", EnsureLF: true}, code)
	if err != nil {
		return plain()
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
		add(tok.Value, classOf(tok.Type), tok.Type == chroma.Text || tok.Type == chroma.TextWhitespace)
	}
	if len(line) > 0 || len(out) == 0 {
		out = append(out, line)
	}
	// Tokenise ends the text with a newline (EnsureLF): drop the empty
	// line it adds unless the code ended with one.
	if n := len(out); n > 1 && len(out[n-1]) == 0 && !strings.HasSuffix(code, "\n") && strings.Count(code, "\n")+1 < n {
		out = out[:n-1]
	}
	return out, plainEnd[:len(out)-1]
}

// classOf maps a chroma token type to a class.
func classOf(t chroma.TokenType) styled.Class {
	switch {
	case t == chroma.GenericInserted:
		return styled.DiffAdd
	case t == chroma.GenericDeleted:
		return styled.DiffRemove
	case t == chroma.GenericHeading, t == chroma.GenericSubheading:
		return styled.DiffHunk
	case t.InCategory(chroma.Comment):
		return styled.Comment
	case t == chroma.KeywordType:
		return styled.Type
	case t.InCategory(chroma.Keyword):
		return styled.Keyword
	case t.InSubCategory(chroma.LiteralString):
		return styled.String
	case t.InSubCategory(chroma.LiteralNumber):
		return styled.Number
	case t == chroma.NameFunction, t == chroma.NameFunctionMagic:
		return styled.Function
	case t == chroma.NameClass, t == chroma.NameNamespace:
		return styled.Type
	case t == chroma.NameBuiltin, t == chroma.NameBuiltinPseudo, t == chroma.NameConstant:
		return styled.Builtin
	case t == chroma.NameTag, t == chroma.NameAttribute:
		return styled.Tag
	case t.InCategory(chroma.Name):
		return styled.Name
	case t.InCategory(chroma.Operator):
		return styled.Operator
	case t == chroma.Punctuation:
		return styled.Punctuation
	}
	return styled.CodeText
}
