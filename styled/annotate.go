// A text form of styled lines, for golden files.

package styled

import (
	"fmt"
	"strings"
)

var classNames = map[Class]string{
	Heading: "h", Code: "code", Link: "link", URL: "url",
	Quote: "quote", Marker: "mark", CodeText: "ct", Keyword: "kw",
	Name: "name", Function: "fn", Type: "type", Builtin: "bi",
	String: "str", Number: "num", Comment: "com", Operator: "op",
	Punctuation: "p", Tag: "tag", DiffFile: "file", DiffHunk: "hunk",
	DiffAdd: "add", DiffRemove: "del", DiffContext: "ctx", Note: "note",
	Failure: "fail",
}

// Annotate writes lines for a golden file: one row per line, a plain span
// as its text, any other as «class+attrs|text»; a row starts with "~" when
// it continues the line above at a dropped space, "+" inside a word, and
// "|" marks where its decoration ends.
func Annotate(lines []Line) string {
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString([]string{"", "~", "+"}[l.Break])
		col := 0
		marked := l.Decoration == 0
		for _, s := range l.Spans {
			text := s.Text
			if !marked && col+Width(text) >= l.Decoration {
				head := text[:len(text)-len(CellsFrom(text, l.Decoration-col))]
				writeSpan(&sb, head, s.Style)
				sb.WriteString("|")
				marked = true
				col += Width(head)
				text = text[len(head):]
			}
			writeSpan(&sb, text, s.Style)
			col += Width(text)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

func writeSpan(sb *strings.Builder, text string, st Style) {
	if text == "" {
		return
	}
	if st == (Style{}) {
		sb.WriteString(text)
		return
	}
	name := classNames[st.Class]
	for _, a := range []struct {
		a Attr
		n string
	}{{Bold, "b"}, {Italic, "i"}, {Underline, "u"}, {Strike, "s"}, {Dim, "d"}} {
		if st.Attr&a.a != 0 {
			name += "+" + a.n
		}
	}
	fmt.Fprintf(sb, "«%s|%s»", strings.TrimPrefix(name, "+"), text)
}
